#include "ktune/iree/generated_object.h"

#include <fstream>
#include <algorithm>
#include <map>
#include <tuple>
#include <regex>
#include <sstream>

#include "ktune/device/cuda/device_properties.h"
#include "ktune/device/cuda/driver_api.h"
#include "ktune/families/generated/generated_runner.h"
#include "ktune/families/generated/generated_space.h"
#include "ktune/families/generated/sm90_path.h"
#include "ktune/iree/matmul_candidates.h"

namespace ktune::iree {
namespace fs = std::filesystem;

nlohmann::json ObjectCandidate::to_json() const {
  return {{"label", label},
          {"path", generated::path_name(knobs.path)},
          {"tile", {knobs.tile_m, knobs.tile_n, knobs.tile_k}},
          {"warps", {knobs.subgroup_m, knobs.subgroup_n}},
          {"stages", knobs.stages},
          {"swizzle_group", knobs.swizzle_group},
          {"persistent", knobs.persistent},
          {"b_panel", knobs.b_panel},
          {"pingpong", knobs.pingpong},
          {"min_blocks_per_sm", knobs.min_blocks_per_sm},
          {"device", {{"name", device.name}, {"compute_capability", device.compute_capability}, {"sm_count", device.sm_count}}},
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

ObjectDeviceChoice resolve_object_device(const std::string& spec, int ordinal) {
  ObjectDeviceChoice choice;
  if (spec == "target") {
    choice.note = "the dispatch's target";
    return choice;
  }
  if (spec == "auto") {
    const Loaded<cuda::CudaDriver> driver = cuda::CudaDriver::load();
    if (!driver) {
      choice.note = "no CUDA driver (" + driver.error + "): the dispatch's target";
      return choice;
    }
    if (ordinal < 0 || ordinal >= driver->device_count()) {
      choice.note = "no CUDA device " + std::to_string(ordinal) + ": the dispatch's target";
      return choice;
    }
    const generated::DeviceTraits d = generated::device_traits(cuda::query_device_properties(*driver.value, ordinal));
    choice.device = d;
    choice.note = d.name + " (sm_" + std::to_string(d.compute_capability) + ", " + std::to_string(d.sm_count) + " SMs)";
    return choice;
  }
  const auto arch = cuda::nvrtc_arch_number(spec);
  if (!arch || spec.rfind("sm_", 0) != 0)
    throw std::invalid_argument("--object-arch '" + spec + "': expected auto, target or an arch such as sm_80 or sm_90a");
  generated::DeviceTraits d;
  d.compute_capability = *arch;
  d.sm_count = multiprocessors_of(spec);
  d.max_shared_per_block = *arch >= 90 ? generated::kSm90MaxDynamicSharedBytes : *arch == 80 ? 163 * 1024 : 99 * 1024;
  d.name = spec;
  choice.device = d;
  choice.note = spec + " (" + std::to_string(d.sm_count) + " SMs assumed)";
  return choice;
}

namespace {

std::string label_of(const generated::GeneratedKnobs& k) {
  const std::string dims = std::to_string(k.tile_m) + "x" + std::to_string(k.tile_n) + "x" + std::to_string(k.tile_k) + "/w" +
                           std::to_string(k.subgroup_m) + "x" + std::to_string(k.subgroup_n) + "/s" + std::to_string(k.stages) + "/g" +
                           std::to_string(k.swizzle_group) + "/b" + std::to_string(k.min_blocks_per_sm);
  if (k.path == generated::KernelPath::MmaSync) return "ktune/" + dims;
  return "ktune/wgmma/" + dims + (k.persistent ? "/persistent" : "") +
         (k.b_panel > 0 ? "/panel" + std::to_string(k.b_panel) : "") + (k.pingpong ? "/pingpong" : "");
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

// Why the wgmma path cannot take this dispatch, or "" when it can: TMA reads A and B from
// their bindings, so their bytes must start 16-byte aligned (IREE's buffers themselves are).
std::string wgmma_refusal(const DispatchGemm& gemm, const generated::DeviceTraits& device) {
  if (const auto why = generated::path_unavailable_reason(generated::KernelPath::Wgmma, device)) return *why;
  for (const GemmOperand& o : gemm.operands)
    if ((o.role == GemmRole::A || o.role == GemmRole::B) && o.offset_bytes % 16 != 0)
      return std::string(role_name(o.role)) + " starts " + std::to_string(o.offset_bytes) + " bytes into its binding: TMA needs 16-byte alignment";
  if (generated::sm90_repacks(generated::problem_traits(gemm.problem)).any())
    return "A's or B's rows are not 16-byte aligned: TMA would need a copy first, and a dispatch has no scratch buffer for it";
  return {};
}

// Whether the static shared memory the device-built tensor maps are staged in fits beside the
// kernel's dynamic shared memory, per CTA and per SM.
bool wgmma_fits(const generated::GeneratedKnobs& k, const generated::ProblemTraits& traits) {
  const int bytes = generated::sm90_launch_shape(k, generated::in_type_bytes(traits.in_type)).dynamic_shared_bytes +
                    kObjectMapStagingBytes;
  const int blocks = std::max(1, k.min_blocks_per_sm);
  return bytes <= generated::kSm90MaxDynamicSharedBytes &&
         blocks * (bytes + generated::kSm90SharedReservedPerCta) <= generated::kSm90SharedBytesPerSm;
}

std::string join_reasons(const std::string& a, const std::string& b) { return a.empty() ? b : b.empty() ? a : a + "; " + b; }

}  // namespace

std::vector<ObjectCandidate> object_candidates(const DispatchGemm& gemm, const ConfiguredDispatch& dispatch, std::size_t max,
                                               std::string* why_none) {
  return object_candidates(gemm, object_device(dispatch), max, why_none);
}

std::vector<ObjectCandidate> object_candidates(const DispatchGemm& gemm, const generated::DeviceTraits& device, std::size_t max,
                                               std::string* why_none) {
  std::vector<ObjectCandidate> out;
  auto none = [&](std::string why) {
    if (why_none) *why_none = std::move(why);
    return out;
  };
  if (max == 0) return none("no object candidates asked for");
  if (const auto why = generated::unsupported_reason(gemm.problem)) return none(*why);
  const std::string no_mma_sync = generated::path_unavailable_reason(generated::KernelPath::MmaSync, device).value_or("");
  const std::string no_wgmma = wgmma_refusal(gemm, device);
  if (!no_mma_sync.empty() && !no_wgmma.empty()) return none(join_reasons(no_mma_sync, no_wgmma));
  const generated::ProblemTraits traits = generated::problem_traits(gemm.problem);
  generated::SpaceOptions options;
  options.mma_sync = no_mma_sync.empty();
  options.wgmma = no_wgmma.empty();
  // IREE launches the dispatch itself; a thread-block cluster is not part of its launch.
  options.clusters = false;
  // The parameter block names A and B by their bindings (params_assignments), unswapped.
  options.swap_ab = false;
  generated::SpaceSummary summary;
  // Every valid setting by the model, without split-K (its workspace has no binding); at most
  // half from one CTA tile, and with both paths at most three quarters from one, so that a
  // model error cannot hide the other tiles or the other path.
  std::map<std::tuple<generated::KernelPath, int, int>, std::size_t> per_tile;
  std::map<generated::KernelPath, std::size_t> per_path;
  const std::size_t tile_cap = std::max<std::size_t>(1, (max + 1) / 2);
  const std::size_t path_cap = options.mma_sync && options.wgmma ? std::max<std::size_t>(1, max - max / 4) : max;
  for (const generated::RankedKnobs& r : generated::rank_space(traits, device, options, &summary)) {
    const generated::GeneratedKnobs& k = r.knobs;
    if (k.split_k != 1) continue;
    if (k.path == generated::KernelPath::Wgmma && !wgmma_fits(k, traits)) continue;
    if (per_path[k.path] >= path_cap || per_tile[{k.path, k.tile_m, k.tile_n}] >= tile_cap) continue;
    ++per_path[k.path];
    ++per_tile[{k.path, k.tile_m, k.tile_n}];
    out.push_back({k, r.estimate.seconds, label_of(k), device});
    if (out.size() == max) break;
  }
  if (out.empty())
    return none("no setting of the generated kernels fits (" + std::to_string(summary.valid) + " valid of " +
                std::to_string(summary.considered) + ", all split-K or too large)");
  return out;
}

namespace {

// Fills the parameter block: the operands from the bindings, every size as a constant.
std::string params_assignments(const DispatchGemm& gemm, const ObjectCandidate& c) {
  const generated::ProblemTraits traits = generated::problem_traits(gemm.problem);
  const generated::Launch launch = generated::plan_launch(c.knobs, traits, c.device);
  const KtuneGemmParams p = generated::make_params(c.knobs, traits, gemm.problem, {}, launch, c.device);
  std::ostringstream out;
  out << "  KtuneGemmParams p = {};\n";
  for (const GemmOperand& o : gemm.operands)
    out << "  p." << role_name(o.role) << " = binding" << o.binding << (o.offset_bytes ? " + " + std::to_string(o.offset_bytes) + "LL" : "")
        << (o.offset_constant >= 0 ? " + constant" + std::to_string(o.offset_constant) : "") << ";\n";
  out << "  p.m = " << p.m << "LL; p.n = " << p.n << "LL; p.k = " << p.k << "LL;\n"
      << "  p.lda = " << p.lda << "LL; p.ldb = " << p.ldb << "LL; p.ldc = " << p.ldc << "LL; p.ldd = " << p.ldd << "LL;\n"
      << "  p.batch_stride_a = " << p.batch_stride_a << "LL; p.batch_stride_b = " << p.batch_stride_b
      << "LL; p.batch_stride_c = " << p.batch_stride_c << "LL; p.batch_stride_d = " << p.batch_stride_d << "LL;\n"
      << "  p.k_per_split = " << p.k_per_split << "LL; p.batch = " << p.batch << "; p.split_k = " << p.split_k << ";\n"
      << "  p.tiles_m = " << p.tiles_m << "; p.tiles_n = " << p.tiles_n << "; p.swizzle_group = " << p.swizzle_group
      << "; p.grid_tiles = " << p.grid_tiles << "; p.tail_from = " << p.tail_from << "LL;\n"
      << "  p.alpha = " << (p.alpha == 1.0f ? "1.0f" : std::to_string(p.alpha) + "f") << "; p.beta = " << (p.beta == 0.0f ? "0.0f" : "1.0f")
      << ";\n";
  return out.str();
}

std::string binding_parameters(const DispatchGemm& gemm) {
  std::string out;
  // No __restrict__: IREE may place several operands in one binding (at their offsets).
  for (int i = 0; i < gemm.binding_count; ++i) out += (i ? ", " : "") + std::string("char* binding") + std::to_string(i);
  // then the push constants, 32 bits each (IREE's CUDA HAL passes them after the bindings)
  for (int i = 0; i < gemm.constant_count; ++i) out += ", unsigned int constant" + std::to_string(i);
  return out;
}

}  // namespace

std::string emit_object_source(const DispatchGemm& gemm, const ObjectCandidate& c, const ConfiguredDispatch& dispatch) {
  const generated::ProblemTraits traits = generated::problem_traits(gemm.problem);
  std::ostringstream out;
  out << "// ktune generated GEMM as the executable object of IREE dispatch " << dispatch.executable << " (" << c.label << ")\n";
  if (c.knobs.path == generated::KernelPath::MmaSync) {
    out << "#define KT80_NO_DEFAULT_ENTRY 1\n"
        << generated::emit_source(c.knobs, traits) << "\n"
        << "// IREE's CUDA ABI: the bindings in the layout's order, as device pointers, then the push constants.\n"
        << "extern \"C\" __global__ void KT80_LAUNCH_BOUNDS " << dispatch.export_name << "(" << binding_parameters(gemm) << ") {\n"
        << params_assignments(gemm, c) << "  kt80_gemm(p);\n}\n";
    return out.str();
  }
  const generated::Launch launch = generated::plan_launch(c.knobs, traits, c.device);
  const unsigned long long ctas = 1ull * launch.grid[0] * launch.grid[1] * launch.grid[2];
  out << "#define KT90_NO_DEFAULT_ENTRY 1\n"
      << generated::emit_source(c.knobs, traits) << "\n"
      << "// The dispatch passes no tensor maps: each CTA builds its own here (kt90_build_tensor_maps).\n"
      << "__device__ __align__(128) unsigned char kt_device_tensor_maps[" << ctas << "][256];\n\n"
      << "// IREE's CUDA ABI: the bindings in the layout's order, as device pointers, then the push constants.\n"
      << "extern \"C\" __global__ void __launch_bounds__(KT_THREADS, KT_BLOCKS_HINT) " << dispatch.export_name << "("
      << binding_parameters(gemm) << ") {\n"
      << "  __shared__ __align__(128) unsigned char kt_map_staging[256];\n"
      << params_assignments(gemm, c)
      << "  unsigned char* maps = kt_device_tensor_maps[blockIdx.x + gridDim.x * (blockIdx.y + gridDim.y * blockIdx.z)];\n"
      << "  if (threadIdx.x < 32) kt90_build_tensor_maps(p, kt_map_staging, maps);\n"
      << "  kt90_gemm(p, maps, maps + 128);\n}\n";
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
  // The entry declares the layout's push constants after the bindings (binding_parameters).
  std::smatch constants;
  const int in_layout = std::regex_search(layout, constants, std::regex(R"(constants = (\d+))")) ? std::stoi(constants[1].str()) : 0;
  if (in_layout != gemm.constant_count)
    throw DispatchParseError(dispatch.file + ": the layout has " + std::to_string(in_layout) + " push constants, the GEMM's entry " +
                             std::to_string(gemm.constant_count));
  const generated::ProblemTraits traits = generated::problem_traits(gemm.problem);
  const generated::Launch launch = generated::plan_launch(c.knobs, traits, c.device);
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
  // mma.sync: PTX for what IREE targets (the driver JITs it for the GPU at hand); wgmma: sm_90a,
  // which only a Hopper GPU loads.
  request.arch = c.knobs.path == generated::KernelPath::Wgmma ? generated::compile_arch(c.knobs.path, c.device) : dispatch.config.arch;
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
  const generated::Launch launch = generated::plan_launch(c.knobs, traits, c.device);
  b.resources = {{"grid", launch.grid}, {"threads", launch.shape.threads}, {"dynamic_shared_bytes", launch.shape.dynamic_shared_bytes},
                 {"nvrtc_seconds", r.seconds}};
  if (const analysis::KernelResourceUsage* usage = r.resources.find(dispatch.config.export_name))
    b.resources["ptxas"] = analysis::to_json(*usage);
  b.ok = true;
  return b;
}

}  // namespace ktune::iree
