// Helper for db_crash_test: opens the database given as argv[1], starts a session and inserts
// results until it is killed. After each insert_result returns it prints "<id> <config_key>"
// and flushes, so every line the test reads names a row that was already committed.

#include <cstdio>
#include <exception>
#include <string>

#include "ktune/db/database.h"

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: %s DATABASE\n", argv[0]);
    return 2;
  }
  try {
    ktune::db::Database db(argv[1]);
    std::int64_t device = db.upsert_device({0, "crash-device", "cpu", "crash test", {{"cores", 2}}});
    std::int64_t kernel = db.upsert_kernel({0, "crash-hash", "crash_kernel", "cpp", "none"});
    std::int64_t problem = db.upsert_problem({0, "crash-problem", "crash", {{"N", 1}}, {}});
    std::int64_t session = db.begin_session(device, kernel, problem, "crash");
    std::printf("session %lld\n", static_cast<long long>(session));
    std::fflush(stdout);
    for (std::int64_t i = 0;; ++i) {
      ktune::db::ResultRecord r;
      r.session_id = session;
      r.device_id = device;
      r.kernel_id = kernel;
      r.problem_id = problem;
      r.config_key = "pid=" + std::to_string(session) + ",i=" + std::to_string(i);
      r.config = {{"pid", session}, {"i", i}};
      r.status = i % 5 == 0 ? ktune::db::Status::Timeout : ktune::db::Status::Ok;
      if (r.status == ktune::db::Status::Ok) r.median_s = 1e-3 + static_cast<double>(i % 97) * 1e-6;
      r.samples = 10;
      // Some bulk per row so that commits span pages and checkpoints happen during the run.
      r.error = std::string(static_cast<std::size_t>(i % 7) * 300, 'e');
      std::int64_t id = db.insert_result(r);
      std::printf("%lld %s\n", static_cast<long long>(id), r.config_key.c_str());
      std::fflush(stdout);
    }
  } catch (const std::exception& e) {
    std::fprintf(stderr, "db_crash_writer: %s\n", e.what());
    return 1;
  }
}
