#include "ktune/measure/policy.h"
#include <algorithm>

#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>

namespace ktune::measure {
namespace {

void require(bool ok, const char* key, const std::string& what) {
  if (!ok) throw std::invalid_argument(std::string("measure policy: '") + key + "' " + what);
}

double read_double(const nlohmann::json& v, const char* key) {
  require(v.is_number(), key, "must be a number, got " + v.dump());
  return v.get<double>();
}

int read_int(const nlohmann::json& v, const char* key) {
  bool integral = v.is_number_integer() || (v.is_number_float() && std::floor(v.get<double>()) == v.get<double>());
  require(integral, key, "must be an integer, got " + v.dump());
  double d = v.get<double>();
  require(d >= std::numeric_limits<int>::min() && d <= std::numeric_limits<int>::max(), key,
          "is out of range: " + v.dump());
  return static_cast<int>(d);
}

bool read_bool(const nlohmann::json& v, const char* key) {
  require(v.is_boolean(), key, "must be true or false, got " + v.dump());
  return v.get<bool>();
}

}  // namespace

std::string_view to_string(CacheMode mode) {
  switch (mode) {
    case CacheMode::Flush: return "flush";
    case CacheMode::Rotate: return "rotate";
    case CacheMode::Warm: return "warm";
  }
  return "?";
}

CacheMode cache_mode_from_string(std::string_view text) {
  if (text == "flush") return CacheMode::Flush;
  if (text == "rotate") return CacheMode::Rotate;
  if (text == "warm") return CacheMode::Warm;
  throw std::invalid_argument("measure policy: 'cache' must be \"flush\", \"rotate\" or \"warm\", got \"" +
                              std::string(text) + "\"");
}

std::string_view to_string(L2Flush flush) { return flush == L2Flush::Clean ? "clean" : "dirty"; }

L2Flush l2_flush_from_string(std::string_view text) {
  if (text == "dirty") return L2Flush::Dirty;
  if (text == "clean") return L2Flush::Clean;
  throw std::invalid_argument("measure policy: 'l2_flush' must be \"dirty\" or \"clean\", got \"" + std::string(text) +
                              "\"");
}

void validate(const Policy& p) {
  auto finite_nonneg = [](double x) { return std::isfinite(x) && x >= 0; };
  require(finite_nonneg(p.warmup_seconds), "warmup_seconds", "must be finite and >= 0");
  require(p.min_samples >= 1, "min_samples", "must be >= 1");
  require(finite_nonneg(p.max_noise), "max_noise", "must be finite and >= 0");
  require(finite_nonneg(p.min_seconds), "min_seconds", "must be finite and >= 0");
  require(std::isfinite(p.timeout_seconds) && p.timeout_seconds > 0, "timeout_seconds", "must be finite and > 0");
  require(p.max_samples >= 1, "max_samples", "must be >= 1");
  require(p.max_samples >= p.min_samples, "max_samples",
          "(" + std::to_string(p.max_samples) + ") must be >= min_samples (" + std::to_string(p.min_samples) + ")");
  require(finite_nonneg(p.max_seconds), "max_seconds", "must be finite and >= 0 (0: no cap)");
  require(finite_nonneg(p.racing_margin), "racing_margin", "must be finite and >= 0");
  require(p.racing_min_samples >= 1, "racing_min_samples", "must be >= 1");
  require(std::isfinite(p.throttle_fraction) && p.throttle_fraction >= 0 && p.throttle_fraction <= 1,
          "throttle_fraction", "must be in [0, 1]");
  require(p.cache == CacheMode::Flush || p.cache == CacheMode::Rotate || p.cache == CacheMode::Warm, "cache",
          "must be flush, rotate or warm");
}

Policy policy_from_json(const nlohmann::json& j, Policy base) {
  if (!j.is_object()) throw std::invalid_argument("measure policy: expected an object, got " + j.dump());
  Policy p = base;
  for (const auto& [key, v] : j.items()) {
    const char* k = key.c_str();
    if (key == "warmup_seconds") p.warmup_seconds = read_double(v, k);
    else if (key == "min_samples") p.min_samples = read_int(v, k);
    else if (key == "max_noise") p.max_noise = read_double(v, k);
    else if (key == "min_seconds") p.min_seconds = read_double(v, k);
    else if (key == "timeout_seconds") p.timeout_seconds = read_double(v, k);
    else if (key == "max_samples") p.max_samples = read_int(v, k);
    else if (key == "max_seconds") p.max_seconds = read_double(v, k);
    else if (key == "racing") p.racing = read_bool(v, k);
    else if (key == "racing_margin") p.racing_margin = read_double(v, k);
    else if (key == "racing_min_samples") p.racing_min_samples = read_int(v, k);
    else if (key == "throttle_fraction") p.throttle_fraction = read_double(v, k);
    else if (key == "cache") {
      require(v.is_string(), k, "must be \"flush\", \"rotate\" or \"warm\", got " + v.dump());
      p.cache = cache_mode_from_string(v.get<std::string>());
    } else if (key == "l2_flush") {
      require(v.is_string(), k, "must be \"dirty\" or \"clean\", got " + v.dump());
      p.l2_flush = l2_flush_from_string(v.get<std::string>());
    } else
      throw std::invalid_argument("measure policy: unknown key '" + key +
                                  "' (known: warmup_seconds, min_samples, max_noise, min_seconds, timeout_seconds, "
                                  "max_samples, max_seconds, racing, racing_margin, racing_min_samples, throttle_fraction, cache, "
                                  "l2_flush)");
  }
  validate(p);
  return p;
}

nlohmann::json policy_to_json(const Policy& p) {
  nlohmann::json j = {{"warmup_seconds", p.warmup_seconds},   {"min_samples", p.min_samples},
          {"max_noise", p.max_noise},             {"min_seconds", p.min_seconds},
          {"timeout_seconds", p.timeout_seconds}, {"max_samples", p.max_samples},
          {"max_seconds", p.max_seconds},
          {"racing", p.racing},                   {"racing_margin", p.racing_margin},
          {"racing_min_samples", p.racing_min_samples}, {"throttle_fraction", p.throttle_fraction},
          {"cache", std::string(to_string(p.cache))}};
  if (p.l2_flush == L2Flush::Clean) j["l2_flush"] = "clean";
  return j;
}

bool uses_default_precision(const Policy& policy) {
  const Policy defaults;
  return policy.min_seconds == defaults.min_seconds && policy.max_noise == defaults.max_noise;
}

Policy screening_policy(Policy policy) {
  policy.min_seconds = 0.01;
  policy.max_noise = 0.01;
  return policy;
}

Policy confirmation_policy(Policy policy) {
  policy.min_seconds = std::min(policy.min_seconds, 0.1);
  policy.racing = false;
  return policy;
}

}  // namespace ktune::measure
