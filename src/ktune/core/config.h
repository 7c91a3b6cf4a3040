#pragma once
// A configuration: one value per tunable parameter (or any named set of values, such as
// problem sizes). Ordered by name so that its canonical key is stable.

#include <map>
#include <string>

#include <nlohmann/json.hpp>

#include "ktune/core/value.h"

namespace ktune {

using Config = std::map<std::string, Value, std::less<>>;

// "BM=64,BN=128,layout=row": the identity of a config in the database.
std::string config_key(const Config& config);
// Inverse of config_key; throws std::invalid_argument on malformed text.
Config config_from_key(const std::string& key);

nlohmann::json value_to_json(const Value& v);
Value value_from_json(const nlohmann::json& j);  // throws std::invalid_argument
nlohmann::json config_to_json(const Config& config);
Config config_from_json(const nlohmann::json& j);

}  // namespace ktune
