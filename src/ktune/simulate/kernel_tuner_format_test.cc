#include "ktune/simulate/kernel_tuner_format.h"

#include <algorithm>
#include <regex>
#include <set>

#include <gtest/gtest.h>

namespace ktune::simulate {
namespace {

using nlohmann::json;

Config make_config(std::int64_t block, double scale, const std::string& layout) {
  return {{"BLOCK", Value::integer(block)}, {"SCALE", Value::real(scale)}, {"LAYOUT", Value::string(layout)}};
}

RecordedResult make_result(Config config, std::string status, std::optional<double> time_s, double compile_s,
                           double measure_s) {
  RecordedResult r;
  r.config = std::move(config);
  r.status = std::move(status);
  r.time_s = time_s;
  r.compile_s = compile_s;
  r.measure_s = measure_s;
  return r;
}

// One result per ktune status that a recording can hold, parameters of every value type but bool.
RecordedSpace sample_space() {
  RecordedSpace s;
  s.name = "cuda_histogram";
  s.source = "examples/cuda/histogram/histogram.yaml";
  s.device = "NVIDIA H100 80GB HBM3";
  s.chip = "sm_90";
  s.recorded_at = "2026-11-25T13:10:00Z";
  s.commit = "abc1234";
  s.parameters = {{"BLOCK", {Value::integer(256), Value::integer(64), Value::integer(128)}, 0},
                  {"SCALE", {Value::real(0.5), Value::real(1e-05), Value::real(2.0)}, 0},
                  {"LAYOUT", {Value::string("row"), Value::string("col")}, 0}};
  s.constraints = {"BLOCK * SCALE <= 512"};
  s.constants = {{"N", Value::integer(1048576)}, {"ALPHA", Value::real(1.5)}};
  s.membership = RecordedSpace::Membership::Constraints;
  s.results = {make_result(make_config(256, 0.5, "row"), "ok", 1.25e-5, 0.21, 0.012),
               make_result(make_config(64, 0.5, "col"), "ok", 3.5e-4, 0.19, 0.02),
               make_result(make_config(128, 1e-05, "row"), "compile_error", std::nullopt, 0.3, 0),
               make_result(make_config(128, 2.0, "col"), "runtime_error", std::nullopt, 0.2, 0.001),
               make_result(make_config(64, 2.0, "row"), "timeout", std::nullopt, 0.2, 5.0),
               make_result(make_config(256, 2.0, "col"), "wrong_result", std::nullopt, 0.25, 0.01),
               make_result(make_config(64, 1e-05, "col"), "resource_limit", std::nullopt, 0.05, 0),
               make_result(make_config(256, 1e-05, "col"), "memory_error", std::nullopt, 0.22, 0.03)};
  return s;
}

void expect_seconds_eq(double a, double b, const std::string& what) {
  EXPECT_NEAR(a, b, 1e-12 * std::max(1.0, std::fabs(b))) << what;  // s -> ms -> s may round
}

void expect_results_eq(const std::vector<RecordedResult>& got, const std::vector<RecordedResult>& want) {
  ASSERT_EQ(got.size(), want.size());
  for (std::size_t i = 0; i < got.size(); ++i) {
    const std::string what = config_key(want[i].config);
    EXPECT_EQ(got[i].config, want[i].config) << what;
    EXPECT_EQ(got[i].status, want[i].status) << what;
    ASSERT_EQ(got[i].time_s.has_value(), want[i].time_s.has_value()) << what;
    if (want[i].time_s) expect_seconds_eq(*got[i].time_s, *want[i].time_s, what);
    expect_seconds_eq(got[i].compile_s, want[i].compile_s, what);
    expect_seconds_eq(got[i].measure_s, want[i].measure_s, what);
  }
}

void expect_metadata_eq(const RecordedSpace& got, const RecordedSpace& want) {
  EXPECT_EQ(got.name, want.name);
  EXPECT_EQ(got.source, want.source);
  EXPECT_EQ(got.device, want.device);
  EXPECT_EQ(got.chip, want.chip);
  EXPECT_EQ(got.recorded_at, want.recorded_at);
  EXPECT_EQ(got.commit, want.commit);
  EXPECT_EQ(got.constraints, want.constraints);
  EXPECT_EQ(got.constants, want.constants);
  EXPECT_EQ(got.membership, want.membership);
}

std::vector<RecordedResult> sorted_by_key(std::vector<RecordedResult> results) {
  std::sort(results.begin(), results.end(),
            [](const auto& a, const auto& b) { return config_key(a.config) < config_key(b.config); });
  return results;
}

TEST(KernelTunerValueText, MatchesPythonStr) {
  EXPECT_EQ(kernel_tuner_value_text(Value::integer(128)), "128");
  EXPECT_EQ(kernel_tuner_value_text(Value::integer(-3)), "-3");
  EXPECT_EQ(kernel_tuner_value_text(Value::boolean(true)), "True");
  EXPECT_EQ(kernel_tuner_value_text(Value::boolean(false)), "False");
  EXPECT_EQ(kernel_tuner_value_text(Value::string("row")), "row");
  // Python: str(0.5), str(1.0), str(1e-05), str(0.0001), str(1e16), str(1e15), str(0.1), str(-2.5)
  EXPECT_EQ(kernel_tuner_value_text(Value::real(0.5)), "0.5");
  EXPECT_EQ(kernel_tuner_value_text(Value::real(1.0)), "1.0");
  EXPECT_EQ(kernel_tuner_value_text(Value::real(1e-05)), "1e-05");
  EXPECT_EQ(kernel_tuner_value_text(Value::real(1.5e-07)), "1.5e-07");
  EXPECT_EQ(kernel_tuner_value_text(Value::real(0.0001)), "0.0001");
  EXPECT_EQ(kernel_tuner_value_text(Value::real(1e16)), "1e+16");
  EXPECT_EQ(kernel_tuner_value_text(Value::real(1e15)), "1000000000000000.0");
  EXPECT_EQ(kernel_tuner_value_text(Value::real(123.0)), "123.0");
  EXPECT_EQ(kernel_tuner_value_text(Value::real(0.1)), "0.1");
  EXPECT_EQ(kernel_tuner_value_text(Value::real(-2.5)), "-2.5");
  EXPECT_EQ(kernel_tuner_value_text(Value::real(0.0)), "0.0");
  EXPECT_EQ(kernel_tuner_value_text(Value::real(1e100)), "1e+100");
}

TEST(KernelTunerCache, Layout) {
  const json doc = to_kernel_tuner_cache(sample_space());
  EXPECT_EQ(doc["device_name"], "NVIDIA H100 80GB HBM3");
  EXPECT_EQ(doc["kernel_name"], "cuda_histogram");
  EXPECT_EQ(doc["problem_size"], json::array({1048576}));  // the integer constants
  EXPECT_EQ(doc["tune_params_keys"], json::array({"BLOCK", "SCALE", "LAYOUT"}));
  EXPECT_EQ(doc["tune_params"]["BLOCK"], json::array({256, 64, 128}));  // listed order kept
  EXPECT_EQ(doc["tune_params"]["SCALE"], json::array({0.5, 1e-05, 2.0}));
  EXPECT_EQ(doc["objective"], json::array({"time"}));
  ASSERT_EQ(doc["cache"].size(), 8u);
  const json& ok = doc["cache"]["256,0.5,row"];
  EXPECT_EQ(ok["BLOCK"], 256);
  EXPECT_EQ(ok["SCALE"], 0.5);
  EXPECT_EQ(ok["LAYOUT"], "row");
  EXPECT_DOUBLE_EQ(ok["time"].get<double>(), 0.0125);  // ms
  EXPECT_EQ(ok["times"].size(), 1u);
  EXPECT_DOUBLE_EQ(ok["times"][0].get<double>(), 0.0125);
  EXPECT_DOUBLE_EQ(ok["compile_time"].get<double>(), 210.0);
  EXPECT_DOUBLE_EQ(ok["verification_time"].get<double>(), 0.0);
  EXPECT_DOUBLE_EQ(ok["benchmark_time"].get<double>(), 12.0);
  EXPECT_DOUBLE_EQ(ok["strategy_time"].get<double>(), 0.0);
  EXPECT_DOUBLE_EQ(ok["framework_time"].get<double>(), 0.0);
  EXPECT_EQ(ok["timestamp"], "2026-11-25 13:10:00+00:00");
  EXPECT_FALSE(ok.contains("__error__"));
  EXPECT_TRUE(ok["time"].is_number_float());  // get_best_config wants a Python float
}

TEST(KernelTunerCache, Statuses) {
  const json cache = to_kernel_tuner_cache(sample_space())["cache"];
  auto error_of = [&](const std::string& key) { return cache.at(key).value("__error__", ""); };
  auto ktune_status_of = [&](const std::string& key) { return cache.at(key).value("ktune_status", ""); };
  EXPECT_EQ(error_of("128,1e-05,row"), "CompilationFailedConfig");
  EXPECT_EQ(ktune_status_of("128,1e-05,row"), "");
  EXPECT_EQ(error_of("128,2.0,col"), "RuntimeFailedConfig");
  EXPECT_EQ(ktune_status_of("128,2.0,col"), "");
  EXPECT_EQ(error_of("64,2.0,row"), "RuntimeFailedConfig");
  EXPECT_EQ(ktune_status_of("64,2.0,row"), "timeout");
  EXPECT_EQ(error_of("256,2.0,col"), "RuntimeFailedConfig");
  EXPECT_EQ(ktune_status_of("256,2.0,col"), "wrong_result");
  EXPECT_EQ(error_of("64,1e-05,col"), "InvalidConfig");
  EXPECT_EQ(ktune_status_of("64,1e-05,col"), "");
  EXPECT_EQ(error_of("256,1e-05,col"), "RuntimeFailedConfig");
  EXPECT_EQ(ktune_status_of("256,1e-05,col"), "memory_error");
  const json& timeout = cache.at("64,2.0,row");
  EXPECT_FALSE(timeout.contains("time"));
  EXPECT_FALSE(timeout.contains("times"));
  // The simulated clock charges the failed evaluation what it cost: 0.2 s + 5 s.
  EXPECT_DOUBLE_EQ(timeout["compile_time"].get<double>() + timeout["verification_time"].get<double>() +
                       timeout["benchmark_time"].get<double>(),
                   5200.0);
}

TEST(KernelTunerCache, RoundTrip) {
  const RecordedSpace space = sample_space();
  const json doc = json::parse(to_kernel_tuner_cache(space).dump());  // through text, as on disk
  const RecordedSpace back = recorded_space_from_kernel_tuner_cache(doc, "h.json");
  expect_metadata_eq(back, space);
  ASSERT_EQ(back.parameters.size(), space.parameters.size());
  for (std::size_t i = 0; i < space.parameters.size(); ++i) {
    EXPECT_EQ(back.parameters[i].name, space.parameters[i].name);
    EXPECT_EQ(back.parameters[i].values, space.parameters[i].values);
  }
  expect_results_eq(sorted_by_key(back.results), sorted_by_key(space.results));
}

TEST(KernelTunerCache, ResultsComeBackInEnumerationOrder) {
  const RecordedSpace back = recorded_space_from_kernel_tuner_cache(to_kernel_tuner_cache(sample_space()));
  std::vector<std::string> keys;
  for (const auto& r : back.results) keys.push_back(r.config.at("BLOCK").to_string() + "/" + r.config.at("SCALE").to_string());
  // BLOCK's listed order is 256, 64, 128; SCALE's 0.5, 1e-05, 2.
  EXPECT_EQ(keys.front().substr(0, 4), "256/");
  EXPECT_EQ(keys.back().substr(0, 4), "128/");
}

// A cache as Kernel Tuner 1.5.0 writes it (no "ktune" object), with an error in the older place
// ("time": "...") that read_cache still accepts.
TEST(KernelTunerCache, ReadsKernelTunerOwnFile) {
  const json doc = json::parse(R"({
    "device_name": "NVIDIA A100-PCIE-40GB", "kernel_name": "vector_add", "problem_size": 1000,
    "tune_params_keys": ["VEC", "F"], "tune_params": {"VEC": [1, 2, 4], "F": [0.5, 1.0]},
    "objective": ["time"],
    "cache": {
      "1,0.5": {"VEC": 1, "F": 0.5, "time": 0.02, "times": [0.02, 0.02], "compile_time": 83.3,
                "verification_time": 0.5, "benchmark_time": 0.1, "timestamp": "2026-11-25 12:24:08.092851+00:00"},
      "2,1.0": {"VEC": 2, "F": 1.0, "__error__": "CompilationFailedConfig", "compile_time": 40.0,
                "verification_time": 0, "benchmark_time": 0, "timestamp": "2026-11-25 12:24:07.000001+00:00"},
      "4,0.5": {"VEC": 4, "F": 0.5, "time": "RuntimeFailedConfig", "compile_time": 30.0},
      "4,1.0": {"VEC": 4, "F": 1.0, "__error__": "InvalidConfig"}}})");
  const RecordedSpace s = recorded_space_from_kernel_tuner_cache(doc, "vector_add.json");
  EXPECT_EQ(s.name, "vector_add");
  EXPECT_EQ(s.device, "NVIDIA A100-PCIE-40GB");
  EXPECT_EQ(s.membership, RecordedSpace::Membership::Recorded);
  EXPECT_EQ(s.recorded_at, "2026-11-25T12:24:07.000001Z");  // the earliest entry
  ASSERT_EQ(s.parameters.size(), 2u);
  EXPECT_EQ(s.parameters[0].name, "VEC");
  EXPECT_EQ(s.parameters[1].values, (std::vector<Value>{Value::real(0.5), Value::real(1.0)}));
  ASSERT_EQ(s.results.size(), 4u);
  EXPECT_EQ(s.results[0].status, "ok");
  expect_seconds_eq(*s.results[0].time_s, 2e-5, "time");
  expect_seconds_eq(s.results[0].compile_s, 0.0833, "compile");
  expect_seconds_eq(s.results[0].measure_s, 0.0006, "measure");  // verification + benchmark
  EXPECT_EQ(s.results[1].status, "compile_error");
  EXPECT_FALSE(s.results[1].time_s);
  EXPECT_EQ(s.results[2].status, "runtime_error");
  EXPECT_EQ(s.results[3].status, "resource_limit");
  EXPECT_EQ(s.results[3].compile_s, 0);
}

TEST(KernelTunerCache, Errors) {
  RecordedSpace space = sample_space();
  space.results[0].time_s.reset();
  EXPECT_THROW(to_kernel_tuner_cache(space), RecordingError);
  space = sample_space();
  space.results[1].status = "exploded";
  EXPECT_THROW(to_kernel_tuner_cache(space), RecordingError);
  space = sample_space();
  space.results[1].config.erase("SCALE");
  EXPECT_THROW(to_kernel_tuner_cache(space), RecordingError);

  json doc = to_kernel_tuner_cache(sample_space());
  doc["cache"]["256,0.5,row"].erase("SCALE");
  try {
    recorded_space_from_kernel_tuner_cache(doc, "h.json");
    FAIL() << "expected RecordingError";
  } catch (const RecordingError& e) {
    EXPECT_EQ(std::string(e.what()), "h.json: cache[\"256,0.5,row\"]: lacks parameter SCALE");
  }
  doc = to_kernel_tuner_cache(sample_space());
  doc["cache"]["256,0.5,row"]["BLOCK"] = 32;
  EXPECT_THROW(recorded_space_from_kernel_tuner_cache(doc), RecordingError);
  doc = to_kernel_tuner_cache(sample_space());
  doc["cache"]["256,0.5,row"].erase("time");
  EXPECT_THROW(recorded_space_from_kernel_tuner_cache(doc), RecordingError);
}

// The required fields and types of kernel_tuner/schema/T4/1.0.0/results-schema.json, read by hand
// (the schema itself is third-party and not copied here).
void expect_valid_t4(const json& doc) {
  ASSERT_TRUE(doc.is_object());
  ASSERT_TRUE(doc["schema_version"].is_string());
  EXPECT_TRUE(std::regex_match(doc["schema_version"].get<std::string>(), std::regex("^[0-9]{1,}.[0-9]{1,}.[0-9]{1,}$")));
  ASSERT_TRUE(doc["results"].is_array());
  const std::set<std::string> invalidities{"timeout", "compile", "runtime", "correctness", "constraints", "correct"};
  for (const json& r : doc["results"]) {
    ASSERT_TRUE(r.is_object());
    for (const char* key : {"configuration", "times", "invalidity", "correctness"}) {
      EXPECT_TRUE(r.contains(key)) << key;
    }
    EXPECT_TRUE(r["configuration"].is_object());
    EXPECT_TRUE(r["correctness"].is_number());
    EXPECT_TRUE(invalidities.count(r["invalidity"].get<std::string>())) << r["invalidity"];
    EXPECT_TRUE(!r.contains("timestamp") || r["timestamp"].is_string());
    EXPECT_TRUE(!r.contains("objectives") || r["objectives"].is_array());
    const json& times = r["times"];
    ASSERT_TRUE(times.is_object());
    for (const char* key : {"compilation_time", "framework", "search_algorithm", "validation"}) {
      EXPECT_TRUE(!times.contains(key) || times[key].is_number()) << key;
    }
    EXPECT_TRUE(!times.contains("runtimes") || times["runtimes"].is_array());
    if (!r.contains("measurements")) continue;
    ASSERT_TRUE(r["measurements"].is_array());
    for (const json& m : r["measurements"]) {
      ASSERT_TRUE(m.is_object());
      EXPECT_TRUE(!m.contains("name") || m["name"].is_string());
      EXPECT_TRUE(!m.contains("value") || m["value"].is_number() || m["value"].is_string() || m["value"].is_array());
      EXPECT_TRUE(!m.contains("unit") || m["unit"].is_string());
    }
  }
}

TEST(T4Results, FollowsTheSchema) {
  const json doc = to_t4_results(sample_space());
  expect_valid_t4(doc);
  EXPECT_EQ(doc["schema_version"], "1.0.0");
  EXPECT_EQ(doc["metadata"]["timeunit"], "milliseconds");
  ASSERT_EQ(doc["results"].size(), 8u);
  const json& ok = doc["results"][0];
  EXPECT_EQ(ok["configuration"], (json{{"BLOCK", 256}, {"SCALE", 0.5}, {"LAYOUT", "row"}}));
  EXPECT_EQ(ok["invalidity"], "correct");
  EXPECT_EQ(ok["correctness"], 1);
  EXPECT_EQ(ok["timestamp"], "2026-11-25 13:10:00+00:00");
  EXPECT_EQ(ok["objectives"], json::array({"time"}));
  EXPECT_EQ(ok["measurements"], json::array({json{{"name", "time"}, {"value", 0.0125}, {"unit", "ms"}}}));
  EXPECT_DOUBLE_EQ(ok["times"]["compilation_time"].get<double>(), 210.0);
  EXPECT_DOUBLE_EQ(ok["times"]["compilation"].get<double>(), 210.0);
  EXPECT_DOUBLE_EQ(ok["times"]["benchmark"].get<double>(), 12.0);
  EXPECT_EQ(ok["times"]["runtimes"], json::array({0.0125}));
  std::vector<std::string> invalidity;
  for (const json& r : doc["results"]) invalidity.push_back(r["invalidity"]);
  EXPECT_EQ(invalidity, (std::vector<std::string>{"correct", "correct", "compile", "runtime", "timeout", "correctness",
                                                  "constraints", "runtime"}));
  EXPECT_EQ(doc["results"][5]["correctness"], 0);  // the wrong result
  EXPECT_EQ(doc["results"][7]["measurements"][0]["value"], "memory_error");
  EXPECT_TRUE(doc["results"][3]["measurements"].empty());  // runtime_error: invalidity says it all
}

TEST(T4Results, RoundTripModuloValueOrder) {
  const RecordedSpace space = sample_space();
  const RecordedSpace back = recorded_space_from_t4_results(json::parse(to_t4_results(space).dump()), "x/h.json");
  expect_metadata_eq(back, space);
  ASSERT_EQ(back.parameters.size(), space.parameters.size());
  for (std::size_t i = 0; i < space.parameters.size(); ++i) {
    EXPECT_EQ(back.parameters[i].name, space.parameters[i].name);
    auto want = space.parameters[i].values;
    EXPECT_EQ(std::set<Value>(back.parameters[i].values.begin(), back.parameters[i].values.end()),
              std::set<Value>(want.begin(), want.end()));
  }
  // Numeric values come back sorted; strings in order of first appearance.
  EXPECT_EQ(back.parameters[0].values, (std::vector<Value>{Value::integer(64), Value::integer(128), Value::integer(256)}));
  EXPECT_EQ(back.parameters[1].values, (std::vector<Value>{Value::real(1e-05), Value::real(0.5), Value::real(2.0)}));
  EXPECT_EQ(back.parameters[2].values, (std::vector<Value>{Value::string("row"), Value::string("col")}));
  expect_results_eq(back.results, space.results);  // the file's order
}

TEST(T4Results, ReadsKernelTunerOwnFile) {
  // As kernel_tuner.file_utils.store_output_file writes it: "compilation", "benchmark", no ktune.
  const json doc = json::parse(R"({"results": [
    {"timestamp": "2026-11-25 12:24:08.092851+00:00", "configuration": {"VEC": 4, "F": 0.5},
     "times": {"compilation": 83.3, "benchmark": 0.1, "framework": 8.0, "search_algorithm": 0.0,
               "validation": 0.5, "runtimes": [0.02]},
     "invalidity": "correct", "correctness": 1,
     "measurements": [{"name": "time", "value": 0.02, "unit": "ms"}], "objectives": ["time"]},
    {"configuration": {"VEC": 1, "F": 1.0}, "times": {"compilation": 40.0, "benchmark": 0, "validation": 0},
     "invalidity": "compile", "correctness": 1, "measurements": [], "objectives": ["time"]}],
    "schema_version": "1.0.0", "metadata": {"timeunit": "milliseconds"}})");
  const RecordedSpace s = recorded_space_from_t4_results(doc, "out/vector_add_T4.json");
  EXPECT_EQ(s.name, "vector_add_T4");
  EXPECT_EQ(s.membership, RecordedSpace::Membership::Recorded);
  EXPECT_EQ(s.recorded_at, "2026-11-25T12:24:08.092851Z");
  ASSERT_EQ(s.parameters.size(), 2u);  // no order to go by but the parsed object's
  ASSERT_EQ(s.results.size(), 2u);
  EXPECT_EQ(s.results[0].status, "ok");
  expect_seconds_eq(*s.results[0].time_s, 2e-5, "time");
  expect_seconds_eq(s.results[0].compile_s, 0.0833, "compile");
  expect_seconds_eq(s.results[0].measure_s, 0.0006, "measure");
  EXPECT_EQ(s.results[1].status, "compile_error");

  json bad = doc;
  bad["results"][0].erase("invalidity");
  EXPECT_THROW(recorded_space_from_t4_results(bad), RecordingError);
  bad = doc;
  bad["results"][0]["measurements"] = json::array();
  EXPECT_THROW(recorded_space_from_t4_results(bad), RecordingError);  // correct, but no time
}

}  // namespace
}  // namespace ktune::simulate
