#pragma once
// Readable names for cuBLASLt's numeric configuration ids (tile, stages, cluster shape,
// reduction scheme), so that tuning results say "tile 128x256, stages 64x4" instead of 23/16.
// The tables come from cublasLt.h (cublaslt_names.inc); an id a newer library adds is named
// "tile#<id>" and still round-trips.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

namespace ktune::cublaslt {

std::string tile_name(std::uint32_t id);  // "128x256"; 0 -> "undefined"; unknown -> "tile#700"
std::optional<std::uint32_t> tile_id(std::string_view name);
// Rows x columns of the C/D tile (in cuBLASLt's column-major view); nullopt for 0 or unknown ids.
std::optional<std::pair<int, int>> tile_dims(std::uint32_t id);

std::string stages_name(std::uint32_t id);  // "64x4", "128xAUTO"; 0 -> "undefined"
std::optional<std::uint32_t> stages_id(std::string_view name);

std::string cluster_name(std::uint32_t id);  // "2x1x1"; 0 -> "auto"
std::optional<std::uint32_t> cluster_id(std::string_view name);

std::string reduction_name(std::uint32_t scheme);  // "none", "inplace", "compute", "output"
std::optional<std::uint32_t> reduction_id(std::string_view name);

}  // namespace ktune::cublaslt
