// Kills a process that is writing results with SIGKILL at random moments and checks that the
// database stays usable and keeps every result the writer saw committed.

#include <gtest/gtest.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <random>
#include <sstream>
#include <string>

#include "ktune/db/database.h"

namespace ktune::db {
namespace {

namespace fs = std::filesystem;

struct WriterOutput {
  std::int64_t session = 0;
  std::map<std::int64_t, std::string> committed;  // result id -> config_key
  std::string unexpected;
};

WriterOutput parse_output(const std::string& text) {
  WriterOutput output;
  std::size_t pos = 0;
  // Only complete lines count: a line cut short by the kill is ignored (it was committed, but
  // the test cannot be sure of its content).
  while (true) {
    std::size_t end = text.find('\n', pos);
    if (end == std::string::npos) break;
    std::istringstream line(text.substr(pos, end - pos));
    pos = end + 1;
    std::string first, second;
    line >> first >> second;
    if (first == "session") {
      output.session = std::stoll(second);
    } else if (!first.empty() && first.find_first_not_of("0123456789") == std::string::npos && !second.empty()) {
      output.committed[std::stoll(first)] = second;
    } else {
      output.unexpected += line.str() + "\n";
    }
  }
  return output;
}

// Runs the writer for about delay_ms, kills it with SIGKILL and returns what it printed.
// With after_session, the delay starts once the writer has opened its session, so that a slow
// machine (sanitizers, load) still kills it in the middle of committing results.
std::string run_and_kill(const fs::path& db_path, int delay_ms, int* wait_status, bool after_session) {
  int fds[2];
  if (pipe(fds) != 0) throw std::runtime_error("pipe failed");
  pid_t child = fork();
  if (child < 0) throw std::runtime_error("fork failed");
  if (child == 0) {
    dup2(fds[1], STDOUT_FILENO);
    close(fds[0]);
    close(fds[1]);
    execl(KTUNE_DB_CRASH_WRITER, KTUNE_DB_CRASH_WRITER, db_path.c_str(), static_cast<char*>(nullptr));
    _exit(127);
  }
  close(fds[1]);
  std::string output;
  char buffer[4096];
  // Keep reading while waiting, so the writer never blocks on a full pipe and is killed
  // somewhere inside its database work.
  auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(delay_ms);
  if (after_session) {
    const auto give_up = std::chrono::steady_clock::now() + std::chrono::seconds(30);
    while (output.find("session ") == std::string::npos && std::chrono::steady_clock::now() < give_up) {
      pollfd poll_fd{fds[0], POLLIN, 0};
      if (poll(&poll_fd, 1, 100) > 0) {
        ssize_t n = read(fds[0], buffer, sizeof(buffer));
        if (n <= 0) break;
        output.append(buffer, static_cast<std::size_t>(n));
      }
    }
    deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(delay_ms);
  }
  while (true) {
    auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
    if (left.count() <= 0) break;
    pollfd poll_fd{fds[0], POLLIN, 0};
    if (poll(&poll_fd, 1, static_cast<int>(left.count())) > 0) {
      ssize_t n = read(fds[0], buffer, sizeof(buffer));
      if (n <= 0) break;  // the writer exited on its own
      output.append(buffer, static_cast<std::size_t>(n));
    }
  }
  kill(child, SIGKILL);
  waitpid(child, wait_status, 0);
  ssize_t n;
  while ((n = read(fds[0], buffer, sizeof(buffer))) > 0) output.append(buffer, static_cast<std::size_t>(n));
  close(fds[0]);
  return output;
}

TEST(DatabaseCrash, SigkillNeverLosesCommittedResults) {
  std::string pattern = (fs::temp_directory_path() / "ktune_db_crash_XXXXXX").string();
  ASSERT_NE(mkdtemp(pattern.data()), nullptr);
  fs::path dir = pattern;
  fs::path db_path = dir / "crash.db";

  std::random_device entropy;
  unsigned seed = entropy();
  std::mt19937 random(seed);
  SCOPED_TRACE("seed " + std::to_string(seed));
  std::uniform_int_distribution<int> delay_ms(1, 150);

  std::map<std::int64_t, std::string> all_committed;
  int runs_with_results = 0;
  constexpr int kRuns = 20;
  for (int run = 0; run < kRuns; ++run) {
    // The first runs are killed almost at once, while the file and schema are being created.
    int delay = run < 3 ? run : delay_ms(random);
    SCOPED_TRACE("run " + std::to_string(run) + ", killed after " + std::to_string(delay) + " ms");
    int wait_status = 0;
    WriterOutput output = parse_output(run_and_kill(db_path, delay, &wait_status, run >= 3));
    ASSERT_TRUE(WIFSIGNALED(wait_status) && WTERMSIG(wait_status) == SIGKILL)
        << "the writer exited by itself (status " << wait_status << "); see its stderr above";
    EXPECT_EQ(output.unexpected, "");
    if (!output.committed.empty()) ++runs_with_results;
    all_committed.insert(output.committed.begin(), output.committed.end());

    if (!fs::exists(db_path)) continue;  // killed before sqlite created the file
    Database db(db_path);
    ASSERT_EQ(db.integrity_check(), "ok");
    // Every result any writer reported so far is present, with the content it wrote.
    for (const auto& [id, key] : all_committed) {
      auto row = db.result(id);
      ASSERT_TRUE(row) << "committed result " << id << " is missing";
      ASSERT_EQ(row->config_key, key);
    }
    // The killed writer's session is recognised as abandoned.
    if (output.session != 0) {
      db.mark_abandoned_sessions();
      auto session = db.session(output.session);
      ASSERT_TRUE(session);
      EXPECT_EQ(session->state, "interrupted");
    }
  }
  EXPECT_GT(runs_with_results, kRuns / 2) << "the writer rarely got to commit anything; the test proves little";
  EXPECT_GT(all_committed.size(), 100u);

  Database db(db_path);
  EXPECT_EQ(db.integrity_check(), "ok");
  EXPECT_GE(db.query({}).size(), all_committed.size());
  std::error_code ignored;
  fs::remove_all(dir, ignored);
}

}  // namespace
}  // namespace ktune::db
