#pragma once
// ktune's runtime API: what an application links to get the tuned configuration back.
//
//   ktune::TuningDatabase db;                       // $KTUNE_DB or the default per-user path
//   if (auto best = db.best("cpu_matmul", {{"M", "1024"}, {"N", "1024"}, {"K", "1024"}}))
//     tile_m = std::stoi(best->parameters.at("TILE_M"));
//
// Only standard types cross this boundary, so applications need none of ktune's headers.

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace ktune {

struct TunedConfig {
  std::map<std::string, std::string> parameters;  // name -> value as text ("64", "true", "row")
  std::map<std::string, std::string> sizes;       // the problem sizes it was tuned for
  double median_seconds = 0;
  std::optional<double> gflops, gbps;
  std::string problem;
  std::string device_name;
  std::string device_fingerprint;
  std::int64_t result_id = 0;
};

class TuningDatabase {
 public:
  // Opens an existing database (empty path: $KTUNE_DB, else the default per-user path).
  // Throws std::runtime_error if it does not exist or is not a ktune database.
  explicit TuningDatabase(const std::string& path = "");
  ~TuningDatabase();
  TuningDatabase(TuningDatabase&&) noexcept;
  TuningDatabase& operator=(TuningDatabase&&) noexcept;

  // Fastest verified configuration of `problem` (the spec's name). `sizes` selects the problem
  // sizes (each given size must match; omitted sizes match anything); `device_fingerprint`
  // selects a device (empty: any device). nullopt when nothing matches.
  std::optional<TunedConfig> best(const std::string& problem, const std::map<std::string, std::string>& sizes = {},
                                  const std::string& device_fingerprint = "") const;
  // Every problem's best per device, for inspection.
  std::vector<TunedConfig> all_best() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace ktune
