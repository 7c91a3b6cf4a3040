#pragma once
// Helpers the strategy tests share: integer parameters, constraints by text, a driver that keeps a
// batch of asks outstanding, and the smooth 10^4-config objective the convergence tests use.

#include <cmath>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "ktune/search/strategy.h"
#include "ktune/space/search_space.h"

namespace ktune::search::testing {

using space::Constraint;
using space::Parameter;
using space::SearchSpace;

inline Parameter ints(const std::string& name, const std::vector<std::int64_t>& values) {
  Parameter p{name, {}, 0};
  for (auto v : values) p.values.push_back(Value::integer(v));
  return p;
}

inline Parameter range(const std::string& name, std::int64_t n) {
  Parameter p{name, {}, 0};
  for (std::int64_t v = 0; v < n; ++v) p.values.push_back(Value::integer(v));
  return p;
}

// By assignment rather than aggregate initialisation, so that fields Constraint gains later
// need no mention here.
inline Constraint where(const char* text, int line) {
  Constraint c;
  c.expr = expr::Expr::parse(text);
  c.line = line;
  return c;
}

using Objective = std::function<std::optional<double>(const Config&)>;

// Runs a strategy to exhaustion (or `limit` proposals), keeping `batch` asks outstanding.
inline std::vector<Config> drive(Strategy& s, const Objective& f, std::size_t batch, std::size_t limit = SIZE_MAX) {
  std::vector<Config> proposed;
  bool exhausted = false;
  while (!exhausted && proposed.size() < limit) {
    std::vector<Config> outstanding;
    while (outstanding.size() < batch && proposed.size() < limit) {
      auto c = s.ask();
      if (!c) {
        exhausted = true;
        break;
      }
      outstanding.push_back(*c);
      proposed.push_back(*c);
    }
    for (const auto& c : outstanding) s.tell({c, f(c)});
  }
  return proposed;
}

inline double get(const Config& c, const char* name) { return static_cast<double>(c.at(name).as_int()); }

// Smooth objective on 10^4 configs (as in search_test); its minimum, 1.0, is at (7, 2, 5, 3).
inline std::optional<double> smooth(const Config& c) {
  const double x = get(c, "a"), y = get(c, "b"), z = get(c, "c"), w = get(c, "d");
  return 1.0 + 0.02 * ((x - 7) * (x - 7) + 2 * (y - 2) * (y - 2) + (z - 5) * (z - 5) + 1.5 * (w - 3) * (w - 3)) +
         0.01 * std::abs((x - 7) * (z - 5));
}

inline SearchSpace grid4() { return SearchSpace({range("a", 10), range("b", 10), range("c", 10), range("d", 10)}, {}); }

}  // namespace ktune::search::testing
