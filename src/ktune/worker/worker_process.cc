#include "ktune/worker/worker_process.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <string_view>
#include <thread>

#include "ktune/worker/serve.h"

extern char** environ;

namespace ktune::worker {
namespace {

using Clock = std::chrono::steady_clock;

void ignore_sigpipe_once() {
  // Writing to a dead child must be EPIPE, not death of the tuner. Leave a handler that
  // the application installed alone.
  static std::once_flag once;
  std::call_once(once, [] {
    struct sigaction current {};
    if (sigaction(SIGPIPE, nullptr, &current) == 0 && current.sa_handler == SIG_DFL) signal(SIGPIPE, SIG_IGN);
  });
}

// Moves a descriptor to >= minimum (keeping O_CLOEXEC) so that dup2 into 3 and 4 in the
// child can never overwrite another descriptor the child still needs to dup.
int move_above(int fd, int minimum) {
  int moved = fcntl(fd, F_DUPFD_CLOEXEC, minimum);
  close(fd);
  return moved;
}

void set_nonblocking(int fd) { fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK); }

void close_fd(int& fd) {
  if (fd >= 0) close(fd);
  fd = -1;
}

std::string signal_text(int sig) {
  const char* abbrev = sigabbrev_np(sig);
  const char* text = sigdescr_np(sig);
  std::string s = abbrev ? std::string("SIG") + abbrev : "signal " + std::to_string(sig);
  if (text) s += std::string(" (") + text + ")";
  return s;
}

std::string dump(const nlohmann::json& j) { return j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace); }

// "==4242==ERROR: AddressSanitizer: SEGV on unknown address ...": the first line of a fatal
// report by AddressSanitizer, LeakSanitizer, MemorySanitizer, ThreadSanitizer or HWASan.
// UndefinedBehaviorSanitizer's "runtime error:" lines are left out: without halt_on_error the
// program goes on after them.
bool fatal_sanitizer_report(std::string_view text) {
  constexpr std::string_view kMarker = "==ERROR: ";
  for (std::size_t at = text.find(kMarker); at != std::string_view::npos; at = text.find(kMarker, at + 1)) {
    const std::string_view rest = text.substr(at + kMarker.size());
    const std::string_view name = rest.substr(0, rest.find_first_of(": \n"));
    if (name.size() > 9 && name.ends_with("Sanitizer")) return true;
  }
  return false;
}

int millis_until(Clock::time_point deadline) {
  auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now()).count() + 1;
  if (left <= 0) return 0;
  return left > 1000000 ? 1000000 : static_cast<int>(left);
}

double seconds_since(Clock::time_point t) { return std::chrono::duration<double>(Clock::now() - t).count(); }

}  // namespace

WorkerProcess::WorkerProcess(WorkerCommand command) : command_(std::move(command)) { ignore_sigpipe_once(); }

WorkerProcess::~WorkerProcess() {
  stop();
  for (pid_t p : unreaped_) waitpid(p, nullptr, WNOHANG);
}

bool WorkerProcess::running() const {
  std::lock_guard lock(mutex_);
  return pid_ > 0;
}

pid_t WorkerProcess::pid() const {
  std::lock_guard lock(mutex_);
  return pid_;
}

int WorkerProcess::restarts() const {
  std::lock_guard lock(mutex_);
  return starts_ > 0 ? starts_ - 1 : 0;
}

std::string WorkerProcess::output_tail() const {
  std::lock_guard lock(mutex_);
  return tail_;
}

