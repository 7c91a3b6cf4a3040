#pragma once
// A scalar value seen by expressions, parameters and problem sizes.

#include <compare>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <variant>

namespace ktune {

class ValueTypeError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

class Value {
 public:
  enum class Type : std::uint8_t { Int, Float, Bool, String };

  Value() : data_(std::int64_t{0}) {}
  static Value integer(std::int64_t v) { return Value(Data(v)); }
  static Value real(double v) { return Value(Data(v)); }
  static Value boolean(bool v) { return Value(Data(v)); }
  static Value string(std::string v) { return Value(Data(std::move(v))); }
  // Parses a literal as written in a spec or on the command line: integers, floats,
  // true/false, anything else is a string.
  static Value parse_literal(const std::string& text);

  Type type() const { return static_cast<Type>(data_.index()); }
  bool is_int() const { return type() == Type::Int; }
  bool is_float() const { return type() == Type::Float; }
  bool is_bool() const { return type() == Type::Bool; }
  bool is_string() const { return type() == Type::String; }
  bool is_numeric() const { return is_int() || is_float(); }

  // Strict accessors throw ValueTypeError naming the actual type.
  std::int64_t as_int() const;  // ints, and floats with an exact integral value
  double as_double() const;     // ints and floats
  bool as_bool() const;         // bools only
  const std::string& as_string() const;

  // Canonical text: 64, 0.5, true, abc. Floats round-trip exactly.
  std::string to_string() const;
  static const char* type_name(Type t);

  bool operator==(const Value& other) const = default;
  std::strong_ordering operator<=>(const Value& other) const;

 private:
  using Data = std::variant<std::int64_t, double, bool, std::string>;
  explicit Value(Data d) : data_(std::move(d)) {}
  Data data_;
};

}  // namespace ktune
