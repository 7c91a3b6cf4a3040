#pragma once
// A search as the methodology sees it: the evaluations in the order they finished, each with the
// simulated clock at that moment and its objective. Produced by the simulator (ktune's
// strategies over a recorded space) and by replaying another tool's evaluation order (Kernel
// Tuner's strategies in its simulation mode) against the same recording, so both are charged the
// same recorded compile and measurement seconds.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace ktune::simulate {

struct TracePoint {
  double seconds = 0;                // simulated clock when this evaluation finished
  std::optional<double> objective;   // seconds of the kernel (lower is better); nullopt: failed
};

struct Trace {
  std::string space;     // the recorded space's name
  std::string strategy;  // "random", "bayes", "kt:genetic_algorithm", ...
  std::uint64_t seed = 0;
  std::vector<TracePoint> points;
};

// What the methodology needs to know about a recorded space, independent of any search.
struct SpaceStatistics {
  std::string name;
  std::vector<double> objectives;  // every successful configuration's objective
  std::size_t configurations = 0;  // every valid configuration, failed ones included
  // Mean simulated seconds one evaluation costs, failed ones included: what random search pays
  // per draw on average.
  double mean_evaluation_seconds = 0;
  // Optional: every configuration's outcome and cost. When given, the random-search baseline is
  // simulated with these costs (random_search_timeline.h) instead of charging each draw the mean:
  // where fast kernels are also cheap to evaluate, random search finds them sooner than draws x
  // mean cost says, and the analytic baseline would score random search itself above 0.
  struct Outcome {
    std::optional<double> objective;
    double seconds = 0;
  };
  std::vector<Outcome> outcomes;
};

}  // namespace ktune::simulate
