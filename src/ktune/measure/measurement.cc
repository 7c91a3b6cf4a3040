#include "ktune/measure/measurement.h"

#include <cmath>
#include <stdexcept>
#include <string>

namespace ktune::measure {
namespace {

const nlohmann::json& field(const nlohmann::json& j, const char* key) {
  auto it = j.find(key);
  if (it == j.end()) throw std::invalid_argument(std::string("measurement: missing key '") + key + "'");
  return *it;
}

double number(const nlohmann::json& j, const char* key) {
  const auto& v = field(j, key);
  if (!v.is_number()) throw std::invalid_argument(std::string("measurement: '") + key + "' must be a number");
  return v.get<double>();
}

int count(const nlohmann::json& j, const char* key) {
  const auto& v = field(j, key);
  if (!v.is_number_integer() || v.get<std::int64_t>() < 0 || v.get<std::int64_t>() > INT32_MAX)
    throw std::invalid_argument(std::string("measurement: '") + key + "' must be a non-negative integer");
  return v.get<int>();
}

}  // namespace

nlohmann::json measurement_to_json(const Measurement& m, bool include_samples) {
  nlohmann::json j = {{"stats", stats_to_json(m.stats)},
                      {"stop", std::string(to_string(m.stop))},
                      {"measured_seconds", m.measured_seconds},
                      {"wall_seconds", m.wall_seconds},
                      {"warmup_runs", m.warmup_runs},
                      {"discarded_samples", m.discarded_samples}};
  if (m.from_discarded) j["from_discarded"] = true;
  if (include_samples) j["samples"] = m.samples;
  return j;
}

Measurement measurement_from_json(const nlohmann::json& j) {
  if (!j.is_object()) throw std::invalid_argument("measurement: expected an object, got " + j.dump());
  Measurement m;
  m.stats = stats_from_json(field(j, "stats"));
  const auto& stop = field(j, "stop");
  if (!stop.is_string()) throw std::invalid_argument("measurement: 'stop' must be a string");
  m.stop = stop_reason_from_string(stop.get<std::string>());
  m.measured_seconds = number(j, "measured_seconds");
  m.wall_seconds = number(j, "wall_seconds");
  m.warmup_runs = count(j, "warmup_runs");
  m.discarded_samples = count(j, "discarded_samples");
  if (auto it = j.find("from_discarded"); it != j.end()) {
    if (!it->is_boolean()) throw std::invalid_argument("measurement: 'from_discarded' must be true or false");
    m.from_discarded = it->get<bool>();
  }
  if (auto it = j.find("samples"); it != j.end()) {
    if (!it->is_array()) throw std::invalid_argument("measurement: 'samples' must be an array of numbers");
    for (const auto& s : *it) {
      if (!s.is_number()) throw std::invalid_argument("measurement: 'samples' must be an array of numbers");
      m.samples.push_back(s.get<double>());
    }
  }
  return m;
}

Measurement run_measurement(SampleSource& source, const Policy& policy,
                            std::span<StoppingCriterion* const> criteria, const Clock& clock) {
  validate(policy);
  LimitsCriterion limits(policy);
  Measurement m;
  std::vector<double> discarded;
  const double start = clock.now();
  auto elapsed = [&] { return clock.now() - start; };

  do {
    source.warmup_run();
    ++m.warmup_runs;
  } while (elapsed() < policy.warmup_seconds && elapsed() < policy.timeout_seconds);

  if (elapsed() >= policy.timeout_seconds) {
    m.stop = StopReason::Timeout;
  } else {
    LoopState state;
    for (;;) {
      Sample s = source.sample();
      if (!std::isfinite(s.seconds) || s.seconds < 0)
        throw std::invalid_argument("measurement: sample source returned an invalid time " +
                                    std::to_string(s.seconds) + " s");
      if (s.valid) {
        m.samples.push_back(s.seconds);
        m.measured_seconds += s.seconds;
      } else {
        ++m.discarded_samples;
        discarded.push_back(s.seconds);
        state.discarded_seconds += s.seconds;
      }
      state.samples = m.samples;
      state.measured_seconds = m.measured_seconds;
      state.elapsed_seconds = elapsed();
      state.discarded_samples = m.discarded_samples;
      state.last_sample_valid = s.valid;

      std::optional<StopReason> stop;
      for (StoppingCriterion* c : criteria)
        if ((stop = c->check(state))) break;
      if (!stop) stop = limits.check(state);
      if (stop) {
        m.stop = *stop;
        break;
      }
    }
  }
  if (m.samples.empty() && !discarded.empty()) {
    m.samples = std::move(discarded);
    for (double x : m.samples) m.measured_seconds += x;
    m.from_discarded = true;
  }
  m.stats = summarize(m.samples);
  m.wall_seconds = elapsed();
  return m;
}

Measurement run_measurement(SampleSource& source, const Policy& policy, const std::optional<Stats>& incumbent,
                            const Clock& clock) {
  validate(policy);
  NoiseCriterion noise(policy);
  RacingCriterion racing(policy, incumbent);
  StoppingCriterion* criteria[] = {&noise, &racing};
  return run_measurement(source, policy, criteria, clock);
}

}  // namespace ktune::measure
