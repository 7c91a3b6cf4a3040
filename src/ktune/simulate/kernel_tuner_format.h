#pragma once
// Recorded spaces to and from Kernel Tuner 1.5.0, so that a recording made by either tool can be
// searched by the other's strategies (Kernel Tuner's in its simulation mode) and the two compared
// on the same measurements.
//
// Kernel Tuner's cache file (tune_kernel(cache=...), read back with simulation_mode=True):
//   {"device_name": "...", "kernel_name": "...", "problem_size": [1048576],
//    "tune_params_keys": ["BLOCK", ...], "tune_params": {"BLOCK": [128, 256], ...},
//    "objective": ["time"],
//    "cache": {"128,4": {"BLOCK": 128, "ITEMS": 4, "time": 0.012, "times": [0.012],
//                        "compile_time": 210.0, "verification_time": 0, "benchmark_time": 12.0,
//                        "strategy_time": 0, "framework_time": 0,
//                        "timestamp": "2026-11-25 13:10:00+00:00"},
//              "256,8": {"BLOCK": 256, "ITEMS": 8, "__error__": "CompilationFailedConfig", ...}},
//    "ktune": {...}}
// Keys are Python's ",".join(str(v) ...) of the values in tune_params_keys order; times are in
// milliseconds. Kernel Tuner's simulation runner charges compile_time + verification_time +
// benchmark_time of each configuration the first time a strategy visits it (re-visits are free),
// so compile_s becomes compile_time and measure_s (verify + measure: ktune records no split)
// becomes benchmark_time, with verification_time 0. The "ktune" object (ignored by Kernel Tuner)
// keeps what its format has no place for (source, chip, commit, constants, constraints,
// membership, parameter order), so ktune -> cache -> ktune loses nothing.
//
// T4 results (Kernel Tuner's store_output_file, schema kernel_tuner/schema/T4/1.0.0): see
// to_t4_results.

#include <string>

#include <nlohmann/json.hpp>

#include "ktune/core/value.h"
#include "ktune/simulate/recorded_space.h"

namespace ktune::simulate {

// Throws RecordingError for an "ok" result without time_s or a status ktune does not know.
nlohmann::json to_kernel_tuner_cache(const RecordedSpace& space);

// The inverse. A cache Kernel Tuner wrote (no "ktune" object) becomes a space of membership
// "recorded" (Kernel Tuner's restrictions are Python code, not ktune expressions), named after
// kernel_name, with parameters from tune_params in tune_params_keys order. Results come back in
// the parameters' enumeration order (first parameter slowest). Errors name `origin` and the path.
RecordedSpace recorded_space_from_kernel_tuner_cache(const nlohmann::json& doc, const std::string& origin = "");

// T4 results: {"schema_version": "1.0.0", "metadata": {"timeunit": "milliseconds"},
//   "results": [{"timestamp", "configuration", "times": {...}, "invalidity", "correctness",
//                "measurements": [{"name", "value", "unit"}], "objectives": ["time"]}], "ktune": {...}}
nlohmann::json to_t4_results(const RecordedSpace& space);

// The inverse. Parameters are collected from the configurations (values sorted numerically when
// all are numbers, else in order of first appearance); results keep the file's order.
RecordedSpace recorded_space_from_t4_results(const nlohmann::json& doc, const std::string& origin = "");

// Python's str() of a value, as Kernel Tuner writes it into cache keys: 128, 0.5, 1e-05, True, abc.
std::string kernel_tuner_value_text(const Value& value);

}  // namespace ktune::simulate