bool WorkerProcess::start(std::string& error) {
  for (auto it = unreaped_.begin(); it != unreaped_.end();)
    it = waitpid(*it, nullptr, WNOHANG) != 0 ? unreaped_.erase(it) : it + 1;

  int requests[2] = {-1, -1}, replies[2] = {-1, -1}, output[2] = {-1, -1};
  if (pipe2(requests, O_CLOEXEC) != 0 || pipe2(replies, O_CLOEXEC) != 0 || pipe2(output, O_CLOEXEC) != 0) {
    error = std::string("pipe: ") + strerror(errno);
    for (int fd : {requests[0], requests[1], replies[0], replies[1], output[0], output[1]})
      if (fd >= 0) close(fd);
    return false;
  }
  int child_in = move_above(requests[0], 10);
  int child_out = move_above(replies[1], 10);
  int child_output = move_above(output[1], 10);

  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_adddup2(&actions, child_in, 3);
  posix_spawn_file_actions_adddup2(&actions, child_out, 4);
  posix_spawn_file_actions_adddup2(&actions, child_output, 1);
  posix_spawn_file_actions_adddup2(&actions, child_output, 2);

  posix_spawnattr_t attr;
  posix_spawnattr_init(&attr);
  sigset_t none, all;
  sigemptyset(&none);
  sigfillset(&all);
  // Ignored signals (our SIGPIPE) survive exec: give the child default dispositions.
  posix_spawnattr_setsigmask(&attr, &none);
  posix_spawnattr_setsigdefault(&attr, &all);
  // Its own process group, so a timeout also kills whatever the kernel started.
  posix_spawnattr_setpgroup(&attr, 0);
  posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF);

  std::map<std::string, std::string> overrides = command_.env;
  overrides[std::string(kFdsEnvironmentVariable)] = "3,4";
  std::vector<std::string> env;
  for (char** e = environ; e && *e; ++e) {
    std::string_view entry(*e);
    if (!overrides.count(std::string(entry.substr(0, entry.find('='))))) env.emplace_back(entry);
  }
  for (const auto& [name, value] : overrides) env.push_back(name + "=" + value);
  std::vector<std::string> args = {command_.executable.string()};
  args.insert(args.end(), command_.args.begin(), command_.args.end());
  std::vector<char*> argv, envp;
  for (auto& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  for (auto& e : env) envp.push_back(e.data());
  envp.push_back(nullptr);

  pid_t pid = -1;
  int rc = posix_spawnp(&pid, args[0].c_str(), &actions, &attr, argv.data(), envp.data());
  posix_spawn_file_actions_destroy(&actions);
  posix_spawnattr_destroy(&attr);
  close(child_in);
  close(child_out);
  close(child_output);
  if (rc != 0) {
    error = strerror(rc);
    close(requests[1]);
    close(replies[0]);
    close(output[0]);
    return false;
  }
  to_child_ = requests[1];
  from_child_ = replies[0];
  output_ = output[0];
  set_nonblocking(to_child_);
  set_nonblocking(from_child_);
  set_nonblocking(output_);
  pid_ = pid;
  status_ = 0;
  ++starts_;
  tail_.clear();
  sanitizer_report_ = false;
  decoder_.clear();
  return true;
}

void WorkerProcess::append_output(const char* data, std::size_t size) {
  const std::size_t before = tail_.size();
  tail_.append(data, size);
  // Looked for before the tail is cut (a long report would push its first line out), in the
  // new bytes and a line's worth before them (a first line split across two reads).
  if (!sanitizer_report_) {
    const std::size_t from = before > 256 ? before - 256 : 0;
    sanitizer_report_ = fatal_sanitizer_report(std::string_view(tail_).substr(from));
  }
  if (tail_.size() > command_.output_tail_bytes) tail_.erase(0, tail_.size() - command_.output_tail_bytes);
}

void WorkerProcess::drain_output(int timeout_ms) {
  char buffer[16384];
  // Bounded, so a child printing without pause cannot keep us here.
  for (int round = 0; round < 256 && output_ >= 0; ++round) {
    pollfd p{output_, POLLIN, 0};
    int ready = poll(&p, 1, round == 0 ? timeout_ms : 0);
    if (ready < 0 && errno == EINTR) continue;
    if (ready <= 0) return;
    ssize_t n = read(output_, buffer, sizeof buffer);
    if (n > 0) {
      append_output(buffer, static_cast<std::size_t>(n));
    } else if (n == 0 || (errno != EAGAIN && errno != EINTR)) {
      close_fd(output_);  // every writer is gone
    } else {
      return;
    }
  }
}

