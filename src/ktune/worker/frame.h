#pragma once
// Framing of the worker protocol: every message is
//   "KTW1" | payload length (4 bytes, big-endian) | payload (UTF-8 JSON text)
// The magic makes stray bytes on the protocol descriptors (a kernel writing to a wrong fd)
// a clear error instead of a misread length.

#include <cstddef>
#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>

namespace ktune::worker {

class ProtocolError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

inline constexpr std::size_t kFrameHeaderBytes = 8;
inline constexpr std::size_t kMaxFramePayloadBytes = std::size_t{256} << 20;

// Throws ProtocolError if the payload exceeds kMaxFramePayloadBytes.
std::string encode_frame(std::string_view payload);

// Reassembles frames from bytes arriving in arbitrary pieces.
class FrameDecoder {
 public:
  explicit FrameDecoder(std::size_t max_payload_bytes = kMaxFramePayloadBytes) : max_payload_(max_payload_bytes) {}
  void feed(const char* data, std::size_t size) { buffer_.append(data, size); }
  // The next complete payload, or nullopt if more bytes are needed. Throws ProtocolError
  // on a bad magic or an oversized length; the decoder is then unusable (clear() it).
  std::optional<std::string> next();
  std::size_t buffered() const { return buffer_.size(); }
  void clear() { buffer_.clear(); }

 private:
  std::size_t max_payload_;
  std::string buffer_;
};

// Blocking helpers for the child side. write_all retries EINTR and partial writes (and
// waits on EAGAIN); both throw ProtocolError on I/O errors, naming the errno.
void write_all(int fd, std::string_view bytes);
// The next payload from fd; nullopt on end of file at a frame boundary. Throws
// ProtocolError on end of file inside a frame, bad frames and read errors.
std::optional<std::string> read_frame(int fd, FrameDecoder& decoder);

}  // namespace ktune::worker
