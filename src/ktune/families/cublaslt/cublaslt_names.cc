#include "ktune/families/cublaslt/cublaslt_names.h"

#include <charconv>

#include "ktune/families/cublaslt/cublaslt_api.h"

namespace ktune::cublaslt {
namespace {

struct TileName {
  std::uint32_t id;
  int rows, cols;
};
struct IdName {
  std::uint32_t id;
  const char* name;
};

#include "ktune/families/cublaslt/cublaslt_names.inc"

// "<prefix>#<id>" for ids the tables do not know.
std::optional<std::uint32_t> numbered(std::string_view name, std::string_view prefix) {
  if (name.size() <= prefix.size() + 1 || name.substr(0, prefix.size()) != prefix || name[prefix.size()] != '#')
    return std::nullopt;
  std::uint32_t id = 0;
  const char* begin = name.data() + prefix.size() + 1;
  const char* end = name.data() + name.size();
  auto [ptr, ec] = std::from_chars(begin, end, id);
  if (ec != std::errc() || ptr != end) return std::nullopt;
  return id;
}

template <std::size_t N>
std::string name_in(const IdName (&table)[N], std::uint32_t id, std::string_view prefix) {
  for (const IdName& entry : table)
    if (entry.id == id) return entry.name;
  return std::string(prefix) + "#" + std::to_string(id);
}

template <std::size_t N>
std::optional<std::uint32_t> id_in(const IdName (&table)[N], std::string_view name, std::string_view prefix) {
  for (const IdName& entry : table)
    if (name == entry.name) return entry.id;
  return numbered(name, prefix);
}

}  // namespace

std::string tile_name(std::uint32_t id) {
  if (id == 0) return "undefined";
  for (const TileName& t : kTileNames)
    if (t.id == id) return std::to_string(t.rows) + "x" + std::to_string(t.cols);
  return "tile#" + std::to_string(id);
}

std::optional<std::uint32_t> tile_id(std::string_view name) {
  if (name == "undefined") return 0u;
  for (const TileName& t : kTileNames)
    if (name == std::to_string(t.rows) + "x" + std::to_string(t.cols)) return t.id;
  return numbered(name, "tile");
}

std::optional<std::pair<int, int>> tile_dims(std::uint32_t id) {
  for (const TileName& t : kTileNames)
    if (t.id == id) return std::pair{t.rows, t.cols};
  return std::nullopt;
}

std::string stages_name(std::uint32_t id) {
  if (id == 0) return "undefined";
  return name_in(kStageNames, id, "stages");
}

std::optional<std::uint32_t> stages_id(std::string_view name) {
  if (name == "undefined") return 0u;
  return id_in(kStageNames, name, "stages");
}

std::string cluster_name(std::uint32_t id) { return name_in(kClusterNames, id, "cluster"); }

std::optional<std::uint32_t> cluster_id(std::string_view name) { return id_in(kClusterNames, name, "cluster"); }

std::string reduction_name(std::uint32_t scheme) {
  switch (scheme) {
    case lt::kReductionNone: return "none";
    case lt::kReductionInplace: return "inplace";
    case lt::kReductionComputeType: return "compute";
    case lt::kReductionOutputType: return "output";
    default: return "reduction#" + std::to_string(scheme);
  }
}

std::optional<std::uint32_t> reduction_id(std::string_view name) {
  if (name == "none") return lt::kReductionNone;
  if (name == "inplace") return lt::kReductionInplace;
  if (name == "compute") return lt::kReductionComputeType;
  if (name == "output") return lt::kReductionOutputType;
  return numbered(name, "reduction");
}

}  // namespace ktune::cublaslt
