// ktune best / results / sessions: read the tuning database.

#include <cstdio>

#include "ktune/cli/common.h"
#include "ktune/cli/roofline_view.h"
#include "ktune/db/database.h"
#include "ktune/spec/problem.h"

namespace ktune::cli {
namespace {

struct QueryArgs {
  std::string spec;
  std::vector<std::string> sizes;
  std::int64_t session = 0;
  std::string kernel;
  std::string problem;
  std::string status;
  std::string order = "oldest";
  std::size_t limit = 0;
};

// Roofline columns (intensity, fraction of the roof that applies, bound) appear when any row
// has FLOP/byte counts and a calibrated device.
void print_results(const std::vector<db::ResultRecord>& results, RooflineLookup& roofline) {
  bool show_roofline = false, uncalibrated = false;
  for (const auto& r : results) {
    if (!r.gflops && !r.gbps) continue;
    if (roofline.calibration(r.device_id)) show_roofline = true;
    else uncalibrated = true;
  }
  std::printf("%6s %7s  %-14s %12s %12s %10s  ", "id", "session", "status", "median", "GFLOP/s", "GB/s");
  if (show_roofline) std::printf("%8s %6s %-8s ", "FLOP/B", "roof%", "bound");
  std::printf("%s\n", "config");
  for (const auto& r : results) {
    char gf[16] = "-", gb[16] = "-";
    if (r.gflops) std::snprintf(gf, sizeof gf, "%.2f", *r.gflops);
    if (r.gbps) std::snprintf(gb, sizeof gb, "%.2f", *r.gbps);
    std::printf("%6lld %7lld  %-14s %12s %12s %10s  ", static_cast<long long>(r.id),
                static_cast<long long>(r.session_id), std::string(db::to_string(r.status)).c_str(),
                r.median_s ? format_seconds(*r.median_s).c_str() : "-", gf, gb);
    if (show_roofline) {
      std::string intensity = "-", fraction = "-", bound = "-";
      if (auto p = roofline.classify(r)) {
        if (p->intensity) intensity = format_intensity(*p->intensity);
        if (p->fraction) {
          char text[16];
          std::snprintf(text, sizeof text, "%.0f%%", 100 * *p->fraction);
          fraction = text;
        }
        bound = analysis::bound_name(p->bound);
      }
      std::printf("%8s %6s %-8s ", intensity.c_str(), fraction.c_str(), bound.c_str());
    }
    std::printf("%s%s\n", r.config_key.c_str(), r.raced ? "  (raced)" : "");
  }
  if (uncalibrated) std::printf("roofline: some devices have %s\n", kNoCalibration);
}

db::ResultQuery query_from(const QueryArgs& a) {
  db::ResultQuery q;
  if (a.session > 0) q.session_id = a.session;
  if (!a.kernel.empty()) q.kernel_name = a.kernel;
  if (!a.problem.empty()) q.problem_name = a.problem;
  if (!a.status.empty()) {
    q.status = db::status_from_string(a.status);
    if (!q.status) throw CLI::ValidationError("--status", "unknown status '" + a.status + "'");
  }
  if (a.order == "oldest") q.order = db::ResultOrder::Oldest;
  else if (a.order == "newest") q.order = db::ResultOrder::Newest;
  else if (a.order == "fastest") q.order = db::ResultOrder::Fastest;
  else throw CLI::ValidationError("--order", "oldest, newest or fastest");
  q.limit = a.limit;
  return q;
}

void add_filters(CLI::App* cmd, QueryArgs& a) {
  cmd->add_option("--kernel", a.kernel, "Only this kernel (the spec's name)");
  cmd->add_option("--problem", a.problem, "Only this problem name");
  cmd->add_option("--session", a.session, "Only this session id");
}

}  // namespace

void add_query_commands(CLI::App& app, GlobalOptions& global, Handler& handler) {
  auto best = std::make_shared<QueryArgs>();
  CLI::App* best_cmd = app.add_subcommand("best", "The best configuration per device, kernel and problem");
  best_cmd->add_option("spec", best->spec, "Limit to this spec's kernel and problem (its current sources and sizes)");
  best_cmd->add_option("--size", best->sizes, "Size overrides for the spec: NAME=VALUE");
  add_filters(best_cmd, *best);
  best_cmd->callback([&global, &handler, best] {
    handler = [&global, best]() -> int {
      db::Database database(database_path(global), db::OpenOptions{.create_if_missing = false});
      db::ResultQuery q = query_from(*best);
      q.only_best_per_problem = true;
      q.status = db::Status::Ok;
      std::vector<db::ResultRecord> results;
      RooflineLookup roofline(database);
      if (!best->spec.empty()) {
        spec::TuningProblem problem = spec::load_spec(best->spec, parse_assignments(best->sizes, "--size"));
        const std::string kernel_hash = problem.kernel_hash(), problem_hash = problem.problem_hash();
        for (auto& r : database.query(q)) {
          auto k = database.kernel(r.kernel_id);
          auto p = database.problem(r.problem_id);
          if (k && p && k->hash == kernel_hash && p->hash == problem_hash) results.push_back(std::move(r));
        }
      } else {
        results = database.query(q);
      }
      if (global.json) {
        nlohmann::json j = nlohmann::json::array();
        for (const auto& r : results) {
          nlohmann::json rj = result_to_json(r);
          if (auto d = database.device(r.device_id)) rj["device"] = {{"name", d->name}, {"backend", d->backend}, {"fingerprint", d->fingerprint}};
          if (auto k = database.kernel(r.kernel_id)) rj["kernel"] = k->name;
          if (auto p = database.problem(r.problem_id)) rj["problem"] = {{"name", p->name}, {"sizes", p->sizes}};
          rj["roofline"] = roofline.to_json(r);
          j.push_back(rj);
        }
        print_json(j);
      } else {
        if (results.empty()) std::printf("no successful results%s\n", best->spec.empty() ? "" : " for this spec (run ktune tune first)");
        for (const auto& r : results) {
          auto d = database.device(r.device_id);
          auto p = database.problem(r.problem_id);
          std::printf("%s %s on %s: %s  median %s", p ? p->name.c_str() : "?", p ? p->sizes.dump().c_str() : "",
                      d ? d->name.c_str() : "?", r.config_key.c_str(), format_seconds(r.median_s.value_or(0)).c_str());
          if (r.gflops) std::printf("  %.2f GFLOP/s", *r.gflops);
          if (r.gbps) std::printf("  %.2f GB/s", *r.gbps);
          if (r.gflops || r.gbps) {
            if (auto point = roofline.classify(r)) {
              if (point->intensity) std::printf("  %s FLOP/byte", format_intensity(*point->intensity).c_str());
              if (point->fraction)
                std::printf("  %.0f%% of the %s roof", 100 * *point->fraction,
                            point->roof == "compute" ? point->compute_roof.c_str() : "memory");
              std::printf("  %s-bound", std::string(analysis::bound_name(point->bound)).c_str());
            } else {
              std::printf("  (roofline: %s)", kNoCalibration);
            }
          }
          std::printf("\n");
        }
      }
      return results.empty() ? kExitNoValidConfig : kExitOk;
    };
  });

  auto res = std::make_shared<QueryArgs>();
  CLI::App* res_cmd = app.add_subcommand("results", "List recorded results");
  add_filters(res_cmd, *res);
  res_cmd->add_option("--status", res->status, "Only this status (ok, compile_error, runtime_error, timeout, wrong_result, resource_limit, crashed)");
  res_cmd->add_option("--order", res->order, "oldest, newest or fastest");
  res_cmd->add_option("--limit", res->limit, "At most this many rows");
  res_cmd->callback([&global, &handler, res] {
    handler = [&global, res]() -> int {
      db::Database database(database_path(global), db::OpenOptions{.create_if_missing = false});
      std::vector<db::ResultRecord> results = database.query(query_from(*res));
      RooflineLookup roofline(database);
      if (global.json) {
        nlohmann::json j = nlohmann::json::array();
        for (const auto& r : results) {
          nlohmann::json rj = result_to_json(r);
          rj["roofline"] = roofline.to_json(r);
          j.push_back(rj);
        }
        print_json(j);
      } else {
        print_results(results, roofline);
      }
      return kExitOk;
    };
  });

  auto limit = std::make_shared<std::size_t>(20);
  CLI::App* ses_cmd = app.add_subcommand("sessions", "List tuning sessions");
  ses_cmd->add_option("--limit", *limit, "At most this many (newest first)");
  ses_cmd->callback([&global, &handler, limit] {
    handler = [&global, limit]() -> int {
      db::Database database(database_path(global), db::OpenOptions{.create_if_missing = false});
      auto sessions = database.sessions(*limit);
      if (global.json) {
        nlohmann::json j = nlohmann::json::array();
        for (const auto& s : sessions)
          j.push_back({{"id", s.id}, {"strategy", s.strategy}, {"state", s.state}, {"started_at", s.started_at},
                       {"finished_at", s.finished_at}, {"options", s.options}, {"device_id", s.device_id},
                       {"kernel_id", s.kernel_id}, {"problem_id", s.problem_id}});
        print_json(j);
        return kExitOk;
      }
      std::printf("%5s  %-11s %-10s %-20s %-20s %s\n", "id", "state", "strategy", "started", "finished", "kernel");
      for (const auto& s : sessions) {
        auto k = database.kernel(s.kernel_id);
        std::printf("%5lld  %-11s %-10s %-20s %-20s %s\n", static_cast<long long>(s.id), s.state.c_str(),
                    s.strategy.c_str(), s.started_at.c_str(), s.finished_at.c_str(), k ? k->name.c_str() : "?");
      }
      return kExitOk;
    };
  });
}

}  // namespace ktune::cli
