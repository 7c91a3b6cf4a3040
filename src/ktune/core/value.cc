#include "ktune/core/value.h"

#include <charconv>
#include <cmath>
#include <cstdio>
#include <limits>

namespace ktune {

const char* Value::type_name(Type t) {
  switch (t) {
    case Type::Int: return "int";
    case Type::Float: return "float";
    case Type::Bool: return "bool";
    case Type::String: return "string";
  }
  return "?";
}

Value Value::parse_literal(const std::string& text) {
  if (text == "true") return boolean(true);
  if (text == "false") return boolean(false);
  {
    std::int64_t i = 0;
    auto [p, ec] = std::from_chars(text.data(), text.data() + text.size(), i);
    if (ec == std::errc() && p == text.data() + text.size() && !text.empty()) return integer(i);
  }
  {
    double d = 0;
    auto [p, ec] = std::from_chars(text.data(), text.data() + text.size(), d);
    if (ec == std::errc() && p == text.data() + text.size() && !text.empty()) return real(d);
  }
  return string(text);
}

std::int64_t Value::as_int() const {
  if (auto* i = std::get_if<std::int64_t>(&data_)) return *i;
  if (auto* d = std::get_if<double>(&data_)) {
    if (std::isfinite(*d) && std::trunc(*d) == *d && std::fabs(*d) < 9.2e18) return static_cast<std::int64_t>(*d);
    throw ValueTypeError("expected an integer, got " + to_string());
  }
  throw ValueTypeError(std::string("expected an integer, got ") + type_name(type()) + " " + to_string());
}

double Value::as_double() const {
  if (auto* i = std::get_if<std::int64_t>(&data_)) return static_cast<double>(*i);
  if (auto* d = std::get_if<double>(&data_)) return *d;
  throw ValueTypeError(std::string("expected a number, got ") + type_name(type()) + " " + to_string());
}

bool Value::as_bool() const {
  if (auto* b = std::get_if<bool>(&data_)) return *b;
  throw ValueTypeError(std::string("expected a bool, got ") + type_name(type()) + " " + to_string());
}

const std::string& Value::as_string() const {
  if (auto* s = std::get_if<std::string>(&data_)) return *s;
  throw ValueTypeError(std::string("expected a string, got ") + type_name(type()) + " " + to_string());
}

std::string Value::to_string() const {
  switch (type()) {
    case Type::Int: return std::to_string(std::get<std::int64_t>(data_));
    case Type::Float: {
      double d = std::get<double>(data_);
      char buf[64];
      auto [p, ec] = std::to_chars(buf, buf + sizeof buf, d);
      std::string s(buf, p);
      // Keep floats recognisable as floats when written back as literals.
      if (std::isfinite(d) && s.find_first_of(".eE") == std::string::npos) s += ".0";
      return s;
    }
    case Type::Bool: return std::get<bool>(data_) ? "true" : "false";
    case Type::String: return std::get<std::string>(data_);
  }
  return {};
}

std::strong_ordering Value::operator<=>(const Value& other) const {
  if (is_numeric() && other.is_numeric() && type() != other.type()) {
    double a = as_double(), b = other.as_double();
    if (a < b) return std::strong_ordering::less;
    if (a > b) return std::strong_ordering::greater;
    return type() <=> other.type();
  }
  if (type() != other.type()) return type() <=> other.type();
  switch (type()) {
    case Type::Int: return std::get<std::int64_t>(data_) <=> std::get<std::int64_t>(other.data_);
    case Type::Float: {
      double a = std::get<double>(data_), b = std::get<double>(other.data_);
      if (a < b) return std::strong_ordering::less;
      if (a > b) return std::strong_ordering::greater;
      return std::strong_ordering::equal;
    }
    case Type::Bool: return std::get<bool>(data_) <=> std::get<bool>(other.data_);
    case Type::String: return std::get<std::string>(data_).compare(std::get<std::string>(other.data_)) <=> 0;
  }
  return std::strong_ordering::equal;
}

}  // namespace ktune
