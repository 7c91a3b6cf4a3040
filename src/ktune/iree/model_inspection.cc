#include "ktune/iree/model_inspection.h"

#include "ktune/iree/run_compiler.h"

#include <cstdlib>
#include <regex>
#include <sstream>

#include "ktune/amdgpu/code_object_inspection.h"
#include "ktune/amdgpu/process.h"
#include "ktune/analysis/occupancy_nvidia.h"
#include "ktune/analysis/ptxas_info.h"
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
              " for this dispatch, but its kernel runs no matrix instruction (MFMA, mma.sync)";
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

std::map<std::string, ExportFacts> parse_export_facts(const std::string& text) {
  static const std::regex export_line(R"(hal\.executable\.export\s+(?:public\s+)?@([A-Za-z0-9_$.]+))");
  static const std::regex attrs(R"(<workgroup_size\s*=\s*\[(\d+)\s*:\s*index,\s*(\d+)\s*:\s*index,\s*(\d+)\s*:\s*index\][^>]*?(?:workgroup_local_memory\s*=\s*(\d+))?\s*>)");
  std::map<std::string, ExportFacts> facts;
  std::istringstream in(text);
  std::string line, current;
  std::smatch m;
  while (std::getline(in, line)) {
    if (std::regex_search(line, m, export_line)) current = m[1].str();
    if (!current.empty() && std::regex_search(line, m, attrs)) {
      facts[current] = {std::stoll(m[1].str()) * std::stoll(m[2].str()) * std::stoll(m[3].str()),
                        m[4].matched ? std::stoll(m[4].str()) : 0};
      current.clear();
    }
  }
  return facts;
}

