#include "ktune/worker/frame.h"

#include <poll.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>

namespace ktune::worker {
namespace {

constexpr char kMagic[4] = {'K', 'T', 'W', '1'};

std::string printable_prefix(std::string_view bytes) {
  std::string text;
  char hex[8];
  for (std::size_t i = 0; i < bytes.size() && i < 8; ++i) {
    auto c = static_cast<unsigned char>(bytes[i]);
    std::snprintf(hex, sizeof hex, "%s%02x", i ? " " : "", c);
    text += hex;
  }
  std::string shown;
  for (std::size_t i = 0; i < bytes.size() && i < 8; ++i) {
    char c = bytes[i];
    shown += (c >= 32 && c < 127) ? c : '.';
  }
  return "'" + shown + "' (" + text + ")";
}

}  // namespace

std::string encode_frame(std::string_view payload) {
  if (payload.size() > kMaxFramePayloadBytes)
    throw ProtocolError("message of " + std::to_string(payload.size()) + " bytes exceeds the frame limit of " +
                        std::to_string(kMaxFramePayloadBytes));
  std::string frame(kMagic, sizeof kMagic);
  auto n = static_cast<std::uint32_t>(payload.size());
  for (int shift = 24; shift >= 0; shift -= 8) frame += static_cast<char>((n >> shift) & 0xffu);
  frame.append(payload);
  return frame;
}

std::optional<std::string> FrameDecoder::next() {
  if (buffer_.size() < kFrameHeaderBytes) {
    // Reject garbage as soon as its first bytes arrive, not after 8 of them.
    std::size_t n = std::min(buffer_.size(), sizeof kMagic);
    if (std::memcmp(buffer_.data(), kMagic, n) != 0)
      throw ProtocolError("not a ktune protocol frame: starts with " + printable_prefix(buffer_));
    return std::nullopt;
  }
  if (std::memcmp(buffer_.data(), kMagic, sizeof kMagic) != 0)
    throw ProtocolError("not a ktune protocol frame: starts with " + printable_prefix(buffer_));
  std::uint32_t length = 0;
  for (std::size_t i = 4; i < kFrameHeaderBytes; ++i)
    length = (length << 8) | static_cast<unsigned char>(buffer_[i]);
  if (length > max_payload_)
    throw ProtocolError("frame announces " + std::to_string(length) + " bytes, more than the limit of " +
                        std::to_string(max_payload_));
  if (buffer_.size() < kFrameHeaderBytes + length) return std::nullopt;
  std::string payload = buffer_.substr(kFrameHeaderBytes, length);
  buffer_.erase(0, kFrameHeaderBytes + length);
  return payload;
}

void write_all(int fd, std::string_view bytes) {
  while (!bytes.empty()) {
    ssize_t n = write(fd, bytes.data(), bytes.size());
    if (n > 0) {
      bytes.remove_prefix(static_cast<std::size_t>(n));
      continue;
    }
    if (n < 0 && errno == EINTR) continue;
    if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
      pollfd p{fd, POLLOUT, 0};
      poll(&p, 1, -1);
      continue;
    }
    throw ProtocolError(std::string("write to fd ") + std::to_string(fd) + " failed: " +
                        (n < 0 ? std::strerror(errno) : "wrote nothing"));
  }
}

std::optional<std::string> read_frame(int fd, FrameDecoder& decoder) {
  char buffer[65536];
  for (;;) {
    if (auto frame = decoder.next()) return frame;
    ssize_t n = read(fd, buffer, sizeof buffer);
    if (n > 0) {
      decoder.feed(buffer, static_cast<std::size_t>(n));
      continue;
    }
    if (n == 0) {
      if (decoder.buffered() == 0) return std::nullopt;
      throw ProtocolError("end of file inside a frame (" + std::to_string(decoder.buffered()) + " bytes buffered)");
    }
    if (errno == EINTR) continue;
    if (errno == EAGAIN || errno == EWOULDBLOCK) {
      pollfd p{fd, POLLIN, 0};
      poll(&p, 1, -1);
      continue;
    }
    throw ProtocolError(std::string("read from fd ") + std::to_string(fd) + " failed: " + std::strerror(errno));
  }
}

}  // namespace ktune::worker
