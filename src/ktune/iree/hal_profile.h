#pragma once
// IREE's own dispatch profiling (IREE 3.13's HAL profiling and `iree-profile`): the whole model
// run N times under iree-benchmark-module with `--device_profiling_mode`, the bundle read back
// with `iree-profile dispatch --format=jsonl --dispatch_events`, every dispatch event grouped by
// the executable function (IREE's export name, `<dispatch>_<op>_<shape>`). This times each
// dispatch inside the model, with its real neighbours and caches, where the HAL driver supports
// it. Measured with 3.13: the local (CPU) drivers give host-execution events; the CUDA HAL
// answers "CUDA HAL-native profiling is not implemented" (lent H100, docs/data/issue10/session12),
// so on CUDA each dispatch is timed by its standalone benchmark module instead.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace ktune::iree {

struct HalDispatchTime {
  std::string function;      // the executable function (IREE's export name)
  std::int64_t calls = 0;    // valid events in the capture
  double calls_per_run = 0;  // calls / model runs
  double median_s = 0, min_s = 0, max_s = 0, total_s = 0;  // per call
  std::string source;        // "device" (device timestamps) or "host" (host execution spans)
  double per_run_s() const { return median_s * calls_per_run; }
};

struct HalProfile {
  std::string mode;   // the --device_profiling_mode used
  int runs = 0;       // model executions captured
  std::vector<HalDispatchTime> dispatches;  // slowest per run first
  std::string error;  // why there is no profile (the tool's own words); empty when there is
  bool ok() const { return error.empty(); }
  nlohmann::json to_json() const;
  static HalProfile from_json(const nlohmann::json& j);
};

// The profiling mode that gives per-dispatch times on an IREE device: host-execution spans on
// the local CPU drivers (their dispatch-events family is not implemented), device dispatch
// events elsewhere.
std::string hal_profile_mode(const std::string& device);

// `iree-profile dispatch --format=jsonl --dispatch_events` output -> per-function times. Device
// events ("dispatch_event") win over host spans ("host_dispatch_event") for the same function;
// invalid events are skipped. Throws std::runtime_error on a line that is not JSON.
std::vector<HalDispatchTime> parse_dispatch_events(const std::string& jsonl, int runs);

// The dispatch of a profile whose function is `dispatch`'s export: the name itself or the name
// followed by '_' (IREE names exports `<dispatch>_<root op>...`).
const HalDispatchTime* find_dispatch(const HalProfile& profile, const std::string& dispatch);

struct HalProfileRequest {
  std::string benchmark_module, profile_tool;  // the tools' paths
  std::string device, module, function;
  std::vector<std::string> inputs;  // .npy files
  std::string output;               // the .ireeprof bundle to write
  int runs = 10;
  double timeout_seconds = 120;
};

// Captures and reads a profile; failures (the driver does not profile, a tool fails) come back
// in HalProfile::error, never as an exception: the profile is an extra, the timing stands.
HalProfile capture_hal_profile(const HalProfileRequest& request);

}  // namespace ktune::iree
