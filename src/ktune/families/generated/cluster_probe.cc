#include "ktune/families/generated/cluster_probe.h"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <limits>

#include "ktune/families/generated/cluster_order.h"

namespace ktune::generated {

namespace kc = ktune::cuda;

namespace {

constexpr const char* kProbeSymbol = "ktune_cluster_probe";
constexpr std::uint64_t kProbeWaitNs = 2'000'000;  // a CTA's wait for the others to arrive

// Thread 0 of every CTA: sm[ctaid] = %smid, start[ctaid] = %globaltimer, ++*arrived, then spin
// until *arrived >= total or timeout_ns passed. PTX ISA 7.8 / sm_90: clusters are sm_90's.
const char* probe_ptx() {
  return R"(.version 7.8
.target sm_90
.address_size 64

.visible .entry ktune_cluster_probe(.param .u64 sm, .param .u64 start, .param .u64 arrived, .param .u32 total,
                                    .param .u64 timeout_ns)
{
  .reg .pred %p<4>;
  .reg .b32 %r<8>;
  .reg .b64 %rd<12>;
  mov.u32 %r1, %tid.x;
  setp.ne.u32 %p1, %r1, 0;
  @%p1 bra $DONE;
  ld.param.u64 %rd1, [sm];
  ld.param.u64 %rd2, [start];
  ld.param.u64 %rd3, [arrived];
  ld.param.u32 %r2, [total];
  ld.param.u64 %rd4, [timeout_ns];
  cvta.to.global.u64 %rd1, %rd1;
  cvta.to.global.u64 %rd2, %rd2;
  cvta.to.global.u64 %rd3, %rd3;
  mov.u32 %r3, %smid;
  mov.u32 %r4, %ctaid.x;
  mov.u64 %rd7, %globaltimer;
  mul.wide.u32 %rd5, %r4, 4;
  add.u64 %rd6, %rd1, %rd5;
  st.global.u32 [%rd6], %r3;
  mul.wide.u32 %rd5, %r4, 8;
  add.u64 %rd8, %rd2, %rd5;
  st.global.u64 [%rd8], %rd7;
  atom.global.add.u32 %r5, [%rd3], 1;
$WAIT:
  ld.volatile.global.u32 %r6, [%rd3];
  setp.ge.u32 %p2, %r6, %r2;
  @%p2 bra $DONE;
  mov.u64 %rd9, %globaltimer;
  sub.s64 %rd10, %rd9, %rd7;
  setp.le.u64 %p3, %rd10, %rd4;
  @%p3 bra $WAIT;
$DONE:
  ret;
}
)";
}

int resident_count(const std::vector<int>& leaders) {
  return static_cast<int>(std::count_if(leaders.begin(), leaders.end(), [](int sm) { return sm >= 0; }));
}

bool disabled_by_environment() {
  const char* value = std::getenv(kClusterOrderVariable);
  return value && std::strcmp(value, "0") == 0;
}

}  // namespace

ClusterPlacement::ClusterPlacement(const kc::CudaDriver& driver, const kc::CudaDeviceProperties& properties)
    : driver_(driver), properties_(properties) {}

ClusterPlacement::~ClusterPlacement() {
  // After a sticky error these fail, and the context's allocations went with it.
  for (auto& [key, pointer] : tables_) driver_.api().cuMemFree(pointer);
}

