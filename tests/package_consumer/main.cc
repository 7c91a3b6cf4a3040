// Looks up a tuned configuration through ktune's runtime API, as an application would; built
// against an installed ktune by run_consumer_test.cmake.
//
//   consumer DB_PATH PROBLEM [NAME=VALUE ...]
//
// Prints the fastest verified configuration of PROBLEM for those sizes (exit 0), "not found"
// (exit 3) when the database has none, or the error (exit 2) when DB_PATH is not a ktune
// database. Exit 1: bad command line or an inconsistent answer.
#include <ktune/ktune.h>

#include <cstdio>
#include <exception>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>

int main(int argc, char** argv) {
  if (argc < 3) {
    std::fprintf(stderr, "usage: %s DB_PATH PROBLEM [NAME=VALUE ...]\n", argv[0]);
    return 1;
  }
  std::map<std::string, std::string> sizes;
  for (int i = 3; i < argc; ++i) {
    const std::string arg = argv[i];
    const auto eq = arg.find('=');
    if (eq == std::string::npos || eq == 0) {
      std::fprintf(stderr, "expected NAME=VALUE, got '%s'\n", arg.c_str());
      return 1;
    }
    sizes[arg.substr(0, eq)] = arg.substr(eq + 1);
  }

  std::optional<ktune::TuningDatabase> db;
  try {
    db.emplace(argv[1]);
  } catch (const std::runtime_error& e) {  // the documented answer for a missing database
    std::printf("cannot open: %s\n", e.what());
    return 2;
  }

  try {
    // The object is movable (pimpl): check that a moved-to database still answers.
    ktune::TuningDatabase moved = std::move(*db);
    db.reset();
    const std::optional<ktune::TunedConfig> best = moved.best(argv[2], sizes);
    if (!best) {
      std::printf("not found: %s\n", argv[2]);
      return 3;
    }
    std::printf("problem %s on %s (%s): median %.9g s, result %lld\n", best->problem.c_str(),
                best->device_name.c_str(), best->device_fingerprint.c_str(), best->median_seconds,
                static_cast<long long>(best->result_id));
    for (const auto& [name, value] : best->sizes) std::printf("size %s=%s\n", name.c_str(), value.c_str());
    for (const auto& [name, value] : best->parameters) std::printf("param %s=%s\n", name.c_str(), value.c_str());

    // The same record, looked up for its own device, must come back; and all_best must list it.
    const auto again = moved.best(argv[2], sizes, best->device_fingerprint);
    bool listed = false;
    for (const auto& t : moved.all_best()) listed = listed || t.result_id == best->result_id;
    if (best->problem != argv[2] || best->median_seconds <= 0 || best->parameters.empty() || !again ||
        again->result_id != best->result_id || !listed) {
      std::fprintf(stderr, "inconsistent answer from the runtime API\n");
      return 1;
    }
    std::printf("consistent: device lookup and all_best agree\n");

    // The online-tuning Runtime, tuning off: it must give the same answer (the problem named
    // explicitly, so no spec file is read), and find the installed CLI it would run.
    ktune::RuntimeOptions options;
    options.database_path = argv[1];
    options.online = false;
    ktune::Runtime runtime(options);
    const auto served = runtime.lookup(std::string(argv[2]) + ".yaml", sizes, argv[2]);
    if (!served || served->result_id != best->result_id) {
      std::fprintf(stderr, "ktune::Runtime disagrees with TuningDatabase\n");
      return 1;
    }
    std::printf("runtime: same answer; ktune at %s\n", runtime.options().ktune_path.c_str());
    return 0;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "error: %s\n", e.what());
    return 1;
  }
}
