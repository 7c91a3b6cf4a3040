#include "ktune/iree/matmul_candidates.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <regex>
#include <set>

namespace ktune::iree {
namespace {

int element_bytes(const std::string& type) {
  if (type.rfind("F8", 0) == 0 || type == "I8") return 1;
  if (type == "F16" || type == "BF16") return 2;
  if (type == "F64") return 8;
  return 4;
}

}  // namespace

int multiprocessors_of(const std::string& arch) {
  static const std::map<std::string, int> known = {{"sm_80", 108}, {"sm_86", 84},  {"sm_89", 128},
                                                   {"sm_90", 132}, {"sm_90a", 132}, {"gfx90a", 110},
                                                   {"gfx942", 304}, {"gfx950", 256}};
  const auto it = known.find(arch);
  return it == known.end() ? 100 : it->second;
}

namespace {

std::optional<std::int64_t> pipeline_option(const ConfiguredDispatch& d, const std::string& key) {
  if (!d.translation) return std::nullopt;
  for (const AttributeEntry& e : d.translation->pipeline_options)
    if (e.key == key && !e.value.empty() && e.value.find_first_not_of("-0123456789") == std::string::npos)
      return std::stoll(e.value);
  return std::nullopt;
}

struct Problem {
  std::int64_t m = 0, n = 0, k = 0;
  std::int64_t batch_workgroups = 1;  // workgroups along the batch loops (IREE's batch tiles kept)
  ContractionLoops loops;             // where M, N, K sit among the root op's loops
  std::vector<std::int64_t> workgroup, reduction, subgroup;  // IREE's tiles, the batch loops' kept
  int subgroup_size = 32, max_threads = 1024, multiprocessors = 100;
  std::int64_t register_file = 0;  // 32-bit registers per workgroup at most (0: not checked)
  std::int64_t shared_bytes = 48 * 1024;
};

// Why these knobs cannot work for this problem; empty when they can.
std::string rejection(const MatmulKnobs& k, const MmaIntrinsic& i, const Problem& p) {
  const int threads = k.threads(p.subgroup_size);
  if (threads > p.max_threads) return "more threads than a workgroup may have";
  if (p.m % k.workgroup_m(i) != 0) return "workgroup tile does not divide M";
  if (p.n % k.workgroup_n(i) != 0) return "workgroup tile does not divide N";
  if (p.k % (std::int64_t{k.reduction} * i.k) != 0) return "reduction tile does not divide K";
  // Both operands' tiles promoted to shared memory, one copy per prefetch stage.
  const std::int64_t shared = (k.workgroup_m(i) + k.workgroup_n(i)) * k.reduction * i.k * element_bytes(i.input) *
                              std::max(1, k.prefetch_stages);
  if (shared > p.shared_bytes) return "promoted operands exceed shared memory";
  const std::int64_t accumulators = std::int64_t{k.subgroup_m} * k.subgroup_n * i.m * i.n / p.subgroup_size;
  if (accumulators > 128) return "accumulators exceed registers";
  // Accumulators plus ~64 registers of addresses and fragments, for every thread: past the
  // register file the kernel spills (the 256x256 tiles of 512 threads ran 20x slower than
  // IREE's default on H100).
  if (p.register_file > 0 && std::int64_t{threads} * (accumulators + 64) > p.register_file)
    return "registers of the workgroup exceed the register file";
  return "";
}

// A relative estimate (higher is better): wave quantization, reuse per workgroup and per
// subgroup, k-loop overhead, prefetching. Measurements decide; this only orders the candidates.
double score(const MatmulKnobs& k, const MmaIntrinsic& i, const Problem& p) {
  const double wm = static_cast<double>(k.workgroup_m(i)), wn = static_cast<double>(k.workgroup_n(i));
  const double workgroups = static_cast<double>(p.m / k.workgroup_m(i) * (p.n / k.workgroup_n(i)) * p.batch_workgroups);
  const double shared = (wm + wn) * k.reduction * i.k * element_bytes(i.input) * std::max(1, k.prefetch_stages);
  const double per_sm = std::clamp(std::floor(std::min(2048.0 / k.threads(p.subgroup_size), p.shared_bytes / shared)), 1.0, 4.0);
  const double slots = p.multiprocessors * per_sm;
  const double efficiency = workgroups / (std::ceil(workgroups / slots) * slots);
  const double reuse = std::min(1.0, (wm * wn / (wm + wn)) / 64.0);
  const double sm = static_cast<double>(k.subgroup_m) * i.m, sn = static_cast<double>(k.subgroup_n) * i.n;
  const double register_reuse = std::min(1.0, (sm * sn / (sm + sn)) / 24.0);
  const double k_loop = static_cast<double>(k.reduction) / (k.reduction + 1.0);
  const double prefetch = k.prefetch_stages >= 2 ? 1.0 : 0.85;
  return efficiency * reuse * register_reuse * k_loop * prefetch;
}

MatmulCandidate make_candidate(const MatmulKnobs& k, const MmaIntrinsic& i, const Problem& p, bool is_default) {
  MatmulCandidate c;
  c.knobs = k;
  c.is_default = is_default;
  c.score = score(k, i, p);
  // IREE's tiles with the M, N, K entries replaced: batch loops keep IREE's (one batch per
  // workgroup), and the tiles stay in the root op's loop order, whatever it is.
  const auto at = [](std::vector<std::int64_t>& tiles, int loop) -> std::int64_t& { return tiles[static_cast<std::size_t>(loop)]; };
  c.workgroup = p.workgroup, c.reduction = p.reduction, c.subgroup = p.subgroup;
  at(c.workgroup, p.loops.m) = k.workgroup_m(i), at(c.workgroup, p.loops.n) = k.workgroup_n(i), at(c.workgroup, p.loops.k) = 0;
  at(c.reduction, p.loops.m) = 0, at(c.reduction, p.loops.n) = 0, at(c.reduction, p.loops.k) = k.reduction;
  at(c.subgroup, p.loops.m) = k.subgroup_m, at(c.subgroup, p.loops.n) = k.subgroup_n, at(c.subgroup, p.loops.k) = 0;
  c.workgroup_size = k.threads(p.subgroup_size);
  return c;
}

// Why the dispatch has no candidates, naming what was found; empty when it has some.
std::string unsupported_reason(const ConfiguredDispatch& d, const std::optional<ContractionLoops>& loops, bool has_knobs) {
  if (d.lowering_configs.empty()) return "IREE's dump shows no op with a lowering_config";
  const LoweringConfig& root = d.lowering_configs.front();
  const std::string op = "the root op (" + root.op + " at line " + std::to_string(root.line) + ")";
  if (!loops) return op + " is not a matmul-like contraction (one M, one N and one K loop, any batch loops)";
  if (!loops->is_static()) {
    std::string sizes;
    for (int l : {loops->m, loops->n, loops->k}) {
      const std::int64_t v = loops->sizes[static_cast<std::size_t>(l)];
      sizes += (sizes.empty() ? "" : "x") + (v < 0 ? std::string("?") : std::to_string(v));
    }
    return op + " has dynamic sizes (M x N x K = " + sizes + "): candidates need static shapes";
  }
  if (has_knobs) return "";
  const std::string pipeline = d.translation ? d.translation->pipeline : "none";
  return "IREE configured it without an MMA intrinsic (pipeline " + pipeline + ", " + root.kind +
         "): the candidates vary the tiles of TileAndFuse with an MMA intrinsic";
}

}  // namespace

std::optional<MmaIntrinsic> parse_mma_intrinsic(const std::string& name) {
  static const std::regex form(R"(^(?:[A-Z]+_)*?(F64|F32|F16|I32)_(\d+)x(\d+)x(\d+)_([A-Z0-9]+(?:_[A-Z0-9]+)?)$)");
  std::smatch m;
  if (!std::regex_match(name, m, form)) return std::nullopt;
  MmaIntrinsic i;
  i.name = name;
  i.accumulator = m[1].str();
  i.m = std::stoi(m[2].str());
  i.n = std::stoi(m[3].str());
  i.k = std::stoi(m[4].str());
  i.input = m[5].str();
  // Mixed inputs ("F8E5M2FNUZ_F8E4M3FNUZ") are not what a same-type matmul uses.
  if (i.input.find('_') != std::string::npos) return std::nullopt;
  return i;
}

std::string MatmulKnobs::key() const {
  return "mma=" + mma_kind + ",sg=" + std::to_string(subgroup_m) + "x" + std::to_string(subgroup_n) +
         ",wg=" + std::to_string(subgroups_m) + "x" + std::to_string(subgroups_n) + ",r=" + std::to_string(reduction) +
         ",p=" + std::to_string(prefetch_stages);
}

nlohmann::json MatmulKnobs::to_json() const {
  return {{"mma_kind", mma_kind},         {"subgroup_m", subgroup_m},   {"subgroup_n", subgroup_n},
          {"subgroups_m", subgroups_m},   {"subgroups_n", subgroups_n}, {"reduction", reduction},
          {"prefetch_stages", prefetch_stages}};
}

nlohmann::json MatmulCandidate::to_json() const {
  return {{"knobs", knobs.to_json()}, {"key", knobs.key()},         {"default", is_default},
          {"score", score},           {"workgroup", workgroup},     {"reduction", reduction},
          {"subgroup", subgroup},     {"workgroup_size", workgroup_size}};
}

nlohmann::json CandidateSpaceSummary::to_json() const {
  nlohmann::json j = {{"enumerated", enumerated}, {"kept", kept}, {"rejected", rejected}, {"seconds", seconds}};
  if (!unsupported.empty()) j["unsupported"] = unsupported;
  return j;
}

std::optional<MatmulKnobs> default_knobs(const ConfiguredDispatch& d) {
  if (d.lowering_configs.empty() || !d.translation) return std::nullopt;
  const LoweringConfig& root = d.lowering_configs.front();
  const auto loops = d.contraction();
  const auto kind = root.mma_kind();
  const auto intrinsic = kind ? parse_mma_intrinsic(*kind) : std::nullopt;
  const auto wg = root.tiles("workgroup"), red = root.tiles("reduction"), sg = root.tiles("subgroup");
  if (!loops || !intrinsic || !wg || !red || !sg) return std::nullopt;
  const std::size_t n_loops = loops->sizes.size();
  if (wg->size() != n_loops || red->size() != n_loops || sg->size() != n_loops) return std::nullopt;
  const auto at = [](const std::vector<std::int64_t>& tiles, int loop) { return tiles[static_cast<std::size_t>(loop)]; };
  MatmulKnobs k;
  k.mma_kind = *kind;
  k.subgroup_m = static_cast<int>(at(*sg, loops->m));
  k.subgroup_n = static_cast<int>(at(*sg, loops->n));
  k.reduction = static_cast<int>(at(*red, loops->k));
  if (k.subgroup_m <= 0 || k.subgroup_n <= 0 || k.reduction <= 0) return std::nullopt;
  const std::int64_t per_m = std::int64_t{k.subgroup_m} * intrinsic->m, per_n = std::int64_t{k.subgroup_n} * intrinsic->n;
  if (at(*wg, loops->m) % per_m != 0 || at(*wg, loops->n) % per_n != 0) return std::nullopt;
  k.subgroups_m = static_cast<int>(at(*wg, loops->m) / per_m);
  k.subgroups_n = static_cast<int>(at(*wg, loops->n) / per_n);
  k.prefetch_stages = static_cast<int>(pipeline_option(d, "prefetch_num_stages").value_or(2));
  return k;
}

std::vector<MatmulCandidate> matmul_candidates(const ConfiguredDispatch& d, const CandidateOptions& options,
                                               CandidateSpaceSummary* summary) {
  const auto start = std::chrono::steady_clock::now();
  CandidateSpaceSummary local;
  CandidateSpaceSummary& s = summary ? *summary : local;
  s = {};
  const auto loops = d.contraction();
  const auto base = default_knobs(d);
  s.unsupported = unsupported_reason(d, loops, base.has_value());
  if (!s.unsupported.empty()) return {};
  const MmaIntrinsic base_intrinsic = *parse_mma_intrinsic(base->mma_kind);
  const LoweringConfig& root = d.lowering_configs.front();
  Problem p;
  p.loops = *loops;
  const auto size = [&](int loop) { return loops->sizes[static_cast<std::size_t>(loop)]; };
  p.m = size(loops->m);
  p.n = size(loops->n);
  p.k = size(loops->k);
  p.workgroup = *root.tiles("workgroup"), p.reduction = *root.tiles("reduction"), p.subgroup = *root.tiles("subgroup");
  for (int b : loops->batch) {
    const std::int64_t tile = std::max<std::int64_t>(1, p.workgroup[static_cast<std::size_t>(b)]);
    p.batch_workgroups *= (size(b) + tile - 1) / tile;
  }
  p.subgroup_size = static_cast<int>(d.translation->subgroup_size.value_or(32));
  p.multiprocessors = options.multiprocessors > 0 ? options.multiprocessors : multiprocessors_of(d.arch);
  if (d.max_workgroup_memory_bytes) p.shared_bytes = *d.max_workgroup_memory_bytes;
  if (d.backend == "cuda") p.register_file = 65536;  // every NVIDIA GPU IREE targets

  // Intrinsics of the default's family (NV_MMA_SYNC, MFMA, ...) with its input and accumulator
  // types: in IREE 3.13 TileAndFuse fails to compile the 2048x10240x1280 matmul with NV_WMMA
  // (measured), so another family is not a candidate.
  std::vector<MmaIntrinsic> intrinsics;
  for (const std::string& name : d.mma_intrinsics)
    if (auto i = parse_mma_intrinsic(name); i && i->input == base_intrinsic.input &&
                                            i->accumulator == base_intrinsic.accumulator && i->family() == base_intrinsic.family())
      intrinsics.push_back(*i);
  if (intrinsics.empty()) intrinsics.push_back(base_intrinsic);

  // Not knobs here, because measured slower on the seed dispatch (CUDA sm_80 build on H100/H200,
  // docs/benchmarks.md, issue 10 session 11): no_reduce_shared_memory_bank_conflicts = true
  // (2.2x slower), promote_operands = [0, 1, 2] (2.7x slower), the VectorDistribute pipeline
  // (best 1.35x slower than TileAndFuse's best); reorder_workgroups_strategy leaves the PTX as it is.
  // A wider sweep (session 12, H100: 140 candidates of a space with 1-6 prefetch stages and
  // subgroup tiles up to 16 intrinsics) found nothing faster than this space's top 32: IREE
  // 3.13's CUDA lowering reads the N-contiguous B operand from shared memory with 16-bit loads
  // and without cp.async, so the stages change little (1-5: within 1.5%); promote_operands = [0]
  // or [1] alone ran 1.1-3x slower, and a swizzle_operand promotion type does not compile.
  // promotion_types = [#iree_gpu.use_global_load_dma, ...] compiles for sm_80 to the very same
  // PTX (session 26), and 3.13 has no pipeline left that emits ldmatrix or cp.async.
  std::vector<MatmulCandidate> kept;
  std::set<std::string> seen = {base->key()};
  std::set<int> stages = {1, 2, 3, 4, base->prefetch_stages};
  for (const MmaIntrinsic& i : intrinsics)
    for (int sg_m : {1, 2, 4, 8})
      for (int sg_n : {1, 2, 4, 8})
        for (int wm : {1, 2, 4})
          for (int wn : {1, 2, 4})
            for (int r : {1, 2, 4, 8})
              for (int stage : stages) {
                const MatmulKnobs k{i.name, sg_m, sg_n, wm, wn, r, stage};
                ++s.enumerated;
                if (const std::string why = rejection(k, i, p); !why.empty()) {
                  ++s.rejected[why];
                  continue;
                }
                if (!seen.insert(k.key()).second) continue;
                kept.push_back(make_candidate(k, i, p, false));
              }
  std::stable_sort(kept.begin(), kept.end(), [](const MatmulCandidate& a, const MatmulCandidate& b) { return a.score > b.score; });
  if (options.max_candidates > 0 && kept.size() > options.max_candidates - 1) kept.resize(options.max_candidates - 1);
  std::vector<MatmulCandidate> out;
  out.push_back(make_candidate(*base, base_intrinsic, p, true));
  out.insert(out.end(), kept.begin(), kept.end());
  s.kept = out.size();
  s.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return out;
}

}  // namespace ktune::iree
