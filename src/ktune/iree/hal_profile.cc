#include "ktune/iree/hal_profile.h"

#include <algorithm>
#include <filesystem>
#include <map>
#include <sstream>
#include <stdexcept>

#include "ktune/device/subprocess.h"

namespace ktune::iree {
namespace fs = std::filesystem;

nlohmann::json HalProfile::to_json() const {
  nlohmann::json list = nlohmann::json::array();
  for (const auto& d : dispatches)
    list.push_back({{"function", d.function}, {"calls", d.calls}, {"calls_per_run", d.calls_per_run},
                    {"median_s", d.median_s}, {"min_s", d.min_s}, {"max_s", d.max_s}, {"total_s", d.total_s},
                    {"per_run_s", d.per_run_s()}, {"source", d.source}});
  nlohmann::json j = {{"mode", mode}, {"runs", runs}, {"dispatches", list}};
  if (!error.empty()) j["error"] = error;
  return j;
}

HalProfile HalProfile::from_json(const nlohmann::json& j) {
  HalProfile p;
  p.mode = j.value("mode", "");
  p.runs = j.value("runs", 0);
  p.error = j.value("error", "");
  for (const auto& d : j.value("dispatches", nlohmann::json::array())) {
    HalDispatchTime t;
    t.function = d.value("function", "");
    t.calls = d.value("calls", std::int64_t{0});
    t.calls_per_run = d.value("calls_per_run", 0.0);
    t.median_s = d.value("median_s", 0.0);
    t.min_s = d.value("min_s", 0.0);
    t.max_s = d.value("max_s", 0.0);
    t.total_s = d.value("total_s", 0.0);
    t.source = d.value("source", "");
    p.dispatches.push_back(t);
  }
  return p;
}

std::string hal_profile_mode(const std::string& device) {
  return device.rfind("local", 0) == 0 ? "host-execution" : "dispatch-events";
}

namespace {

double median_of(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const std::size_t n = v.size();
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

std::string tail(const std::string& text, std::size_t n = 1500) {
  return text.size() > n ? "..." + text.substr(text.size() - n) : text;
}

}  // namespace

std::vector<HalDispatchTime> parse_dispatch_events(const std::string& jsonl, int runs) {
  // function -> source -> durations (seconds)
  std::map<std::string, std::map<std::string, std::vector<double>>> events;
  std::istringstream in(jsonl);
  std::string line;
  int number = 0;
  while (std::getline(in, line)) {
    ++number;
    // stderr shares the stream: only JSON objects are records.
    if (line.empty() || line.front() != '{') continue;
    const nlohmann::json j = nlohmann::json::parse(line, nullptr, false);
    if (j.is_discarded()) throw std::runtime_error("iree-profile output line " + std::to_string(number) + " is not JSON: " + line.substr(0, 200));
    const std::string type = j.value("type", "");
    if (type != "dispatch_event" && type != "host_dispatch_event") continue;
    if (!j.value("valid", true) || !j.contains("duration_ns") || !j.contains("key")) continue;
    const std::string source = type == "dispatch_event" ? "device" : "host";
    events[j.at("key").get<std::string>()][source].push_back(j.at("duration_ns").get<double>() * 1e-9);
  }
  std::vector<HalDispatchTime> out;
  for (const auto& [function, by_source] : events) {
    const auto chosen = by_source.count("device") ? by_source.find("device") : by_source.begin();
    const std::vector<double>& d = chosen->second;
    HalDispatchTime t;
    t.function = function;
    t.source = chosen->first;
    t.calls = static_cast<std::int64_t>(d.size());
    t.calls_per_run = runs > 0 ? static_cast<double>(d.size()) / runs : 0;
    t.median_s = median_of(d);
    t.min_s = *std::min_element(d.begin(), d.end());
    t.max_s = *std::max_element(d.begin(), d.end());
    for (double s : d) t.total_s += s;
    out.push_back(t);
  }
  std::stable_sort(out.begin(), out.end(), [](const HalDispatchTime& a, const HalDispatchTime& b) { return a.per_run_s() > b.per_run_s(); });
  return out;
}

const HalDispatchTime* find_dispatch(const HalProfile& profile, const std::string& dispatch) {
  for (const auto& d : profile.dispatches)
    if (d.function == dispatch || d.function.rfind(dispatch + "_", 0) == 0) return &d;
  return nullptr;
}

HalProfile capture_hal_profile(const HalProfileRequest& r) {
  HalProfile p;
  p.mode = hal_profile_mode(r.device);
  p.runs = std::max(1, r.runs);
  if (r.profile_tool.empty()) {
    p.error = "iree-profile was not found next to iree-compile";
    return p;
  }
  device::SubprocessOptions options;
  options.timeout_seconds = r.timeout_seconds;
  options.max_output_bytes = std::size_t{64} << 20;  // ~650 bytes per event
  std::error_code ec;
  fs::remove(r.output, ec);
  // Exactly `runs` iterations, no warmup and one repetition: every event belongs to a run.
  std::vector<std::string> argv = {r.benchmark_module, "--device=" + r.device, "--module=" + r.module, "--function=" + r.function,
                                   "--benchmark_min_time=" + std::to_string(p.runs) + "x", "--benchmark_repetitions=1",
                                   "--device_profiling_mode=" + p.mode, "--device_profiling_output=" + r.output};
  for (const auto& in : r.inputs) argv.push_back("--input=@" + in);
  const device::SubprocessResult capture = device::run_subprocess(argv, options);
  if (!capture.succeeded()) {
    p.error = "iree-benchmark-module --device_profiling_mode=" + p.mode + " " + capture.describe() + ": " + tail(capture.output);
    return p;
  }
  const device::SubprocessResult read =
      device::run_subprocess({r.profile_tool, "dispatch", "--format=jsonl", "--dispatch_events", r.output}, options);
  if (!read.succeeded()) {
    p.error = "iree-profile dispatch " + read.describe() + ": " + tail(read.output);
    return p;
  }
  try {
    p.dispatches = parse_dispatch_events(read.output, p.runs);
  } catch (const std::exception& e) {
    p.error = e.what();
    return p;
  }
  if (p.dispatches.empty()) p.error = "the profile holds no dispatch event (mode " + p.mode + ")";
  return p;
}

}  // namespace ktune::iree
