#include "ktune/cli/model_command_tables.h"

#include <algorithm>
#include <array>
#include <cstdio>

#include "ktune/iree/dispatch_gemm.h"

namespace ktune::cli {
namespace {

std::string join(const std::vector<std::int64_t>& v, const char* sep) {
  std::string s;
  for (std::int64_t x : v) s += (s.empty() ? "" : sep) + std::to_string(x);
  return s;
}

std::string tiles(const iree::LoweringConfig* c, const char* key) {
  const auto t = c ? c->tiles(key) : std::nullopt;
  return t ? "[" + join(*t, ",") + "]" : "-";
}

const iree::LoweringConfig* root_of(const iree::ConfiguredDispatch& k) {
  return k.lowering_configs.empty() ? nullptr : &k.lowering_configs.front();
}

std::string prefetch_of(const iree::ConfiguredDispatch& k) {
  if (k.translation)
    for (const auto& o : k.translation->pipeline_options)
      if (o.key == "prefetch_num_stages") return o.value;
  return "-";
}

// A compiler's message in one cell: its first line, cut short (the table stays one line a row).
std::string one_line(const std::string& text, std::size_t max) {
  std::string line = text.substr(0, text.find('\n'));
  return line.size() > max ? line.substr(0, max) + "..." : line;
}

std::string fixed(double x, int digits) {
  char text[32];
  std::snprintf(text, sizeof text, "%.*f", digits, x);
  return text;
}

std::string microseconds(const std::optional<double>& s, const std::string& otherwise) {
  return s ? std::to_string(*s * 1e6).substr(0, 8) : otherwise;
}

}  // namespace

TextTable::TextTable(std::vector<std::string> header) : right_(header.size(), false) { rows_.push_back(std::move(header)); }

TextTable& TextTable::align_right(std::size_t column) {
  if (column < right_.size()) right_[column] = true;
  return *this;
}

void TextTable::add_row(std::vector<std::string> cells) {
  cells.resize(std::max(cells.size(), right_.size()));
  right_.resize(cells.size(), false);
  rows_.push_back(std::move(cells));
}

std::string TextTable::render() const {
  std::vector<std::size_t> width(right_.size(), 0);
  for (const auto& r : rows_)
    for (std::size_t c = 0; c < r.size(); ++c) width[c] = std::max(width[c], r[c].size());
  std::string out;
  for (const auto& r : rows_) {
    std::string line;
    for (std::size_t c = 0; c < width.size(); ++c) {
      const std::string cell = c < r.size() ? r[c] : "";
      const std::string pad(width[c] - cell.size(), ' ');
      const bool last = c + 1 == width.size();
      line += right_[c] ? pad + cell : cell + (last ? "" : pad);
      if (!last) line += "  ";
    }
    out += line.substr(0, line.find_last_not_of(' ') + 1) + "\n";
  }
  return out;
}

TextTable dispatches_table(const iree::CompiledModel& model) {
  TextTable t({"#", "dispatch", "op", "MxNxK / shape", "pipeline", "workgroup", "wg tile", "reduction", "prefetch",
               "mma_kind", "ktune kernels"});
  t.align_right(0);
  for (std::size_t i = 0; i < model.dispatches.size(); ++i) {
    const iree::DumpedDispatch& d = model.dispatches[i];
    const iree::ConfiguredDispatch& k = d.config;
    const iree::LoweringConfig* root = root_of(k);
    const iree::DispatchGemmResult g = iree::recognize_dispatch_gemm(d);
    t.add_row({std::to_string(i), k.export_name, root ? root->op : "-", k.shape_label(),
               k.translation ? k.translation->pipeline : "-", k.translation ? join(k.translation->workgroup_size, "x") : "-",
               tiles(root, "workgroup"), tiles(root, "reduction"), prefetch_of(k),
               root ? root->mma_kind().value_or("-") : "-", g.gemm ? g.gemm->describe() : "-"});
  }
  return t;
}

namespace {

// AMD: VGPR (incl. AGPRs), AGPR, SGPR, LDS, scratch; NVIDIA: registers, barriers, static +
// dynamic shared memory, spill stores (no AGPRs).
std::vector<std::pair<std::string, std::string>> figure_columns(bool nvidia) {
  if (nvidia) return {{"REGS", "registers"}, {"BARS", "barriers"}, {"SMEM", "shared"}, {"spills", "spill_store_bytes"}};
  return {{"VGPR", "vgprs (total, incl. AGPRs)"}, {"AGPR", "agprs"}, {"SGPR", "sgprs"}, {"LDS", "lds_bytes"},
          {"scratch", "scratch_bytes_per_lane"}};
}

std::string figure(const iree::DispatchInspection& d, const std::string& key) {
  if (!d.kernel) return "-";
  if (key == "shared") {  // static + IREE's dynamic shared memory
    const nlohmann::json* s = d.kernel->resource("shared_bytes (static)");
    const nlohmann::json* dyn = d.kernel->resource("dynamic_shared_bytes (IREE's workgroup_local_memory)");
    return std::to_string((s ? s->get<std::int64_t>() : 0) + (dyn ? dyn->get<std::int64_t>() : 0));
  }
  const nlohmann::json* v = d.kernel->resource(key);
  return v ? v->dump() : "-";
}

std::string occupancy(const iree::DispatchInspection& d) {
  if (d.kernel && d.kernel->nvidia_occupancy) return d.kernel->nvidia_occupancy->summary();
  if (!d.kernel || !d.kernel->amdgpu_occupancy) return "-";
  const auto& o = *d.kernel->amdgpu_occupancy;
  if (!o.launchable) return "not launchable";
  return std::to_string(o.waves_per_simd).substr(0, 4) + " (" +
         (o.limiters.empty() ? std::string("-") : analysis::to_string(o.limiters.front())) + ")";
}

std::string findings(const iree::DispatchInspection& d) {
  std::string s;
  if (d.kernel)
    for (const auto& f : d.kernel->findings)
      if (f.severity != analysis::IsaSeverity::Info) s += (s.empty() ? "" : ", ") + f.check;
  return s.empty() ? "-" : s;
}

std::string assembly_check(const iree::DispatchInspection& d) {
  if (!d.assembly_check.contains("agrees")) return "-";
  return d.assembly_check.at("agrees").get<bool>() ? "equal" : "DIFFERS";
}

}  // namespace

TextTable inspection_table(const iree::ModelInspection& inspection) {
  const bool nvidia = inspection.target.device == "cuda";
  const auto figures = figure_columns(nvidia);
  std::vector<std::string> header = {"#", "dispatch", "root op", "MxNxK", "wg tile"};
  for (const auto& [title, key] : figures) header.push_back(title);
  for (const char* h : {nvidia ? "occupancy (blocks/SM, limiter)" : "occupancy (waves/SIMD, limiter)", "asm check", "ISA findings"})
    header.push_back(h);
  TextTable t(header);
  t.align_right(0);
  for (std::size_t c = 0; c < figures.size(); ++c) t.align_right(5 + c);
  for (std::size_t i = 0; i < inspection.dispatches.size(); ++i) {
    const iree::DispatchInspection& d = inspection.dispatches[i];
    const iree::LoweringConfig* root = root_of(d.dispatch.config);
    std::vector<std::string> row = {std::to_string(i), d.dispatch.name, root ? root->op : "-",
                                    d.dispatch.config.shape_label(), tiles(root, "workgroup")};
    for (const auto& [title, key] : figures) row.push_back(figure(d, key));
    for (std::string cell : {occupancy(d), assembly_check(d), findings(d)}) row.push_back(std::move(cell));
    t.add_row(std::move(row));
  }
  return t;
}

TextTable candidates_table(const std::vector<iree::MatmulCandidate>& candidates,
                           const std::vector<iree::CandidateBuild>& builds, bool build_requested) {
  std::vector<std::string> header = {"#", "score", "workgroup", "subgroup", "reduction", "threads", "prefetch", "mma_kind"};
  if (build_requested) header.push_back("build");
  TextTable t(header);
  t.align_right(0).align_right(5);
  for (std::size_t i = 0; i < candidates.size(); ++i) {
    const iree::MatmulCandidate& m = candidates[i];
    std::vector<std::string> row = {std::to_string(i), fixed(m.score, 3), join(m.workgroup, ","),
                                    join(m.subgroup, ","), join(m.reduction, ","), std::to_string(m.workgroup_size),
                                    std::to_string(m.knobs.prefetch_stages), m.knobs.mma_kind};
    if (build_requested) {
      std::string build = "not built";  // past --build K
      if (i < builds.size())
        build = builds[i].ok ? "ok (" + fixed(builds[i].seconds, 2) + " s)"
                             : "FAILED: " + one_line(builds[i].error, 160);
      row.push_back(build);
    }
    // The note goes on the last cell: it is never padded, so it widens no column.
    if (m.is_default) row.back() += "  (IREE's default)";
    t.add_row(std::move(row));
  }
  return t;
}

TextTable profile_table(const iree::ModelProfile& p) {
  TextTable t({"dispatch", "root", "in model (us)", "alone (us)", "share", "tunable"});
  t.align_right(2).align_right(3).align_right(4);
  for (const auto& d : p.dispatches) {
    t.add_row({d.name, d.root, microseconds(d.in_model_s, "-"), microseconds(d.median_s, d.status), fixed(100 * d.share, 1) + "%",
               d.tunable ? "yes" : "no: " + one_line(d.why_not, 80)});
  }
  return t;
}

TextTable tuning_table(const iree::ModelTuning& tuning) {
  TextTable t({"dispatch", "candidates", "ktune kernels", "evaluated", "resumed", "tuning (s)", "default (us)", "best (us)",
               "speedup", "winner"});
  for (std::size_t c = 1; c <= 8; ++c) t.align_right(c);
  for (const auto& d : tuning.dispatches) {
    const bool timed = d.default_s && d.best_s;
    t.add_row({d.name, std::to_string(d.candidates), std::to_string(d.object_candidates),
               std::to_string(d.summary.evaluated), std::to_string(d.summary.resumed), fixed(d.summary.wall_seconds, 1),
               d.default_s ? fixed(*d.default_s * 1e6, 1) : "-", d.best_s ? fixed(*d.best_s * 1e6, 1) : "-",
               timed ? fixed(*d.default_s / *d.best_s, 2) + "x" : "-", d.best_label});
  }
  return t;
}

TextTable ranking_table(const iree::DispatchRanking& ranking, std::size_t max_rows) {
  TextTable t({"rank", "candidate", "status", "waves/SIMD", "spills", "MFMA", "score", ""});
  t.align_right(3).align_right(4).align_right(6);
  for (std::size_t i = 0; i < ranking.candidates.size() && i < max_rows; ++i) {
    const iree::RankedCandidate& k = ranking.candidates[i];
    const auto shown = [&](const char* key) { return k.assessment.contains(key) ? k.assessment[key].dump() : "-"; };
    t.add_row({k.rank > 0 ? "#" + std::to_string(k.rank) : "-", k.candidate.knobs.key(), k.status, shown("waves_per_simd"),
               shown("spills"), k.assessment.value("mfma", nlohmann::json::object()).empty() ? "no" : "yes",
               fixed(k.candidate.score, 3), k.candidate.is_default ? "(IREE's default)" : ""});
  }
  return t;
}

}  // namespace ktune::cli
