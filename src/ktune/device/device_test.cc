#include "ktune/device/device.h"

#include <gtest/gtest.h>

#include <cstring>

#include "ktune/device/registry.h"

namespace ktune::device {
namespace {

template <typename T>
T scalar_as(const HostArgument& a) {
  EXPECT_EQ(a.data.size(), sizeof(T));
  T v{};
  std::memcpy(&v, a.data.data(), sizeof(T));
  return v;
}

TEST(RotationCopiesNeeded, SmallestCountCoveringTheTotalWithinTheCap) {
  const std::size_t big_cap = std::size_t{1} << 40;
  EXPECT_EQ(rotation_copies_needed(100, 1000, big_cap), 10u);
  EXPECT_EQ(rotation_copies_needed(100, 1001, big_cap), 11u);
  EXPECT_EQ(rotation_copies_needed(100, 50, big_cap), 2u);   // always at least two sets
  EXPECT_EQ(rotation_copies_needed(0, 1000, big_cap), 1u);   // nothing to rotate
  EXPECT_EQ(rotation_copies_needed(100, 1000, 900), 10u);    // 9 extra sets fit exactly
  EXPECT_EQ(rotation_copies_needed(100, 1000, 899), 1u);     // they do not
  EXPECT_EQ(rotation_copies_needed(100, 100, 99), 1u);       // not even one copy fits
}

TEST(ScalarArgument, ConvertsValuesToTheElementType) {
  EXPECT_EQ(scalar_as<std::int32_t>(scalar_argument("n", ElementType::I32, Value::integer(-7))), -7);
  EXPECT_EQ(scalar_as<std::int64_t>(scalar_argument("n", ElementType::I64, Value::integer(1LL << 60))), 1LL << 60);
  EXPECT_EQ(scalar_as<std::uint8_t>(scalar_argument("n", ElementType::U8, Value::integer(255))), 255);
  EXPECT_EQ(scalar_as<std::int32_t>(scalar_argument("n", ElementType::I32, Value::real(64.0))), 64);
  EXPECT_EQ(scalar_as<std::int32_t>(scalar_argument("n", ElementType::I32, Value::boolean(true))), 1);
  EXPECT_FLOAT_EQ(scalar_as<float>(scalar_argument("a", ElementType::F32, Value::real(0.25))), 0.25f);
  EXPECT_DOUBLE_EQ(scalar_as<double>(scalar_argument("a", ElementType::F64, Value::integer(3))), 3.0);
  auto half = scalar_argument("h", ElementType::F16, Value::real(1.0));
  EXPECT_EQ(scalar_as<std::uint16_t>(half), 0x3c00);
  EXPECT_EQ(half.name, "h");
  EXPECT_FALSE(half.is_array);
}

TEST(ScalarArgument, RejectsValuesThatDoNotFit) {
  EXPECT_THROW(scalar_argument("n", ElementType::U8, Value::integer(256)), DeviceError);
  EXPECT_THROW(scalar_argument("n", ElementType::U32, Value::integer(-1)), DeviceError);
  EXPECT_THROW(scalar_argument("n", ElementType::I16, Value::integer(40000)), DeviceError);
  EXPECT_THROW(scalar_argument("n", ElementType::I32, Value::real(0.5)), DeviceError);
  try {
    scalar_argument("layout", ElementType::I32, Value::string("row"));
    FAIL() << "a string became an int32";
  } catch (const DeviceError& e) {
    EXPECT_NE(std::string(e.what()).find("layout"), std::string::npos);
  }
}

TEST(ArrayArgument, IsZeroFilled) {
  auto a = array_argument("c", ElementType::F64, 10, true);
  EXPECT_EQ(a.data.size(), 80u);
  EXPECT_EQ(a.element_count(), 10u);
  EXPECT_TRUE(a.is_array);
  EXPECT_TRUE(a.is_output);
  for (auto b : a.data) EXPECT_EQ(b, std::byte{0});
}

TEST(DefineFlags, SpellsEachValueType) {
  Config c;
  c["BLOCK"] = Value::integer(64);
  c["ALPHA"] = Value::real(0.5);
  c["USE_FMA"] = Value::boolean(false);
  c["ACC_T"] = Value::string("double");
  EXPECT_EQ(define_flags(c), (std::vector<std::string>{"-DACC_T=double", "-DALPHA=0.5", "-DBLOCK=64", "-DUSE_FMA=0"}));
}

TEST(DefineFlags, RejectsNamesThatAreNotIdentifiers) {
  for (std::string bad : {"2X", "A-B", "", "A B", "A=1"}) {
    Config c;
    c[bad] = Value::integer(1);
    EXPECT_THROW(define_flags(c), DeviceError) << bad;
  }
  Config newline;
  newline["X"] = Value::string("1\n#include <evil>");
  EXPECT_THROW(define_flags(newline), DeviceError);
}

TEST(EntryName, AcceptsFunctionNamesOnly) {
  for (std::string ok : {"saxpy", "_k1", "ns::gemm", "::top", "gemm<float>", "gemm<float, 64>", "a::b<c::d<1>, -2>"})
    EXPECT_TRUE(is_valid_entry_name(ok)) << ok;
  for (std::string bad : {"", "1abc", "f()", "f;g", "a b", "f<int", "f<int>x", "f>", "a::", "a:::b", "f\"", "f\n"})
    EXPECT_FALSE(is_valid_entry_name(bad)) << bad;
}

TEST(Json, RoundTrips) {
  DeviceInfo d{"cpu", 0, "AMD EPYC", "cpu-abc", {{"logical_cores", 2}}};
  auto d2 = nlohmann::json(d).get<DeviceInfo>();
  EXPECT_EQ(d2.name, "AMD EPYC");
  EXPECT_EQ(d2.fingerprint, "cpu-abc");
  EXPECT_EQ(d2.properties["logical_cores"], 2);

  CompileResult r;
  r.ok = true;
  r.artifact = "/cache/cpu/abc.so";
  r.log = "warning: x";
  r.seconds = 1.5;
  r.cache_key = "abc";
  r.resources = {{"registers", 32}};
  auto r2 = nlohmann::json(r).get<CompileResult>();
  EXPECT_TRUE(r2.ok);
  EXPECT_EQ(r2.artifact, r.artifact);
  EXPECT_EQ(r2.log, r.log);
  EXPECT_EQ(r2.seconds, 1.5);
  EXPECT_EQ(r2.cache_key, "abc");
  EXPECT_EQ(r2.resources["registers"], 32);

  LaunchGeometry g;
  g.grid = {10, 2, 1};
  g.block = {256, 1, 1};
  g.shared_bytes = 4096;
  auto g2 = nlohmann::json(g).get<LaunchGeometry>();
  EXPECT_EQ(g2.grid, g.grid);
  EXPECT_EQ(g2.block, g.block);
  EXPECT_EQ(g2.shared_bytes, 4096);

  ArgumentSignature s{"x", ElementType::BF16, true, true};
  auto s2 = nlohmann::json(s).get<ArgumentSignature>();
  EXPECT_EQ(s2.name, "x");
  EXPECT_EQ(s2.type, ElementType::BF16);
  EXPECT_TRUE(s2.is_array);
  EXPECT_TRUE(s2.is_output);
  EXPECT_THROW((nlohmann::json{{"name", "x"}, {"type", "float7"}, {"is_array", true}}.get<ArgumentSignature>()),
               nlohmann::json::exception);
}

TEST(Registry, ListsCpuAndRejectsUnknownNames) {
  auto names = backend_names();
  ASSERT_FALSE(names.empty());
  EXPECT_EQ(names[0], "cpu");
  auto all = all_backends();
  ASSERT_EQ(all.size(), names.size());
  for (std::size_t i = 0; i < all.size(); ++i) EXPECT_EQ(all[i]->name(), names[i]);
  EXPECT_EQ(make_backend("cpu")->name(), "cpu");
  try {
    make_backend("tpu");
    FAIL() << "made a tpu backend";
  } catch (const DeviceError& e) {
    EXPECT_NE(std::string(e.what()).find("known: cpu"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace ktune::device
