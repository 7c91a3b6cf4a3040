#include "ktune/analysis/inspect_report.h"

#include <algorithm>
#include <sstream>

#include "ktune/analysis/valid_utf8.h"

namespace ktune::analysis {
namespace {

std::string_view strip_decorations(std::string_view name) {
  constexpr std::string_view kDescriptor = ".kd";
  constexpr std::string_view kOclImp = "__clang_ocl_kern_imp_";
  if (name.size() > kDescriptor.size() && name.substr(name.size() - kDescriptor.size()) == kDescriptor)
    name.remove_suffix(kDescriptor.size());
  if (name.substr(0, kOclImp.size()) == kOclImp) name.remove_prefix(kOclImp.size());
  return name;
}

bool same_kernel(const KernelInspection& k, std::string_view lint_name) {
  const std::string_view name = strip_decorations(lint_name);
  return name == strip_decorations(k.name) || (!k.symbol.empty() && name == strip_decorations(k.symbol));
}

std::string limit_text(int blocks) { return blocks == kUnlimitedBlocks ? "-" : std::to_string(blocks); }

std::string value_text(const nlohmann::json& v) {
  if (v.is_string()) return v.get<std::string>();
  return v.dump();
}

void append_finding(std::ostringstream& out, const IsaFinding& f, const char* indent) {
  out << indent << "[" << to_string(f.severity) << "] " << f.check << ": " << f.message << "\n";
  for (const auto& line : f.lines) out << indent << "    line " << line.number << ": " << line.text << "\n";
  if (f.count > static_cast<int>(f.lines.size()))
    out << indent << "    (" << f.count - static_cast<int>(f.lines.size()) << " more)\n";
}

void append_nvidia(std::ostringstream& out, const OccupancyResult& o) {
  if (!o.launchable) {
    out << "  occupancy: not launchable: " << o.not_launchable_reason << "\n";
    return;
  }
  out << "  occupancy: " << o.summary() << "\n";
  out << "    blocks/SM each resource allows: warps " << limit_text(o.blocks_limit_warps) << ", registers "
      << limit_text(o.blocks_limit_registers) << ", shared memory " << limit_text(o.blocks_limit_shared_memory)
      << ", block slots " << limit_text(o.blocks_limit_blocks) << ", barriers " << limit_text(o.blocks_limit_barriers)
      << "\n";
  out << "    per block: " << o.warps_per_block << " warps, " << o.registers_per_block << " registers, "
      << o.shared_bytes_per_block << " shared bytes allocated (of " << o.shared_memory_per_sm << " per SM)\n";
}

void append_amdgpu(std::ostringstream& out, const AmdgpuOccupancyResult& o) {
  if (!o.launchable) {
    out << "  occupancy: not launchable: " << o.not_launchable_reason << "\n";
    return;
  }
  out << "  occupancy: " << o.summary() << "\n";
  out << "    waves/SIMD each register file allows: VGPRs " << o.waves_per_simd_limit_vgprs << " ("
      << o.allocated_vgprs << " allocated), SGPRs " << o.waves_per_simd_limit_sgprs << "\n";
  out << "    workgroups/CU each resource allows: wave slots " << limit_text(o.workgroups_limit_wave_slots)
      << ", VGPRs " << limit_text(o.workgroups_limit_vgprs) << ", SGPRs " << limit_text(o.workgroups_limit_sgprs)
      << ", LDS " << limit_text(o.workgroups_limit_lds) << ", barriers " << limit_text(o.workgroups_limit_barriers)
      << "\n";
  out << "    the compiler's figure (; Occupancy:): " << o.compiler_occupancy << " waves/SIMD\n";
}

}  // namespace

void KernelInspection::set(std::string key, nlohmann::json value) {
  for (auto& [k, v] : resources) {
    if (k == key) {
      v = std::move(value);
      return;
    }
  }
  resources.emplace_back(std::move(key), std::move(value));
}

const nlohmann::json* KernelInspection::resource(std::string_view key) const {
  for (const auto& [k, v] : resources)
    if (k == key) return &v;
  return nullptr;
}

KernelInspection* InspectReport::find_kernel(std::string_view name) {
  for (auto& k : kernels)
    if (same_kernel(k, name)) return &k;
  return nullptr;
}

void attach_isa_lint(InspectReport& report, const IsaLintReport& lint, std::string isa_source) {
  report.isa_source = std::move(isa_source);
  report.isa_dialect = lint.dialect;
  if (report.kernels.empty()) {
    for (const auto& k : lint.kernels) {
      KernelInspection kernel;
      kernel.name = k.name;
      report.kernels.push_back(std::move(kernel));
    }
  }
  for (const auto& summary : lint.kernels) {
    if (KernelInspection* k = report.find_kernel(summary.name); k && !k->isa) k->isa = summary;
  }
  for (const auto& finding : lint.findings) {
    if (KernelInspection* k = report.find_kernel(finding.kernel)) k->findings.push_back(finding);
    else report.other_findings.push_back(finding);
  }
}

std::string format_inspect_text(const InspectReport& report) {
  std::ostringstream out;
  out << "inspect " << report.subject << " (" << report.kind;
  if (!report.target.empty()) out << ", " << report.target;
  out << ")\n";
  for (const auto& [key, value] : report.facts) out << "  " << key << ": " << value_text(value) << "\n";
  for (const auto& note : report.notes) out << "  note: " << note << "\n";
  for (const auto& k : report.kernels) {
    out << "\nkernel " << k.name;
    if (!k.symbol.empty() && k.symbol != k.name) out << " (" << k.symbol << ")";
    out << "\n";
    for (const auto& [key, value] : k.resources) out << "  " << key << ": " << value_text(value) << "\n";
    if (!k.launch.empty()) out << "  launch: " << k.launch << "\n";
    if (!k.occupancy_arch.empty() && (k.nvidia_occupancy || k.amdgpu_occupancy))
      out << "  occupancy rules: " << k.occupancy_arch << "\n";
    if (k.nvidia_occupancy) append_nvidia(out, *k.nvidia_occupancy);
    if (k.amdgpu_occupancy) append_amdgpu(out, *k.amdgpu_occupancy);
    std::vector<std::string> hints;
    if (k.nvidia_occupancy)
      for (const auto& h : k.nvidia_occupancy->hints) hints.push_back(h.message);
    if (k.amdgpu_occupancy)
      for (const auto& h : k.amdgpu_occupancy->hints) hints.push_back(h.message);
    if (!hints.empty()) {
      out << "  what would raise occupancy:\n";
      for (const auto& h : hints) out << "    - " << h << "\n";
    } else if ((k.nvidia_occupancy && k.nvidia_occupancy->launchable) ||
               (k.amdgpu_occupancy && k.amdgpu_occupancy->launchable)) {
      const double occupancy = k.nvidia_occupancy ? k.nvidia_occupancy->occupancy : k.amdgpu_occupancy->occupancy;
      out << (occupancy >= 1.0 ? "  what would raise occupancy: nothing, it is at the maximum\n"
                               : "  what would raise occupancy: no single resource change adds a block/wave\n");
    }
    for (const auto& note : k.notes) out << "  note: " << note << "\n";
    if (k.isa) {
      out << "  ISA (" << report.isa_source << ", lines " << k.isa->first_line << "-" << k.isa->last_line
          << "): " << k.isa->instructions << " instructions, " << k.isa->loops << " loops";
      if (!k.isa->matrix_instructions.empty()) {
        out << ", matrix:";
        for (const auto& [mnemonic, n] : k.isa->matrix_instructions) out << " " << mnemonic << " x" << n;
      }
      out << "\n";
    }
    for (const auto& f : k.findings) append_finding(out, f, "  ");
  }
  if (!report.other_findings.empty()) {
    out << "\nother ISA findings (" << report.isa_source << "):\n";
    for (const auto& f : report.other_findings) append_finding(out, f, "  ");
  }
  return to_valid_utf8(out.str());
}

nlohmann::json to_json(const IsaFinding& f) {
  nlohmann::json lines = nlohmann::json::array();
  for (const auto& l : f.lines) lines.push_back({{"line", l.number}, {"text", to_valid_utf8(l.text)}});
  return {{"check", f.check},   {"severity", to_string(f.severity)}, {"kernel", to_valid_utf8(f.kernel)},
          {"message", to_valid_utf8(f.message)}, {"count", f.count}, {"lines", lines}};
}

nlohmann::json to_json(const InspectReport& report) {
  nlohmann::json facts = nlohmann::json::object();
  for (const auto& [key, value] : report.facts) facts[key] = value;
  nlohmann::json kernels = nlohmann::json::array();
  for (const auto& k : report.kernels) {
    nlohmann::json resources = nlohmann::json::object();
    for (const auto& [key, value] : k.resources) resources[key] = value;
    nlohmann::json j = {{"name", to_valid_utf8(k.name)}, {"resources", resources}, {"notes", k.notes}};
    if (!k.symbol.empty()) j["symbol"] = to_valid_utf8(k.symbol);
    if (!k.launch.empty()) j["launch"] = k.launch;
    nlohmann::json hints = nlohmann::json::array();
    if (k.nvidia_occupancy) {
      j["occupancy"] = to_json(*k.nvidia_occupancy);
      j["occupancy"]["summary"] = k.nvidia_occupancy->launchable ? k.nvidia_occupancy->summary() : "not launchable";
      for (const auto& h : k.nvidia_occupancy->hints) hints.push_back(h.message);
    }
    if (k.amdgpu_occupancy) {
      j["occupancy"] = to_json(*k.amdgpu_occupancy);
      j["occupancy"]["summary"] = k.amdgpu_occupancy->launchable ? k.amdgpu_occupancy->summary() : "not launchable";
      for (const auto& h : k.amdgpu_occupancy->hints) hints.push_back(h.message);
    }
    if (j.contains("occupancy")) {
      j["occupancy"]["arch"] = k.occupancy_arch;
      j["hints"] = hints;
    }
    nlohmann::json findings = nlohmann::json::array();
    for (const auto& f : k.findings) findings.push_back(to_json(f));
    j["findings"] = findings;
    if (k.isa) {
      IsaLintReport one;
      one.kernels.push_back(*k.isa);
      j["isa"] = to_json(one)["kernels"][0];
    }
    kernels.push_back(std::move(j));
  }
  nlohmann::json other = nlohmann::json::array();
  for (const auto& f : report.other_findings) other.push_back(to_json(f));
  nlohmann::json j = {{"subject", to_valid_utf8(report.subject)},
                      {"kind", report.kind},
                      {"vendor", report.vendor},
                      {"target", report.target},
                      {"facts", facts},
                      {"kernels", kernels},
                      {"notes", report.notes},
                      {"other_findings", other}};
  if (report.isa_dialect) {
    j["isa"] = {{"source", report.isa_source}, {"dialect", to_string(*report.isa_dialect)}};
  } else {
    j["isa"] = nullptr;
  }
  return j;
}

void nvidia_occupancy_into(KernelInspection& ki, const NvidiaArch& arch, int threads, int registers,
                           std::int64_t static_shared, std::int64_t dynamic_shared, int barriers, bool assumed_threads) {
  OccupancyInput in;
  in.threads_per_block = threads;
  in.registers_per_thread = registers;
  in.static_shared_bytes = static_shared;
  in.dynamic_shared_bytes = dynamic_shared;
  in.barriers = barriers;
  ki.launch = std::to_string(threads) + " threads per block" +
              (assumed_threads ? " (assumed; --block sets the launch)" : "") + ", " + std::to_string(dynamic_shared) +
              " dynamic shared bytes";
  ki.occupancy_arch = arch.name;
  try {
    ki.nvidia_occupancy = nvidia_occupancy(arch, in);
  } catch (const std::exception& e) {
    ki.notes.push_back(std::string("occupancy not computed: ") + e.what());
  }
}

}  // namespace ktune::analysis
