#include "ktune/search/strategy_params.h"

#include <cmath>
#include <stdexcept>

namespace ktune::search {

StrategyParams::StrategyParams(std::string strategy, const nlohmann::json& params,
                               std::initializer_list<const char*> known)
    : strategy_(std::move(strategy)), params_(params.is_null() ? nlohmann::json::object() : params) {
  if (!params_.is_object()) {
    throw std::invalid_argument("parameters of strategy '" + strategy_ + "' must be a JSON object, got " +
                                params_.dump());
  }
  for (const auto& [key, value] : params_.items()) {
    bool ok = false;
    std::string list;
    for (const char* k : known) {
      ok = ok || key == k;
      list += (list.empty() ? "" : ", ") + std::string(k);
    }
    if (!ok) {
      throw std::invalid_argument("strategy '" + strategy_ + "' has no parameter '" + key + "'" +
                                  (list.empty() ? " (it takes none)" : " (valid: " + list + ")"));
    }
  }
}

const nlohmann::json* StrategyParams::find(std::initializer_list<const char*> names, std::string& found_as) const {
  for (const char* n : names) {
    if (auto it = params_.find(n); it != params_.end()) {
      found_as = n;
      return &*it;
    }
  }
  return nullptr;
}

double StrategyParams::number(std::initializer_list<const char*> names, double fallback, double low, double high,
                              bool inclusive) const {
  std::string key;
  const nlohmann::json* j = find(names, key);
  if (!j) return fallback;
  if (!j->is_number()) throw std::invalid_argument(strategy_ + " parameter '" + key + "' must be a number");
  double v = j->get<double>();
  bool in_range = inclusive ? (v >= low && v <= high) : (v > low && v < high);
  if (!std::isfinite(v) || !in_range) {
    throw std::invalid_argument(strategy_ + " parameter '" + key + "' must be in " + (inclusive ? "[" : "(") +
                                std::to_string(low) + ", " + std::to_string(high) + (inclusive ? "]" : ")") +
                                ", got " + j->dump());
  }
  return v;
}

long long StrategyParams::integer(std::initializer_list<const char*> names, long long fallback,
                                  long long minimum) const {
  std::string key;
  const nlohmann::json* j = find(names, key);
  if (!j) return fallback;
  if (!j->is_number_integer() || j->get<long long>() < minimum) {
    throw std::invalid_argument(strategy_ + " parameter '" + key + "' must be an integer >= " +
                                std::to_string(minimum) + ", got " + j->dump());
  }
  return j->get<long long>();
}

std::string StrategyParams::choice(const char* name, const std::string& fallback,
                                   std::initializer_list<const char*> choices) const {
  std::string key;
  const nlohmann::json* j = find({name}, key);
  if (!j) return fallback;
  std::string list;
  for (const char* c : choices) {
    if (j->is_string() && j->get<std::string>() == c) return c;
    list += (list.empty() ? "" : ", ") + std::string(c);
  }
  throw std::invalid_argument(strategy_ + " parameter '" + key + "' must be one of " + list + ", got " + j->dump());
}

}  // namespace ktune::search
