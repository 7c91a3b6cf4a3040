#pragma once
// Where the hardware puts thread-block clusters, measured once per CUDA context, and the device
// tables (cluster_order.h) that give the clusters of one GPC neighbouring work slots.
//
// A probe kernel (hand-written PTX, JIT-compiled by the driver in milliseconds) launches one
// CTA per SM (dynamic shared memory above half an SM) in clusters of 2, 4, 8 and 16 and records
// %smid and %globaltimer per CTA; every CTA waits until all have arrived (or 2 ms), so the first
// wave stays resident while the rest are placed. The CTAs of one cluster share a GPC; the
// clusters of 2 and 4 tell where each cluster of a kernel's launch goes. The PTX has no GPC
// register, and GPCs differ between chips of one model (floor sweeping), hence a measurement.
//
// KTUNE_CLUSTER_ORDER=0 in the environment turns the tables off (clusters in launch order).

#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "ktune/device/cuda/device_properties.h"
#include "ktune/device/cuda/driver_api.h"
#include "ktune/families/generated/generated_kernel.h"

namespace ktune::generated {

inline constexpr const char* kClusterOrderVariable = "KTUNE_CLUSTER_ORDER";

class ClusterPlacement {
 public:
  // Probes nothing yet: the first table() does, in the context current on the calling thread
  // (the one every later call must have current too; the device whose properties these are),
  // on its default stream. `driver` must outlive this.
  ClusterPlacement(const ktune::cuda::CudaDriver& driver, const ktune::cuda::CudaDeviceProperties& properties);
  ~ClusterPlacement();
  ClusterPlacement(const ClusterPlacement&) = delete;
  ClusterPlacement& operator=(const ClusterPlacement&) = delete;

  // The device table for the first `units` clusters of `cluster_size` CTAs (2 or 4; 8 and 16
  // from the GPC probes) of a launch that runs one CTA per SM, or null when there is none (the
  // probe failed or is off, or placement is unknown for that size: reason() says why; or the
  // table's allocation failed). Throws only for an error that leaves the context unusable.
  const std::uint16_t* table(int cluster_size, int units);
  // Clusters of `cluster_size` that were resident at once in the probe (0: unknown).
  int resident_clusters(int cluster_size);
  const std::string& reason() const { return reason_; }
  // {"gpc_sms": [SMs per GPC...], "cluster<C>_leaders": [leader SM per cluster, -1 past the
  //  first wave], "reason"}
  nlohmann::json report();

 private:
  struct Probe {
    std::vector<int> sm;          // per CTA
    std::vector<bool> first_wave; // per CTA: started before the first CTAs' wait ran out
  };
  void probe_once();
  Probe run_probe(ktune::cuda::CUfunction function, int cluster_size);

  const ktune::cuda::CudaDriver& driver_;
  ktune::cuda::CudaDeviceProperties properties_;
  bool probed_ = false;
  std::string reason_;
  std::vector<int> gpc_of_sm_;
  std::map<int, std::vector<int>> leaders_;  // cluster size -> leader SM per cluster (-1: later wave)
  std::map<std::pair<int, int>, ktune::cuda::CUdeviceptr> tables_;
};

// Sets params.cluster_order / cluster_order_size for a kernel with clusters that runs one CTA
// per SM and whose clusters are all resident at once (persistent, or a grid of one wave, split
// slices and batch entries counted): its
// clusters are permuted as one run. Leaves them null otherwise (a grid of several waves: the
// later waves go where clusters retire), or when `placement` is null or has no table.
void apply_cluster_order(KtuneGemmParams& params, const GeneratedKnobs& knobs, const Launch& launch,
                         ClusterPlacement* placement, int blocks_per_sm);

}  // namespace ktune::generated
