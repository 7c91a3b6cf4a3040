// ktune._ktune: the Python binding of ktune's runtime API (include/ktune/ktune.h).
//
// Only what ktune.h declares is bound: TuningDatabase (look up the best configuration recorded
// in a database) and Runtime (lookups with online tuning through the ktune CLI as a child
// process). The Python package (python/ktune/__init__.py) builds its friendlier functions on
// these; there is no second implementation of either in Python.
//
// The GIL is released around every call that reads SQLite or waits for a tuning, so Python
// threads keep running while a lookup queries the database or wait_idle() blocks.

#include <ktune/ktune.h>

#include <map>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include <nanobind/nanobind.h>
#include <nanobind/stl/map.h>
#include <nanobind/stl/optional.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

namespace nb = nanobind;
using namespace nb::literals;

namespace {

using Sizes = std::map<std::string, std::string>;

// ktune::Runtime held through a shared_ptr, so that close() can run its destructor (which waits
// for or stops the running tunings) without the GIL, and a `with` block can end it. A call in
// flight keeps the Runtime alive: a close() from another thread meanwhile leaves the destructor
// to that call, which runs it before taking the GIL back.
class PyRuntime {
 public:
  explicit PyRuntime(ktune::RuntimeOptions options) : runtime_(std::make_shared<ktune::Runtime>(std::move(options))) {}

  std::shared_ptr<ktune::Runtime> get() const {  // GIL held
    if (!runtime_) throw std::runtime_error("this ktune Runtime is closed");
    return runtime_;
  }
  // Runs f(runtime) without the GIL.
  template <class F>
  auto call(F f) const {
    std::shared_ptr<ktune::Runtime> runtime = get();
    nb::gil_scoped_release release;
    auto result = f(*runtime);
    runtime.reset();
    return result;
  }
  void close() {  // GIL held
    std::shared_ptr<ktune::Runtime> runtime = std::move(runtime_);
    runtime_.reset();
    nb::gil_scoped_release release;
    runtime.reset();
  }
  bool closed() const { return !runtime_; }

 private:
  std::shared_ptr<ktune::Runtime> runtime_;
};

}  // namespace

