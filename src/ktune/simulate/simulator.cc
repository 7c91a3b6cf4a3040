#include "ktune/simulate/simulator.h"

#include <chrono>
#include <deque>

namespace ktune::simulate {
namespace {

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

// The recording's answer for one proposal; a configuration the recording lacks (a spec whose
// space grew since) fails at the recording's mean cost rather than stopping the simulation.
struct Answer {
  std::optional<double> objective;
  std::string status;
  double cost = 0;
};

Answer answer_for(const Config& config, const std::map<std::string, const RecordedResult*>& answers,
                  double mean_cost) {
  auto it = answers.find(config_key(config));
  if (it == answers.end()) return {std::nullopt, "unrecorded", mean_cost};
  return {it->second->time_s, it->second->status, it->second->cost_seconds()};
}

double mean_cost_of(const std::map<std::string, const RecordedResult*>& answers) {
  double sum = 0;
  for (const auto& [key, r] : answers) sum += r->cost_seconds();
  return answers.empty() ? 0 : sum / static_cast<double>(answers.size());
}

// Runs f() and adds its wall time to the strategy's account.
template <class F>
auto timed(SimulationResult& result, F&& f) {
  const auto start = Clock::now();
  auto out = f();
  const double spent = seconds_since(start);
  result.strategy_seconds += spent;
  result.max_strategy_seconds = std::max(result.max_strategy_seconds, spent);
  return out;
}

class Run {
 public:
  Run(const space::SearchSpace& space, const std::map<std::string, const RecordedResult*>& answers,
      const SimulationOptions& options)
      : answers_(answers), options_(options), mean_cost_(mean_cost_of(answers)) {
    strategy_ = timed(result_, [&] { return search::make_strategy(options.strategy, space, {options.seed, options.params}); });
  }

  SimulationResult go(const std::string& space_name) {
    result_.trace = {space_name, options_.strategy, options_.seed, {}};
    while (true) {
      if (auto reason = budget_spent()) {
        result_.stop_reason = *reason;
        break;
      }
      fill_pipeline();
      if (pending_.empty()) {
        result_.stop_reason = "space exhausted";
        break;
      }
      finish_oldest();
    }
    result_.simulated_seconds = clock_;
    return std::move(result_);
  }

 private:
  std::optional<std::string> budget_spent() const {
    if (options_.max_evaluations && result_.configs.size() >= *options_.max_evaluations) return "max evaluations";
    if (options_.max_seconds && clock_ >= *options_.max_seconds) return "time budget";
    return std::nullopt;
  }

  void fill_pipeline() {
    const std::size_t want = std::max<std::size_t>(1, options_.outstanding);
    while (!exhausted_ && pending_.size() < want) {
      auto next = timed(result_, [&] { return strategy_->ask(); });
      if (!next) {
        exhausted_ = true;
        break;
      }
      pending_.push_back(std::move(*next));
    }
  }

  // Evaluations finish in the order they were asked: the simulated machine measures one at a
  // time, as the tuner's single device lane does.
  void finish_oldest() {
    Config config = std::move(pending_.front());
    pending_.pop_front();
    const Answer a = answer_for(config, answers_, mean_cost_);
    clock_ += a.cost;
    ++result_.by_status[a.status];
    if (a.status == "unrecorded") ++result_.unrecorded;
    if (a.objective && (!result_.best_time_s || *a.objective < *result_.best_time_s)) {
      result_.best_time_s = a.objective;
      result_.best_config = config;
    }
    result_.trace.points.push_back({clock_, a.objective});
    timed(result_, [&] {
      strategy_->tell({config, a.objective, a.cost});
      return 0;
    });
    result_.configs.push_back(std::move(config));
  }

  const std::map<std::string, const RecordedResult*>& answers_;
  const SimulationOptions& options_;
  const double mean_cost_;
  SimulationResult result_;
  std::unique_ptr<search::Strategy> strategy_;
  std::deque<Config> pending_;
  bool exhausted_ = false;
  double clock_ = 0;
};

}  // namespace

SimulationResult simulate(const space::SearchSpace& space, const std::map<std::string, const RecordedResult*>& answers,
                          const SimulationOptions& options, const std::string& space_name) {
  return Run(space, answers, options).go(space_name);
}

nlohmann::json to_json(const SimulationResult& r) {
  nlohmann::json points = nlohmann::json::array();
  for (const auto& p : r.trace.points) {
    points.push_back({p.seconds, p.objective ? nlohmann::json(*p.objective) : nlohmann::json()});
  }
  const double asks = static_cast<double>(std::max<std::size_t>(1, r.configs.size()));
  return {{"space", r.trace.space},
          {"strategy", r.trace.strategy},
          {"seed", r.trace.seed},
          {"evaluations", r.configs.size()},
          {"stop_reason", r.stop_reason},
          {"simulated_seconds", r.simulated_seconds},
          {"best_config", r.best_config ? config_to_json(*r.best_config) : nlohmann::json()},
          {"best_time_s", r.best_time_s ? nlohmann::json(*r.best_time_s) : nlohmann::json()},
          {"by_status", r.by_status},
          {"unrecorded", r.unrecorded},
          {"strategy_ms_per_evaluation", 1e3 * r.strategy_seconds / asks},
          {"strategy_ms_max", 1e3 * r.max_strategy_seconds},
          {"trace", points}};
}

}  // namespace ktune::simulate
