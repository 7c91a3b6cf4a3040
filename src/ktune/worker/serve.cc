#include "ktune/worker/serve.h"

#include <fcntl.h>
#include <signal.h>

#include <charconv>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "ktune/worker/frame.h"

namespace ktune::worker {
namespace {

// Strings from handlers (compiler logs, kernel messages) may hold invalid UTF-8;
// replacing it beats dropping the whole reply.
std::string dump(const nlohmann::json& j) { return j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace); }

bool parse_fd(std::string_view text, int& fd) {
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), fd);
  return ec == std::errc() && end == text.data() + text.size() && fd >= 0 && fcntl(fd, F_GETFD) != -1;
}

}  // namespace

int serve(int in_fd, int out_fd, const Handler& handler) {
  // A vanished parent must surface as EPIPE from write, not kill us mid-cleanup.
  signal(SIGPIPE, SIG_IGN);
  FrameDecoder decoder;
  for (;;) {
    nlohmann::json envelope;
    try {
      auto payload = read_frame(in_fd, decoder);
      if (!payload) return 0;  // parent closed the pipe
      envelope = nlohmann::json::parse(*payload);
      if (!envelope.is_object() || !envelope.contains("seq")) throw ProtocolError("message without a sequence number");
    } catch (const std::exception& e) {
      std::fprintf(stderr, "ktune worker: bad request from the parent: %s\n", e.what());
      return 2;
    }

    nlohmann::json reply;
    bool exiting = envelope.value("op", std::string()) == "exit";
    if (exiting) {
      reply = {{"ok", true}};
    } else {
      try {
        reply = handler(envelope.contains("request") ? envelope["request"] : nlohmann::json());
      } catch (const std::exception& e) {
        reply = {{"error", e.what()}};
      } catch (...) {
        reply = {{"error", "the handler threw a non-std::exception"}};
      }
    }
    std::string payload = dump({{"seq", envelope["seq"]}, {"reply", reply}});
    if (payload.size() > kMaxFramePayloadBytes)
      payload = dump({{"seq", envelope["seq"]},
                      {"reply",
                       {{"error", "reply of " + std::to_string(payload.size()) +
                                      " bytes exceeds the protocol frame limit of " +
                                      std::to_string(kMaxFramePayloadBytes)}}}});
    try {
      write_all(out_fd, encode_frame(payload));
    } catch (const ProtocolError&) {
      return 1;  // the parent is gone
    }
    if (exiting) return 0;
  }
}

int serve_from_environment(const Handler& handler) {
  const char* fds = std::getenv(std::string(kFdsEnvironmentVariable).c_str());
  std::string_view text = fds ? fds : "";
  auto comma = text.find(',');
  int in_fd = -1, out_fd = -1;
  if (comma == std::string_view::npos || !parse_fd(text.substr(0, comma), in_fd) ||
      !parse_fd(text.substr(comma + 1), out_fd)) {
    std::fprintf(stderr,
                 "this program is a ktune worker: ktune starts it and talks to it over the descriptors named in "
                 "%s (got '%s')\n",
                 std::string(kFdsEnvironmentVariable).c_str(), fds ? fds : "");
    return 2;
  }
  return serve(in_fd, out_fd, handler);
}

}  // namespace ktune::worker
