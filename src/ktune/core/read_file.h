#pragma once
// Whole-file reads for hashing and caching: nullopt when the file cannot be read.

#include <filesystem>
#include <optional>
#include <string>

namespace ktune {

std::optional<std::string> read_file(const std::filesystem::path& path);

}  // namespace ktune
