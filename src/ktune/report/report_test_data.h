#pragma once
// Sessions for the report tests, built by hand: a few timed results, failures with hostile
// text, and gemm-style string values.

#include <string>

#include "ktune/report/session_data.h"

namespace ktune::report::testing {

inline db::ResultRecord timed_result(std::int64_t id, nlohmann::json config, double median, double start) {
  db::ResultRecord r;
  r.id = id;
  r.session_id = 1;
  r.config = std::move(config);
  r.config_key = r.config.dump();
  r.status = db::Status::Ok;
  r.median_s = median;
  r.mean_s = median * 1.01;
  r.min_s = median * 0.98;
  r.max_s = median * 1.2;
  r.q1_s = median * 0.99;
  r.q3_s = median * 1.02;
  r.stdev_s = median * 0.01;
  r.samples = 20;
  r.stop_reason = "converged";
  r.gflops = 2e-3 / median;  // 2 MFLOP per run
  r.gbps = 1e-3 / median;    // 1 MB per run: 2 FLOP/byte
  r.compile_seconds = 0.5;
  r.started_at_unix = start;
  r.finished_at_unix = start + 0.5 + 0.2;
  r.resources = {{"device_ordinal", 0}, {"registers", 32}, {"occupancy", {{"blocks_per_sm", 4}, {"limit", "registers"}}}};
  r.verification = {{"C", {{"rel_l2", 1e-7}, {"ok", true}}}};
  r.created_at = "2026-01-01T00:00:00.000Z";
  return r;
}

inline SessionData sample_session() {
  SessionData d;
  d.session.id = 1;
  d.session.strategy = "random";
  d.session.state = "finished";
  d.session.started_at = "2026-01-01T00:00:00.000Z";
  d.session.finished_at = "2026-01-01T00:01:00.000Z";
  d.session.host = "host<1>";
  d.device = {3, "fp-cpu", "cpu", "Test CPU <&>", {}};
  d.kernel = {4, "abc123", "matmul", "cpp", "examples/cpu/matmul/matmul.cpp"};
  d.problem = {5, "def456", "matmul 64", {{"M", 64}, {"N", 64}}, {}};
  const double t0 = 1.7e9;
  d.results.push_back(timed_result(10, {{"BLOCK", 16}, {"UNROLL", 1}, {"TILE", "64x64"}}, 4e-3, t0));
  d.results.push_back(timed_result(11, {{"BLOCK", 32}, {"UNROLL", 1}, {"TILE", "128x64"}}, 2e-3, t0 + 0.1));
  d.results.push_back(timed_result(12, {{"BLOCK", 64}, {"UNROLL", 1}, {"TILE", "128x64"}}, 1e-3, t0 + 0.8));
  db::ResultRecord failed;
  failed.id = 13;
  failed.session_id = 1;
  failed.config = {{"BLOCK", 128}, {"UNROLL", 1}, {"TILE", "<script>alert(1)</script>"}};
  failed.config_key = failed.config.dump();
  failed.status = db::Status::CompileError;
  failed.error = "error: expected ';' before '}' token <b>bold</b> & \x01 done";
  failed.compile_seconds = 0.3;
  failed.started_at_unix = t0 + 0.2;
  failed.finished_at_unix = t0 + 0.5;
  d.results.push_back(failed);
  db::ResultRecord wrong = timed_result(14, {{"BLOCK", 8}, {"UNROLL", 1}, {"TILE", "64x64"}}, 5e-4, t0 + 1.5);
  wrong.status = db::Status::WrongResult;
  wrong.error = "C: rel_l2 0.5 > 1e-5";
  d.results.push_back(wrong);
  return d;
}

}  // namespace ktune::report::testing
