#pragma once
// Reads a strategy's JSON params with defaults and checks, so that a typo in a spec's
// `strategy_params` is an error rather than a silently ignored setting.

#include <initializer_list>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace ktune::search {

class StrategyParams {
 public:
  // Throws std::invalid_argument if `params` is not an object (null counts as empty) or has a
  // key outside `known`.
  StrategyParams(std::string strategy, const nlohmann::json& params, std::initializer_list<const char*> known);

  // The number under the first of `names` present (aliases), else `fallback`; must lie in
  // (low, high) or [low, high] as `inclusive` says.
  double number(std::initializer_list<const char*> names, double fallback, double low, double high,
                bool inclusive = false) const;
  // A whole number >= minimum.
  long long integer(std::initializer_list<const char*> names, long long fallback, long long minimum) const;
  // One of `choices`.
  std::string choice(const char* name, const std::string& fallback, std::initializer_list<const char*> choices) const;

 private:
  const nlohmann::json* find(std::initializer_list<const char*> names, std::string& found_as) const;
  std::string strategy_;
  nlohmann::json params_;
};

}  // namespace ktune::search