NB_MODULE(_ktune, m) {
  m.doc() = "ktune's runtime API (include/ktune/ktune.h): TuningDatabase, Runtime";
  m.attr("__version__") = KTUNE_VERSION;

  nb::class_<ktune::TunedConfig>(m, "TunedConfig", "The best configuration recorded for a problem (values as text)")
      .def_ro("parameters", &ktune::TunedConfig::parameters, "name -> value as text ('64', 'true', 'row')")
      .def_ro("sizes", &ktune::TunedConfig::sizes, "the problem sizes it was tuned for, as text")
      .def_ro("median_seconds", &ktune::TunedConfig::median_seconds)
      .def_ro("gflops", &ktune::TunedConfig::gflops)
      .def_ro("gbps", &ktune::TunedConfig::gbps)
      .def_ro("problem", &ktune::TunedConfig::problem)
      .def_ro("device_name", &ktune::TunedConfig::device_name)
      .def_ro("device_fingerprint", &ktune::TunedConfig::device_fingerprint)
      .def_ro("result_id", &ktune::TunedConfig::result_id)
      .def("__repr__", [](const ktune::TunedConfig& t) {
        std::string parameters;
        for (const auto& [name, value] : t.parameters) {
          parameters += (parameters.empty() ? "" : ", ") + name + "=" + value;
        }
        return "<ktune.TunedConfig " + t.problem + " result " + std::to_string(t.result_id) + ": " + parameters + ">";
      });

  nb::class_<ktune::TuningDatabase>(m, "TuningDatabase",
                                     "One connection to an existing ktune database (not shared between threads)")
      .def(
          "__init__",
          [](ktune::TuningDatabase* self, const std::string& path) {
            nb::gil_scoped_release release;
            new (self) ktune::TuningDatabase(path);
          },
          "path"_a = "",
          "Opens an existing database (empty path: $KTUNE_DB, else the default per-user path); "
          "RuntimeError if it does not exist or is not a ktune database")
      .def(
          "best",
          [](const ktune::TuningDatabase& db, const std::string& problem, const Sizes& sizes,
             const std::string& device_fingerprint) {
            nb::gil_scoped_release release;
            return db.best(problem, sizes, device_fingerprint);
          },
          "problem"_a, "sizes"_a = Sizes{}, "device_fingerprint"_a = "",
          "Fastest verified configuration of `problem` (given sizes must match; empty fingerprint: any "
          "device), or None")
      .def(
          "all_best",
          [](const ktune::TuningDatabase& db) {
            nb::gil_scoped_release release;
            return db.all_best();
          },
          "Every problem's best per device");

  nb::class_<ktune::RuntimeOptions>(m, "RuntimeOptions", "ktune::RuntimeOptions (see ktune.h)")
      .def(nb::init<>())
      .def_rw("database_path", &ktune::RuntimeOptions::database_path)
      .def_rw("ktune_path", &ktune::RuntimeOptions::ktune_path)
      .def_rw("budget_seconds", &ktune::RuntimeOptions::budget_seconds)
      .def_rw("online", &ktune::RuntimeOptions::online)
      .def_rw("max_concurrent", &ktune::RuntimeOptions::max_concurrent)
      .def_rw("device_fingerprint", &ktune::RuntimeOptions::device_fingerprint)
      .def_rw("tune_args", &ktune::RuntimeOptions::tune_args)
      .def_rw("terminate_on_destroy", &ktune::RuntimeOptions::terminate_on_destroy)
      .def_rw("recheck_seconds", &ktune::RuntimeOptions::recheck_seconds);

  nb::enum_<ktune::TuningState>(m, "TuningState")
      .value("NotStarted", ktune::TuningState::NotStarted)
      .value("Queued", ktune::TuningState::Queued)
      .value("Tuning", ktune::TuningState::Tuning)
      .value("Done", ktune::TuningState::Done)
      .value("Failed", ktune::TuningState::Failed);

  nb::class_<ktune::TuningStatus>(m, "TuningStatus")
      .def_ro("state", &ktune::TuningStatus::state)
      .def_ro("exit_code", &ktune::TuningStatus::exit_code)
      .def_ro("error", &ktune::TuningStatus::error)
      .def_ro("seconds", &ktune::TuningStatus::seconds);

  nb::class_<PyRuntime>(m, "Runtime", "ktune::Runtime: lookups, with online tuning by the ktune CLI")
      .def(nb::init<ktune::RuntimeOptions>(), "options"_a = ktune::RuntimeOptions{})
      .def(
          "lookup",
          [](const PyRuntime& self, const std::string& spec_path, const Sizes& sizes, const std::string& problem) {
            return self.call([&](ktune::Runtime& r) { return r.lookup(spec_path, sizes, problem); });
          },
          "spec_path"_a, "sizes"_a = Sizes{}, "problem"_a = "",
          "The best configuration recorded for the spec's problem at these sizes, or None (then, with "
          "online tuning, the key is tuned in the background)")
      .def(
          "status",
          [](const PyRuntime& self, const std::string& spec_path, const Sizes& sizes) {
            return self.get()->status(spec_path, sizes);
          },
          "spec_path"_a, "sizes"_a = Sizes{})
      .def(
          "wait_idle",
          [](const PyRuntime& self, double timeout_seconds) {
            return self.call([&](ktune::Runtime& r) { return r.wait_idle(timeout_seconds); });
          },
          "timeout_seconds"_a, "Blocks until no tuning is queued or running, or the timeout passes; True when idle")
      .def_prop_ro("options", [](const PyRuntime& self) { return self.get()->options(); })
      .def_prop_ro("database_error", [](const PyRuntime& self) { return self.get()->database_error(); })
      .def("close", &PyRuntime::close,
           "Waits for (or, with terminate_on_destroy, stops) the running tunings; queued ones never start")
      .def_prop_ro("closed", &PyRuntime::closed);
}
