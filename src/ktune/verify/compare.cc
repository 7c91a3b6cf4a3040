#include "ktune/verify/compare.h"

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <limits>
#include <stdexcept>

#include "ktune/verify/poison.h"

namespace ktune::verify {
namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

// Euclidean norm accumulated as scale * sqrt(ssq) (LAPACK's dlassq), so that squares of large
// or tiny values neither overflow nor flush to zero.
class Norm {
 public:
  void add(double x) {
    if (x == 0) return;
    double a = std::abs(x);
    if (scale_ < a) {
      ssq_ = 1 + ssq_ * (scale_ / a) * (scale_ / a);
      scale_ = a;
    } else {
      ssq_ += (a / scale_) * (a / scale_);
    }
  }
  double value() const { return scale_ * std::sqrt(ssq_); }

 private:
  double scale_ = 0;
  double ssq_ = 1;
};

bool is_integer(ElementType t) { return !is_floating(t); }

// 64-bit integers do not fit a double exactly; long double holds them exactly on x86-64 (64-bit
// mantissa) and aarch64 (quad), so integer differences stay exact there.
long double load_integer(const void* base, std::size_t i, ElementType t) {
  auto at = static_cast<const char*>(base) + i * element_size(t);
  if (t == ElementType::I64) {
    std::int64_t v;
    std::memcpy(&v, at, sizeof v);
    return static_cast<long double>(v);
  }
  if (t == ElementType::U64) {
    std::uint64_t v;
    std::memcpy(&v, at, sizeof v);
    return static_cast<long double>(v);
  }
  return load_element(base, i, t);
}

std::size_t element_count(std::span<const std::byte> data, ElementType t, const char* what) {
  std::size_t size = element_size(t);
  if (data.size() % size != 0)
    throw std::invalid_argument(std::string("compare: ") + what + " buffer of " + std::to_string(data.size()) +
                                " bytes is not a whole number of " + std::string(element_type_name(t)) +
                                " elements");
  return data.size() / size;
}

std::string format_number(double v) {
  if (std::isnan(v)) return "NaN";
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.6g", v);
  return buf;
}

nlohmann::json json_number(double v) {
  if (std::isnan(v)) return "nan";
  if (std::isinf(v)) return v > 0 ? "inf" : "-inf";
  return v;
}

}  // namespace

Comparison compare(std::span<const std::byte> out, std::span<const std::byte> ref, ElementType type,
                   const Tolerance& tolerance) {
  return compare(out, type, ref, type, tolerance);
}

Comparison compare(std::span<const std::byte> out, ElementType out_type, std::span<const std::byte> ref,
                   ElementType ref_type, const Tolerance& tolerance) {
  validate(tolerance);
  std::size_t n = element_count(out, out_type, "output");
  std::size_t n_ref = element_count(ref, ref_type, "reference");
  if (n != n_ref)
    throw std::invalid_argument("compare: output has " + std::to_string(n) + " elements but the reference has " +
                                std::to_string(n_ref));

  Comparison c;
  c.count = n;
  c.max_rel_l2 = tolerance.max_rel_l2;
  const bool exact_integers = is_integer(out_type) && is_integer(ref_type);
  const double poison_value = load_element(poison_pattern(out_type).data(), 0, out_type);
  Norm diff_norm, ref_norm;
  bool l2_unbounded = false;

  for (std::size_t i = 0; i < n; ++i) {
    const double r = load_element(ref.data(), i, ref_type);
    double o = load_element(out.data(), i, out_type);
    bool unwritten = is_poison(out.data(), i, out_type) && (is_floating(out_type) || r != poison_value);
    bool ok;
    if (std::isfinite(r)) ref_norm.add(r);
    if (unwritten) {
      ok = false;
      ++c.unwritten;
      o = std::numeric_limits<double>::quiet_NaN();
      l2_unbounded = true;
    } else {
      if (std::isnan(o)) ++c.nan_count;
      if (std::isnan(r)) {
        ok = std::isnan(o);
      } else if (std::isinf(r) || !std::isfinite(o)) {
        ok = o == r;
        if (std::isfinite(r)) l2_unbounded = true;
      } else {
        double err, magnitude = std::abs(r);
        if (exact_integers) {
          err = static_cast<double>(std::fabs(load_integer(out.data(), i, out_type) -
                                               load_integer(ref.data(), i, ref_type)));
        } else {
          err = std::abs(o - r);
        }
        ok = err <= tolerance.atol + tolerance.rtol * magnitude;
        diff_norm.add(err);
        if (err > c.max_abs_error) c.max_abs_error = err;
        if (magnitude > 0 && err / magnitude > c.max_rel_error) c.max_rel_error = err / magnitude;
      }
    }
    if (!ok) {
      if (c.mismatches++ == 0) {
        c.first_mismatch = i;
        c.first_expected = r;
        c.first_actual = o;
        c.first_unwritten = unwritten;
      }
    }
  }

  if (l2_unbounded) {
    c.rel_l2 = kInf;
  } else {
    double ref_l2 = ref_norm.value();
    c.rel_l2 = ref_l2 > 0 ? diff_norm.value() / ref_l2 : diff_norm.value();
  }
  c.pass = c.mismatches == 0 && (!tolerance.max_rel_l2 || c.rel_l2 <= *tolerance.max_rel_l2);
  return c;
}

std::string Comparison::summary() const {
  std::string s = pass ? "pass: " : "FAIL: ";
  if (mismatches > 0) {
    s += std::to_string(mismatches) + " of " + std::to_string(count) + " elements outside tolerance";
    if (unwritten > 0 || nan_count > 0)
      s += " (" + std::to_string(unwritten) + " unwritten, " + std::to_string(nan_count) + " NaN)";
    if (first_mismatch) {
      s += "; first at index " + std::to_string(*first_mismatch) + ": expected " + format_number(first_expected) +
           ", got " + (first_unwritten ? std::string("nothing (unwritten)") : format_number(first_actual));
    }
  } else {
    s += std::to_string(count) + " elements within tolerance";
    if (nan_count > 0) s += " (" + std::to_string(nan_count) + " NaN, as in the reference)";
  }
  s += "; max abs error " + format_number(max_abs_error) + ", max rel error " + format_number(max_rel_error) +
       ", rel_l2 " + format_number(rel_l2);
  if (max_rel_l2) {
    s += rel_l2 <= *max_rel_l2 ? " (limit " : " exceeds limit ";
    s += format_number(*max_rel_l2);
    if (rel_l2 <= *max_rel_l2) s += ")";
  }
  return s;
}

nlohmann::json comparison_to_json(const Comparison& c) {
  nlohmann::json j = {{"pass", c.pass},
                      {"count", c.count},
                      {"mismatches", c.mismatches},
                      {"unwritten", c.unwritten},
                      {"nan_count", c.nan_count},
                      {"max_abs_error", json_number(c.max_abs_error)},
                      {"max_rel_error", json_number(c.max_rel_error)},
                      {"rel_l2", json_number(c.rel_l2)},
                      {"first_mismatch", nullptr},
                      {"summary", c.summary()}};
  if (c.first_mismatch) {
    j["first_mismatch"] = *c.first_mismatch;
    j["first_expected"] = json_number(c.first_expected);
    j["first_actual"] = c.first_unwritten ? nlohmann::json("unwritten") : json_number(c.first_actual);
  }
  if (c.max_rel_l2) j["max_rel_l2"] = *c.max_rel_l2;
  return j;
}

}  // namespace ktune::verify
