#include "ktune/iree/model_inspection.h"

#include <regex>
#include <sstream>

#include "ktune/amdgpu/code_object_inspection.h"
#include "ktune/core/read_file.h"

namespace ktune::iree {
namespace fs = std::filesystem;
namespace {

// The dump's one file with this extension (IREE links every dispatch of a variant into one
// code object); empty when there is none.
fs::path dump_file(const fs::path& dir, const std::string& extension, std::vector<std::string>& notes) {
  std::vector<fs::path> found;
  for (const auto& entry : fs::directory_iterator(dir))
    if (entry.is_regular_file() && entry.path().extension() == extension) found.push_back(entry.path());
  std::sort(found.begin(), found.end());
  if (found.size() > 1)
    notes.push_back(std::to_string(found.size()) + " " + extension + " files in the dump; read " + found.front().string());
  return found.empty() ? fs::path() : found.front();
}

std::int64_t resource_int(const analysis::KernelInspection& k, std::string_view key) {
  const nlohmann::json* v = k.resource(key);
  return v && v->is_number_integer() ? v->get<std::int64_t>() : -1;
}

// ktune's figures (from the code object's metadata) against what the assembly declares. The
// total VGPR count of gfx90a and later is the architected VGPRs rounded up to 4 plus the AGPRs
// when there are AGPRs (LLVM's getTotalNumVGPRs), else the architected VGPRs.
nlohmann::json check_against_assembly(const analysis::KernelInspection& k, const AssemblyKernelFigures& a) {
  nlohmann::json checked = nlohmann::json::array(), mismatches = nlohmann::json::array();
  auto check = [&](const char* what, std::int64_t ktune, std::int64_t assembly, const char* directive) {
    if (assembly < 0 || ktune < 0) return;
    const nlohmann::json item = {{"figure", what}, {"ktune", ktune}, {"assembly", assembly}, {"directive", directive}};
    checked.push_back(item);
    if (ktune != assembly) mismatches.push_back(item);
  };
  check("lds_bytes", resource_int(k, "lds_bytes"), a.group_segment_fixed_size, ".amdhsa_group_segment_fixed_size");
  check("scratch_bytes_per_lane", resource_int(k, "scratch_bytes_per_lane"), a.private_segment_fixed_size,
        ".amdhsa_private_segment_fixed_size");
  check("agprs", resource_int(k, "agprs"), a.num_agpr, ".set <kernel>.num_agpr");
  if (a.num_vgpr >= 0) {
    const std::int64_t agprs = a.num_agpr > 0 ? a.num_agpr : 0;
    const std::int64_t total = agprs > 0 ? (a.num_vgpr + 3) / 4 * 4 + agprs : a.num_vgpr;
    check("vgprs (total, incl. AGPRs)", resource_int(k, "vgprs (total, incl. AGPRs)"), total,
          ".set <kernel>.num_vgpr (+ num_agpr)");
  }
  return {{"agrees", !checked.empty() && mismatches.empty()}, {"checked", checked}, {"mismatches", mismatches}};
}

// Only the dispatches IREE gave an MMA intrinsic are matrix work (softmax, reductions and
// elementwise dispatches are not): those whose kernel has no matrix instruction get a warning.
void expect_matrix_instructions(const DumpedDispatch& d, analysis::KernelInspection& k) {
  const bool configured_mma = !d.config.lowering_configs.empty() && d.config.lowering_configs.front().mma_kind();
  if (!configured_mma || !k.isa || !k.isa->matrix_instructions.empty()) return;
  analysis::IsaFinding f;
  f.check = "matrix-instructions";
  f.severity = analysis::IsaSeverity::Warning;
  f.kernel = k.name;
  f.message = "IREE configured " + *d.config.lowering_configs.front().mma_kind() +
              " for this dispatch, but its kernel runs no matrix (MFMA) instruction";
  k.findings.push_back(std::move(f));
}

}  // namespace

std::map<std::string, AssemblyKernelFigures> parse_assembly_figures(const std::string& text) {
  static const std::regex set_line(R"(^\s*\.set\s+\.L([A-Za-z0-9_.$]+)\.(num_vgpr|num_agpr|numbered_sgpr),\s*(\d+)\s*$)");
  static const std::regex kernel_begin(R"(^\s*\.amdhsa_kernel\s+(\S+)\s*$)");
  static const std::regex directive(R"(^\s*\.amdhsa_(group_segment_fixed_size|private_segment_fixed_size|next_free_vgpr|next_free_sgpr|accum_offset)\s+(\d+)\s*$)");
  std::map<std::string, AssemblyKernelFigures> figures;
  std::istringstream in(text);
  std::string line, current;
  std::smatch m;
  while (std::getline(in, line)) {
    if (std::regex_match(line, m, set_line)) {
      AssemblyKernelFigures& f = figures[m[1].str()];
      const std::int64_t v = std::stoll(m[3].str());
      if (m[2] == "num_vgpr") f.num_vgpr = v;
      else if (m[2] == "num_agpr") f.num_agpr = v;
      else f.numbered_sgpr = v;
    } else if (std::regex_match(line, m, kernel_begin)) {
      current = m[1].str();
    } else if (line.find(".end_amdhsa_kernel") != std::string::npos) {
      current.clear();
    } else if (!current.empty() && std::regex_match(line, m, directive)) {
      AssemblyKernelFigures& f = figures[current];
      const std::int64_t v = std::stoll(m[2].str());
      const std::string key = m[1].str();
      if (key == "group_segment_fixed_size") f.group_segment_fixed_size = v;
      else if (key == "private_segment_fixed_size") f.private_segment_fixed_size = v;
      else if (key == "next_free_vgpr") f.next_free_vgpr = v;
      else if (key == "next_free_sgpr") f.next_free_sgpr = v;
      else f.accum_offset = v;
    }
  }
  return figures;
}

ModelInspection inspect_model(const CompiledModel& model) {
  if (model.target.device != "hip")
    throw IreeError("model inspect reads AMD code objects: target '" + model.target.text() +
                    "' is not hip:gfx* (e.g. hip:gfx942)");
  ModelInspection out;
  out.target = model.target;
  out.code_object = dump_file(model.dump_dir, ".hsaco", out.notes);
  if (out.code_object.empty())
    throw IreeError("no .hsaco in IREE's dump " + model.dump_dir.string() + " (compiled with " + model.target.text() + ")");
  out.assembly = dump_file(model.dump_dir, ".rocmasm", out.notes);
  out.report = amdgpu::inspect_code_object(out.code_object.string(), {});
  std::map<std::string, AssemblyKernelFigures> figures;
  if (!out.assembly.empty()) {
    if (auto text = read_file(out.assembly)) figures = parse_assembly_figures(*text);
  } else {
    out.notes.push_back("no .rocmasm in the dump: ktune's figures are not checked against IREE's assembly");
  }
  for (const DumpedDispatch& d : model.dispatches) {
    DispatchInspection di;
    di.dispatch = d;
    const std::string kernel = d.config.export_name.empty() ? d.name : d.config.export_name;
    if (const analysis::KernelInspection* k = out.report.find_kernel(kernel)) {
      di.kernel = *k;
      expect_matrix_instructions(d, *di.kernel);
      if (auto f = figures.find(kernel); f != figures.end()) di.assembly_check = check_against_assembly(*k, f->second);
      else if (!figures.empty()) di.assembly_check = {{"agrees", false}, {"note", "the assembly declares nothing for " + kernel}};
    } else {
      out.notes.push_back("dispatch " + d.name + ": no kernel '" + kernel + "' in " + out.code_object.filename().string());
    }
    out.dispatches.push_back(std::move(di));
  }
  return out;
}

nlohmann::json to_json(const ModelInspection& inspection) {
  const nlohmann::json report = analysis::to_json(inspection.report);
  nlohmann::json dispatches = nlohmann::json::array();
  for (const DispatchInspection& d : inspection.dispatches) {
    const ConfiguredDispatch& c = d.dispatch.config;
    nlohmann::json j = {{"dispatch", d.dispatch.name}, {"kernel", c.export_name}, {"configured", d.dispatch.configured.string()}};
    if (!c.lowering_configs.empty()) {
      j["root_op"] = c.lowering_configs.front().op;
      j["lowering_config"] = c.lowering_configs.front().text;
    }
    if (c.translation) j["pipeline"] = c.translation->pipeline, j["workgroup_size"] = c.translation->workgroup_size;
    if (auto mnk = c.matmul_mnk()) j["mnk"] = *mnk;
    nlohmann::json shapes = nlohmann::json::array();
    for (const Binding& b : c.bindings) shapes.push_back({{"binding", b.index}, {"shape", b.shape}, {"type", b.element_type}});
    j["bindings"] = shapes;
    if (d.kernel)
      for (const auto& k : report.at("kernels"))
        if (k.at("name") == d.kernel->name) j["code_object"] = k;
    j["assembly_check"] = d.assembly_check;
    dispatches.push_back(std::move(j));
  }
  return {{"target", inspection.target.text()},
          {"code_object", inspection.code_object.string()},
          {"assembly", inspection.assembly.string()},
          {"facts", report.value("facts", nlohmann::json::object())},
          {"notes", inspection.notes},
          {"report_notes", report.value("notes", nlohmann::json::array())},
          {"dispatches", dispatches}};
}

}  // namespace ktune::iree
