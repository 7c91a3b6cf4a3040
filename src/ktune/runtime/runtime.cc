// ktune::Runtime: lookups with online tuning in background child processes (see ktune.h).

#include <ktune/ktune.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdlib>
#include <deque>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <thread>

#include <nlohmann/json.hpp>

#include "ktune/db/database.h"
#include "ktune/runtime/child_process.h"

namespace ktune {
namespace {

using Clock = std::chrono::steady_clock;
using Sizes = std::map<std::string, std::string>;

std::string env(const char* name) {
  const char* value = std::getenv(name);
  return value != nullptr ? value : "";
}

std::string canonical(const std::string& path) {
  std::error_code error;
  auto p = std::filesystem::weakly_canonical(path, error);
  return error ? path : p.string();
}

std::string key_of(const std::string& spec, const Sizes& sizes) {
  std::string key = spec;
  for (const auto& [name, value] : sizes) key += "\n" + name + "=" + value;
  return key;
}

std::string trim(std::string s) {
  const auto first = s.find_first_not_of(" \t\r");
  if (first == std::string::npos) return "";
  return s.substr(first, s.find_last_not_of(" \t\r") - first + 1);
}

// The spec's top-level `name: X` (every ktune spec writes it so), read without a YAML parser:
// ktune_runtime stays small and applications need no yaml-cpp. Empty when absent or written
// some other way; then the name comes from the tuning's own report, or the caller passes it.
std::string spec_name(const std::string& spec_path) {
  std::ifstream in(spec_path);
  for (std::string line; std::getline(in, line);) {
    if (line.rfind("name:", 0) != 0) continue;
    std::string value = line.substr(5);
    if (auto comment = value.find(" #"); comment != std::string::npos) value.erase(comment);
    value = trim(value);
    if (value.size() >= 2 && (value.front() == '"' || value.front() == '\'') && value.back() == value.front()) {
      value = value.substr(1, value.size() - 2);
    }
    return value;
  }
  return "";
}

RuntimeOptions resolve(RuntimeOptions o, const char* installed_ktune) {
  if (o.database_path.empty()) o.database_path = db::Database::default_path().string();
  if (!o.online) o.online = env("KTUNE_ONLINE") == "1";
  if (o.ktune_path.empty()) o.ktune_path = env("KTUNE_BIN");
  if (o.ktune_path.empty()) o.ktune_path = runtime::find_in_path("ktune");
  std::error_code error;
  if (o.ktune_path.empty() && installed_ktune != nullptr && std::filesystem::exists(installed_ktune, error)) {
    o.ktune_path = installed_ktune;
  }
  o.max_concurrent = std::max(1, o.max_concurrent);
  return o;
}

}  // namespace

struct Runtime::Impl {
  struct Entry {
    std::string spec;     // canonical path
    Sizes sizes;
    std::string problem;  // the spec's name; empty until known
    TuningStatus status;
    std::optional<TunedConfig> found;  // once found, the answer for the Runtime's lifetime
    Clock::time_point next_check{};    // a miss reads the database again from then on
    int tunings_finished = 0;          // a query that overlapped a tuning may hold its partial best
  };

  RuntimeOptions options;
  // Guards everything below except the database; never held while a child runs or SQL runs.
  mutable std::mutex mutex;
  std::condition_variable work;     // the queue got a key, or stopping
  std::condition_variable changed;  // a tuning finished
  std::map<std::string, Entry> entries;  // never erased: references stay valid
  std::deque<std::string> queue;
  int running = 0;
  bool stopping = false;
  std::vector<std::thread> workers;
  std::atomic<bool> stop_children{false};

  // TuningDatabase is one connection, so lookups from many threads take turns on it. A query
  // takes well under a millisecond, and found answers are cached, so this is no bottleneck.
  mutable std::mutex db_mutex;
  std::optional<TuningDatabase> db;
  std::string db_error;

