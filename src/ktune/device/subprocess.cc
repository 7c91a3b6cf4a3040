#include "ktune/device/subprocess.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <optional>
#include <thread>

extern char** environ;

namespace ktune::device {
namespace {

using Clock = std::chrono::steady_clock;

int millis_until(Clock::time_point deadline) {
  auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now()).count();
  if (left <= 0) return 0;
  return left > 1000000 ? 1000000 : static_cast<int>(left);
}

// waitpid with a deadline; nullopt if the child is still running when it passes.
std::optional<int> wait_until(pid_t pid, Clock::time_point deadline) {
  for (;;) {
    int status = 0;
    pid_t r = waitpid(pid, &status, WNOHANG);
    if (r == pid) return status;
    if (r < 0 && errno != EINTR) return std::nullopt;  // not our child any more: nothing to wait for
    if (Clock::now() >= deadline) return std::nullopt;
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
  }
}

void kill_group(pid_t pid) {
  // The child leads its own process group; fall back to the pid alone if the group is gone.
  if (kill(-pid, SIGKILL) != 0) kill(pid, SIGKILL);
}

std::vector<std::string> merged_environment(const std::map<std::string, std::string>& overrides) {
  std::vector<std::string> env;
  for (char** e = environ; e && *e; ++e) {
    std::string_view entry(*e);
    auto eq = entry.find('=');
    std::string name(entry.substr(0, eq));
    if (overrides.count(name)) continue;
    env.emplace_back(entry);
  }
  for (const auto& [name, value] : overrides) env.push_back(name + "=" + value);
  return env;
}

std::vector<char*> pointers(std::vector<std::string>& strings) {
  std::vector<char*> p;
  p.reserve(strings.size() + 1);
  for (auto& s : strings) p.push_back(s.data());
  p.push_back(nullptr);
  return p;
}

// Samples the child's process-group CPU time about once a second; stalled() once it has not
// moved for `limit` seconds. Deadlocked threads sleep on a futex and use no CPU, while a
// compiler that is merely slow (or starved on a loaded machine) still gets some.
class StallWatch {
 public:
  StallWatch(pid_t pgid, double limit_seconds) : pgid_(pgid), limit_(limit_seconds) {}

  int poll_millis(int until_deadline) const { return limit_ > 0 ? std::min(until_deadline, 1000) : until_deadline; }

  bool stalled() {
    if (limit_ <= 0) return false;
    const auto now = Clock::now();
    const std::optional<double> cpu = process_group_cpu_seconds(pgid_);
    if (!cpu) return false;  // cannot tell: never call it stalled
    if (!last_cpu_ || *cpu > *last_cpu_) {
      last_cpu_ = cpu;
      last_progress_ = now;
      return false;
    }
    return std::chrono::duration<double>(now - last_progress_).count() >= limit_;
  }

 private:
  pid_t pgid_;
  double limit_;
  std::optional<double> last_cpu_;
  Clock::time_point last_progress_ = Clock::now();
};

}  // namespace

std::optional<double> process_group_cpu_seconds(int pgid) {
  namespace fs = std::filesystem;
  std::error_code ec;
  fs::directory_iterator it("/proc", ec);
  if (ec) return std::nullopt;
  static const double ticks = static_cast<double>(sysconf(_SC_CLK_TCK));
  double total = 0;
  bool found = false;
  for (const fs::directory_entry& entry : it) {
    const std::string name = entry.path().filename().string();
    if (name.empty() || name.find_first_not_of("0123456789") != std::string::npos) continue;
    std::ifstream in(entry.path() / "stat");
    std::string stat;
    if (!std::getline(in, stat)) continue;  // exited meanwhile
    // "pid (comm) state ppid pgrp ..."; comm may hold spaces and parentheses: fields start after the last ')'.
    const auto close = stat.rfind(')');
    if (close == std::string::npos) continue;
    std::istringstream fields(stat.substr(close + 1));
    std::string state;
    long long ppid = 0, pgrp = 0, session = 0, tty = 0, tpgid = 0;
    unsigned long long flags = 0, minflt = 0, cminflt = 0, majflt = 0, cmajflt = 0;
    unsigned long long utime = 0, stime = 0;
    long long cutime = 0, cstime = 0;
    if (!(fields >> state >> ppid >> pgrp >> session >> tty >> tpgid >> flags >> minflt >> cminflt >> majflt >> cmajflt >>
          utime >> stime >> cutime >> cstime))
      continue;
    if (pgrp != pgid) continue;
    found = true;
    total += static_cast<double>(utime + stime) + static_cast<double>(cutime + cstime);
  }
  if (!found) return std::nullopt;
  return total / ticks;
}

std::string signal_description(int signal) {
  const char* abbrev = sigabbrev_np(signal);
  const char* text = sigdescr_np(signal);
  std::string s = abbrev ? std::string("SIG") + abbrev : "signal " + std::to_string(signal);
  if (text) s += std::string(" (") + text + ")";
  return s;
}

