#include "ktune/core/config.h"

#include <stdexcept>

namespace ktune {

std::string config_key(const Config& config) {
  std::string key;
  for (const auto& [name, value] : config) {
    if (!key.empty()) key += ',';
    key += name;
    key += '=';
    key += value.to_string();
  }
  return key;
}

Config config_from_key(const std::string& key) {
  Config config;
  std::size_t pos = 0;
  while (pos < key.size()) {
    std::size_t end = key.find(',', pos);
    if (end == std::string::npos) end = key.size();
    std::string item = key.substr(pos, end - pos);
    std::size_t eq = item.find('=');
    if (eq == std::string::npos || eq == 0) throw std::invalid_argument("malformed config item '" + item + "'");
    config[item.substr(0, eq)] = Value::parse_literal(item.substr(eq + 1));
    pos = end + 1;
  }
  return config;
}

nlohmann::json value_to_json(const Value& v) {
  switch (v.type()) {
    case Value::Type::Int: return v.as_int();
    case Value::Type::Float: return v.as_double();
    case Value::Type::Bool: return v.as_bool();
    case Value::Type::String: return v.as_string();
  }
  return nullptr;
}

Value value_from_json(const nlohmann::json& j) {
  if (j.is_boolean()) return Value::boolean(j.get<bool>());
  if (j.is_number_integer()) return Value::integer(j.get<std::int64_t>());
  if (j.is_number_float()) return Value::real(j.get<double>());
  if (j.is_string()) return Value::string(j.get<std::string>());
  throw std::invalid_argument("expected a scalar JSON value, got " + j.dump());
}

nlohmann::json config_to_json(const Config& config) {
  nlohmann::json j = nlohmann::json::object();
  for (const auto& [name, value] : config) j[name] = value_to_json(value);
  return j;
}

Config config_from_json(const nlohmann::json& j) {
  if (!j.is_object()) throw std::invalid_argument("expected a JSON object for a config");
  Config config;
  for (const auto& [name, value] : j.items()) config[name] = value_from_json(value);
  return config;
}

}  // namespace ktune
