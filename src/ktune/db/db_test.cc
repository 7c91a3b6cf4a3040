#include <gtest/gtest.h>
#include <sqlite3.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <limits>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "ktune/core/config.h"
#include "ktune/db/database.h"
#include "ktune/db/export.h"
#include "ktune/db/schema.h"

namespace ktune::db {
namespace {

namespace fs = std::filesystem;

class TempDir {
 public:
  TempDir() {
    std::string pattern = (fs::temp_directory_path() / "ktune_db_test_XXXXXX").string();
    if (mkdtemp(pattern.data()) == nullptr) throw std::runtime_error("mkdtemp failed");
    path_ = pattern;
  }
  ~TempDir() {
    std::error_code ignored;
    fs::remove_all(path_, ignored);
  }
  const fs::path& path() const { return path_; }

 private:
  fs::path path_;
};

// Sets or unsets an environment variable for the lifetime of the guard.
class EnvGuard {
 public:
  EnvGuard(const char* name, const char* value) : name_(name) {
    if (const char* old = std::getenv(name)) old_ = old;
    if (value != nullptr) {
      setenv(name, value, 1);
    } else {
      unsetenv(name);
    }
  }
  ~EnvGuard() {
    if (old_) {
      setenv(name_.c_str(), old_->c_str(), 1);
    } else {
      unsetenv(name_.c_str());
    }
  }

