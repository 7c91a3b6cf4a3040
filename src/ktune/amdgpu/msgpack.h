#pragma once
// A small MessagePack reader: enough for the AMDGPU code object metadata note
// (NT_AMDGPU_METADATA), which is one map of maps, arrays, strings, integers, booleans and
// floats. Reads untrusted bytes: every length is checked against what is left, nesting is
// bounded, and errors say what was wrong at which byte offset.

#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

namespace ktune::amdgpu {

class MsgpackError : public std::runtime_error {
 public:
  MsgpackError(std::size_t offset, const std::string& message);
  std::size_t offset() const { return offset_; }

 private:
  std::size_t offset_;
};

struct MsgpackValue;
using MsgpackArray = std::vector<MsgpackValue>;
using MsgpackMap = std::vector<std::pair<MsgpackValue, MsgpackValue>>;  // in file order

struct MsgpackBinary {
  std::string bytes;
  bool operator==(const MsgpackBinary&) const = default;
};

struct MsgpackExtension {
  std::int8_t type = 0;
  std::string bytes;
  bool operator==(const MsgpackExtension&) const = default;
};

struct MsgpackValue {
  // Non-negative integers are uint64 (msgpack's positive fixint/uint); negative ones int64.
  using Storage = std::variant<std::nullptr_t, bool, std::int64_t, std::uint64_t, double, std::string, MsgpackBinary,
                               MsgpackArray, MsgpackMap, MsgpackExtension>;
  Storage value = nullptr;

  bool is_nil() const { return std::holds_alternative<std::nullptr_t>(value); }
  bool is_bool() const { return std::holds_alternative<bool>(value); }
  bool is_integer() const;
  bool is_float() const { return std::holds_alternative<double>(value); }
  bool is_string() const { return std::holds_alternative<std::string>(value); }
  bool is_array() const { return std::holds_alternative<MsgpackArray>(value); }
  bool is_map() const { return std::holds_alternative<MsgpackMap>(value); }

  const std::string* as_string() const { return std::get_if<std::string>(&value); }
  const MsgpackArray* as_array() const { return std::get_if<MsgpackArray>(&value); }
  const MsgpackMap* as_map() const { return std::get_if<MsgpackMap>(&value); }
  const bool* as_bool() const { return std::get_if<bool>(&value); }
  // The integer when it fits int64 (uint64 above INT64_MAX does not).
  bool to_int64(std::int64_t& out) const;

  // The value stored under the string key `key` when this is a map; nullptr otherwise.
  const MsgpackValue* find(std::string_view key) const;

  // "map", "array", "string", "uint", ...
  const char* type_name() const;
  bool operator==(const MsgpackValue&) const = default;
};

struct MsgpackLimits {
  int max_depth = 64;
  std::size_t max_elements = 1 << 22;  // total values in the document
};

// Parses one value that must span all of `bytes`. Throws MsgpackError.
MsgpackValue parse_msgpack(std::string_view bytes, const MsgpackLimits& limits = {});

// Serialises (used to build test inputs and fuzz seeds); maps keep their order.
std::string encode_msgpack(const MsgpackValue& value);

// YAML-like text for diagnostics and `ktune inspect`-style dumps.
std::string to_debug_string(const MsgpackValue& value);

}  // namespace ktune::amdgpu
