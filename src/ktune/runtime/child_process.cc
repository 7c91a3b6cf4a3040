#include "ktune/runtime/child_process.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <sstream>

extern char** environ;

namespace ktune::runtime {
namespace {

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point t) { return std::chrono::duration<double>(Clock::now() - t).count(); }

void close_fd(int& fd) {
  if (fd >= 0) ::close(fd);
  fd = -1;
}

// Both ends close-on-exec: a child spawned meanwhile by another thread must not inherit them,
// or this pipe would never see EOF. dup2 onto 1 and 2 clears the flag in our own child.
bool make_pipe(int& read_end, int& write_end) {
  int fds[2];
  if (::pipe2(fds, O_CLOEXEC) != 0) return false;
  read_end = fds[0];
  write_end = fds[1];
  ::fcntl(read_end, F_SETFL, ::fcntl(read_end, F_GETFL) | O_NONBLOCK);
  return true;
}

// Returns the pid, or -1 with `error` set.
pid_t spawn(const std::vector<std::string>& argv, int out_fd, int err_fd, std::string& error) {
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_adddup2(&actions, out_fd, 1);
  posix_spawn_file_actions_adddup2(&actions, err_fd, 2);
  posix_spawnattr_t attr;
  posix_spawnattr_init(&attr);
  // The application may block or ignore signals; ktune must still stop cleanly on SIGTERM.
  sigset_t none, defaults;
  sigemptyset(&none);
  sigemptyset(&defaults);
  for (int s : {SIGTERM, SIGINT, SIGPIPE, SIGCHLD}) sigaddset(&defaults, s);
  posix_spawnattr_setsigmask(&attr, &none);
  posix_spawnattr_setsigdefault(&attr, &defaults);
  posix_spawnattr_setpgroup(&attr, 0);  // its own group: killing -pid reaches its workers too
  posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF);
  std::vector<char*> args;
  for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  pid_t pid = -1;
  int rc = posix_spawnp(&pid, argv[0].c_str(), &actions, &attr, args.data(), environ);
  posix_spawnattr_destroy(&attr);
  posix_spawn_file_actions_destroy(&actions);
  if (rc != 0) {
    error = "could not start '" + argv[0] + "': " + std::strerror(rc);
    return -1;
  }
  return pid;
}

// Reads whatever the pipes have within `timeout_ms`; closes (-1) a pipe at EOF.
void pump(int& out_fd, int& err_fd, int timeout_ms, const ChildOptions& options, ChildResult& r) {
  pollfd fds[2] = {{out_fd, POLLIN, 0}, {err_fd, POLLIN, 0}};
  // A negative fd is skipped by poll; with both closed this is just the wait.
  if (::poll(fds, 2, timeout_ms) <= 0) return;
  char buffer[8192];
  for (int i = 0; i < 2; ++i) {
    int& fd = i == 0 ? out_fd : err_fd;
    if (fd < 0 || fds[i].revents == 0) continue;
    ssize_t n;
    while ((n = ::read(fd, buffer, sizeof buffer)) > 0) {
      const auto got = static_cast<std::size_t>(n);
      if (i == 0) {
        r.out.append(buffer, std::min(got, options.max_stdout_bytes - std::min(options.max_stdout_bytes, r.out.size())));
      } else {
        r.err_tail.append(buffer, got);
        if (r.err_tail.size() > 2 * options.stderr_tail_bytes) {
          r.err_tail.erase(0, r.err_tail.size() - options.stderr_tail_bytes);
        }
      }
    }
    if (n == 0 || (n < 0 && errno != EAGAIN && errno != EINTR)) close_fd(fd);
  }
}

void decode(int status, ChildResult& r) {
  if (WIFEXITED(status)) r.exit_code = WEXITSTATUS(status);
  if (WIFSIGNALED(status)) r.signal = WTERMSIG(status);
}

}  // namespace

std::string ChildResult::describe() const {
  std::ostringstream s;
  if (!started) return spawn_error;
  if (timed_out) s << "timed out after " << seconds << " s";
  else if (stopped) s << "stopped";
  else if (signal != 0) s << "killed by signal " << signal << " (" << strsignal(signal) << ")";
  else s << "exited with code " << exit_code;
  return s.str();
}

ChildResult run_child(const std::vector<std::string>& argv, const ChildOptions& options) {
  ChildResult r;
  const auto start = Clock::now();
  int out_read = -1, out_write = -1, err_read = -1, err_write = -1;
  if (argv.empty() || !make_pipe(out_read, out_write) || !make_pipe(err_read, err_write)) {
    r.spawn_error = argv.empty() ? "no command" : std::string("pipe: ") + std::strerror(errno);
    for (int* fd : {&out_read, &out_write, &err_read, &err_write}) close_fd(*fd);
    return r;
  }
  const pid_t pid = spawn(argv, out_write, err_write, r.spawn_error);
  close_fd(out_write);
  close_fd(err_write);
  r.started = pid > 0;
  bool signalled = false;
  Clock::time_point term_at;
  int status = 0;
  while (r.started) {
    pump(out_read, err_read, 50, options, r);
    // Driven by the exit, not by EOF: workers ktune left behind may still hold the pipes.
    const pid_t w = ::waitpid(pid, &status, WNOHANG);
    if (w == pid || (w < 0 && errno != EINTR)) break;
    const bool stop = options.stop != nullptr && options.stop->load();
    if (!signalled && (stop || seconds_since(start) > options.timeout_seconds)) {
      r.stopped = stop;
      r.timed_out = !stop;
      ::kill(-pid, SIGTERM);
      signalled = true;
      term_at = Clock::now();
    } else if (signalled && seconds_since(term_at) > options.grace_seconds) {
      ::kill(-pid, SIGKILL);
    }
  }
  if (r.started) {
    pump(out_read, err_read, 0, options, r);  // what was written just before the exit
    decode(status, r);
  }
  close_fd(out_read);
  close_fd(err_read);
  if (r.err_tail.size() > options.stderr_tail_bytes) r.err_tail.erase(0, r.err_tail.size() - options.stderr_tail_bytes);
  r.seconds = seconds_since(start);
  return r;
}

std::string find_in_path(const std::string& name) {
  const char* path = std::getenv("PATH");
  std::istringstream dirs(path != nullptr ? path : "");
  for (std::string dir; std::getline(dirs, dir, ':');) {
    const std::string candidate = (dir.empty() ? "." : dir) + "/" + name;
    struct stat st {};
    if (::stat(candidate.c_str(), &st) == 0 && S_ISREG(st.st_mode) && ::access(candidate.c_str(), X_OK) == 0) {
      return candidate;
    }
  }
  return "";
}

}  // namespace ktune::runtime
