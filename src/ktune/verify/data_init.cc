#include "ktune/verify/data_init.h"

#include <algorithm>
#include <bit>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <limits>
#include <random>
#include <stdexcept>
#include <system_error>

namespace ktune::verify {
namespace {

struct KindName {
  InitKind kind;
  std::string_view name;
};
constexpr KindName kKindNames[] = {{InitKind::Random, "random"},
                                   {InitKind::Sequence, "sequence"},
                                   {InitKind::Constant, "constant"},
                                   {InitKind::File, "file"},
                                   {InitKind::Zeros, "zeros"}};

std::string num(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.17g", v);
  return buf;
}

std::string type_name(ElementType t) { return std::string(element_type_name(t)); }

bool is_signed_integer(ElementType t) {
  return t == ElementType::I8 || t == ElementType::I16 || t == ElementType::I32 || t == ElementType::I64;
}

// Exclusive upper and inclusive lower bound of an integer type, as doubles. Both are exact powers
// of two (2^63 and 2^64 included), so range checks against them are exact.
double integer_lower(ElementType t) {
  return is_signed_integer(t) ? -std::ldexp(1.0, static_cast<int>(8 * element_size(t)) - 1) : 0.0;
}
double integer_upper_exclusive(ElementType t) {
  int bits = static_cast<int>(8 * element_size(t));
  return std::ldexp(1.0, is_signed_integer(t) ? bits - 1 : bits);
}

double float_max(ElementType t) {
  switch (t) {
    case ElementType::F16: return 65504.0;
    case ElementType::BF16: return 3.3895313892515355e38;
    case ElementType::F32: return static_cast<double>(std::numeric_limits<float>::max());
    default: return std::numeric_limits<double>::max();
  }
}

void check_fits(double v, ElementType t, const char* what) {
  if (is_floating(t)) {
    if (std::isfinite(v) && std::abs(v) > float_max(t))
      throw std::invalid_argument(std::string("init: ") + what + " " + num(v) + " overflows " + type_name(t) +
                                  " (largest finite " + num(float_max(t)) + ")");
    return;
  }
  if (!std::isfinite(v) || std::floor(v) != v)
    throw std::invalid_argument(std::string("init: ") + what + " " + num(v) + " is not an integer, but the buffer is " +
                                type_name(t));
  if (v < integer_lower(t) || v >= integer_upper_exclusive(t))
    throw std::invalid_argument(std::string("init: ") + what + " " + num(v) + " does not fit " + type_name(t));
}

// Integers travel as their two's-complement bits; the store truncates to the element's width.
std::uint64_t integer_bits(double integral) {
  return integral < 0 ? static_cast<std::uint64_t>(static_cast<std::int64_t>(integral))
                      : static_cast<std::uint64_t>(integral);
}

void store_integer_bits(std::byte* base, std::size_t i, ElementType t, std::uint64_t bits) {
  std::size_t size = element_size(t);
  // Low-order bytes first: the buffers are little-endian by contract.
  for (std::size_t b = 0; b < size; ++b) base[i * size + b] = static_cast<std::byte>((bits >> (8 * b)) & 0xFF);
}

// Uniform in [0, range) without modulo bias; range 0 means the full 2^64.
std::uint64_t uniform_below(std::mt19937_64& gen, std::uint64_t range) {
  if (range == 0) return gen();
  std::uint64_t threshold = (0 - range) % range;  // 2^64 mod range: the biased low end
  for (;;) {
    std::uint64_t x = gen();
    if (x >= threshold) return x % range;
  }
}

void fill_random(std::byte* base, std::size_t n, ElementType t, const Init& init) {
  if (!std::isfinite(init.lo) || !std::isfinite(init.hi))
    throw std::invalid_argument("init: random range [" + num(init.lo) + ", " + num(init.hi) + "] must be finite");
  if (init.lo > init.hi)
    throw std::invalid_argument("init: random range has lo " + num(init.lo) + " > hi " + num(init.hi));
  std::mt19937_64 gen(init.seed);
  if (is_floating(t)) {
    check_fits(init.lo, t, "random lo");
    check_fits(init.hi, t, "random hi");
    const double width = init.hi - init.lo;
    for (std::size_t i = 0; i < n; ++i) {
      double u = static_cast<double>(gen() >> 11) * 0x1.0p-53;  // 53 random bits in [0, 1)
      store_element(base, i, t, init.lo + width * u);
    }
    return;
  }
  double lo = std::ceil(init.lo), hi = std::floor(init.hi);
  if (lo > hi)
    throw std::invalid_argument("init: random range [" + num(init.lo) + ", " + num(init.hi) +
                                "] contains no integer for " + type_name(t));
  check_fits(lo, t, "random lo");
  check_fits(hi, t, "random hi");
  const std::uint64_t first = integer_bits(lo);
  const std::uint64_t range = integer_bits(hi) - first + 1;  // wraps to 0 for a full 64-bit range
  for (std::size_t i = 0; i < n; ++i) store_integer_bits(base, i, t, first + uniform_below(gen, range));
}

void fill_sequence(std::byte* base, std::size_t n, ElementType t, const Init& init) {
  if (n == 0) return;
  const double last = init.start + static_cast<double>(n - 1) * init.step;
  if (!std::isfinite(init.start) || !std::isfinite(init.step) || !std::isfinite(last))
    throw std::invalid_argument("init: sequence start " + num(init.start) + ", step " + num(init.step) +
                                " must stay finite");
  check_fits(init.start, t, "sequence start");
  check_fits(last, t, "sequence end");
  if (is_floating(t)) {
    for (std::size_t i = 0; i < n; ++i) store_element(base, i, t, init.start + static_cast<double>(i) * init.step);
    return;
  }
  check_fits(init.step, ElementType::I64, "sequence step");
  const std::uint64_t start = integer_bits(init.start), step = integer_bits(init.step);
  for (std::size_t i = 0; i < n; ++i) store_integer_bits(base, i, t, start + static_cast<std::uint64_t>(i) * step);
}

void fill_constant(std::byte* base, std::size_t n, ElementType t, double value) {
  check_fits(value, t, "constant value");
  if (is_floating(t)) {
    for (std::size_t i = 0; i < n; ++i) store_element(base, i, t, value);
  } else {
    const std::uint64_t bits = integer_bits(value);
    for (std::size_t i = 0; i < n; ++i) store_integer_bits(base, i, t, bits);
  }
}

void fill_from_file(std::span<std::byte> data, ElementType t, const std::string& path) {
  if (path.empty()) throw std::invalid_argument("init: kind 'file' needs a file name");
  const std::string needs = std::to_string(data.size()) + " bytes (" + std::to_string(data.size() / element_size(t)) +
                            " x " + type_name(t) + ")";
  std::ifstream in(path, std::ios::binary | std::ios::ate);
  if (!in)
    throw std::runtime_error("init file '" + path + "': cannot open (" + std::generic_category().message(errno) +
                             "); the buffer needs " + needs);
  const std::streamoff size = in.tellg();
  if (size < 0 || static_cast<std::uint64_t>(size) != data.size())
    throw std::runtime_error("init file '" + path + "' has " + std::to_string(size) + " bytes, but the buffer needs " +
                             needs);
  in.seekg(0);
  if (!in.read(reinterpret_cast<char*>(data.data()), static_cast<std::streamsize>(data.size())))
    throw std::runtime_error("init file '" + path + "': read failed after " + std::to_string(in.gcount()) + " of " +
                             std::to_string(data.size()) + " bytes");
  if constexpr (std::endian::native == std::endian::big) {
    const std::size_t size_of = element_size(t);
    for (std::size_t off = 0; off < data.size(); off += size_of)
      std::reverse(data.begin() + static_cast<std::ptrdiff_t>(off),
                   data.begin() + static_cast<std::ptrdiff_t>(off + size_of));
  }
}

const nlohmann::json& typed(const nlohmann::json& v, const std::string& key, bool ok, const char* expected) {
  if (!ok) throw std::invalid_argument("init: '" + key + "' must be " + expected + ", got " + v.dump());
  return v;
}

}  // namespace

Init Init::random(double lo, double hi, std::uint64_t seed) {
  Init init;
  init.kind = InitKind::Random;
  init.lo = lo;
  init.hi = hi;
  init.seed = seed;
  return init;
}

Init Init::sequence(double start, double step) {
  Init init;
  init.kind = InitKind::Sequence;
  init.start = start;
  init.step = step;
  return init;
}

Init Init::constant(double value) {
  Init init;
  init.kind = InitKind::Constant;
  init.value = value;
  return init;
}

Init Init::zeros() {
  Init init;
  init.kind = InitKind::Zeros;
  return init;
}

Init Init::from_file(std::string path) {
  Init init;
  init.kind = InitKind::File;
  init.file = std::move(path);
  return init;
}

std::string_view to_string(InitKind kind) {
  for (const auto& k : kKindNames)
    if (k.kind == kind) return k.name;
  return "unknown";
}

InitKind init_kind_from_string(std::string_view name) {
  for (const auto& k : kKindNames)
    if (k.name == name) return k.kind;
  throw std::invalid_argument("init: unknown kind '" + std::string(name) +
                              "' (expected random, sequence, constant, file or zeros)");
}

void initialize(std::span<std::byte> data, ElementType type, const Init& init) {
  const std::size_t size = element_size(type);
  if (data.size() % size != 0)
    throw std::invalid_argument("init: buffer of " + std::to_string(data.size()) + " bytes is not a whole number of " +
                                type_name(type) + " elements");
  const std::size_t n = data.size() / size;
  switch (init.kind) {
    case InitKind::Random: fill_random(data.data(), n, type, init); return;
    case InitKind::Sequence: fill_sequence(data.data(), n, type, init); return;
    case InitKind::Constant: fill_constant(data.data(), n, type, init.value); return;
    case InitKind::File: fill_from_file(data, type, init.file); return;
    case InitKind::Zeros: std::fill(data.begin(), data.end(), std::byte{0}); return;
  }
}

Init init_from_json(const nlohmann::json& j) {
  if (!j.is_object()) throw std::invalid_argument("init: expected an object, got " + j.dump());
  Init init;
  if (auto it = j.find("kind"); it != j.end())
    init.kind = init_kind_from_string(typed(*it, "kind", it->is_string(), "a string").get<std::string>());
  auto allowed = [&](const std::string& key) {
    switch (init.kind) {
      case InitKind::Random: return key == "lo" || key == "hi" || key == "seed";
      case InitKind::Sequence: return key == "start" || key == "step";
      case InitKind::Constant: return key == "value";
      case InitKind::File: return key == "file";
      case InitKind::Zeros: return false;
    }
    return false;
  };
  for (const auto& [key, v] : j.items()) {
    if (key == "kind") continue;
    if (!allowed(key))
      throw std::invalid_argument("init: unknown key '" + key + "' for kind '" + std::string(to_string(init.kind)) +
                                  "'");
    if (key == "seed") {
      init.seed = typed(v, key, v.is_number_unsigned(), "a non-negative integer").get<std::uint64_t>();
    } else if (key == "file") {
      init.file = typed(v, key, v.is_string(), "a string").get<std::string>();
    } else {
      double d = typed(v, key, v.is_number(), "a number").get<double>();
      if (key == "lo") init.lo = d;
      else if (key == "hi") init.hi = d;
      else if (key == "start") init.start = d;
      else if (key == "step") init.step = d;
      else init.value = d;
    }
  }
  return init;
}

nlohmann::json init_to_json(const Init& init) {
  nlohmann::json j = {{"kind", std::string(to_string(init.kind))}};
  switch (init.kind) {
    case InitKind::Random: j["lo"] = init.lo; j["hi"] = init.hi; j["seed"] = init.seed; break;
    case InitKind::Sequence: j["start"] = init.start; j["step"] = init.step; break;
    case InitKind::Constant: j["value"] = init.value; break;
    case InitKind::File: j["file"] = init.file; break;
    case InitKind::Zeros: break;
  }
  return j;
}

}  // namespace ktune::verify