namespace {

// LLVM's NVPTX printer spreads an instruction with vector operands over several lines
// ("mma.sync.aligned.m16n8k16..." then "{%r1, ...}," lines, the last ending in ';'); the ISA
// checks read one instruction per line. Continuations are joined onto the instruction's first
// line and left empty, so line numbers still point into IREE's file.
std::string join_ptx_continuations(const std::string& ptx) {
  std::istringstream in(ptx);
  std::vector<std::string> lines;
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  auto open_instruction = [](const std::string& line) {
    const std::size_t first = line.find_first_not_of(" \t");
    if (first == std::string::npos) return false;
    const char c = line[first];
    if (c == '.' || c == '/' || c == '{' || c == '}' || c == '$' || c == '@') return false;
    const std::size_t last = line.find_last_not_of(" \t");
    return line[last] != ';' && line[last] != '{' && line[last] != '}' && line[last] != ':' && line[last] != ')';
  };
  for (std::size_t i = 0; i < lines.size(); ++i) {
    if (!open_instruction(lines[i])) continue;
    std::size_t j = i + 1;
    for (; j < lines.size(); ++j) {
      const std::size_t first = lines[j].find_first_not_of(" \t");
      lines[i] += " " + (first == std::string::npos ? std::string() : lines[j].substr(first));
      lines[j].clear();
      const std::size_t last = lines[i].find_last_not_of(" \t");
      if (last != std::string::npos && lines[i][last] == ';') break;
    }
    i = j;
  }
  std::string out;
  for (const std::string& line : lines) out += line + "\n";
  return out;
}

std::string find_ptxas() {
  if (std::string p = amdgpu::find_program("ptxas"); !p.empty()) return p;
  for (const char* env : {"CUDA_HOME", "CUDA_PATH"})
    if (const char* home = std::getenv(env); home && *home)
      if (std::string p = amdgpu::find_program(std::string(home) + "/bin/ptxas"); !p.empty()) return p;
  return amdgpu::find_program("/usr/local/cuda/bin/ptxas");
}

// The model's PTX assembled by ptxas -v (registers, spills, static shared memory per kernel) and
// IREE's export facts (threads, dynamic shared memory), joined into a report per kernel with
// the occupancy on the target and the ISA checks on the PTX.
analysis::InspectReport inspect_cuda(const IreeTools& tools, const CompiledModel& model, const fs::path& ptx,
                                     std::vector<std::string>& notes) {
  const std::string ptxas = find_ptxas();
  if (ptxas.empty())
    throw IreeError("model inspect for " + model.target.text() + " needs the CUDA toolkit's ptxas (PATH, $CUDA_HOME/bin "
                    "or /usr/local/cuda/bin)");
  const amdgpu::ToolRun run = amdgpu::run_tool({ptxas, "-arch=" + model.target.chip, "-v", "-o", "/dev/null", ptx.string()}, 300);
  if (!run.succeeded()) throw IreeError("ptxas on " + ptx.string() + " " + run.describe() + ":\n" + run.output.substr(0, 4000));
  const analysis::PtxasReport usage = analysis::parse_ptxas_log(run.output);
  const fs::path targets = model.dump_dir.parent_path() / "executable_targets.mlir";
  std::vector<std::string> command = {tools.compile.string(), model.model.string(), "--compile-to=executable-targets",
                                      "-o", targets.string()};
  for (const std::string& f : model.target.compile_flags()) command.push_back(f);
  const device::SubprocessResult compiled = run_iree_compile(command, 600).result;
  std::map<std::string, ExportFacts> facts;
  if (compiled.succeeded()) facts = parse_export_facts(read_file(targets).value_or(""));
  else notes.push_back("IREE's export facts unavailable (" + compiled.describe() + "): dynamic shared memory taken as 0");
  analysis::InspectReport report;
  report.subject = ptx.string();
  report.kind = "ptx";
  report.vendor = "nvidia";
  report.target = model.target.chip;
  report.facts.emplace_back("ptxas", ptxas);
  const analysis::NvidiaArch* arch = nullptr;
  try {
    arch = &analysis::nvidia_arch(model.target.chip);
  } catch (const std::exception& e) {
    notes.push_back(std::string("no occupancy rules: ") + e.what());
  }
  for (const analysis::KernelResourceUsage& k : usage.kernels) {
    analysis::KernelInspection ki;
    ki.name = k.name;
    const ExportFacts f = facts.count(k.name) ? facts.at(k.name) : ExportFacts{};
    ki.set("registers", k.registers);
    ki.set("shared_bytes (static)", k.shared_bytes);
    ki.set("dynamic_shared_bytes (IREE's workgroup_local_memory)", f.local_memory);
    ki.set("spill_store_bytes", k.spill_store_bytes);
    ki.set("spill_load_bytes", k.spill_load_bytes);
    ki.set("stack_frame_bytes", k.stack_frame_bytes);
    ki.set("barriers", k.barriers);
    if (arch && f.threads > 0)
      analysis::nvidia_occupancy_into(ki, *arch, static_cast<int>(f.threads), k.registers, k.shared_bytes, f.local_memory,
                                      std::max(k.barriers, 1), false);
    report.kernels.push_back(std::move(ki));
  }
  amdgpu::lint_into(report, join_ptx_continuations(read_file(ptx).value_or("")), analysis::IsaDialect::Ptx, "PTX from IREE",
                    false);
  return report;
}

}  // namespace

ModelInspection inspect_model(const IreeTools& tools, const CompiledModel& model) {
  if (model.target.device != "hip" && model.target.device != "cuda")
    throw IreeError("model inspect reads AMD code objects and CUDA PTX: target '" + model.target.text() +
                    "' is neither hip:gfx* nor cuda:sm_*");
  ModelInspection out;
  out.target = model.target;
  std::map<std::string, AssemblyKernelFigures> figures;
  if (model.target.device == "cuda") {
    out.code_object = dump_file(model.dump_dir, ".ptx", out.notes);
    if (out.code_object.empty()) throw IreeError("no .ptx in IREE's dump " + model.dump_dir.string());
    out.report = inspect_cuda(tools, model, out.code_object, out.notes);
  } else {
    out.code_object = dump_file(model.dump_dir, ".hsaco", out.notes);
    if (out.code_object.empty())
      throw IreeError("no .hsaco in IREE's dump " + model.dump_dir.string() + " (compiled with " + model.target.text() + ")");
    out.assembly = dump_file(model.dump_dir, ".rocmasm", out.notes);
    out.report = amdgpu::inspect_code_object(out.code_object.string(), {});
    if (out.assembly.empty())
      out.notes.push_back("no .rocmasm in the dump: ktune's figures are not checked against IREE's assembly");
  }
  if (!out.assembly.empty())
    if (auto text = read_file(out.assembly)) figures = parse_assembly_figures(*text);
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
    j["shape"] = c.shape_label();  // a batched contraction's too: "8 x 128x128x64"
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
