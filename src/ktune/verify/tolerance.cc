#include "ktune/verify/tolerance.h"

#include <cmath>
#include <stdexcept>
#include <string>

namespace ktune::verify {
namespace {

void require_valid(double v, const char* key) {
  if (!std::isfinite(v) || v < 0)
    throw std::invalid_argument(std::string("tolerance: '") + key + "' must be finite and >= 0, got " +
                                std::to_string(v));
}

double number(const nlohmann::json& v, const char* key) {
  if (!v.is_number())
    throw std::invalid_argument(std::string("tolerance: '") + key + "' must be a number, got " + v.dump());
  return v.get<double>();
}

}  // namespace

Tolerance default_tolerance(ElementType type) {
  switch (type) {
    case ElementType::F16: return {1e-5, 1e-3, std::nullopt};
    case ElementType::BF16: return {1e-5, 1.6e-2, std::nullopt};
    case ElementType::F32: return {1e-5, 1.3e-6, std::nullopt};
    case ElementType::F64: return {1e-7, 1e-7, std::nullopt};
    default: return {0, 0, std::nullopt};
  }
}

void validate(const Tolerance& t) {
  require_valid(t.atol, "atol");
  require_valid(t.rtol, "rtol");
  if (t.max_rel_l2) require_valid(*t.max_rel_l2, "max_rel_l2");
}

Tolerance tolerance_from_json(const nlohmann::json& j, Tolerance base) {
  if (!j.is_object()) throw std::invalid_argument("tolerance: expected an object, got " + j.dump());
  Tolerance t = base;
  for (const auto& [key, v] : j.items()) {
    if (key == "atol") t.atol = number(v, "atol");
    else if (key == "rtol") t.rtol = number(v, "rtol");
    else if (key == "max_rel_l2") t.max_rel_l2 = v.is_null() ? std::nullopt : std::optional(number(v, "max_rel_l2"));
    else throw std::invalid_argument("tolerance: unknown key '" + key + "' (known: atol, rtol, max_rel_l2)");
  }
  validate(t);
  return t;
}

nlohmann::json tolerance_to_json(const Tolerance& t) {
  nlohmann::json j = {{"atol", t.atol}, {"rtol", t.rtol}};
  if (t.max_rel_l2) j["max_rel_l2"] = *t.max_rel_l2;
  return j;
}

}  // namespace ktune::verify
