#include "ktune/simulate/kernel_tuner_format.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <map>
#include <set>
#include <string_view>
#include <utility>

#include "ktune/core/config.h"
#include "ktune/db/status.h"

namespace ktune::simulate {

namespace {

using nlohmann::json;

// Kernel Tuner 1.5.0's ErrorConfig subclasses (kernel_tuner/util.py), stored in a cache entry's
// "__error__" as their class names.
constexpr std::string_view kCompileFailed = "CompilationFailedConfig";
constexpr std::string_view kRuntimeFailed = "RuntimeFailedConfig";
constexpr std::string_view kInvalid = "InvalidConfig";
constexpr std::string_view kErrorConfig = "ErrorConfig";

[[noreturn]] void fail(const std::string& origin, const std::string& path, const std::string& what) {
  throw RecordingError((origin.empty() ? "" : origin + ": ") + path + ": " + what);
}

double ms(double seconds) { return seconds * 1e3; }

void check_status(const std::string& status, const std::string& path) {
  if (!db::status_from_string(status)) fail("", path, "unknown status \"" + status + "\"");
}

// Kernel Tuner has three failures. A compiler rejection is CompilationFailedConfig. Whatever went
// wrong at run time is RuntimeFailedConfig: Kernel Tuner itself aborts the whole tuning run on a
// wrong result (check_kernel_output raises) and so never caches one, but a strategy replaying a
// recording must see the config fail and pay for it, as ktune's does. A config the device cannot
// launch (too many threads, registers, shared memory) or that was never run is InvalidConfig,
// which is what Kernel Tuner records when a config exceeds the device's limits before compiling.
std::string kt_error_for(const std::string& status, const std::string& path) {
  check_status(status, path);
  if (status == "ok") return "";
  if (status == "compile_error") return std::string(kCompileFailed);
  if (status == "resource_limit" || status == "skipped") return std::string(kInvalid);
  return std::string(kRuntimeFailed);  // runtime_error, timeout, wrong_result, memory_error, crashed
}

// The inverse, for the canonical status of each error; the others travel as "ktune_status".
std::string status_for_kt_error(std::string_view error) {
  if (error == kCompileFailed) return "compile_error";
  if (error == kInvalid) return "resource_limit";
  return "runtime_error";  // RuntimeFailedConfig and the generic ErrorConfig
}

// T4's invalidity enum has a value for timeouts and for wrong results, unlike the cache.
std::string t4_invalidity_for(const std::string& status, const std::string& path) {
  check_status(status, path);
  if (status == "ok") return "correct";
  if (status == "compile_error") return "compile";
  if (status == "timeout") return "timeout";
  if (status == "wrong_result") return "correctness";
  if (status == "resource_limit" || status == "skipped") return "constraints";
  return "runtime";  // runtime_error, memory_error, crashed
}

std::optional<std::string> status_for_t4_invalidity(const std::string& invalidity) {
  static const std::map<std::string, std::string, std::less<>> kStatuses{
      {"correct", "ok"},           {"compile", "compile_error"},  {"runtime", "runtime_error"},
      {"timeout", "timeout"},      {"correctness", "wrong_result"}, {"constraints", "resource_limit"}};
  auto it = kStatuses.find(invalidity);
  if (it == kStatuses.end()) return std::nullopt;
  return it->second;
}

// "2026-11-25T13:10:00Z" -> "2026-11-25 13:10:00+00:00", Python's str(datetime.now(timezone.utc))
// as Kernel Tuner stamps its results. Anything not in ktune's UTC form is passed through.
std::string kt_timestamp(const std::string& iso) {
  if (iso.size() < 20 || iso[10] != 'T' || iso.back() != 'Z') return iso;
  return iso.substr(0, 10) + " " + iso.substr(11, iso.size() - 12) + "+00:00";
}

std::string iso_timestamp(const std::string& kt) {
  constexpr std::string_view kUtc = "+00:00";
  if (kt.size() < 25 || kt[10] != ' ' || !kt.ends_with(kUtc)) return kt;
  return kt.substr(0, 10) + "T" + kt.substr(11, kt.size() - 11 - kUtc.size()) + "Z";
}

// What Kernel Tuner's formats have no place for; Kernel Tuner ignores unknown top-level keys.
json ktune_block(const RecordedSpace& space) {
  json names = json::array();
  for (const auto& p : space.parameters) names.push_back(p.name);
  return {{"format", "ktune-recorded-space"},
          {"version", 1},
          {"name", space.name},
          {"source", space.source},
          {"device", space.device},
          {"chip", space.chip},
          {"recorded_at", space.recorded_at},
          {"commit", space.commit},
          {"parameters", names},
          {"constraints", space.constraints},
          {"constants", config_to_json(space.constants)},
          {"membership", space.membership == RecordedSpace::Membership::Recorded ? "recorded" : "constraints"}};
}

std::string string_field(const json& obj, const char* key, const std::string& origin, const std::string& path) {
  if (!obj.contains(key)) return "";
  if (!obj[key].is_string()) fail(origin, path + "." + key, "expected a string");
  return obj[key].get<std::string>();
}

double number_field(const json& obj, const char* key, const std::string& origin, const std::string& path) {
  if (!obj.contains(key)) return 0;
  if (!obj[key].is_number()) fail(origin, path + "." + key, "expected a number");
  return obj[key].get<double>();
}

void apply_ktune_block(const json& block, RecordedSpace& space, const std::string& origin) {
  const std::string path = "ktune";
  if (!block.is_object()) fail(origin, path, "expected an object");
  const std::pair<const char*, std::string*> fields[] = {{"name", &space.name},   {"source", &space.source},
                                                          {"device", &space.device}, {"chip", &space.chip},
                                                          {"recorded_at", &space.recorded_at}, {"commit", &space.commit}};
  for (const auto& [key, field] : fields) {
    if (block.contains(key)) *field = string_field(block, key, origin, path);
  }
  try {
    if (block.contains("constraints")) space.constraints = block["constraints"].get<std::vector<std::string>>();
    if (block.contains("constants")) space.constants = config_from_json(block["constants"]);
  } catch (const std::exception& e) {
    fail(origin, path, std::string("bad constraints or constants: ") + e.what());
  }
  const std::string membership = string_field(block, "membership", origin, path);
  if (membership == "constraints") space.membership = RecordedSpace::Membership::Constraints;
  else if (membership == "recorded" || membership.empty()) space.membership = RecordedSpace::Membership::Recorded;
  else fail(origin, path + ".membership", "expected \"constraints\" or \"recorded\"");
}

// A config's values in parameter order, as JSON; every parameter must be there and no other.
json ordered_config(const RecordedSpace& space, const Config& config, const std::string& path) {
  json out = json::object();
  for (const auto& p : space.parameters) {
    auto it = config.find(p.name);
    if (it == config.end()) fail("", path, "lacks parameter " + p.name);
    out[p.name] = value_to_json(it->second);
  }
  if (config.size() != space.parameters.size()) fail("", path, "has a value for a name that is no parameter");
  return out;
}

// Kernel Tuner's cache key: ",".join(str(v) for v in config) in tune_params_keys order.
std::string cache_key(const RecordedSpace& space, const Config& config) {
  std::string key;
  for (const auto& p : space.parameters) {
    if (&p != &space.parameters.front()) key += ',';
    key += kernel_tuner_value_text(config.at(p.name));
  }
  return key;
}

json cache_entry(const RecordedSpace& space, const RecordedResult& r, const std::string& path) {
  json entry = ordered_config(space, r.config, path + ".config");
  const std::string error = kt_error_for(r.status, path + ".status");
  if (error.empty()) {
    if (!r.time_s) fail("", path, "status ok without time_s");
    // ktune keeps the median only; a one-element "times" keeps "time" == mean(times).
    entry["time"] = ms(*r.time_s);
    entry["times"] = json::array({ms(*r.time_s)});
  } else {
    entry["__error__"] = error;
    if (status_for_kt_error(error) != r.status) entry["ktune_status"] = r.status;
  }
  entry["compile_time"] = ms(r.compile_s);
  entry["verification_time"] = 0.0;  // ktune's measure_s covers verification and measurement
  entry["benchmark_time"] = ms(r.measure_s);
  // Kernel Tuner's own caches lack these two (its runner adds them after storing); 0 keeps
  // entries usable as complete results, e.g. by get_t4_results.
  entry["strategy_time"] = 0.0;
  entry["framework_time"] = 0.0;
  if (!space.recorded_at.empty()) entry["timestamp"] = kt_timestamp(space.recorded_at);
  return entry;
}

// Kernel Tuner's problem_size is the integer problem size it launches grids over; in simulation
// it is only compared with the caller's. ktune's integer constants (N, M, ...) in name order play
// that part; [1] when there are none, since Kernel Tuner needs one.
json problem_size(const Config& constants) {
  json sizes = json::array();
  for (const auto& [name, value] : constants) {
    if (value.is_int()) sizes.push_back(value.as_int());
  }
  if (sizes.empty()) sizes.push_back(1);
  return sizes;
}

Value value_in(const space::Parameter& p, const json& j, const std::string& origin, const std::string& path) {
  Value v;
  try {
    v = value_from_json(j);
  } catch (const std::invalid_argument& e) {
    fail(origin, path, e.what());
  }
  if (std::find(p.values.begin(), p.values.end(), v) == p.values.end()) {
    fail(origin, path, "value " + v.to_string() + " is not among parameter " + p.name + "'s values");
  }
  return v;
}

// Mirrors read_cache: "__error__", or (older caches) any string value naming an ErrorConfig.
std::optional<std::string> entry_error(const json& entry) {
  if (entry.contains("__error__") && entry["__error__"].is_string()) return entry["__error__"].get<std::string>();
  for (const auto& [key, value] : entry.items()) {
    if (!value.is_string()) continue;
    const auto& text = value.get_ref<const std::string&>();
    if (text == kCompileFailed || text == kRuntimeFailed || text == kInvalid || text == kErrorConfig) return text;
  }
  return std::nullopt;
}

RecordedResult result_from_cache_entry(const RecordedSpace& space, const json& entry, const std::string& origin,
                                       const std::string& path) {
  if (!entry.is_object()) fail(origin, path, "expected an object");
  RecordedResult r;
  for (const auto& p : space.parameters) {
    if (!entry.contains(p.name)) fail(origin, path, "lacks parameter " + p.name);
    r.config[p.name] = value_in(p, entry[p.name], origin, path + "." + p.name);
  }
  if (auto error = entry_error(entry)) {
    r.status = status_for_kt_error(*error);
    if (entry.contains("ktune_status")) r.status = string_field(entry, "ktune_status", origin, path);
    if (!db::status_from_string(r.status) || r.status == "ok") fail(origin, path + ".ktune_status", "bad status");
  } else {
    if (!entry.contains("time") || !entry["time"].is_number()) fail(origin, path, "lacks a numeric time");
    r.time_s = entry["time"].get<double>() / 1e3;
  }
  r.compile_s = number_field(entry, "compile_time", origin, path) / 1e3;
  r.measure_s =
      (number_field(entry, "verification_time", origin, path) + number_field(entry, "benchmark_time", origin, path)) /
      1e3;
  return r;
}

// Enumeration order: by each parameter's value index, first parameter slowest.
void sort_results(RecordedSpace& space) {
  std::vector<std::map<Value, std::size_t>> index(space.parameters.size());
  for (std::size_t i = 0; i < space.parameters.size(); ++i) {
    for (std::size_t k = 0; k < space.parameters[i].values.size(); ++k) index[i].emplace(space.parameters[i].values[k], k);
  }
  auto rank = [&](const RecordedResult& r) {
    std::vector<std::size_t> out;
    for (std::size_t i = 0; i < space.parameters.size(); ++i) out.push_back(index[i].at(r.config.at(space.parameters[i].name)));
    return out;
  };
  std::stable_sort(space.results.begin(), space.results.end(),
                   [&](const RecordedResult& a, const RecordedResult& b) { return rank(a) < rank(b); });
}

std::vector<std::string> tune_params_keys(const json& doc, const std::string& origin) {
  std::vector<std::string> keys;
  if (doc.contains("tune_params_keys")) {
    if (!doc["tune_params_keys"].is_array()) fail(origin, "tune_params_keys", "expected an array");
    for (const auto& k : doc["tune_params_keys"]) {
      if (!k.is_string()) fail(origin, "tune_params_keys", "expected strings");
      keys.push_back(k.get<std::string>());
    }
  } else {
    for (const auto& [k, v] : doc["tune_params"].items()) keys.push_back(k);  // no order to go by
  }
  return keys;
}

std::vector<space::Parameter> cache_parameters(const json& doc, const std::string& origin) {
  if (!doc.contains("tune_params") || !doc["tune_params"].is_object()) fail(origin, "tune_params", "expected an object");
  std::vector<space::Parameter> parameters;
  for (const auto& name : tune_params_keys(doc, origin)) {
    const std::string path = "tune_params." + name;
    if (!doc["tune_params"].contains(name)) fail(origin, path, "missing");
    const json& values = doc["tune_params"][name];
    if (!values.is_array() || values.empty()) fail(origin, path, "expected a non-empty array");
    space::Parameter p{name, {}, 0};
    for (const auto& v : values) {
      try {
        p.values.push_back(value_from_json(v));
      } catch (const std::invalid_argument& e) {
        fail(origin, path, e.what());
      }
    }
    parameters.push_back(std::move(p));
  }
  return parameters;
}

}  // namespace

std::string kernel_tuner_value_text(const Value& value) {
  if (value.is_bool()) return value.as_bool() ? "True" : "False";
  if (value.is_int()) return std::to_string(value.as_int());
  if (value.is_string()) return value.as_string();
  // Python's repr of a float: the shortest digits that round-trip, positional for decimal
  // exponents -4 <= e < 16 (always with a fractional part), else d.ddde+XX.
  const double x = value.as_double();
  if (std::isnan(x)) return "nan";
  if (std::isinf(x)) return x > 0 ? "inf" : "-inf";
  if (x == 0) return std::signbit(x) ? "-0.0" : "0.0";
  char buf[64];
  const auto end = std::to_chars(buf, buf + sizeof buf, std::fabs(x), std::chars_format::scientific).ptr;
  const std::string sci(buf, end);  // "1.2345e-05"
  const std::size_t e = sci.find('e');
  const int exponent = std::stoi(sci.substr(e + 1));
  std::string digits = sci.substr(0, e);
  digits.erase(std::remove(digits.begin(), digits.end(), '.'), digits.end());
  const int point = exponent + 1;  // digits are 0.d1d2... x 10^point
  const int n = static_cast<int>(digits.size());
  std::string out;
  if (point <= -4 || point > 16) {
    char exp_text[16];
    std::snprintf(exp_text, sizeof exp_text, "e%+03d", exponent);
    out = digits.substr(0, 1) + (n > 1 ? "." + digits.substr(1) : "") + exp_text;
  } else if (point <= 0) {
    out = "0." + std::string(static_cast<std::size_t>(-point), '0') + digits;
  } else if (point >= n) {
    out = digits + std::string(static_cast<std::size_t>(point - n), '0') + ".0";
  } else {
    out = digits.substr(0, static_cast<std::size_t>(point)) + "." + digits.substr(static_cast<std::size_t>(point));
  }
  return (x < 0 ? "-" : "") + out;
}

nlohmann::json to_kernel_tuner_cache(const RecordedSpace& space) {
  json tune_params = json::object();
  json keys = json::array();
  for (const auto& p : space.parameters) {
    json values = json::array();
    for (const auto& v : p.values) values.push_back(value_to_json(v));
    tune_params[p.name] = values;
    keys.push_back(p.name);
  }
  json cache = json::object();
  for (std::size_t i = 0; i < space.results.size(); ++i) {
    const std::string path = "results[" + std::to_string(i) + "]";
    json entry = cache_entry(space, space.results[i], path);
    if (!cache.emplace(cache_key(space, space.results[i].config), std::move(entry)).second) {
      fail("", path, "duplicate configuration");
    }
  }
  return {{"device_name", space.device},
          {"kernel_name", space.name},
          {"problem_size", problem_size(space.constants)},
          {"tune_params_keys", keys},
          {"tune_params", tune_params},
          {"objective", json::array({"time"})},  // Kernel Tuner 1.5.0 writes its objectives as a list
          {"cache", cache},
          {"ktune", ktune_block(space)}};
}

RecordedSpace recorded_space_from_kernel_tuner_cache(const nlohmann::json& doc, const std::string& origin) {
  if (!doc.is_object()) fail(origin, "$", "expected a Kernel Tuner cache object");
  RecordedSpace space;
  space.membership = RecordedSpace::Membership::Recorded;
  space.name = string_field(doc, "kernel_name", origin, "$");
  space.device = string_field(doc, "device_name", origin, "$");
  space.parameters = cache_parameters(doc, origin);
  if (!doc.contains("cache") || !doc["cache"].is_object()) fail(origin, "cache", "expected an object");
  std::string earliest;
  for (const auto& [key, entry] : doc["cache"].items()) {
    const std::string path = "cache[\"" + key + "\"]";
    space.results.push_back(result_from_cache_entry(space, entry, origin, path));
    const std::string stamp = entry.is_object() ? string_field(entry, "timestamp", origin, path) : "";
    if (!stamp.empty() && (earliest.empty() || stamp < earliest)) earliest = stamp;
  }
  space.recorded_at = iso_timestamp(earliest);
  if (doc.contains("ktune")) apply_ktune_block(doc["ktune"], space, origin);
  sort_results(space);
  return space;
}

namespace {

json t4_result(const RecordedSpace& space, const RecordedResult& r, const std::string& path) {
  const std::string invalidity = t4_invalidity_for(r.status, path + ".status");
  json measurements = json::array();
  json runtimes = json::array();
  if (r.status == "ok") {
    if (!r.time_s) fail("", path, "status ok without time_s");
    measurements.push_back({{"name", "time"}, {"value", ms(*r.time_s)}, {"unit", "ms"}});
    runtimes.push_back(ms(*r.time_s));
  } else if (status_for_t4_invalidity(invalidity) != r.status) {
    measurements.push_back({{"name", "ktune_status"}, {"value", r.status}, {"unit", ""}});
  }
  // The schema names the compile time "compilation_time"; Kernel Tuner 1.5.0's get_t4_results
  // writes "compilation" and adds "benchmark". Both are written so either reader finds them.
  json times = {{"compilation_time", ms(r.compile_s)}, {"compilation", ms(r.compile_s)},
                {"benchmark", ms(r.measure_s)},        {"validation", 0.0},
                {"framework", 0.0},                    {"search_algorithm", 0.0},
                {"runtimes", runtimes}};
  json out = {{"configuration", ordered_config(space, r.config, path + ".config")},
              {"times", times},
              {"invalidity", invalidity},
              {"correctness", r.status == "wrong_result" ? 0 : 1},
              {"measurements", measurements},
              {"objectives", json::array({"time"})}};
  if (!space.recorded_at.empty()) out["timestamp"] = kt_timestamp(space.recorded_at);
  return out;
}

double seconds_from(const json& measurement, const std::string& origin, const std::string& path) {
  if (!measurement.contains("value") || !measurement["value"].is_number()) fail(origin, path, "value is no number");
  const double v = measurement["value"].get<double>();
  const std::string unit = string_field(measurement, "unit", origin, path);
  if (unit.empty() || unit == "ms") return v / 1e3;  // Kernel Tuner's timeunit: milliseconds
  if (unit == "s") return v;
  if (unit == "us") return v / 1e6;
  fail(origin, path + ".unit", "unknown time unit \"" + unit + "\"");
}

// Status, and for an ok result its time: the measurement named by the first objective.
void t4_outcome(const json& item, RecordedResult& r, const std::string& origin, const std::string& path) {
  const std::string invalidity = string_field(item, "invalidity", origin, path);
  const auto status = status_for_t4_invalidity(invalidity);
  if (!status) fail(origin, path + ".invalidity", "unknown invalidity \"" + invalidity + "\"");
  r.status = *status;
  std::string objective = "time";
  if (item.contains("objectives") && item["objectives"].is_array() && !item["objectives"].empty() &&
      item["objectives"][0].is_string()) {
    objective = item["objectives"][0].get<std::string>();
  }
  const json none = json::array();
  const json& measurements = item.contains("measurements") ? item["measurements"] : none;
  if (!measurements.is_array()) fail(origin, path + ".measurements", "expected an array");
  for (std::size_t k = 0; k < measurements.size(); ++k) {
    const json& m = measurements[k];
    const std::string mpath = path + ".measurements[" + std::to_string(k) + "]";
    if (!m.is_object()) fail(origin, mpath, "expected an object");
    const std::string name = string_field(m, "name", origin, mpath);
    if (name == "ktune_status" && r.status != "ok") r.status = string_field(m, "value", origin, mpath);
    if (name == objective && r.status == "ok") r.time_s = seconds_from(m, origin, mpath);
  }
  if (!db::status_from_string(r.status)) fail(origin, path, "unknown ktune_status \"" + r.status + "\"");
  if (r.status == "ok" && !r.time_s) fail(origin, path, "correct, but no measurement named " + objective);
}

// Values in order of first appearance; sorted by number when every value is a number.
void collect_values(RecordedSpace& space) {
  for (auto& p : space.parameters) {
    std::set<Value> seen;
    for (const auto& r : space.results) {
      const Value& v = r.config.at(p.name);
      if (seen.insert(v).second) p.values.push_back(v);
    }
    if (std::all_of(p.values.begin(), p.values.end(), [](const Value& v) { return v.is_numeric(); })) {
      std::stable_sort(p.values.begin(), p.values.end(),
                       [](const Value& a, const Value& b) { return a.as_double() < b.as_double(); });
    }
  }
}

std::vector<std::string> t4_parameter_names(const json& doc, const std::string& origin) {
  std::vector<std::string> names;
  if (doc.contains("ktune") && doc["ktune"].is_object() && doc["ktune"].contains("parameters")) {
    try {
      return doc["ktune"]["parameters"].get<std::vector<std::string>>();
    } catch (const std::exception&) {
      fail(origin, "ktune.parameters", "expected an array of strings");
    }
  }
  const json& results = doc["results"];
  if (!results.empty() && results[0].is_object() && results[0].contains("configuration") &&
      results[0]["configuration"].is_object()) {
    for (const auto& [name, value] : results[0]["configuration"].items()) names.push_back(name);
  }
  return names;
}

RecordedResult t4_item(const json& item, const std::vector<std::string>& names, const std::string& origin,
                       const std::string& path) {
  if (!item.is_object()) fail(origin, path, "expected an object");
  for (const char* key : {"configuration", "times", "invalidity", "correctness"}) {
    if (!item.contains(key)) fail(origin, path, std::string("lacks ") + key);  // the schema's required fields
  }
  const json& configuration = item["configuration"];
  if (!configuration.is_object() || configuration.size() != names.size()) {
    fail(origin, path + ".configuration", "expected an object with one value per parameter");
  }
  RecordedResult r;
  for (const auto& name : names) {
    if (!configuration.contains(name)) fail(origin, path + ".configuration", "lacks parameter " + name);
    try {
      r.config[name] = value_from_json(configuration[name]);
    } catch (const std::invalid_argument& e) {
      fail(origin, path + ".configuration." + name, e.what());
    }
  }
  t4_outcome(item, r, origin, path);
  const json& times = item["times"];
  if (!times.is_object()) fail(origin, path + ".times", "expected an object");
  const char* compile_key = times.contains("compilation_time") ? "compilation_time" : "compilation";
  r.compile_s = number_field(times, compile_key, origin, path + ".times") / 1e3;
  r.measure_s = (number_field(times, "validation", origin, path + ".times") +
                 number_field(times, "benchmark", origin, path + ".times")) /
                1e3;
  return r;
}

}  // namespace

nlohmann::json to_t4_results(const RecordedSpace& space) {
  json results = json::array();
  for (std::size_t i = 0; i < space.results.size(); ++i) {
    results.push_back(t4_result(space, space.results[i], "results[" + std::to_string(i) + "]"));
  }
  return {{"schema_version", "1.0.0"},
          {"metadata", {{"timeunit", "milliseconds"}}},
          {"results", results},
          {"ktune", ktune_block(space)}};
}

RecordedSpace recorded_space_from_t4_results(const nlohmann::json& doc, const std::string& origin) {
  if (!doc.is_object() || !doc.contains("results") || !doc["results"].is_array()) {
    fail(origin, "results", "expected a T4 results object with a results array");
  }
  RecordedSpace space;
  space.membership = RecordedSpace::Membership::Recorded;
  space.name = std::filesystem::path(origin).stem().string();
  const auto names = t4_parameter_names(doc, origin);
  for (const auto& name : names) space.parameters.push_back({name, {}, 0});
  std::set<std::string> keys;
  for (std::size_t i = 0; i < doc["results"].size(); ++i) {
    const std::string path = "results[" + std::to_string(i) + "]";
    space.results.push_back(t4_item(doc["results"][i], names, origin, path));
    if (!keys.insert(config_key(space.results.back().config)).second) fail(origin, path, "duplicate configuration");
  }
  collect_values(space);
  if (!doc["results"].empty()) {
    space.recorded_at = iso_timestamp(string_field(doc["results"][0], "timestamp", origin, "results[0]"));
  }
  if (doc.contains("ktune")) apply_ktune_block(doc["ktune"], space, origin);
  return space;
}

}  // namespace ktune::simulate