bool WorkerProcess::reap(double seconds) {
  const auto deadline = Clock::now() + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(seconds));
  for (;;) {
    int status = 0;
    pid_t r = waitpid(pid_, &status, WNOHANG);
    if (r == pid_) {
      status_ = status;
      return true;
    }
    if (r < 0 && errno == ECHILD) {  // reaped elsewhere (SIGCHLD ignored): status unknown
      status_ = -1;
      return true;
    }
    if (Clock::now() >= deadline) return false;
    if (output_ >= 0) {
      drain_output(std::min(10, millis_until(deadline)));
    } else {
      std::this_thread::sleep_for(std::chrono::milliseconds(2));
    }
  }
}

void WorkerProcess::kill_child() {
  if (pid_ <= 0) return;
  if (kill(-pid_, SIGKILL) != 0) kill(pid_, SIGKILL);
}

void WorkerProcess::close_pipes() {
  close_fd(to_child_);
  close_fd(from_child_);
  close_fd(output_);
  decoder_.clear();
}

WorkerProcess::Crashed WorkerProcess::crash(std::string context) {
  // The child closed its reply pipe: normally it is dying. Give it a moment, so that the
  // real cause (a signal, its last words on stderr) is what gets reported. A protocol
  // violation gets no moment: the child is killed at once.
  const bool exited = context.empty() && reap(command_.stop_grace_seconds);
  return crashed_after(exited, std::move(context));
}

WorkerProcess::Crashed WorkerProcess::crashed_after(bool exited, std::string context) {
  Crashed crashed;
  bool stuck = false;
  if (!exited) {
    kill_child();
    if (!reap(5)) {
      stuck = true;
      unreaped_.push_back(pid_);
    }
  }
  drain_output(50);
  std::string how;
  if (stuck) {
    how = "did not exit after SIGKILL (stuck in the kernel or a driver)";
  } else if (status_ == -1) {
    how = "exited (status unavailable)";
  } else if (WIFSIGNALED(status_)) {
    crashed.signal = WTERMSIG(status_);
    how = "killed by " + signal_text(crashed.signal);
  } else if (WIFEXITED(status_)) {
    crashed.exit_code = WEXITSTATUS(status_);
    how = "exited with code " + std::to_string(crashed.exit_code);
  }
  crashed.description = context.empty() ? how : context + "; " + how;
  crashed.stderr_tail = tail_;
  close_pipes();
  pid_ = -1;
  return crashed;
}

WorkerProcess::Outcome WorkerProcess::expire(double waited) {
  drain_output(0);
  if (!sanitizer_report_) return time_out(waited);
  const bool exited = reap(command_.report_grace_seconds);
  char context[160];
  std::snprintf(context, sizeof context, "its sanitizer report began before the %.1f s deadline%s", waited,
                exited ? "" : " and was not finished within its grace");
  return crashed_after(exited, context);
}

WorkerProcess::TimedOut WorkerProcess::time_out(double waited) {
  kill_child();
  if (!reap(5)) unreaped_.push_back(pid_);
  drain_output(50);
  TimedOut t{waited, tail_};
  close_pipes();
  pid_ = -1;
  return t;
}