std::string SubprocessResult::describe() const {
  if (!started) return "could not start: " + spawn_error;
  if (stalled) return "stalled (no CPU time used for a while; killed) after " + std::to_string(static_cast<long long>(seconds + 0.5)) + " s";
  if (timed_out) return "timed out after " + std::to_string(static_cast<long long>(seconds + 0.5)) + " s (killed)";
  if (signal != 0) return "killed by " + signal_description(signal);
  return "exited with code " + std::to_string(exit_code);
}

std::string find_executable(const std::string& name) {
  namespace fs = std::filesystem;
  std::error_code ec;
  auto usable = [&](const fs::path& p) { return access(p.c_str(), X_OK) == 0 && !fs::is_directory(p, ec); };
  if (name.empty()) return {};
  if (name.find('/') != std::string::npos) {
    if (!usable(name)) return {};
    auto canonical = fs::canonical(name, ec);
    return ec ? fs::absolute(name).string() : canonical.string();
  }
  const char* path = std::getenv("PATH");
  std::string_view dirs = path ? path : "/usr/local/bin:/usr/bin:/bin";
  while (true) {
    auto colon = dirs.find(':');
    std::string dir(dirs.substr(0, colon));
    fs::path candidate = fs::path(dir.empty() ? "." : dir) / name;
    if (usable(candidate)) {
      auto canonical = fs::canonical(candidate, ec);
      return ec ? fs::absolute(candidate).string() : canonical.string();
    }
    if (colon == std::string_view::npos) break;
    dirs.remove_prefix(colon + 1);
  }
  return {};
}

SubprocessResult run_subprocess(const std::vector<std::string>& argv, const SubprocessOptions& options) {
  SubprocessResult result;
  const auto start = Clock::now();
  if (argv.empty()) {
    result.spawn_error = "empty command line";
    return result;
  }

  int out[2];
  if (pipe2(out, O_CLOEXEC) != 0) {
    result.spawn_error = std::string("pipe: ") + std::strerror(errno);
    return result;
  }

  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_adddup2(&actions, out[1], 1);
  posix_spawn_file_actions_adddup2(&actions, out[1], 2);

  posix_spawnattr_t attr;
  posix_spawnattr_init(&attr);
  sigset_t no_signals, all_signals;
  sigemptyset(&no_signals);
  sigfillset(&all_signals);
  // The tuner ignores SIGPIPE; ignored dispositions survive exec, so reset them.
  posix_spawnattr_setsigmask(&attr, &no_signals);
  posix_spawnattr_setsigdefault(&attr, &all_signals);
  posix_spawnattr_setpgroup(&attr, 0);
  posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF);

  std::vector<std::string> args = argv;
  std::vector<std::string> env = merged_environment(options.env);
  auto argp = pointers(args);
  auto envp = pointers(env);
  pid_t pid = -1;
  int rc = posix_spawnp(&pid, args[0].c_str(), &actions, &attr, argp.data(), envp.data());
  posix_spawn_file_actions_destroy(&actions);
  posix_spawnattr_destroy(&attr);
  close(out[1]);
  if (rc != 0) {
    close(out[0]);
    result.spawn_error = "'" + argv[0] + "': " + std::strerror(rc);
    return result;
  }
  result.started = true;

  const auto deadline = start + std::chrono::duration_cast<Clock::duration>(
                                    std::chrono::duration<double>(options.timeout_seconds));
  char buffer[65536];
  bool eof = false;
  StallWatch stall(pid, options.stall_seconds);
  while (!eof) {
    pollfd p{out[0], POLLIN, 0};
    int ready = poll(&p, 1, stall.poll_millis(millis_until(deadline)));
    if (ready < 0) {
      if (errno == EINTR) continue;
      break;
    }
    if (ready == 0 && (Clock::now() >= deadline || stall.stalled())) {
      result.timed_out = true;
      result.stalled = Clock::now() < deadline;
      kill_group(pid);
      break;
    }
    if (ready == 0) continue;
    ssize_t n = read(out[0], buffer, sizeof buffer);
    if (n < 0) {
      if (errno == EINTR || errno == EAGAIN) continue;
      break;
    }
    if (n == 0) {
      eof = true;
      break;
    }
    std::size_t room = options.max_output_bytes > result.output.size() ? options.max_output_bytes - result.output.size() : 0;
    std::size_t keep = std::min(room, static_cast<std::size_t>(n));
    result.output.append(buffer, keep);
    result.output_bytes_dropped += static_cast<std::size_t>(n) - keep;
  }
  close(out[0]);

  // The child closed its output: it is exiting. Allow it until the deadline (a child can
  // close stdout and keep running), then kill.
  auto status = wait_until(pid, result.timed_out ? Clock::now() + std::chrono::seconds(5) : deadline);
  if (!status && !result.timed_out) {
    result.timed_out = true;
    kill_group(pid);
    status = wait_until(pid, Clock::now() + std::chrono::seconds(5));
  }
  if (status) {
    if (WIFEXITED(*status)) result.exit_code = WEXITSTATUS(*status);
    if (WIFSIGNALED(*status)) result.signal = WTERMSIG(*status);
  }
  result.seconds = std::chrono::duration<double>(Clock::now() - start).count();
  return result;
}

}  // namespace ktune::device
