#include "ktune/iree/generated_object.h"

#include <fstream>
#include <map>
#include <regex>
#include <sstream>

#include "ktune/families/generated/generated_space.h"
#include "ktune/iree/matmul_candidates.h"

namespace ktune::iree {
namespace fs = std::filesystem;

nlohmann::json ObjectCandidate::to_json() const {
  return {{"label", label},
          {"tile", {knobs.tile_m, knobs.tile_n, knobs.tile_k}},
          {"warps", {knobs.subgroup_m, knobs.subgroup_n}},
          {"stages", knobs.stages},
          {"swizzle_group", knobs.swizzle_group},
          {"min_blocks_per_sm", knobs.min_blocks_per_sm},
          {"estimate_seconds", estimate_seconds}};
}

generated::DeviceTraits object_device(const ConfiguredDispatch& d) {
  generated::DeviceTraits device;
  const auto arch = cuda::nvrtc_arch_number(d.arch);
  device.compute_capability = arch ? *arch : 80;
  device.sm_count = multiprocessors_of(d.arch);
  // IREE's target says what a workgroup may use; the runtime checks it against the device.
  device.max_shared_per_block = static_cast<int>(d.max_workgroup_memory_bytes.value_or(48 * 1024));
  device.name = d.arch;
  return device;
}

namespace {

std::string label_of(const generated::GeneratedKnobs& k) {
  return "ktune/" + std::to_string(k.tile_m) + "x" + std::to_string(k.tile_n) + "x" + std::to_string(k.tile_k) + "/w" +
         std::to_string(k.subgroup_m) + "x" + std::to_string(k.subgroup_n) + "/s" + std::to_string(k.stages) + "/g" +
         std::to_string(k.swizzle_group) + "/b" + std::to_string(k.min_blocks_per_sm);
}

// The text of `key(` ... `)` with balanced parentheses, starting the search at `from`.
std::string balanced(const std::string& text, const std::string& key, std::size_t from = 0) {
  const auto at = text.find(key, from);
  if (at == std::string::npos) return {};
  int depth = 0;
  for (std::size_t i = at + key.size() - 1; i < text.size(); ++i) {
    if (text[i] == '(') ++depth;
    if (text[i] == ')' && --depth == 0) return text.substr(at, i + 1 - at);
  }
  return {};
}

}  // namespace

std::vector<ObjectCandidate> object_candidates(const DispatchGemm& gemm, const ConfiguredDispatch& dispatch, std::size_t max,
                                               std::string* why_none) {
  std::vector<ObjectCandidate> out;
  auto none = [&](std::string why) {
    if (why_none) *why_none = std::move(why);
    return out;
  };
  if (max == 0) return none("no object candidates asked for");
  if (const auto why = generated::unsupported_reason(gemm.problem)) return none(*why);
  const generated::DeviceTraits device = object_device(dispatch);
  if (const auto why = generated::path_unavailable_reason(generated::KernelPath::MmaSync, device)) return none(*why);
  const generated::ProblemTraits traits = generated::problem_traits(gemm.problem);
  generated::SpaceOptions options;
  options.wgmma = false;
  generated::SpaceSummary summary;
  // Every valid setting by the model, without split-K; at most half from one CTA tile, so that
  // a model error cannot hide the other tiles.
  std::map<std::pair<int, int>, std::size_t> per_tile;
  const std::size_t tile_cap = std::max<std::size_t>(1, (max + 1) / 2);
  for (const generated::RankedKnobs& r : generated::rank_space(traits, device, options, &summary)) {
    if (r.knobs.split_k != 1 || r.knobs.path != generated::KernelPath::MmaSync) continue;
    if (per_tile[{r.knobs.tile_m, r.knobs.tile_n}]++ >= tile_cap) continue;
    out.push_back({r.knobs, r.estimate.seconds, label_of(r.knobs)});
    if (out.size() == max) break;
  }
  if (out.empty()) return none("no setting of the generated kernels fits (" + std::to_string(summary.valid) + " valid of " +
                               std::to_string(summary.considered) + ", all split-K)");
  return out;
}

std::string emit_object_source(const DispatchGemm& gemm, const ObjectCandidate& c, const ConfiguredDispatch& dispatch) {
  const generated::ProblemTraits traits = generated::problem_traits(gemm.problem);
  const generated::DeviceTraits device = object_device(dispatch);
  const generated::Launch launch = generated::plan_launch(c.knobs, traits, device);
  const KtuneGemmParams p = generated::make_params(c.knobs, traits, gemm.problem, {}, launch, device);
  std::ostringstream out;
  out << "// ktune generated GEMM as the executable object of IREE dispatch " << dispatch.executable << " (" << c.label << ")\n"
      << "#define KT80_NO_DEFAULT_ENTRY 1\n"
      << generated::emit_source(c.knobs, traits) << "\n"
      << "// IREE's CUDA ABI: the bindings in the layout's order, as device pointers.\n"
      << "extern \"C\" __global__ void KT80_LAUNCH_BOUNDS " << dispatch.export_name << "(";
  // No __restrict__: IREE may place several operands in one binding (at the offsets below).
  for (int i = 0; i < gemm.binding_count; ++i) out << (i ? ", " : "") << "char* binding" << i;
  out << ") {\n  KtuneGemmParams p = {};\n";
  for (const GemmOperand& o : gemm.operands)
    out << "  p." << role_name(o.role) << " = binding" << o.binding << (o.offset_bytes ? " + " + std::to_string(o.offset_bytes) + "LL" : "")
        << ";\n";
  out << "  p.m = " << p.m << "LL; p.n = " << p.n << "LL; p.k = " << p.k << "LL;\n"
      << "  p.lda = " << p.lda << "LL; p.ldb = " << p.ldb << "LL; p.ldc = " << p.ldc << "LL; p.ldd = " << p.ldd << "LL;\n"
      << "  p.batch_stride_a = " << p.batch_stride_a << "LL; p.batch_stride_b = " << p.batch_stride_b
      << "LL; p.batch_stride_c = " << p.batch_stride_c << "LL; p.batch_stride_d = " << p.batch_stride_d << "LL;\n"
      << "  p.k_per_split = " << p.k_per_split << "LL; p.batch = " << p.batch << "; p.split_k = " << p.split_k << ";\n"
      << "  p.tiles_m = " << p.tiles_m << "; p.tiles_n = " << p.tiles_n << "; p.swizzle_group = " << p.swizzle_group
      << "; p.grid_tiles = " << p.grid_tiles << ";\n"
      << "  p.alpha = " << (p.alpha == 1.0f ? "1.0f" : std::to_string(p.alpha) + "f") << "; p.beta = " << (p.beta == 0.0f ? "0.0f" : "1.0f")
      << ";\n  kt80_gemm(p);\n}\n";
  return out.str();
}

std::string emit_object_executable(const DispatchGemm& gemm, const ObjectCandidate& c, const ConfiguredDispatch& dispatch,
                                   const std::string& text, const fs::path& ptx) {
  std::smatch m;
  if (!std::regex_search(text, m, std::regex(R"(hal\.executable\.variant (public |private )?@([\w$.-]+) target\()")))
    throw DispatchParseError(dispatch.file + ": no hal.executable.variant");
  const std::string variant = m[2].str();
  const std::string target = balanced(text, "target(", static_cast<std::size_t>(m.position(0)));
  const auto export_at = text.find("hal.executable.export");
  const std::string layout = export_at == std::string::npos ? "" : balanced(text, "layout(", export_at);
  const std::string count = export_at == std::string::npos ? "" : balanced(text, "count(", export_at);
  if (target.empty() || layout.empty() || count.empty())
    throw DispatchParseError(dispatch.file + ": the export's target, layout or count region is not where IREE writes it");
  if (layout.find("constants =") != std::string::npos) throw DispatchParseError(dispatch.file + ": the layout has push constants");
  const generated::ProblemTraits traits = generated::problem_traits(gemm.problem);
  const generated::Launch launch = generated::plan_launch(c.knobs, traits, object_device(dispatch));
  std::ostringstream out;
  out << "// " << c.label << ": ktune's generated GEMM replacing " << dispatch.executable << " (written by ktune)\n"
      << "hal.executable public @" << dispatch.executable << " {\n"
      << "  hal.executable.variant public @" << variant << " " << target << " objects([#hal.executable.object<{path = \""
      << ptx.string() << "\"}>]) {\n"
      << "    hal.executable.export public @" << dispatch.export_name << " ordinal(0) " << layout << " " << count
      << " -> (index, index, index) {\n"
      << "      %x = arith.constant " << launch.grid[0] << " : index\n"
      << "      %y = arith.constant " << launch.grid[1] << " : index\n"
      << "      %z = arith.constant " << launch.grid[2] << " : index\n"
      << "      hal.return %x, %y, %z : index, index, index\n"
      << "    } <workgroup_size = [" << launch.shape.threads << " : index, 1 : index, 1 : index], workgroup_local_memory = "
      << launch.shape.dynamic_shared_bytes << ">\n"
      << "  }\n}\n";
  return out.str();
}

ObjectBuild write_object_candidate(const DumpedDispatch& dispatch, const DispatchGemm& gemm, const ObjectCandidate& c,
                                   const fs::path& dir, const cuda::NvrtcCompiler& nvrtc) {
  ObjectBuild b;
  fs::create_directories(dir);
  b.source = dir / "kernel.cu";
  b.ptx = dir / "kernel.ptx";
  b.executable = dir / "executable.mlir";
  const std::string source = emit_object_source(gemm, c, dispatch.config);
  std::ofstream(b.source, std::ios::binary) << source;
  cuda::NvrtcRequest request;
  request.source = source;
  request.program_name = b.source.string();
  request.arch = dispatch.config.arch;  // the PTX targets what IREE targets; the driver JITs it
  request.options = {"-std=c++17"};
  const cuda::NvrtcResult r = nvrtc.compile(request);
  b.nvrtc_seconds = r.seconds;
  if (!r.ok || r.ptx.empty()) {
    b.error = "NVRTC: " + (r.error.empty() ? std::string("no PTX") : r.error) + "\n" + r.log;
    return b;
  }
  std::ofstream(b.ptx, std::ios::binary) << r.ptx;
  const std::string text = [&] {
    std::ifstream in(dispatch.configured, std::ios::binary);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
  }();
  try {
    std::ofstream(b.executable, std::ios::binary) << emit_object_executable(gemm, c, dispatch.config, text, fs::absolute(b.ptx));
  } catch (const std::exception& e) {
    b.error = e.what();
    return b;
  }
  const generated::ProblemTraits traits = generated::problem_traits(gemm.problem);
  const generated::Launch launch = generated::plan_launch(c.knobs, traits, object_device(dispatch.config));
  b.resources = {{"grid", launch.grid}, {"threads", launch.shape.threads}, {"dynamic_shared_bytes", launch.shape.dynamic_shared_bytes},
                 {"nvrtc_seconds", r.seconds}};
  if (const analysis::KernelResourceUsage* usage = r.resources.find(dispatch.config.export_name))
    b.resources["ptxas"] = analysis::to_json(*usage);
  b.ok = true;
  return b;
}

}  // namespace ktune::iree
