#include "ktune/report/chrome_trace.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <vector>

namespace ktune::report {

namespace {

constexpr int kSessionTrack = 0;
constexpr int kCompileTrackBase = 1000;  // compile slot k is track 1000 + k
constexpr std::size_t kMaxErrorInArgs = 2000;

double microseconds(double unix_seconds) { return unix_seconds * 1e6; }

nlohmann::json metadata(const char* name, std::int64_t pid, int tid, nlohmann::json args) {
  return {{"ph", "M"}, {"name", name}, {"pid", pid}, {"tid", tid}, {"args", std::move(args)}};
}

nlohmann::json span(std::string name, const char* category, std::int64_t pid, int tid, double start_s, double end_s,
                    nlohmann::json args) {
  return {{"ph", "X"},
          {"name", std::move(name)},
          {"cat", category},
          {"pid", pid},
          {"tid", tid},
          {"ts", microseconds(start_s)},
          {"dur", std::max(0.0, microseconds(end_s) - microseconds(start_s))},
          {"args", std::move(args)}};
}

nlohmann::json result_args(const db::ResultRecord& r) {
  nlohmann::json a = {{"result_id", r.id},
                      {"config", r.config},
                      {"status", db::to_string(r.status)},
                      {"compile_seconds", r.compile_seconds},
                      {"compile_cache_hit", r.compile_cache_hit}};
  if (r.median_s) a["median_s"] = *r.median_s;
  if (r.samples > 0) a["samples"] = r.samples;
  if (!r.stop_reason.empty()) a["stop_reason"] = r.stop_reason;
  if (r.raced) a["raced"] = true;
  if (r.gflops) a["gflops"] = *r.gflops;
  if (!r.phases.empty()) a["phases"] = r.phases;
  if (!r.error.empty()) a["error"] = r.error.size() > kMaxErrorInArgs ? r.error.substr(0, kMaxErrorInArgs) + "..." : r.error;
  return a;
}

// Whether the row went to a measuring lane at all: the tuner records compile failures and
// statically screened configs without touching a worker.
bool reached_a_lane(const db::ResultRecord& r) {
  if (r.resources.is_object() && r.resources.contains("device_ordinal")) return true;
  if (r.samples > 0) return true;
  if (r.compile_seconds > 0 && (r.status == db::Status::CompileError || r.status == db::Status::Timeout ||
                                r.status == db::Status::ResourceLimit))
    return false;
  return r.status != db::Status::Skipped;
}

int lane_of(const db::ResultRecord& r) {
  if (r.resources.is_object()) {
    const auto it = r.resources.find("device_ordinal");
    if (it != r.resources.end() && it->is_number_integer()) return static_cast<int>(it->get<std::int64_t>());
  }
  return 0;
}

// The worker's phases of one evaluation, in the order it runs them, as spans nested inside the
// lane's span: laid end to end from when the worker call began (finished - worker_call).
constexpr const char* kWorkerPhases[] = {"arguments", "reference", "load",    "reset",
                                         "run",       "check",     "rotation", "measure", "post_check"};

int add_phase_spans(nlohmann::json& events, const db::ResultRecord& r, std::int64_t pid, int tid) {
  if (!r.phases.is_object() || !r.phases.contains("worker_call")) return 0;
  double at = r.finished_at_unix - r.phases.value("worker_call", 0.0);
  int added = 0;
  for (const char* phase : kWorkerPhases) {
    const double seconds = r.phases.value(phase, 0.0);
    if (!(seconds > 0)) continue;
    events.push_back(span(phase, "phase", pid, tid, at, std::min(at + seconds, r.finished_at_unix),
                          {{"result_id", r.id}, {"seconds", seconds}}));
    at += seconds;
    ++added;
  }
  return added;
}

}  // namespace

nlohmann::json chrome_trace(const SessionData& data, TraceSummary* summary) {
  const std::int64_t pid = data.device.id;
  nlohmann::json events = nlohmann::json::array();
  TraceSummary counts;
  events.push_back(metadata("process_name", pid, 0,
                            {{"name", data.device.name + " (" + data.device.backend + ")"}}));
  events.push_back(metadata("thread_name", pid, kSessionTrack, {{"name", "session " + std::to_string(data.session.id)}}));
  events.push_back(metadata("thread_sort_index", pid, kSessionTrack, {{"sort_index", -1}}));

  double first = std::numeric_limits<double>::infinity(), last = 0;
  std::vector<double> compile_slot_free;  // when each compile slot's last span ended
  std::map<int, double> lane_free;        // lane -> when its last measurement ended
  for (const auto& r : data.results) {
    if (!(r.started_at_unix > 0) || !(r.finished_at_unix > 0)) continue;  // no timestamps: nothing to place
    first = std::min(first, r.started_at_unix);
    last = std::max(last, r.finished_at_unix);
    const nlohmann::json args = result_args(r);
    double measure_start = r.started_at_unix;
    if (r.compile_seconds > 0) {
      const double compile_end = std::min(r.started_at_unix + r.compile_seconds, r.finished_at_unix);
      // Interval partitioning: the first slot free at this start, or a new slot.
      std::size_t slot = 0;
      while (slot < compile_slot_free.size() && compile_slot_free[slot] > r.started_at_unix + 1e-9) ++slot;
      if (slot == compile_slot_free.size()) {
        compile_slot_free.push_back(0);
        events.push_back(metadata("thread_name", pid, kCompileTrackBase + static_cast<int>(slot),
                                  {{"name", "compile slot " + std::to_string(slot)}}));
        events.push_back(metadata("thread_sort_index", pid, kCompileTrackBase + static_cast<int>(slot),
                                  {{"sort_index", kCompileTrackBase + static_cast<int>(slot)}}));
      }
      compile_slot_free[slot] = compile_end;
      nlohmann::json compile_args = args;
      events.push_back(span("compile " + r.config_key, "compile", pid, kCompileTrackBase + static_cast<int>(slot),
                            r.started_at_unix, compile_end, std::move(compile_args)));
      ++counts.compile_spans;
      measure_start = compile_end;
    }
    if (!reached_a_lane(r)) continue;
    const int lane = lane_of(r);
    const int tid = lane + 1;  // track 0 is the session
    auto [it, added] = lane_free.emplace(lane, 0.0);
    if (added) {
      events.push_back(metadata("thread_name", pid, tid, {{"name", "lane " + std::to_string(lane) + " (measure)"}}));
      events.push_back(metadata("thread_sort_index", pid, tid, {{"sort_index", tid}}));
    }
    measure_start = std::min(std::max(measure_start, it->second), r.finished_at_unix);
    it->second = r.finished_at_unix;
    events.push_back(span((r.compile_seconds > 0 ? "measure " : "evaluate ") + r.config_key, "measure", pid, tid,
                          measure_start, r.finished_at_unix, args));
    ++counts.measure_spans;
    add_phase_spans(events, r, pid, tid);
  }
  if (last > 0) {
    nlohmann::json session_args = {{"session_id", data.session.id},
                                   {"kernel", data.kernel.name},
                                   {"problem", data.problem.name},
                                   {"strategy", data.session.strategy},
                                   {"state", data.session.state},
                                   {"results", data.results.size()}};
    events.push_back(span("session " + std::to_string(data.session.id), "session", pid, kSessionTrack, first, last,
                          std::move(session_args)));
  }
  counts.tracks = 1 + compile_slot_free.size() + lane_free.size();
  if (summary) *summary = counts;
  return {{"traceEvents", std::move(events)},
          {"displayTimeUnit", "ms"},
          {"otherData",
           {{"generator", "ktune export --perfetto"},
            {"session_id", data.session.id},
            {"device", data.device.name},
            {"device_fingerprint", data.device.fingerprint},
            {"kernel", data.kernel.name},
            {"problem", data.problem.name},
            {"started_at", data.session.started_at},
            {"finished_at", data.session.finished_at}}}};
}

std::string chrome_trace_text(const SessionData& data, TraceSummary* summary) {
  return chrome_trace(data, summary).dump(1, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
}

}  // namespace ktune::report