 private:
  std::string name_;
  std::optional<std::string> old_;
};

struct Ids {
  std::int64_t device, kernel, problem;
};

Ids add_target(Database& db, const std::string& suffix = "") {
  Ids ids{};
  ids.device = db.upsert_device({0, "fp-h100" + suffix, "cuda", "NVIDIA H100" + suffix, {{"sm", 90}}});
  ids.kernel = db.upsert_kernel({0, "hash-gemm", "gemm" + suffix, "cuda", "kernels/gemm.cu"});
  ids.problem = db.upsert_problem({0, "hash-p" + suffix, "gemm_4096" + suffix, {{"M", 4096}}, {{"dtype", "bf16"}}});
  return ids;
}

ResultRecord make_result(const Ids& ids, const Config& config, Status status, std::optional<double> median) {
  ResultRecord r;
  r.device_id = ids.device;
  r.kernel_id = ids.kernel;
  r.problem_id = ids.problem;
  r.config = config_to_json(config);
  r.config_key = config_key(config);
  r.status = status;
  r.median_s = median;
  return r;
}

Config cfg(std::int64_t block, std::int64_t unroll = 1) {
  return Config{{"BLOCK", Value::integer(block)}, {"UNROLL", Value::integer(unroll)}};
}

std::string thrown_message(const std::function<void()>& action) {
  try {
    action();
  } catch (const std::exception& e) {
    return e.what();
  }
  return "<nothing thrown>";
}

TEST(Database, CreatesSchemaInNewDirectoriesWithWal) {
  TempDir dir;
  fs::path path = dir.path() / "a" / "b" / "tune.db";
  {
    Database db(path);
    EXPECT_TRUE(fs::exists(path));
    EXPECT_EQ(db.schema_version(), kSchemaVersion);
    EXPECT_EQ(db.journal_mode(), "wal");
    EXPECT_EQ(db.integrity_check(), "ok");
    EXPECT_EQ(db.path(), path);
  }
  Database reopened(path);  // an existing, current database opens without migrating
  EXPECT_EQ(reopened.schema_version(), kSchemaVersion);
  EXPECT_TRUE(reopened.devices().empty());
}

TEST(Database, DefaultPathFollowsEnvironment) {
  EnvGuard home("HOME", "/home/tester");
  {
    EnvGuard db("KTUNE_DB", "/tmp/x/my.db");
    EnvGuard xdg("XDG_DATA_HOME", "/data");
    EXPECT_EQ(Database::default_path(), fs::path("/tmp/x/my.db"));
  }
  EnvGuard no_db("KTUNE_DB", nullptr);
  {
    EnvGuard xdg("XDG_DATA_HOME", "/data");
    EXPECT_EQ(Database::default_path(), fs::path("/data/ktune/ktune.db"));
  }
  {
    EnvGuard xdg("XDG_DATA_HOME", "relative/dir");  // invalid per the XDG spec: ignored
    EXPECT_EQ(Database::default_path(), fs::path("/home/tester/.local/share/ktune/ktune.db"));
  }
  EnvGuard no_xdg("XDG_DATA_HOME", nullptr);
  EXPECT_EQ(Database::default_path(), fs::path("/home/tester/.local/share/ktune/ktune.db"));
  EnvGuard empty_db("KTUNE_DB", "");
  EXPECT_EQ(Database::default_path(), fs::path("/home/tester/.local/share/ktune/ktune.db"));
}

TEST(Database, UpsertsAreIdempotentAndUpdateDescriptions) {
  Database db(":memory:");
  DeviceRecord device{0, "fp1", "cuda", "H100", {{"sm", 90}}};
  std::int64_t d1 = db.upsert_device(device);
  EXPECT_EQ(db.upsert_device(device), d1);
  device.name = "H100 SXM";
  device.properties = {{"sm", 90}, {"driver", "580"}};
  EXPECT_EQ(db.upsert_device(device), d1);
  auto stored = db.device(d1);
  ASSERT_TRUE(stored);
  EXPECT_EQ(stored->name, "H100 SXM");
  EXPECT_EQ(stored->properties["driver"], "580");
  EXPECT_EQ(db.device_by_fingerprint("fp1")->id, d1);
  EXPECT_FALSE(db.device_by_fingerprint("nope"));
  EXPECT_NE(db.upsert_device({0, "fp2", "cpu", "host", {}}), d1);
  EXPECT_EQ(db.devices().size(), 2u);

  KernelRecord kernel{0, "h", "gemm", "cuda", "a.cu"};
  std::int64_t k1 = db.upsert_kernel(kernel);
  kernel.source_path = "moved/a.cu";
  EXPECT_EQ(db.upsert_kernel(kernel), k1);
  EXPECT_EQ(db.kernel(k1)->source_path, "moved/a.cu");
  // Same source, different entry point: a different kernel.
  EXPECT_NE(db.upsert_kernel({0, "h", "gemv", "cuda", "a.cu"}), k1);
  EXPECT_EQ(db.kernels().size(), 2u);

  ProblemRecord problem{0, "ph", "small", {{"N", 16}}, {{"dtype", "f32"}}};
  std::int64_t p1 = db.upsert_problem(problem);
  EXPECT_EQ(db.upsert_problem(problem), p1);
  EXPECT_EQ(db.problem(p1)->sizes["N"], 16);
  EXPECT_EQ(db.problem(p1)->spec["dtype"], "f32");
  EXPECT_EQ(db.problems().size(), 1u);
  EXPECT_FALSE(db.problem(p1 + 100));

  EXPECT_THROW(db.upsert_device({0, "", "cuda", "x", {}}), std::invalid_argument);
  EXPECT_THROW(db.upsert_kernel({0, "", "k", "cuda", ""}), std::invalid_argument);
  EXPECT_THROW(db.upsert_problem({0, "", "p", {}, {}}), std::invalid_argument);
}

TEST(Database, InsertReadsBackEveryField) {
  Database db(":memory:");
  Ids ids = add_target(db);
  std::int64_t session = db.begin_session(ids.device, ids.kernel, ids.problem, "random", {{"budget", 10}});
  ResultRecord r = make_result(ids, cfg(128, 4), Status::Ok, 1.5e-3);
  r.session_id = session;
  r.mean_s = 1.6e-3;
  r.min_s = 1.4e-3;
  r.max_s = 2.0e-3;
  r.q1_s = 1.45e-3;
  r.q3_s = 1.7e-3;
  r.stdev_s = std::numeric_limits<double>::quiet_NaN();  // one sample: no spread; stored as NULL
  r.samples = 42;
  r.stop_reason = "converged";
  r.raced = true;
  r.gflops = 1234.5;
  r.compile_seconds = 0.75;
  r.compile_cache_hit = true;
  r.resources = {{"registers", 96}, {"smem_bytes", 49152}};
  r.verification = {{"rel_error", 1e-6}};
  r.error = "warning: \"x\",\nline 2 \xff";  // quotes, newline and a byte that is not UTF-8
  r.started_at_unix = 1700000000.25;
  r.finished_at_unix = 1700000001.5;
  std::int64_t id = db.insert_result(r);
  EXPECT_GT(id, 0);

  auto back = db.result(id);
  ASSERT_TRUE(back);
  EXPECT_EQ(back->id, id);
  EXPECT_EQ(back->session_id, session);
  EXPECT_EQ(back->device_id, ids.device);
  EXPECT_EQ(back->config_key, "BLOCK=128,UNROLL=4");
  EXPECT_EQ(config_from_json(back->config), cfg(128, 4));
  EXPECT_EQ(back->status, Status::Ok);
  EXPECT_EQ(back->median_s, 1.5e-3);
  EXPECT_EQ(back->mean_s, 1.6e-3);
  EXPECT_EQ(back->min_s, 1.4e-3);
  EXPECT_EQ(back->max_s, 2.0e-3);
  EXPECT_EQ(back->q1_s, 1.45e-3);
  EXPECT_EQ(back->q3_s, 1.7e-3);
  EXPECT_FALSE(back->stdev_s);
  EXPECT_EQ(back->samples, 42);
  EXPECT_EQ(back->stop_reason, "converged");
  EXPECT_TRUE(back->raced);
  EXPECT_EQ(back->gflops, 1234.5);
  EXPECT_FALSE(back->gbps);
  EXPECT_EQ(back->compile_seconds, 0.75);
  EXPECT_TRUE(back->compile_cache_hit);
  EXPECT_EQ(back->resources["registers"], 96);
  EXPECT_EQ(back->verification["rel_error"], 1e-6);
  EXPECT_EQ(back->error, r.error);
  EXPECT_EQ(back->started_at_unix, 1700000000.25);
  EXPECT_EQ(back->finished_at_unix, 1700000001.5);
  // ISO 8601 UTC with milliseconds, e.g. 2025-01-31T12:00:00.123Z
  ASSERT_EQ(back->created_at.size(), 24u) << back->created_at;
  EXPECT_EQ(back->created_at[10], 'T');
  EXPECT_EQ(back->created_at.back(), 'Z');

  ResultRecord given_time = make_result(ids, cfg(64), Status::Timeout, std::nullopt);
  given_time.created_at = "2020-01-01T00:00:00.000Z";
  auto stored = db.result(db.insert_result(given_time));
  EXPECT_EQ(stored->created_at, "2020-01-01T00:00:00.000Z");
  EXPECT_EQ(stored->session_id, 0);
  EXPECT_FALSE(stored->median_s);
  EXPECT_FALSE(db.result(id + 1000));
}

TEST(Database, InsertRejectsBadReferences) {
  Database db(":memory:");
  Ids ids = add_target(db);
  ResultRecord r = make_result(ids, cfg(1), Status::Ok, 1.0);
  r.device_id = 0;
  EXPECT_THROW(db.insert_result(r), std::invalid_argument);
  r.device_id = ids.device + 100;  // no such device
  EXPECT_THROW(db.insert_result(r), SqliteError);
  r.device_id = ids.device;
  r.session_id = 77;  // no such session
  std::string message = thrown_message([&] { db.insert_result(r); });
  EXPECT_NE(message.find("does not exist"), std::string::npos) << message;
  r.session_id = 0;
  r.compile_seconds = std::numeric_limits<double>::infinity();
  EXPECT_THROW(db.insert_result(r), std::invalid_argument);
  r.compile_seconds = 0;
  EXPECT_GT(db.insert_result(r), 0);
}

TEST(Status, RoundTripsThroughTextAndDatabase) {
  Database db(":memory:");
  Ids ids = add_target(db);
  const std::vector<std::pair<Status, std::string>> all = {
      {Status::Ok, "ok"},           {Status::CompileError, "compile_error"},
      {Status::RuntimeError, "runtime_error"}, {Status::Timeout, "timeout"},
      {Status::WrongResult, "wrong_result"},   {Status::ResourceLimit, "resource_limit"},
      {Status::Crashed, "crashed"},            {Status::Skipped, "skipped"}};
  std::int64_t block = 1;
  for (const auto& [status, name] : all) {
    EXPECT_EQ(to_string(status), name);
    EXPECT_EQ(status_from_string(name), status);
    std::int64_t id = db.insert_result(make_result(ids, cfg(block++), status, std::nullopt));
    EXPECT_EQ(db.result(id)->status, status);
    ResultQuery q;
    q.status = status;
    ASSERT_EQ(db.query(q).size(), 1u) << name;
  }
  EXPECT_FALSE(status_from_string("OK"));
  EXPECT_FALSE(status_from_string(""));
  EXPECT_FALSE(status_from_string("success"));

  // A status this build does not know (written by hand or by a future build) is an error, not a guess.
  db.connection().execute("UPDATE results SET status = 'exploded' WHERE id = 1");
  std::string message = thrown_message([&] { db.result(1); });
  EXPECT_NE(message.find("exploded"), std::string::npos) << message;
}

TEST(Database, ResumeSeesLatestResultPerConfig) {
  Database db(":memory:");
  Ids ids = add_target(db);
  Ids other = add_target(db, "-other");
  std::int64_t first_64 = db.insert_result(make_result(ids, cfg(64), Status::Timeout, std::nullopt));
  std::int64_t r128 = db.insert_result(make_result(ids, cfg(128), Status::Ok, 2e-3));
  std::int64_t r256 = db.insert_result(make_result(ids, cfg(256), Status::CompileError, std::nullopt));
  std::int64_t latest_64 = db.insert_result(make_result(ids, cfg(64), Status::Ok, 3e-3));
  db.insert_result(make_result(other, cfg(512), Status::Ok, 1e-3));  // another device and problem

  auto rows = db.results_for(ids.device, ids.kernel, ids.problem);
  ASSERT_EQ(rows.size(), 3u);
  EXPECT_EQ(rows[0].id, r128);
  EXPECT_EQ(rows[1].id, r256);
  EXPECT_EQ(rows[2].id, latest_64);
  EXPECT_NE(rows[2].id, first_64);
  EXPECT_EQ(rows[2].status, Status::Ok);
  EXPECT_TRUE(db.results_for(ids.device, ids.kernel, other.problem).empty());
}

TEST(Database, BestIsFastestOkAmongLatestMeasurements) {
  Database db(":memory:");
  Ids ids = add_target(db);
  EXPECT_FALSE(db.best(ids.device, ids.kernel, ids.problem));
  db.insert_result(make_result(ids, cfg(32), Status::WrongResult, 1e-4));  // fast but wrong
  EXPECT_FALSE(db.best(ids.device, ids.kernel, ids.problem));
  std::int64_t r64 = db.insert_result(make_result(ids, cfg(64), Status::Ok, 3e-3));
  db.insert_result(make_result(ids, cfg(128), Status::Ok, 1e-3));
  db.insert_result(make_result(ids, cfg(256), Status::Ok, 2e-3));
  EXPECT_EQ(db.best(ids.device, ids.kernel, ids.problem)->config_key, "BLOCK=128,UNROLL=1");
  // Re-measured slower (e.g. after a driver update): the newest measurement counts.
  db.insert_result(make_result(ids, cfg(128), Status::Ok, 5e-3));
  EXPECT_EQ(db.best(ids.device, ids.kernel, ids.problem)->config_key, "BLOCK=256,UNROLL=1");
  // Ties go to the earlier row.
  std::int64_t tie = db.insert_result(make_result(ids, cfg(64, 2), Status::Ok, 2e-3));
  EXPECT_NE(db.best(ids.device, ids.kernel, ids.problem)->id, tie);
  EXPECT_NE(db.best(ids.device, ids.kernel, ids.problem)->id, r64);
  // An Ok row without a median cannot be ranked.
  ResultRecord no_median = make_result(ids, cfg(1024), Status::Ok, std::nullopt);
  db.insert_result(no_median);
  EXPECT_EQ(db.best(ids.device, ids.kernel, ids.problem)->median_s, 2e-3);
}

TEST(Database, QueryFiltersOrdersAndLimits) {
  Database db(":memory:");
  Ids a = add_target(db);
  Ids b = add_target(db, "-b");  // different device, kernel name and problem
  std::int64_t session = db.begin_session(a.device, a.kernel, a.problem, "exhaustive");
  for (std::int64_t block : {64, 128, 256}) {
    ResultRecord r = make_result(a, cfg(block), Status::Ok, 1e-3 * static_cast<double>(block) / 64.0);
    r.session_id = session;
    db.insert_result(r);
  }
  db.insert_result(make_result(a, cfg(512), Status::CompileError, std::nullopt));
  db.insert_result(make_result(b, cfg(64), Status::Ok, 9e-3));
  db.insert_result(make_result(b, cfg(128), Status::Ok, 8e-3));

  EXPECT_EQ(db.query({}).size(), 6u);
  ResultQuery q;
  q.kernel_name = "gemm";
  EXPECT_EQ(db.query(q).size(), 4u);
  q = {};
  q.kernel_name = "gemm-b";
  EXPECT_EQ(db.query(q).size(), 2u);
  q = {};
  q.problem_name = "gemm_4096";
  EXPECT_EQ(db.query(q).size(), 4u);
  q = {};
  q.device_fingerprint = "fp-h100-b";
  EXPECT_EQ(db.query(q).size(), 2u);
  q = {};
  q.session_id = session;
  EXPECT_EQ(db.query(q).size(), 3u);
  q = {};
  q.status = Status::CompileError;
  ASSERT_EQ(db.query(q).size(), 1u);
  EXPECT_EQ(db.query(q)[0].config_key, "BLOCK=512,UNROLL=1");
  q = {};
  q.kernel_name = "no-such-kernel";
  EXPECT_TRUE(db.query(q).empty());

  q = {};
  q.order = ResultOrder::Fastest;
  auto fastest = db.query(q);
  ASSERT_EQ(fastest.size(), 6u);
  EXPECT_EQ(fastest.front().median_s, 1e-3);
  EXPECT_FALSE(fastest.back().median_s);  // no timing sorts last
  q.limit = 2;
  auto top2 = db.query(q);
  ASSERT_EQ(top2.size(), 2u);
  EXPECT_EQ(top2[1].median_s, 2e-3);
  q = {};
  q.order = ResultOrder::Newest;
  q.limit = 1;
  EXPECT_EQ(db.query(q).at(0).config_key, "BLOCK=128,UNROLL=1");
  EXPECT_EQ(db.query(q).at(0).device_id, b.device);

  q = {};
  q.only_best_per_problem = true;
  auto best = db.query(q);
  ASSERT_EQ(best.size(), 2u);
  EXPECT_EQ(best[0].device_id, a.device);
  EXPECT_EQ(best[0].median_s, 1e-3);
  EXPECT_EQ(best[1].device_id, b.device);
  EXPECT_EQ(best[1].median_s, 8e-3);
  q.kernel_name = "gemm-b";
  ASSERT_EQ(db.query(q).size(), 1u);
}

TEST(Database, SessionsLifecycle) {
  TempDir dir;
  Database db(dir.path() / "s.db");
  Ids ids = add_target(db);
  std::int64_t s1 = db.begin_session(ids.device, ids.kernel, ids.problem, "annealing", {{"seed", 7}});
  auto running = db.session(s1);
  ASSERT_TRUE(running);
  EXPECT_EQ(running->state, "running");
  EXPECT_EQ(running->strategy, "annealing");
  EXPECT_EQ(running->options["seed"], 7);
  EXPECT_EQ(running->pid, getpid());
  EXPECT_FALSE(running->host.empty());
  EXPECT_FALSE(running->started_at.empty());
  EXPECT_TRUE(running->finished_at.empty());

  db.finish_session(s1, kSessionFinished);
  EXPECT_EQ(db.session(s1)->state, "finished");
  EXPECT_FALSE(db.session(s1)->finished_at.empty());
  EXPECT_THROW(db.finish_session(s1, "running"), std::invalid_argument);
  EXPECT_THROW(db.finish_session(s1, "done"), std::invalid_argument);
  EXPECT_THROW(db.finish_session(s1 + 100, kSessionFinished), std::invalid_argument);
  EXPECT_THROW(db.begin_session(0, ids.kernel, ids.problem, "x"), std::invalid_argument);

  // A session whose process died without finishing it: use the pid of a reaped child.
  std::int64_t alive = db.begin_session(ids.device, ids.kernel, ids.problem, "random");
  std::int64_t dead = db.begin_session(ids.device, ids.kernel, ids.problem, "random");
  pid_t child = fork();
  ASSERT_GE(child, 0);
  if (child == 0) _exit(0);
  int status = 0;
  ASSERT_EQ(waitpid(child, &status, 0), child);
  Statement set_pid(db.connection(), "UPDATE sessions SET pid = ?1 WHERE id = ?2");
  set_pid.bind_int(1, child).bind_int(2, dead).run();
  EXPECT_EQ(db.mark_abandoned_sessions(), 1);
  EXPECT_EQ(db.session(dead)->state, "interrupted");
  EXPECT_EQ(db.session(alive)->state, "running");
  EXPECT_EQ(db.mark_abandoned_sessions(), 0);

  auto listed = db.sessions();
  ASSERT_EQ(listed.size(), 3u);
  EXPECT_EQ(listed[0].id, dead);  // newest first
  EXPECT_EQ(db.sessions(1).size(), 1u);
}

TEST(Export, JsonHoldsReferencedRecordsBestAndResults) {
  Database db(":memory:");
  Ids a = add_target(db);
  Ids b = add_target(db, "-b");
  db.upsert_device({0, "unused", "cpu", "unused", {}});
  db.insert_result(make_result(a, cfg(64), Status::Ok, 2e-3));
  db.insert_result(make_result(a, cfg(128), Status::Ok, 1e-3));
  db.insert_result(make_result(a, cfg(256), Status::Crashed, std::nullopt));
  db.insert_result(make_result(b, cfg(64), Status::Ok, 4e-3));

  nlohmann::json all = export_json(db);
  EXPECT_EQ(all["format"], "ktune-results");
  EXPECT_EQ(all["version"], 1);
  EXPECT_EQ(all["devices"].size(), 2u);  // not the unused one
  EXPECT_EQ(all["kernels"].size(), 2u);
  EXPECT_EQ(all["problems"].size(), 2u);
  ASSERT_EQ(all["results"].size(), 4u);
  EXPECT_EQ(all["results"][2]["status"], "crashed");
  EXPECT_TRUE(all["results"][2]["median_s"].is_null());
  ASSERT_EQ(all["best"].size(), 2u);
  EXPECT_EQ(all["best"][0]["config"]["BLOCK"], 128);
  EXPECT_EQ(all["best"][0]["kernel"], "gemm");
  EXPECT_EQ(all["best"][0]["problem"], "gemm_4096");
  EXPECT_EQ(all["best"][0]["device"], "fp-h100");
  EXPECT_EQ(all["best"][1]["median_s"], 4e-3);
  // The document survives a text round trip.
  EXPECT_EQ(nlohmann::json::parse(all.dump()), all);

  ResultQuery only_b;
  only_b.kernel_name = "gemm-b";
  nlohmann::json part = export_json(db, only_b);
  EXPECT_EQ(part["results"].size(), 1u);
  EXPECT_EQ(part["best"].size(), 1u);
  EXPECT_EQ(part["devices"].size(), 1u);
  EXPECT_EQ(part["devices"][0]["fingerprint"], "fp-h100-b");
}

// Minimal RFC 4180 reader to check what export_csv writes.
std::vector<std::vector<std::string>> parse_csv(const std::string& text) {
  std::vector<std::vector<std::string>> rows(1);
  std::string field;
  bool quoted = false;
  for (std::size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    if (quoted) {
      if (c == '"' && i + 1 < text.size() && text[i + 1] == '"') {
        field += '"';
        ++i;
      } else if (c == '"') {
        quoted = false;
      } else {
        field += c;
      }
    } else if (c == '"') {
      quoted = true;
    } else if (c == ',') {
      rows.back().push_back(std::move(field));
      field.clear();
    } else if (c == '\n') {
      rows.back().push_back(std::move(field));
      field.clear();
      rows.emplace_back();
    } else {
      field += c;
    }
  }
  if (rows.back().empty()) rows.pop_back();
  return rows;
}

TEST(Export, CsvQuotesAndUnionsParameterColumns) {
  EXPECT_EQ(csv_field("plain"), "plain");
  EXPECT_EQ(csv_field(""), "");
  EXPECT_EQ(csv_field("a,b"), "\"a,b\"");
  EXPECT_EQ(csv_field("say \"hi\""), "\"say \"\"hi\"\"\"");
  EXPECT_EQ(csv_field("two\nlines"), "\"two\nlines\"");
  EXPECT_EQ(csv_field("cr\r"), "\"cr\r\"");
  EXPECT_EQ(csv_field(" padded"), "\" padded\"");

  Database db(":memory:");
  Ids ids = add_target(db);
  ResultRecord first = make_result(ids, Config{{"BLOCK", Value::integer(64)}, {"layout", Value::string("row,major")}},
                                   Status::Ok, 1.5e-3);
  first.gflops = 12.5;
  db.insert_result(first);
  ResultRecord second = make_result(
      ids, Config{{"BLOCK", Value::integer(128)}, {"alpha", Value::real(2.0)}, {"status", Value::boolean(true)}},
      Status::CompileError, std::nullopt);
  second.error = "error: expected ';'\n  \"quoted\", here";
  db.insert_result(second);

  auto rows = parse_csv(export_csv(db));
  ASSERT_EQ(rows.size(), 3u);
  const auto& header = rows[0];
  auto column = [&](const std::string& name) -> std::size_t {
    auto it = std::find(header.begin(), header.end(), name);
    EXPECT_NE(it, header.end()) << "missing column " << name;
    return static_cast<std::size_t>(it - header.begin());
  };
  for (const auto& row : rows) EXPECT_EQ(row.size(), header.size());
  EXPECT_EQ(header[0], "id");
  // Parameters between the identity columns and the measurements, sorted by name.
  EXPECT_LT(column("problem"), column("BLOCK"));
  EXPECT_LT(column("BLOCK"), column("alpha"));
  EXPECT_LT(column("alpha"), column("config.status"));
  EXPECT_LT(column("layout"), column("status"));
  EXPECT_EQ(rows[1][column("layout")], "row,major");
  EXPECT_EQ(rows[1][column("alpha")], "");
  EXPECT_EQ(rows[2][column("alpha")], "2.0");
  EXPECT_EQ(rows[2][column("config.status")], "true");
  EXPECT_EQ(rows[1][column("BLOCK")], "64");
  EXPECT_EQ(rows[1][column("status")], "ok");
  EXPECT_EQ(rows[1][column("median_ms")], "1.5");
  EXPECT_EQ(rows[1][column("gflops")], "12.5");
  EXPECT_EQ(rows[1][column("kernel")], "gemm");
  EXPECT_EQ(rows[1][column("device")], "NVIDIA H100");
  EXPECT_EQ(rows[2][column("status")], "compile_error");
  EXPECT_EQ(rows[2][column("median_ms")], "");
  EXPECT_EQ(rows[2][column("error")], second.error);

  ResultQuery none;
  none.kernel_name = "missing";
  EXPECT_EQ(parse_csv(export_csv(db, none)).size(), 1u);  // header only
}

TEST(Database, RejectsFilesThatAreNotKtuneDatabases) {
  TempDir dir;
  fs::path garbage = dir.path() / "garbage.db";
  {
    std::ofstream out(garbage, std::ios::binary);
    for (int i = 0; i < 4096; ++i) out.put(static_cast<char>((i * 7919) % 251));
  }
  std::string message = thrown_message([&] { Database db(garbage); });
  EXPECT_NE(message.find(garbage.string()), std::string::npos) << message;
  EXPECT_NE(message.find("not a database"), std::string::npos) << message;

  fs::path text_file = dir.path() / "notes.txt";
  std::ofstream(text_file) << "just some text that is long enough to not be mistaken for anything else at all\n";
  EXPECT_THROW(Database db(text_file), std::runtime_error);

  fs::path foreign = dir.path() / "foreign.db";
  {
    Connection connection(foreign.string(), SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE);
    connection.execute("CREATE TABLE t (x INTEGER)");
  }
  message = thrown_message([&] { Database db(foreign); });
  EXPECT_NE(message.find("not a ktune database"), std::string::npos) << message;

  fs::path future = dir.path() / "future.db";
  { Database db(future); }
  {
    Connection connection(future.string(), SQLITE_OPEN_READWRITE);
    connection.execute("PRAGMA user_version = " + std::to_string(kSchemaVersion + 1));
  }
  message = thrown_message([&] { Database db(future); });
  EXPECT_NE(message.find("newer"), std::string::npos) << message;

  fs::path missing = dir.path() / "missing.db";
  OpenOptions existing_only;
  existing_only.create_if_missing = false;
  message = thrown_message([&] { Database db(missing, existing_only); });
  EXPECT_NE(message.find("no such file"), std::string::npos) << message;
  EXPECT_FALSE(fs::exists(missing));

  message = thrown_message([&] { Database db(dir.path()); });
  EXPECT_NE(message.find("directory"), std::string::npos) << message;

  std::ofstream(dir.path() / "file") << "x";
  message = thrown_message([&] { Database db(dir.path() / "file" / "sub" / "x.db"); });
  EXPECT_NE(message.find("cannot create directory"), std::string::npos) << message;
}

TEST(Database, TwoConnectionsShareOneFile) {
  TempDir dir;
  fs::path path = dir.path() / "shared.db";
  Database writer(path);
  Database reader(path);
  Ids ids = add_target(writer);
  std::int64_t id = writer.insert_result(make_result(ids, cfg(64), Status::Ok, 1e-3));
  // Committed rows are visible to the other connection at once.
  ASSERT_TRUE(reader.result(id));
  EXPECT_EQ(reader.best(ids.device, ids.kernel, ids.problem)->id, id);

  {
    // WAL: an open read transaction neither blocks the writer nor sees its later commits.
    Transaction snapshot(reader.connection(), Transaction::Kind::Deferred);
    EXPECT_EQ(reader.query({}).size(), 1u);
    writer.insert_result(make_result(ids, cfg(128), Status::Ok, 2e-3));
    EXPECT_EQ(reader.query({}).size(), 1u);
  }
  EXPECT_EQ(reader.query({}).size(), 2u);

  {
    // A writer waits (busy timeout) for another writer's transaction instead of failing.
    Transaction held(reader.connection(), Transaction::Kind::Immediate);
    std::thread release([&held] {
      std::this_thread::sleep_for(std::chrono::milliseconds(200));
      held.commit();
    });
    auto start = std::chrono::steady_clock::now();
    writer.insert_result(make_result(ids, cfg(256), Status::Ok, 3e-3));
    EXPECT_GE(std::chrono::steady_clock::now() - start, std::chrono::milliseconds(150));
    release.join();
  }

  OpenOptions impatient;
  impatient.busy_timeout = std::chrono::milliseconds(50);
  Database quick(path, impatient);
  {
    Transaction held(reader.connection(), Transaction::Kind::Immediate);
    std::string message = thrown_message([&] { quick.insert_result(make_result(ids, cfg(512), Status::Ok, 1.0)); });
    EXPECT_NE(message.find("locked"), std::string::npos) << message;
  }

  // Concurrent writers from several threads, one connection each: nothing lost.
  constexpr int kThreads = 4;
  constexpr int kPerThread = 50;
  std::atomic<int> failures{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      try {
        Database own(path);
        for (int i = 0; i < kPerThread; ++i) {
          own.insert_result(make_result(ids, cfg(1000 + t, i), Status::Ok, 1e-3));
        }
      } catch (const std::exception& e) {
        ADD_FAILURE() << e.what();
        ++failures;
      }
    });
  }
  for (auto& thread : threads) thread.join();
  EXPECT_EQ(failures.load(), 0);
  EXPECT_EQ(reader.query({}).size(), 3u + kThreads * kPerThread);
  EXPECT_EQ(reader.integrity_check(), "ok");
}

}  // namespace
}  // namespace ktune::db