WorkerProcess::Outcome WorkerProcess::call(const nlohmann::json& request, double timeout_seconds) {
  std::lock_guard lock(mutex_);
  if (pid_ > 0 && waitpid(pid_, &status_, WNOHANG) == pid_) {
    // It died between calls (killed from outside, or a thread of an earlier kernel): this
    // request is not to blame, so it goes to a fresh worker. restarts() counts the death.
    close_pipes();
    pid_ = -1;
  }
  if (pid_ <= 0) {
    std::string error;
    if (!start(error)) {
      Crashed c;
      c.exit_code = 127;
      c.description = "could not start worker '" + command_.executable.string() + "': " + error;
      return c;
    }
  }
  const auto started = Clock::now();
  const bool limited = timeout_seconds > 0 && std::isfinite(timeout_seconds);
  const auto deadline =
      limited ? started + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(timeout_seconds))
              : Clock::time_point::max();
  auto wait_ms = [&] { return limited ? millis_until(deadline) : -1; };
  const std::uint64_t sequence = ++sequence_;
  // Too large a request is the caller's error, and the child is not at fault: throw.
  const std::string frame = encode_frame(dump({{"seq", sequence}, {"request", request}}));

  std::size_t written = 0;
  while (written < frame.size()) {
    pollfd fds[2] = {{to_child_, POLLOUT, 0}, {output_, POLLIN, 0}};
    int ready = poll(fds, output_ >= 0 ? 2 : 1, wait_ms());
    if (ready < 0) {
      if (errno == EINTR) continue;
      return crash(std::string("poll failed: ") + strerror(errno));
    }
    if (ready == 0) return expire(seconds_since(started));
    if (output_ >= 0 && fds[1].revents) drain_output(0);
    if (fds[0].revents) {
      ssize_t n = write(to_child_, frame.data() + written, frame.size() - written);
      if (n > 0) {
        written += static_cast<std::size_t>(n);
      } else if (n < 0 && errno != EAGAIN && errno != EINTR) {
        return crash("");  // EPIPE: it died before reading the request
      }
    }
  }

  char buffer[65536];
  for (;;) {
    std::optional<std::string> payload;
    try {
      payload = decoder_.next();
    } catch (const ProtocolError& e) {
      return crash(std::string("protocol error: ") + e.what());
    }
    if (payload) {
      nlohmann::json envelope = nlohmann::json::parse(*payload, nullptr, false);
      if (envelope.is_discarded() || !envelope.is_object() || !envelope.contains("reply"))
        return crash("protocol error: the reply is not a ktune reply message");
      if (envelope.value("seq", std::uint64_t{0}) != sequence)
        return crash("protocol error: reply to request " + envelope["seq"].dump() + " while waiting for " +
                     std::to_string(sequence));
      if (decoder_.buffered() != 0) return crash("protocol error: bytes after the reply");
      return std::move(envelope["reply"]);
    }
    pollfd fds[2] = {{from_child_, POLLIN, 0}, {output_, POLLIN, 0}};
    int ready = poll(fds, output_ >= 0 ? 2 : 1, wait_ms());
    if (ready < 0) {
      if (errno == EINTR) continue;
      return crash(std::string("poll failed: ") + strerror(errno));
    }
    if (ready == 0) return expire(seconds_since(started));
    if (output_ >= 0 && fds[1].revents) drain_output(0);
    if (fds[0].revents) {
      ssize_t n = read(from_child_, buffer, sizeof buffer);
      if (n > 0) {
        decoder_.feed(buffer, static_cast<std::size_t>(n));
      } else if (n == 0) {
        return crash(decoder_.buffered() ? "died in the middle of a reply" : "");
      } else if (errno != EAGAIN && errno != EINTR) {
        return crash(std::string("reading the reply failed: ") + strerror(errno));
      }
    }
  }
}

void WorkerProcess::stop() {
  std::lock_guard lock(mutex_);
  if (pid_ <= 0) return;
  // The exit message fits in the pipe buffer; if it cannot be written the child is dead or
  // stuck, and closing the pipe (end of file) or SIGKILL does the rest.
  std::string frame = encode_frame(dump({{"seq", ++sequence_}, {"op", "exit"}}));
  if (write(to_child_, frame.data(), frame.size()) < 0) {
    // Nothing to do: handled below.
  }
  close_fd(to_child_);
  if (!reap(command_.stop_grace_seconds)) {
    kill_child();
    if (!reap(5)) unreaped_.push_back(pid_);
  }
  drain_output(0);
  close_pipes();
  pid_ = -1;
}

}  // namespace ktune::worker