ClusterPlacement::Probe ClusterPlacement::run_probe(kc::CUfunction function, int cluster_size) {
  const kc::DriverApi& api = driver_.api();
  const int sms = properties_.multiprocessors;
  const int ctas = sms / cluster_size * cluster_size;
  Probe probe;
  if (ctas == 0) return probe;
  kc::CUdeviceptr buffer = 0;
  const std::size_t sm_bytes = ctas * sizeof(std::uint32_t), start_bytes = ctas * sizeof(std::uint64_t);
  driver_.check(api.cuMemAlloc(&buffer, start_bytes + sm_bytes + 64), "cuMemAlloc(cluster probe)");
  kc::CUdeviceptr start = buffer, sm = buffer + start_bytes, arrived = buffer + start_bytes + sm_bytes;
  auto release = [&] { api.cuMemFree(buffer); };
  try {
    driver_.check(api.cuMemsetD8(buffer, 0xff, start_bytes + sm_bytes), "cuMemsetD8(cluster probe)");
    driver_.check(api.cuMemsetD8(arrived, 0, 64), "cuMemsetD8(cluster probe)");
    // One CTA per SM: more than half of an SM's shared memory each.
    const int shared = static_cast<int>(properties_.shared_memory_per_block_optin);
    unsigned total = static_cast<unsigned>(ctas);
    std::uint64_t timeout = kProbeWaitNs;
    void* arguments[] = {&sm, &start, &arrived, &total, &timeout};
    kc::CUlaunchAttribute attribute;
    attribute.id = kc::cu::kLaunchAttributeClusterDimension;
    attribute.value.cluster_dim = {static_cast<unsigned>(cluster_size), 1, 1};
    kc::CUlaunchConfig config;
    config.grid_x = static_cast<unsigned>(ctas);
    config.block_x = 32;
    config.shared_bytes = static_cast<unsigned>(shared);
    config.stream = nullptr;
    config.attributes = &attribute;
    config.attribute_count = 1;
    if (api.cuLaunchKernelEx(&config, function, arguments, nullptr) != kc::cu::kSuccess) {
      release();
      return probe;  // e.g. no cluster of 16 on this device: the others still tell
    }
    driver_.check(api.cuStreamSynchronize(nullptr), "cuStreamSynchronize(cluster probe)");
    std::vector<std::uint32_t> sm_host(ctas);
    std::vector<std::uint64_t> start_host(ctas);
    driver_.check(api.cuMemcpyDtoH(sm_host.data(), sm, sm_bytes), "cuMemcpyDtoH(cluster probe)");
    driver_.check(api.cuMemcpyDtoH(start_host.data(), start, start_bytes), "cuMemcpyDtoH(cluster probe)");
    const std::uint64_t first = *std::min_element(start_host.begin(), start_host.end());
    probe.sm.resize(ctas);
    probe.first_wave.resize(ctas);
    for (int i = 0; i < ctas; ++i) {
      probe.sm[i] = sm_host[i] < static_cast<std::uint32_t>(sms) ? static_cast<int>(sm_host[i]) : -1;
      probe.first_wave[i] = start_host[i] != std::numeric_limits<std::uint64_t>::max() && start_host[i] - first < kProbeWaitNs / 2;
    }
  } catch (...) {
    release();
    throw;
  }
  release();
  return probe;
}

void ClusterPlacement::probe_once() {
  if (probed_) return;
  probed_ = true;
  if (disabled_by_environment()) {
    reason_ = std::string("turned off by ") + kClusterOrderVariable + "=0";
    return;
  }
  if (properties_.compute_major < 9) {
    reason_ = "no thread-block clusters before sm_90";
    return;
  }
  const kc::DriverApi& api = driver_.api();
  if (!api.cuLaunchKernelEx) {
    reason_ = "this CUDA driver has no cuLaunchKernelEx";
    return;
  }
    kc::CUmodule module = nullptr;
  kc::CUfunction function = nullptr;
  if (api.cuModuleLoadData(&module, probe_ptx()) != kc::cu::kSuccess ||
      api.cuModuleGetFunction(&function, module, kProbeSymbol) != kc::cu::kSuccess) {
    if (module) api.cuModuleUnload(module);
    reason_ = "the cluster probe's PTX did not load";
    return;
  }
  try {
    const int shared = static_cast<int>(properties_.shared_memory_per_block_optin);
    driver_.check(api.cuFuncSetAttribute(function, kc::cu::kFuncMaxDynamicSharedSizeBytes, shared),
                   "cuFuncSetAttribute(cluster probe shared memory)");
    api.cuFuncSetAttribute(function, kc::cu::kFuncNonPortableClusterSizeAllowed, 1);  // 16: where allowed
    std::vector<std::vector<int>> clusters;
    for (int size : {16, 8, 4, 2}) {
      const Probe probe = run_probe(function, size);
      std::vector<int>& leaders = leaders_[size];
      for (std::size_t c = 0; c * size < probe.sm.size(); ++c) {
        clusters.emplace_back(probe.sm.begin() + c * size, probe.sm.begin() + (c + 1) * size);
        // A cluster of the second wave went where one of the first left: not where a launch of
        // this many clusters puts it.
        leaders.push_back(probe.first_wave[c * size] ? probe.sm[c * size] : -1);
      }
    }
    gpc_of_sm_ = gpc_of_sms(properties_.multiprocessors, clusters);
  } catch (const kc::CudaError& e) {
    api.cuModuleUnload(module);
    // Without a placement the clusters run in launch order; a dead context fails the next call.
    if (kc::is_sticky_error(e.code())) throw;
    reason_ = std::string("the cluster probe failed: ") + e.what();
    return;
  }
  api.cuModuleUnload(module);
  if (resident_count(leaders_[2]) == 0) reason_ = "the cluster probe placed no cluster of 2";
}

