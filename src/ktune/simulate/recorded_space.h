#pragma once
// A recorded space: every valid configuration of one tuning problem measured on one device
// (`ktune record`, or any exhaustive session exported), kept as a compact JSON file so that
// strategies can be compared on it later without a GPU (simulation mode, the methodology
// score) and so that recordings move to and from Kernel Tuner (kernel_tuner_format.h).
//
//   {"format": "ktune-recorded-space", "version": 1,
//    "name": "cuda_histogram", "source": "examples/cuda/histogram/histogram.yaml",
//    "device": "NVIDIA H100 80GB HBM3", "chip": "sm_90", "recorded_at": "2026-11-25T13:10:00Z",
//    "commit": "abc1234",
//    "parameters": [{"name": "BLOCK", "values": [128, 256, 512]}, ...],
//    "constraints": ["BLOCK * ITEMS <= 4096", ...],      // ktune expressions (spec syntax)
//    "constants": {"N": 1048576},
//    "membership": "constraints" | "recorded",
//    "results": [{"config": {"BLOCK": 128, ...}, "status": "ok", "time_s": 1.2e-5,
//                 "compile_s": 0.21, "measure_s": 0.012}, ...]}
//
// membership "constraints": the space is the parameters filtered by the constraints (a spec's
// space); "recorded": the space is exactly the recorded configurations (a space whose
// constraints live in C++, such as the generated GEMM family's or an IREE dispatch's).
// status is a db::Status name ("ok", "compile_error", "wrong_result", ...); time_s is the
// median kernel time of an "ok" result and absent otherwise; compile_s and measure_s are what
// the evaluation cost (compile, then verify + measure), charged to the simulated clock.

#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "ktune/core/config.h"
#include "ktune/simulate/trace.h"
#include "ktune/space/search_space.h"

namespace ktune::simulate {

struct RecordedResult {
  Config config;
  std::string status = "ok";
  std::optional<double> time_s;  // set iff status == "ok"
  double compile_s = 0;
  double measure_s = 0;
  double cost_seconds() const { return compile_s + measure_s; }
};

struct RecordedSpace {
  std::string name;
  std::string source;
  std::string device;
  std::string chip;
  std::string recorded_at;
  std::string commit;
  std::vector<space::Parameter> parameters;  // values in their listed order
  std::vector<std::string> constraints;
  Config constants;
  enum class Membership { Constraints, Recorded } membership = Membership::Constraints;
  std::vector<RecordedResult> results;
};

class RecordingError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Parse / print the JSON above. Errors name the file (when given), the JSON path and what is
// wrong ("cuda_histogram.json: results[3].config: lacks parameter BLOCK").
RecordedSpace recorded_space_from_json(const nlohmann::json& doc, const std::string& origin = "");
nlohmann::json to_json(const RecordedSpace& space);
RecordedSpace load_recorded_space(const std::filesystem::path& path);
void save_recorded_space(const RecordedSpace& space, const std::filesystem::path& path);

}  // namespace ktune::simulate

namespace ktune::simulate {

// The space the recording covers, as strategies see it: the parameters and constraints for
// membership "constraints"; for "recorded", the parameters restricted to the recorded
// configurations (one predicate per parameter prefix, so that solving prunes early). Throws
// RecordingError naming the recording for a constraint that does not parse.
space::SearchSpace build_space(const RecordedSpace& recording);

// Every recorded configuration by config_key, for answering evaluations. Throws RecordingError
// for a configuration recorded twice.
std::map<std::string, const RecordedResult*> index_results(const RecordedSpace& recording);

// The methodology's view: the ok objectives, the number of configurations and the mean cost.
SpaceStatistics statistics(const RecordedSpace& recording);

}  // namespace ktune::simulate