  std::optional<TunedConfig> query(const std::string& problem, const Sizes& sizes);
  void enqueue(const std::string& key);
  void worker_loop();
  std::vector<std::string> tune_command(const Entry& e) const;
  void finish(Entry& e, const runtime::ChildResult& r);
};

std::optional<TunedConfig> Runtime::Impl::query(const std::string& problem, const Sizes& sizes) {
  std::lock_guard lock(db_mutex);
  try {
    if (!db) {
      std::error_code error;
      // Not created yet (the first tuning creates it): no records, and no error either.
      if (!std::filesystem::exists(options.database_path, error)) return std::nullopt;
      db.emplace(options.database_path);
    }
    auto best = db->best(problem, sizes, options.device_fingerprint);
    db_error.clear();
    return best;
  } catch (const std::exception& e) {
    // The application keeps its baseline; reopen next time (a file caught mid-creation, a
    // lock held past the busy timeout).
    db_error = e.what();
    db.reset();
    return std::nullopt;
  }
}

void Runtime::Impl::enqueue(const std::string& key) {  // mutex held
  entries.at(key).status.state = TuningState::Queued;
  queue.push_back(key);
  if (workers.size() < static_cast<std::size_t>(options.max_concurrent)) {
    workers.emplace_back([this] { worker_loop(); });
  }
  work.notify_one();
}

std::vector<std::string> Runtime::Impl::tune_command(const Entry& e) const {
  std::vector<std::string> argv = {options.ktune_path, "--db", options.database_path, "--json", "tune", e.spec};
  for (const auto& [name, value] : e.sizes) {
    argv.push_back("--size");
    argv.push_back(name + "=" + value);
  }
  argv.insert(argv.end(), {"--max-time", std::to_string(options.budget_seconds), "--progress", "none"});
  argv.insert(argv.end(), options.tune_args.begin(), options.tune_args.end());
  return argv;
}

void Runtime::Impl::worker_loop() {
  std::unique_lock lock(mutex);
  for (;;) {
    work.wait(lock, [&] { return stopping || !queue.empty(); });
    if (stopping) return;
    Entry& e = entries.at(queue.front());
    queue.pop_front();
    e.status.state = TuningState::Tuning;
    ++running;
    const auto argv = tune_command(e);
    lock.unlock();
    runtime::ChildResult r;
    if (options.ktune_path.empty()) {
      r.spawn_error = "no ktune executable: set RuntimeOptions::ktune_path or $KTUNE_BIN, or put ktune on PATH";
    } else {
      runtime::ChildOptions child;
      // --max-time stops starting candidates; the one in flight and the confirmation of the
      // finalists still run. A child far past that is hung: stop it.
      child.timeout_seconds = 2 * options.budget_seconds + 60;
      child.stop = &stop_children;
      r = runtime::run_child(argv, child);
    }
    lock.lock();
    finish(e, r);
    --running;
    changed.notify_all();
  }
}

void Runtime::Impl::finish(Entry& e, const runtime::ChildResult& r) {  // mutex held
  ++e.tunings_finished;
  e.status.exit_code = r.exit_code;
  e.status.seconds = r.seconds;
  e.next_check = Clock::time_point{};  // the next lookup reads the new results
  if (r.started && r.exit_code == 0 && r.signal == 0) {
    e.status.state = TuningState::Done;
    if (e.problem.empty()) {  // the spec did not say; ktune's report does
      auto report = nlohmann::json::parse(r.out, nullptr, false);
      if (report.is_object() && report["problem"].is_object() && report["problem"]["name"].is_string()) {
        e.problem = report["problem"]["name"].get<std::string>();
      }
    }
    return;
  }
  // Failed keys stay failed for this Runtime (no retry loop); records that another process
  // makes for them are still found.
  e.status.state = TuningState::Failed;
  e.status.error = r.started ? "ktune tune " + r.describe() : r.spawn_error;
  if (const std::string tail = trim(r.err_tail); !tail.empty()) e.status.error += ": " + tail;
}

Runtime::Runtime(RuntimeOptions options, const char* installed_ktune) : impl_(std::make_unique<Impl>()) {
  impl_->options = resolve(std::move(options), installed_ktune);
}

Runtime::~Runtime() {
  {
    std::lock_guard lock(impl_->mutex);
    impl_->stopping = true;
    for (const auto& key : impl_->queue) impl_->entries.at(key).status.state = TuningState::NotStarted;
    impl_->queue.clear();
    if (impl_->options.terminate_on_destroy) impl_->stop_children = true;
  }
  impl_->work.notify_all();
  for (auto& worker : impl_->workers) worker.join();
}

std::optional<TunedConfig> Runtime::lookup(const std::string& spec_path, const Sizes& sizes, const std::string& problem) {
  Impl& m = *impl_;
  const std::string spec = canonical(spec_path);
  const std::string key = key_of(spec, sizes);
  std::string name;
  int tunings_finished = 0;
  {
    std::lock_guard lock(m.mutex);
    auto [it, inserted] = m.entries.try_emplace(key);
    Impl::Entry& e = it->second;
    if (inserted) {
      e.spec = spec;
      e.sizes = sizes;
    }
    if (!problem.empty()) e.problem = problem;
    if (e.found) return e.found;
    // While this Runtime tunes the key, the database holds only a partial best: keep serving
    // the baseline. Between rechecks, a miss costs only this map lookup.
    const auto now = Clock::now();
    if (e.status.state == TuningState::Queued || e.status.state == TuningState::Tuning || now < e.next_check) {
      return std::nullopt;
    }
    e.next_check = now + std::chrono::duration_cast<Clock::duration>(
                             std::chrono::duration<double>(m.options.recheck_seconds));
    name = e.problem;
    tunings_finished = e.tunings_finished;
  }
  if (name.empty()) name = spec_name(spec);
  std::optional<TunedConfig> found = name.empty() ? std::nullopt : m.query(name, sizes);

  std::lock_guard lock(m.mutex);
  Impl::Entry& e = m.entries.at(key);
  if (e.problem.empty()) e.problem = name;
  // Keep only an answer that no tuning of this Runtime overlapped; the first one stays.
  const bool overlapped = e.status.state == TuningState::Queued || e.status.state == TuningState::Tuning ||
                          e.tunings_finished != tunings_finished;
  if (found && !overlapped && !e.found) e.found = std::move(found);
  if (e.found) return e.found;
  if (*m.options.online && e.status.state == TuningState::NotStarted && !m.stopping) m.enqueue(key);
  return std::nullopt;
}

TuningStatus Runtime::status(const std::string& spec_path, const Sizes& sizes) const {
  std::lock_guard lock(impl_->mutex);
  auto it = impl_->entries.find(key_of(canonical(spec_path), sizes));
  return it == impl_->entries.end() ? TuningStatus{} : it->second.status;
}

bool Runtime::wait_idle(double timeout_seconds) {
  std::unique_lock lock(impl_->mutex);
  return impl_->changed.wait_for(lock, std::chrono::duration<double>(timeout_seconds),
                                 [&] { return impl_->queue.empty() && impl_->running == 0; });
}

const RuntimeOptions& Runtime::options() const { return impl_->options; }

std::string Runtime::database_error() const {
  std::lock_guard lock(impl_->db_mutex);
  return impl_->db_error;
}

}  // namespace ktune
