#include "ktune/device/device.h"

#include <cstring>
#include <limits>

namespace ktune::device {
namespace {

bool is_identifier_start(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_'; }
bool is_identifier_char(char c) { return is_identifier_start(c) || (c >= '0' && c <= '9'); }

bool is_identifier(std::string_view s) {
  if (s.empty() || !is_identifier_start(s[0])) return false;
  for (char c : s)
    if (!is_identifier_char(c)) return false;
  return true;
}

template <typename T>
void put(std::vector<std::byte>& out, T v) {
  out.resize(sizeof(T));
  std::memcpy(out.data(), &v, sizeof(T));
}

template <typename T>
void put_integer(std::vector<std::byte>& out, std::int64_t v, const std::string& name, ElementType type) {
  bool fits;
  if constexpr (std::is_signed_v<T>) {
    fits = v >= std::numeric_limits<T>::min() && v <= std::numeric_limits<T>::max();
  } else {
    fits = v >= 0 && static_cast<std::uint64_t>(v) <= std::numeric_limits<T>::max();
  }
  if (!fits)
    throw DeviceError("argument '" + name + "': value " + std::to_string(v) + " does not fit " +
                      std::string(element_type_name(type)));
  put(out, static_cast<T>(v));
}

}  // namespace

HostArgument scalar_argument(std::string name, ElementType type, const Value& value) {
  HostArgument arg;
  arg.type = type;
  arg.is_array = false;
  if (value.is_string())
    throw DeviceError("argument '" + name + "': a string (" + value.to_string() + ") cannot be passed as " +
                      std::string(element_type_name(type)));
  if (is_floating(type)) {
    double d = value.is_bool() ? (value.as_bool() ? 1.0 : 0.0) : value.as_double();
    arg.data.resize(element_size(type));
    store_element(arg.data.data(), 0, type, d);
  } else {
    std::int64_t i = 0;
    if (value.is_bool()) {
      i = value.as_bool() ? 1 : 0;
    } else {
      try {
        i = value.as_int();
      } catch (const ValueTypeError&) {
        throw DeviceError("argument '" + name + "': " + value.to_string() + " is not an integer but the kernel takes " +
                          std::string(element_type_name(type)));
      }
    }
    switch (type) {
      case ElementType::I8: put_integer<std::int8_t>(arg.data, i, name, type); break;
      case ElementType::U8: put_integer<std::uint8_t>(arg.data, i, name, type); break;
      case ElementType::I16: put_integer<std::int16_t>(arg.data, i, name, type); break;
      case ElementType::U16: put_integer<std::uint16_t>(arg.data, i, name, type); break;
      case ElementType::I32: put_integer<std::int32_t>(arg.data, i, name, type); break;
      case ElementType::U32: put_integer<std::uint32_t>(arg.data, i, name, type); break;
      case ElementType::I64: put_integer<std::int64_t>(arg.data, i, name, type); break;
      case ElementType::U64: put_integer<std::uint64_t>(arg.data, i, name, type); break;
      default: throw DeviceError("argument '" + name + "': unexpected element type");
    }
  }
  arg.name = std::move(name);
  return arg;
}

HostArgument array_argument(std::string name, ElementType type, std::size_t count, bool is_output) {
  HostArgument arg;
  arg.name = std::move(name);
  arg.type = type;
  arg.is_array = true;
  arg.is_output = is_output;
  arg.data.assign(count * element_size(type), std::byte{0});
  return arg;
}

std::size_t rotation_copies_needed(std::size_t set_bytes, std::size_t min_total_bytes, std::size_t cap_bytes) {
  if (set_bytes == 0) return 1;
  std::size_t copies = min_total_bytes / set_bytes + (min_total_bytes % set_bytes != 0 ? 1 : 0);
  if (copies < 2) copies = 2;
  // The bound buffers are one set already; only copies - 1 are allocated.
  if (copies - 1 > cap_bytes / set_bytes) return 1;
  return copies;
}

std::vector<std::string> define_flags(const Config& defines) {
  std::vector<std::string> flags;
  flags.reserve(defines.size());
  for (const auto& [name, value] : defines) {
    if (!is_identifier(name)) throw DeviceError("cannot pass '" + name + "' as a macro: not a C identifier");
    std::string text = value.is_bool() ? (value.as_bool() ? "1" : "0") : value.to_string();
    if (text.find_first_of("\r\n") != std::string::npos)
      throw DeviceError("cannot pass the value of '" + name + "' as a macro: it contains a newline");
    flags.push_back("-D" + name + "=" + text);
  }
  return flags;
}

bool is_valid_entry_name(std::string_view name) {
  // A qualified name, optionally followed by one template argument list of identifiers,
  // numbers, commas, spaces, '::' and nested '<>'. Deliberately small: no parentheses or
  // semicolons can reach the generated code.
  std::size_t i = 0;
  auto identifier = [&] {
    if (i >= name.size() || !is_identifier_start(name[i])) return false;
    while (i < name.size() && is_identifier_char(name[i])) ++i;
    return true;
  };
  if (name.substr(0, 2) == "::") i = 2;
  if (!identifier()) return false;
  while (name.substr(i, 2) == "::") {
    i += 2;
    if (!identifier()) return false;
  }
  if (i == name.size()) return true;
  if (name[i] != '<' || name.back() != '>') return false;
  int depth = 0;
  for (; i < name.size(); ++i) {
    char c = name[i];
    if (c == '<') {
      ++depth;
    } else if (c == '>') {
      if (--depth < 0) return false;
      if (depth == 0 && i + 1 != name.size()) return false;
    } else if (!(is_identifier_char(c) || c == ',' || c == ' ' || c == ':' || c == '.' || c == '-')) {
      return false;
    }
  }
  return depth == 0;
}

namespace {

nlohmann::json element_type_json(ElementType t) { return std::string(element_type_name(t)); }

ElementType element_type_from_json(const nlohmann::json& j) {
  auto parsed = parse_element_type(j.get<std::string>());
  if (!parsed) throw nlohmann::json::other_error::create(501, "unknown element type '" + j.get<std::string>() + "'", &j);
  return *parsed;
}

}  // namespace

void to_json(nlohmann::json& j, const DeviceInfo& v) {
  j = {{"backend", v.backend}, {"ordinal", v.ordinal}, {"name", v.name}, {"fingerprint", v.fingerprint},
       {"properties", v.properties}};
}
void from_json(const nlohmann::json& j, DeviceInfo& v) {
  j.at("backend").get_to(v.backend);
  j.at("ordinal").get_to(v.ordinal);
  j.at("name").get_to(v.name);
  j.at("fingerprint").get_to(v.fingerprint);
  v.properties = j.value("properties", nlohmann::json::object());
}

void to_json(nlohmann::json& j, const ArgumentSignature& v) {
  j = {{"name", v.name}, {"type", element_type_json(v.type)}, {"is_array", v.is_array}, {"is_output", v.is_output}};
}
void from_json(const nlohmann::json& j, ArgumentSignature& v) {
  j.at("name").get_to(v.name);
  v.type = element_type_from_json(j.at("type"));
  j.at("is_array").get_to(v.is_array);
  v.is_output = j.value("is_output", false);
}

void to_json(nlohmann::json& j, const CompileResult& v) {
  j = {{"ok", v.ok},
       {"artifact", v.artifact.string()},
       {"log", v.log},
       {"seconds", v.seconds},
       {"cache_hit", v.cache_hit},
       {"cache_key", v.cache_key},
       {"resources", v.resources}};
}
void from_json(const nlohmann::json& j, CompileResult& v) {
  j.at("ok").get_to(v.ok);
  v.artifact = j.at("artifact").get<std::string>();
  v.log = j.value("log", std::string());
  v.seconds = j.value("seconds", 0.0);
  v.cache_hit = j.value("cache_hit", false);
  v.cache_key = j.value("cache_key", std::string());
  v.resources = j.value("resources", nlohmann::json::object());
}

void to_json(nlohmann::json& j, const LaunchGeometry& v) {
  j = {{"grid", v.grid}, {"block", v.block}, {"shared_bytes", v.shared_bytes}};
}
void from_json(const nlohmann::json& j, LaunchGeometry& v) {
  j.at("grid").get_to(v.grid);
  j.at("block").get_to(v.block);
  v.shared_bytes = j.value("shared_bytes", std::int64_t{0});
}

}  // namespace ktune::device
