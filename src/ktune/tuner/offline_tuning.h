#pragma once
// Offline tuning for AMD targets (ktune tune SPEC --target gfx942 --offline): compile every
// configuration of a HIP spec's space for the target, without ROCm or a GPU; analyse each code
// object (VGPR/AGPR/SGPR, LDS, scratch, spills, occupancy, ISA checks); rank them by the static
// model of device/hip/static_rank.h; record every configuration in the database.
//
// A static rank is not a measurement. Rows are stored with status `skipped`, no timings,
// resources.offline = true, resources.static_rank (1 = best) and resources.static_model (the
// assessment and its reason), under a device of their own ("offline-<target>"), so `ktune best`
// (status ok, by median) never returns them and a later measured session on the real GPU
// (another device fingerprint) does not take them for measured results. Configurations that do
// not compile are `compile_error`; those that cannot launch (workgroup, LDS) `resource_limit`.

#include <cstdint>
#include <filesystem>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "ktune/core/config.h"
#include "ktune/db/database.h"
#include "ktune/device/hip/static_rank.h"

namespace ktune::tuner {

struct OfflineTuneOptions {
  std::filesystem::path spec_path;
  Config size_overrides;
  std::string target;  // AMD processor or target id: "gfx942", "gfx90a", "gfx950", "gfx942:sramecc+:xnack-"
  int compile_jobs = 0;                         // 0: one per core
  std::optional<std::uint64_t> max_configs;    // compile only the first N of the space
  bool expect_matrix = false;                   // a matrix kernel: no MFMA is an ISA problem
  std::filesystem::path db_path;                // "" -> Database::default_path()
  std::filesystem::path cache_directory;        // "" -> the HIP compiler's default
  std::optional<int> llvm_major;
  // Called from the calling thread as compiles finish (done of total), e.g. for a progress line.
  std::function<void(std::size_t done, std::size_t total)> on_compiled;
};

struct OfflineCandidate {
  Config config;
  std::string config_key;
  db::Status status = db::Status::Skipped;
  std::optional<int> rank;  // 1 = best; nullopt when it did not compile or cannot launch
  std::optional<device::hip::StaticAssessment> assessment;
  std::string error;
  std::int64_t result_id = 0;
};

struct OfflineTuneSummary {
  std::int64_t session_id = 0;
  db::DeviceRecord device;
  db::KernelRecord kernel;
  db::ProblemRecord problem;
  std::string target;
  std::string compiler;  // "clang 19.1.7"
  std::uint64_t space_size = 0;
  std::map<std::string, std::uint64_t> by_status;
  std::vector<OfflineCandidate> candidates;  // ranked first (by rank), then the rest in space order
  double wall_seconds = 0;
};

// Throws TuneError (not a HIP spec, unknown target, no compiler for it) and SourceError (spec).
OfflineTuneSummary run_offline_tuning(const OfflineTuneOptions& options);

// The ranking rule in one sentence, stored with the session and printed by the CLI.
extern const char* const kOfflineRankingRule;

}  // namespace ktune::tuner