int ClusterPlacement::resident_clusters(int cluster_size) {
  probe_once();
  auto it = leaders_.find(cluster_size);
  return it == leaders_.end() ? 0 : resident_count(it->second);
}

const std::uint16_t* ClusterPlacement::table(int cluster_size, int units) {
  probe_once();
  if (!reason_.empty() || units <= 1) return nullptr;
  auto found = tables_.find({cluster_size, units});
  if (found != tables_.end()) return reinterpret_cast<const std::uint16_t*>(static_cast<std::uintptr_t>(found->second));
  auto leaders = leaders_.find(cluster_size);
  if (leaders == leaders_.end() || resident_count(leaders->second) == 0) return nullptr;
  std::vector<int> leader_sm = leaders->second;
  leader_sm.resize(std::max<std::size_t>(leader_sm.size(), units), -1);  // past the first wave: unknown
  const std::vector<std::uint16_t> order = cluster_order(leader_sm, gpc_of_sm_, units);
  if (order.empty()) return nullptr;
  // The table only makes the kernel faster: a failed allocation or copy leaves it in launch
  // order instead of failing the candidate, unless the context itself is gone.
  kc::CUdeviceptr pointer = 0;
  const std::size_t bytes = order.size() * sizeof(std::uint16_t);
  kc::CUresult rc = driver_.api().cuMemAlloc(&pointer, bytes);
  if (rc == kc::cu::kSuccess) {
    rc = driver_.api().cuMemcpyHtoD(pointer, order.data(), bytes);
    if (rc != kc::cu::kSuccess) driver_.api().cuMemFree(pointer);
  }
  if (rc != kc::cu::kSuccess) {
    if (kc::is_sticky_error(rc)) driver_.check(rc, "cuMemAlloc / cuMemcpyHtoD(cluster order)");
    return nullptr;
  }
  tables_[{cluster_size, units}] = pointer;
  return reinterpret_cast<const std::uint16_t*>(static_cast<std::uintptr_t>(pointer));
}

nlohmann::json ClusterPlacement::report() {
  probe_once();
  nlohmann::json j = nlohmann::json::object();
  if (!reason_.empty()) j["reason"] = reason_;
  std::map<int, int> sizes;
  for (int gpc : gpc_of_sm_) ++sizes[gpc];
  nlohmann::json gpcs = nlohmann::json::array();
  for (const auto& [label, count] : sizes) gpcs.push_back(count);
  j["gpc_sms"] = gpcs;
  for (const auto& [size, leaders] : leaders_) j["cluster" + std::to_string(size) + "_leaders"] = leaders;
  return j;
}

void apply_cluster_order(KtuneGemmParams& params, const GeneratedKnobs& knobs, const Launch& launch,
                         ClusterPlacement* placement, int blocks_per_sm) {
  params.cluster_order = nullptr;
  params.cluster_order_size = 0;
  const int size = cluster_size(knobs);
  if (!placement || knobs.path != KernelPath::Wgmma || size <= 1 || blocks_per_sm != 1) return;
  const int clusters = static_cast<int>(launch.grid[0] / static_cast<unsigned>(size));
  // A grid of more clusters than fit at once is left in launch order: its later waves go where
  // clusters retire, not where the first wave went (4096x12288x4096, 384 pairs of 128x256 tiles,
  // H200, session 40: 0.71 of the delivered sectors read from L2 in runs of 66, 0.64 without).
  const long long launched = static_cast<long long>(clusters) * launch.grid[1] * launch.grid[2];  // split slices, batch
  if (!knobs.persistent && launched > placement->resident_clusters(size)) return;
  const int units = clusters;
  if (units <= 1) return;
  if (const std::uint16_t* table = placement->table(size, units)) {
    params.cluster_order = table;
    params.cluster_order_size = units;
  }
}

}  // namespace ktune::generated
