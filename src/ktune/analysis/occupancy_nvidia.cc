#include "ktune/analysis/occupancy_nvidia.h"

#include <algorithm>
#include <charconv>
#include <cstdio>
#include <stdexcept>

namespace ktune::analysis {
namespace {

constexpr int kKiB = 1024;

const std::vector<int> kSteps100 = {0, 8, 16, 32, 64, 100};
const std::vector<int> kSteps164 = {0, 8, 16, 32, 64, 100, 132, 164};
const std::vector<int> kSteps228 = {0, 8, 16, 32, 64, 100, 132, 164, 196, 228};

NvidiaArch make_arch(int major, int minor, int max_threads_per_sm, int max_blocks_per_sm, int smem_per_sm_kib,
                     const std::vector<int>& steps, int barrier_slots, std::string notes) {
  NvidiaArch arch;
  arch.major = major;
  arch.minor = minor;
  arch.name = "sm_" + std::to_string(major * 10 + minor);
  arch.max_threads_per_sm = max_threads_per_sm;
  arch.max_blocks_per_sm = max_blocks_per_sm;
  arch.shared_memory_per_sm = std::int64_t{smem_per_sm_kib} * kKiB;
  // The driver keeps 1 KiB of every block's shared memory for itself, so the opt-in limit
  // per block is the SM's capacity minus that.
  arch.shared_memory_per_block_optin = arch.shared_memory_per_sm - arch.reserved_shared_memory_per_block;
  arch.carveout_steps_kib = steps;
  arch.barrier_slots_per_block = barrier_slots;
  arch.notes = std::move(notes);
  return arch;
}

std::int64_t round_up(std::int64_t x, std::int64_t unit) { return (x + unit - 1) / unit * unit; }
std::int64_t divide_round_up(std::int64_t x, std::int64_t y) { return (x + y - 1) / y; }

// The carveout the SM is configured to for a request of `bytes`: the smallest step that holds
// it (cudaOccAlignUpShmemSizeVoltaPlus). nullopt when no step is large enough.
std::optional<std::int64_t> carveout_step(const NvidiaArch& arch, std::int64_t bytes) {
  for (int step : arch.carveout_steps_kib) {
    if (std::int64_t{step} * kKiB >= bytes) return std::int64_t{step} * kKiB;
  }
  return std::nullopt;
}

int warps_per_block(const NvidiaArch& arch, int threads) {
  return static_cast<int>(divide_round_up(threads, arch.warp_size));
}

struct RegisterLimit {
  int blocks = 0;  // 0: the block cannot launch
  int registers_per_block = 0;
  std::string reason;
};

RegisterLimit register_limit(const NvidiaArch& arch, int threads, int registers) {
  RegisterLimit out;
  const int warps = warps_per_block(arch, threads);
  const std::int64_t per_warp = round_up(std::int64_t{registers} * arch.warp_size, arch.register_allocation_unit);
  const std::int64_t per_block = per_warp * warps;
  // The hardware checks a launch as if every sub-partition received the same number of warps.
  const std::int64_t assumed_per_block = per_warp * round_up(warps, arch.sub_partitions);
  out.registers_per_block = static_cast<int>(std::min<std::int64_t>(per_block, INT_MAX));
  if (registers > arch.max_registers_per_thread) {
    out.reason = std::to_string(registers) + " registers per thread is above the hardware maximum of " +
                 std::to_string(arch.max_registers_per_thread);
    return out;
  }
  if (per_block > arch.registers_per_block || assumed_per_block > arch.registers_per_block) {
    out.reason = std::to_string(threads) + " threads x " + std::to_string(registers) + " registers needs " +
                 std::to_string(std::max(per_block, assumed_per_block)) +
                 " registers per block (allocated " + std::to_string(arch.register_allocation_unit) +
                 " per warp, warps rounded up to a multiple of " + std::to_string(arch.sub_partitions) +
                 "), above the " + std::to_string(arch.registers_per_block) +
                 " per block; use fewer threads or cap registers (__launch_bounds__, -maxrregcount)";
    return out;
  }
  if (per_warp == 0) {
    out.blocks = kUnlimitedBlocks;
    return out;
  }
  const std::int64_t warps_per_sub_partition = (arch.registers_per_sm / arch.sub_partitions) / per_warp;
  out.blocks = static_cast<int>(warps_per_sub_partition * arch.sub_partitions / warps);
  return out;
}

struct SharedLimit {
  int blocks = 0;
  std::int64_t allocated_per_block = 0;
  std::int64_t per_sm = 0;  // carveout used
  std::string reason;
};

SharedLimit shared_limit(const NvidiaArch& arch, std::int64_t bytes, std::optional<int> carveout_percent) {
  SharedLimit out;
  out.allocated_per_block = round_up(bytes + arch.reserved_shared_memory_per_block, arch.shared_memory_allocation_unit);
  const std::int64_t limit = arch.shared_memory_per_block_optin + arch.reserved_shared_memory_per_block;
  if (out.allocated_per_block > limit) {
    out.reason = std::to_string(bytes) + " bytes of shared memory per block is above the " +
                 std::to_string(arch.shared_memory_per_block_optin) + "-byte opt-in maximum of " + arch.name;
    return out;
  }
  std::int64_t preference = arch.shared_memory_per_sm;
  if (carveout_percent) preference = std::int64_t{*carveout_percent} * arch.shared_memory_per_sm / 100;
  // A preference is only a preference: when one block does not fit, the driver picks the
  // smallest carveout that holds one block.
  // Tables built from a device's attributes may list fewer steps than its capacity; the
  // capacity itself is then the last step.
  auto step = [&](std::int64_t wanted) { return carveout_step(arch, wanted).value_or(arch.shared_memory_per_sm); };
  std::int64_t per_sm = step(preference);
  if (per_sm < out.allocated_per_block) per_sm = step(out.allocated_per_block);
  out.per_sm = per_sm;
  out.blocks = out.allocated_per_block > 0 ? static_cast<int>(per_sm / out.allocated_per_block) : kUnlimitedBlocks;
  return out;
}

int barrier_limit(const NvidiaArch& arch, int barriers) {
  if (arch.barrier_slots_per_block <= 0 || barriers <= 0) return kUnlimitedBlocks;
  return arch.max_blocks_per_sm * arch.barrier_slots_per_block / barriers;
}

std::string percent(double fraction) {
  char buffer[32];
  std::snprintf(buffer, sizeof(buffer), "%.4g%%", fraction * 100.0);
  return buffer;
}

std::string limiters_text(const OccupancyResult& r) {
  std::string text;
  for (OccupancyLimiter l : r.limiters) {
    if (!text.empty()) text += ", ";
    text += to_string(l);
  }
  return text;
}

// Occupancy text for a changed input, for hints: "3 blocks/SM (75%)" plus what still limits it.
std::string outcome(const OccupancyResult& before, const OccupancyResult& after, int target) {
  std::string text = std::to_string(after.active_blocks_per_sm) + " blocks/SM, occupancy " +
                     percent(before.occupancy) + " -> " + percent(after.occupancy);
  if (after.active_blocks_per_sm < target) text += " (still limited by " + limiters_text(after) + ")";
  return text;
}

// Occupancy without hints; hints evaluate changed launches with it (no hints of hints).
OccupancyResult compute(const NvidiaArch& arch, const OccupancyInput& input);

void add_hints(const NvidiaArch& arch, const OccupancyInput& input, OccupancyResult& r) {
  if (!r.launchable || r.active_warps_per_sm >= r.max_warps_per_sm) return;
  const int target = r.active_blocks_per_sm + 1;
  const std::int64_t shared = input.static_shared_bytes + input.dynamic_shared_bytes;

  if (r.limited_by(OccupancyLimiter::Registers)) {
    if (auto regs = max_registers_for_blocks(arch, input.threads_per_block, target);
        regs && *regs < input.registers_per_thread) {
      OccupancyInput changed = input;
      changed.registers_per_thread = *regs;
      OccupancyResult after = compute(arch, changed);
      OccupancyHint hint;
      hint.resource = OccupancyLimiter::Registers;
      hint.current = input.registers_per_thread;
      hint.needed = *regs;
      hint.target_blocks = target;
      hint.resulting_blocks = after.active_blocks_per_sm;
      hint.message = std::to_string(input.registers_per_thread - *regs) + " fewer registers (" +
                     std::to_string(input.registers_per_thread) + " -> " + std::to_string(*regs) +
                     " per thread) -> " + outcome(r, after, target);
      r.hints.push_back(std::move(hint));
    }
  }
  if (r.limited_by(OccupancyLimiter::SharedMemory)) {
    if (auto bytes = max_shared_bytes_for_blocks(arch, target, input.carveout_percent); bytes && *bytes < shared) {
      OccupancyInput changed = input;
      // Take the cut from dynamic memory first: that is the part a launch can change.
      std::int64_t cut = shared - *bytes;
      std::int64_t from_dynamic = std::min(cut, changed.dynamic_shared_bytes);
      changed.dynamic_shared_bytes -= from_dynamic;
      changed.static_shared_bytes -= cut - from_dynamic;
      OccupancyResult after = compute(arch, changed);
      OccupancyHint hint;
      hint.resource = OccupancyLimiter::SharedMemory;
      hint.current = shared;
      hint.needed = *bytes;
      hint.target_blocks = target;
      hint.resulting_blocks = after.active_blocks_per_sm;
      hint.message = std::to_string(cut) + " fewer shared bytes per block (" + std::to_string(shared) + " -> " +
                     std::to_string(*bytes) + ") -> " + outcome(r, after, target);
      r.hints.push_back(std::move(hint));
    }
  }
  if (r.limited_by(OccupancyLimiter::Warps)) {
    // Below 100% with warps limiting, the block's warp count does not divide the SM's warp
    // slots. Offer the nearest block sizes that do, if they actually raise occupancy with the
    // kernel's other resources unchanged.
    const int max_warps = r.max_warps_per_sm;
    const int max_block_warps = arch.max_threads_per_block / arch.warp_size;
    int smaller = 0;
    int larger = 0;
    for (int w = r.warps_per_block - 1; w >= 1 && !smaller; --w) {
      if (max_warps % w == 0) smaller = w;
    }
    for (int w = r.warps_per_block + 1; w <= max_block_warps && !larger; ++w) {
      if (max_warps % w == 0) larger = w;
    }
    for (int w : {smaller, larger}) {
      if (w == 0) continue;
      OccupancyInput changed = input;
      changed.threads_per_block = w * arch.warp_size;
      OccupancyResult after = compute(arch, changed);
      if (after.occupancy <= r.occupancy) continue;
      OccupancyHint hint;
      hint.resource = OccupancyLimiter::Warps;
      hint.current = input.threads_per_block;
      hint.needed = changed.threads_per_block;
      hint.target_blocks = after.active_blocks_per_sm;
      hint.resulting_blocks = after.active_blocks_per_sm;
      hint.message = "blocks of " + std::to_string(r.warps_per_block) + " warps fill " +
                     std::to_string(r.active_warps_per_sm) + " of " + std::to_string(max_warps) +
                     " warp slots; " + std::to_string(changed.threads_per_block) + " threads per block -> " +
                     std::to_string(after.active_blocks_per_sm) + " blocks/SM, occupancy " + percent(r.occupancy) +
                     " -> " + percent(after.occupancy);
      r.hints.push_back(std::move(hint));
    }
  }
  if (r.limited_by(OccupancyLimiter::Blocks)) {
    const int warps_needed = static_cast<int>(divide_round_up(r.max_warps_per_sm, arch.max_blocks_per_sm));
    OccupancyHint hint;
    hint.resource = OccupancyLimiter::Blocks;
    hint.current = input.threads_per_block;
    hint.needed = std::int64_t{warps_needed} * arch.warp_size;
    hint.target_blocks = r.active_blocks_per_sm;
    hint.resulting_blocks = r.active_blocks_per_sm;
    hint.message = arch.name + " holds at most " + std::to_string(arch.max_blocks_per_sm) +
                   " blocks per SM; blocks of " + std::to_string(input.threads_per_block) + " threads reach " +
                   percent(r.occupancy) + "; use at least " + std::to_string(hint.needed) + " threads per block";
    r.hints.push_back(std::move(hint));
  }
  if (r.limited_by(OccupancyLimiter::Barriers) && input.barriers > 1) {
    const int slots = arch.max_blocks_per_sm * arch.barrier_slots_per_block;
    const int barriers = slots / target;
    if (barriers >= 1 && barriers < input.barriers) {
      OccupancyInput changed = input;
      changed.barriers = barriers;
      OccupancyResult after = compute(arch, changed);
      OccupancyHint hint;
      hint.resource = OccupancyLimiter::Barriers;
      hint.current = input.barriers;
      hint.needed = barriers;
      hint.target_blocks = target;
      hint.resulting_blocks = after.active_blocks_per_sm;
      hint.message = std::to_string(input.barriers - barriers) + " fewer named barriers (" +
                     std::to_string(input.barriers) + " -> " + std::to_string(barriers) + ") -> " +
                     outcome(r, after, target);
      r.hints.push_back(std::move(hint));
    }
  }
}

}  // namespace

const std::vector<NvidiaArch>& known_nvidia_archs() {
  // Sources: cuda_occupancy.h of CUDA 13.0 (blocks/SM, carveout steps, barrier rules,
  // allocation units) and the CUDA Programming Guide's per-capability table (warps/SM, shared
  // memory per SM). A real device's attributes should be preferred when available.
  static const std::vector<NvidiaArch> archs = {
      make_arch(8, 0, 2048, 32, 164, kSteps164, 0, ""),
      make_arch(8, 6, 1536, 16, 100, kSteps100, 0, ""),
      make_arch(8, 7, 1536, 16, 164, kSteps164, 0,
                "48 warps/SM and 164 KiB shared memory for Jetson Orin are from the programming guide; "
                "not checked against hardware"),
      make_arch(8, 9, 1536, 24, 100, kSteps100, 0, ""),
      make_arch(9, 0, 2048, 32, 228, kSteps228, 2, ""),
      make_arch(10, 0, 2048, 32, 228, kSteps228, 2,
                "cuda_occupancy.h also limits sm_100 by 'virtual resources' per SM (128), which ptxas "
                "does not report; that limit is not modelled"),
      make_arch(12, 0, 1536, 24, 100, kSteps100, 1,
                "24 blocks/SM and 1 barrier slot per block follow cuda_occupancy.h 13.0; 48 warps/SM "
                "from the programming guide; not checked against hardware; virtual resources not modelled"),
  };
  return archs;
}

const NvidiaArch* find_nvidia_arch(int major, int minor) {
  for (const NvidiaArch& arch : known_nvidia_archs()) {
    if (arch.major == major && arch.minor == minor) return &arch;
  }
  return nullptr;
}

const NvidiaArch& nvidia_arch(std::string_view name) {
  std::string_view text = name;
  for (std::string_view prefix : {"sm_", "compute_", "lto_", "sm", "compute"}) {
    if (text.starts_with(prefix)) {
      text.remove_prefix(prefix.size());
      break;
    }
  }
  // Family and architecture-specific suffixes ("sm_90a", "sm_100f") share the base's limits.
  while (!text.empty() && (text.back() == 'a' || text.back() == 'f')) text.remove_suffix(1);
  int major = -1;
  int minor = -1;
  if (std::size_t dot = text.find('.'); dot != std::string_view::npos) {
    auto [p1, e1] = std::from_chars(text.data(), text.data() + dot, major);
    auto [p2, e2] = std::from_chars(text.data() + dot + 1, text.data() + text.size(), minor);
    if (e1 != std::errc() || e2 != std::errc() || p1 != text.data() + dot || p2 != text.data() + text.size()) {
      major = -1;
    }
  } else if (!text.empty()) {
    int combined = -1;
    auto [p, e] = std::from_chars(text.data(), text.data() + text.size(), combined);
    if (e == std::errc() && p == text.data() + text.size() && combined >= 10) {
      major = combined / 10;
      minor = combined % 10;
    }
  }
  std::string known;
  for (const NvidiaArch& arch : known_nvidia_archs()) known += (known.empty() ? "" : ", ") + arch.name;
  if (major < 0 || minor < 0) {
    throw std::invalid_argument("'" + std::string(name) + "' is not an NVIDIA architecture name (expected e.g. sm_90a, "
                                "sm_80, 8.6); known: " + known);
  }
  if (const NvidiaArch* arch = find_nvidia_arch(major, minor)) return *arch;
  throw std::invalid_argument("no occupancy constants for compute capability " + std::to_string(major) + "." +
                              std::to_string(minor) + " ('" + std::string(name) + "'); known: " + known);
}

const char* to_string(OccupancyLimiter limiter) {
  switch (limiter) {
    case OccupancyLimiter::Warps:
      return "warps";
    case OccupancyLimiter::Registers:
      return "registers";
    case OccupancyLimiter::SharedMemory:
      return "shared_memory";
    case OccupancyLimiter::Blocks:
      return "blocks";
    case OccupancyLimiter::Barriers:
      return "barriers";
  }
  return "unknown";
}

bool OccupancyResult::limited_by(OccupancyLimiter limiter) const {
  return std::find(limiters.begin(), limiters.end(), limiter) != limiters.end();
}

std::string OccupancyResult::summary() const {
  if (!launchable) return "not launchable: " + not_launchable_reason;
  return std::to_string(active_blocks_per_sm) + " blocks/SM, " + std::to_string(active_warps_per_sm) + "/" +
         std::to_string(max_warps_per_sm) + " warps (" + percent(occupancy) + "), limited by " + limiters_text(*this);
}

OccupancyResult nvidia_occupancy(const NvidiaArch& arch, const OccupancyInput& input) {
  OccupancyResult r = compute(arch, input);
  add_hints(arch, input, r);
  return r;
}

namespace {

OccupancyResult compute(const NvidiaArch& arch, const OccupancyInput& input) {
  if (input.registers_per_thread < 0 || input.static_shared_bytes < 0 || input.dynamic_shared_bytes < 0 ||
      input.barriers < 0) {
    throw std::invalid_argument("occupancy: registers, shared bytes and barriers must not be negative");
  }
  if (input.carveout_percent && (*input.carveout_percent < 0 || *input.carveout_percent > 100)) {
    throw std::invalid_argument("occupancy: carveout preference must be 0..100 percent, got " +
                                std::to_string(*input.carveout_percent));
  }
  if (arch.max_threads_per_sm <= 0 || arch.max_blocks_per_sm <= 0 || arch.carveout_steps_kib.empty()) {
    throw std::invalid_argument("occupancy: architecture '" + arch.name + "' has no occupancy constants");
  }

  OccupancyResult r;
  r.max_warps_per_sm = arch.max_warps_per_sm();
  r.blocks_limit_blocks = arch.max_blocks_per_sm;
  if (input.threads_per_block <= 0) {
    r.not_launchable_reason = "a block needs at least one thread (got " + std::to_string(input.threads_per_block) + ")";
    return r;
  }
  r.warps_per_block = warps_per_block(arch, input.threads_per_block);

  std::vector<std::string> reasons;
  if (input.threads_per_block > arch.max_threads_per_block) {
    reasons.push_back(std::to_string(input.threads_per_block) + " threads per block is above the limit of " +
                      std::to_string(arch.max_threads_per_block));
    r.blocks_limit_warps = 0;
  } else {
    r.blocks_limit_warps = r.max_warps_per_sm / r.warps_per_block;
  }

  RegisterLimit regs = register_limit(arch, input.threads_per_block, input.registers_per_thread);
  r.blocks_limit_registers = regs.blocks;
  r.registers_per_block = regs.registers_per_block;
  if (!regs.reason.empty() && input.threads_per_block <= arch.max_threads_per_block) reasons.push_back(regs.reason);

  const std::int64_t shared = input.static_shared_bytes + input.dynamic_shared_bytes;
  SharedLimit smem = shared_limit(arch, shared, input.carveout_percent);
  r.blocks_limit_shared_memory = smem.blocks;
  r.shared_bytes_per_block = smem.allocated_per_block;
  r.shared_memory_per_sm = smem.per_sm;
  r.needs_shared_memory_optin = shared > arch.shared_memory_per_block;
  if (!smem.reason.empty()) reasons.push_back(smem.reason);

  r.blocks_limit_barriers = barrier_limit(arch, input.barriers);

  if (!reasons.empty()) {
    for (const std::string& reason : reasons) {
      r.not_launchable_reason += (r.not_launchable_reason.empty() ? "" : "; ") + reason;
    }
    return r;
  }

  int blocks = std::min({r.blocks_limit_registers, r.blocks_limit_shared_memory, r.blocks_limit_warps,
                         r.blocks_limit_blocks, r.blocks_limit_barriers});
  r.launchable = blocks > 0;
  if (!r.launchable) {
    r.not_launchable_reason = "no block fits on an SM";
    return r;
  }
  r.active_blocks_per_sm = blocks;
  r.active_warps_per_sm = blocks * r.warps_per_block;
  r.occupancy = static_cast<double>(r.active_warps_per_sm) / r.max_warps_per_sm;
  // Same order as cuda_occupancy.h's limiting-factor bits.
  if (blocks == r.blocks_limit_warps) r.limiters.push_back(OccupancyLimiter::Warps);
  if (blocks == r.blocks_limit_registers) r.limiters.push_back(OccupancyLimiter::Registers);
  if (blocks == r.blocks_limit_shared_memory) r.limiters.push_back(OccupancyLimiter::SharedMemory);
  if (blocks == r.blocks_limit_blocks) r.limiters.push_back(OccupancyLimiter::Blocks);
  if (blocks == r.blocks_limit_barriers) r.limiters.push_back(OccupancyLimiter::Barriers);
  return r;
}

}  // namespace

std::optional<int> max_registers_for_blocks(const NvidiaArch& arch, int threads_per_block, int blocks) {
  if (threads_per_block <= 0 || threads_per_block > arch.max_threads_per_block || blocks <= 0) return std::nullopt;
  // blocks <= (R/sub_partitions / perWarp) * sub_partitions / warps  <=>
  // R/sub_partitions / perWarp >= ceil(blocks * warps / sub_partitions)  =: k
  const std::int64_t warps = warps_per_block(arch, threads_per_block);
  const std::int64_t k = divide_round_up(blocks * warps, arch.sub_partitions);
  const std::int64_t per_warp = (arch.registers_per_sm / arch.sub_partitions) / k / arch.register_allocation_unit *
                                arch.register_allocation_unit;
  if (per_warp <= 0) return 0;  // only a kernel without registers (never register-limited) fits
  const int regs = static_cast<int>(std::min<std::int64_t>(per_warp / arch.warp_size, arch.max_registers_per_thread));
  // Zero registers never limit; anything else must pass the same check the launch will.
  if (register_limit(arch, threads_per_block, regs).blocks < blocks) return std::nullopt;
  return regs;
}

std::optional<std::int64_t> max_shared_bytes_for_blocks(const NvidiaArch& arch, int blocks,
                                                        std::optional<int> carveout_percent) {
  if (blocks <= 0) return std::nullopt;
  if (shared_limit(arch, 0, carveout_percent).blocks < blocks) return std::nullopt;
  // Blocks per SM never grow with the bytes a block asks for, so bisect for the last fit.
  std::int64_t low = 0;
  std::int64_t high = arch.shared_memory_per_block_optin;
  while (low < high) {
    std::int64_t mid = low + (high - low + 1) / 2;
    if (shared_limit(arch, mid, carveout_percent).blocks >= blocks) {
      low = mid;
    } else {
      high = mid - 1;
    }
  }
  return low;
}

nlohmann::json to_json(const OccupancyResult& r) {
  auto limit = [](int blocks) { return blocks == kUnlimitedBlocks ? nlohmann::json() : nlohmann::json(blocks); };
  nlohmann::json limiters = nlohmann::json::array();
  for (OccupancyLimiter l : r.limiters) limiters.push_back(to_string(l));
  nlohmann::json hints = nlohmann::json::array();
  for (const OccupancyHint& h : r.hints) {
    hints.push_back({{"resource", to_string(h.resource)},
                     {"current", h.current},
                     {"needed", h.needed},
                     {"target_blocks", h.target_blocks},
                     {"resulting_blocks", h.resulting_blocks},
                     {"message", h.message}});
  }
  nlohmann::json j = {
      {"launchable", r.launchable},
      {"active_blocks_per_sm", r.active_blocks_per_sm},
      {"active_warps_per_sm", r.active_warps_per_sm},
      {"max_warps_per_sm", r.max_warps_per_sm},
      {"occupancy", r.occupancy},
      {"limiters", limiters},
      {"blocks_limit",
       {{"warps", limit(r.blocks_limit_warps)},
        {"registers", limit(r.blocks_limit_registers)},
        {"shared_memory", limit(r.blocks_limit_shared_memory)},
        {"blocks", limit(r.blocks_limit_blocks)},
        {"barriers", limit(r.blocks_limit_barriers)}}},
      {"warps_per_block", r.warps_per_block},
      {"registers_per_block", r.registers_per_block},
      {"shared_bytes_per_block", r.shared_bytes_per_block},
      {"shared_memory_per_sm", r.shared_memory_per_sm},
      {"needs_shared_memory_optin", r.needs_shared_memory_optin},
      {"hints", hints},
  };
  if (!r.launchable) j["not_launchable_reason"] = r.not_launchable_reason;
  return j;
}

}  // namespace ktune::analysis
