// The CPU backend end to end: real compiles with the host compiler into a private cache.
// Kernels that crash are exercised only inside worker processes (worker/ tests).
#include "ktune/device/cpu/cpu_backend.h"

#include <gtest/gtest.h>
#include <stdlib.h>
#include <sys/stat.h>

#include <chrono>
#include <cstring>
#include <fstream>
#include <limits>
#include <set>
#include <thread>

#include "ktune/device/cpu/cpu_info.h"
#include "ktune/device/cpu/cpu_kernel.h"
#include "ktune/device/subprocess.h"

namespace ktune::device::cpu {
namespace {
namespace fs = std::filesystem;

constexpr const char* kScaleKernel = R"(
#include <cstdint>
// Scales x in place: x[i] = x[i] * FACTOR + n.
void scale(int n, float* x) {
  for (int i = 0; i < n; ++i) x[i] = x[i] * FACTOR + static_cast<float>(n);
}
)";

class CpuBackendTest : public ::testing::Test {
 protected:
  void SetUp() override {
    char pattern[] = "/tmp/ktune-cpu-backend-test-XXXXXX";
    ASSERT_NE(mkdtemp(pattern), nullptr);
    dir_ = pattern;
    CpuBackendOptions options;
    options.compiler.cache_directory = dir_ / "cache";
    options.flush_bytes = 4 << 20;  // keep cold runs quick in tests
    backend_ = std::make_unique<CpuBackend>(options);
  }
  void TearDown() override { fs::remove_all(dir_); }

  fs::path write_source(const std::string& name, const std::string& text) {
    fs::path p = dir_ / name;
    std::ofstream(p) << text;
    return p;
  }

  CompileRequest scale_request(std::int64_t factor = 2) {
    CompileRequest r;
    r.entry = "scale";
    r.sources = {write_source("scale.cc", kScaleKernel)};
    r.defines["FACTOR"] = Value::integer(factor);
    r.signature = {{"n", ElementType::I32, false, false}, {"x", ElementType::F32, true, true}};
    return r;
  }

  static std::vector<HostArgument> scale_arguments(int n) {
    std::vector<HostArgument> args;
    args.push_back(scalar_argument("n", ElementType::I32, Value::integer(n)));
    args.push_back(array_argument("x", ElementType::F32, static_cast<std::size_t>(n), true));
    for (int i = 0; i < n; ++i) store_element(args[1].data.data(), static_cast<std::size_t>(i), ElementType::F32, i);
    return args;
  }

  fs::path dir_;
  std::unique_ptr<CpuBackend> backend_;
};

TEST_F(CpuBackendTest, DescribesTheHost) {
  EXPECT_EQ(backend_->name(), "cpu");
  auto availability = backend_->availability();
  ASSERT_TRUE(availability.available) << availability.reason;
  auto devices = backend_->devices();
  ASSERT_EQ(devices.size(), 1u);
  const DeviceInfo& d = devices[0];
  EXPECT_EQ(d.backend, "cpu");
  EXPECT_EQ(d.ordinal, 0);
  EXPECT_EQ(d.name, host_cpu_info().model);
  EXPECT_EQ(d.fingerprint.rfind("cpu-", 0), 0u);
  EXPECT_EQ(d.properties["logical_cores"], host_cpu_info().logical_cores);
  EXPECT_TRUE(d.properties["caches"].is_array());
  EXPECT_FALSE(d.properties["compiler"].get<std::string>().empty());
  // Stable: asking again gives the same identity.
  EXPECT_EQ(CpuBackend().devices().at(0).fingerprint, d.fingerprint);
}

TEST_F(CpuBackendTest, UnavailableWithoutACompiler) {
  CpuBackendOptions options;
  options.compiler.cxx = "ktune-no-such-compiler";
  options.compiler.cache_directory = dir_ / "cache";
  CpuBackend backend(options);
  auto a = backend.availability();
  EXPECT_FALSE(a.available);
  EXPECT_NE(a.reason.find("ktune-no-such-compiler"), std::string::npos);
  EXPECT_TRUE(backend.devices().empty());
  auto result = backend.compiler().compile(scale_request());
  EXPECT_FALSE(result.ok);
  EXPECT_NE(result.log.find("not found"), std::string::npos);
}

TEST_F(CpuBackendTest, CompilesAndRunsAnIntAndFloatPointerKernel) {
  auto compiled = backend_->compiler().compile(scale_request(3));
  ASSERT_TRUE(compiled.ok) << compiled.log;
  EXPECT_FALSE(compiled.cache_hit);
  EXPECT_TRUE(fs::exists(compiled.artifact));
  EXPECT_EQ(compiled.artifact.parent_path(), dir_ / "cache");
  EXPECT_EQ(compiled.cache_key.size(), 64u);
  EXPECT_GT(compiled.seconds, 0);
  EXPECT_GT(compiled.resources["artifact_bytes"].get<std::int64_t>(), 0);

  auto kernel = backend_->load(0, compiled, "scale", LaunchGeometry{});
  auto args = scale_arguments(100);
  kernel->bind(args);
  kernel->run();
  for (int i = 0; i < 100; ++i)
    ASSERT_FLOAT_EQ(load_element(args[1].data.data(), static_cast<std::size_t>(i), ElementType::F32), i * 3.0 + 100);

  // upload/download move data between another host copy and the bound one.
  HostArgument poisoned = args[1];
  for (std::size_t i = 0; i < 100; ++i) store_element(poisoned.data.data(), i, ElementType::F32, 1.0);
  kernel->upload(poisoned);
  kernel->run();
  HostArgument out = array_argument("x", ElementType::F32, 0);
  kernel->download(out);
  ASSERT_EQ(out.element_count(), 100u);
  EXPECT_FLOAT_EQ(load_element(out.data.data(), 7, ElementType::F32), 1.0 * 3 + 100);
  HostArgument unknown = array_argument("nope", ElementType::F32, 1);
  EXPECT_THROW(kernel->download(unknown), DeviceError);
}

TEST_F(CpuBackendTest, CompileErrorIsAResultWithTheDiagnostics) {
  CompileRequest r = scale_request();
  r.sources = {write_source("broken.cc", "void scale(int n, float* x) { this_is_not_declared(n, x); }\n")};
  auto result = backend_->compiler().compile(r);
  EXPECT_FALSE(result.ok);
  EXPECT_NE(result.log.find("this_is_not_declared"), std::string::npos) << result.log;
  EXPECT_NE(result.log.find("broken.cc"), std::string::npos);
  EXPECT_NE(result.log.find("ktune: compiler exited with code"), std::string::npos);
  EXPECT_THROW(backend_->load(0, result, "scale", {}), DeviceError);
}

TEST_F(CpuBackendTest, SignatureMismatchWithTheSourceIsACompileError) {
  CompileRequest r = scale_request();
  r.signature = {{"x", ElementType::F64, true, true}, {"n", ElementType::I32, false, false}};
  auto result = backend_->compiler().compile(r);
  EXPECT_FALSE(result.ok);
  EXPECT_NE(result.log.find("scale"), std::string::npos) << result.log;
}

TEST_F(CpuBackendTest, BadInputsAreResultsNotExceptions) {
  CompileRequest missing = scale_request();
  missing.sources = {dir_ / "does-not-exist.cc"};
  auto r1 = backend_->compiler().compile(missing);
  EXPECT_FALSE(r1.ok);
  EXPECT_NE(r1.log.find("does-not-exist.cc"), std::string::npos);

  CompileRequest bad_entry = scale_request();
  bad_entry.entry = "scale; int x";
  EXPECT_FALSE(backend_->compiler().compile(bad_entry).ok);

  CompileRequest bad_define = scale_request();
  bad_define.defines["NOT-AN-IDENT"] = Value::integer(1);
  auto r3 = backend_->compiler().compile(bad_define);
  EXPECT_FALSE(r3.ok);
  EXPECT_NE(r3.log.find("NOT-AN-IDENT"), std::string::npos);

  CompileRequest gpu = scale_request();
  gpu.target = "sm_90a";
  EXPECT_FALSE(backend_->compiler().compile(gpu).ok);
}

TEST_F(CpuBackendTest, SecondCompileIsACacheHit) {
  auto first = backend_->compiler().compile(scale_request());
  ASSERT_TRUE(first.ok) << first.log;
  auto second = backend_->compiler().compile(scale_request());
  ASSERT_TRUE(second.ok);
  EXPECT_TRUE(second.cache_hit);
  EXPECT_EQ(second.cache_key, first.cache_key);
  EXPECT_EQ(second.artifact, first.artifact);
  EXPECT_LT(second.seconds, 0.1);
  // A second compiler object (another process, in effect) sees the same cache.
  CpuCompilerOptions options;
  options.cache_directory = dir_ / "cache";
  EXPECT_TRUE(CpuCompiler(options).compile(scale_request()).cache_hit);
  // Nothing half-written is left behind.
  EXPECT_TRUE(fs::is_empty(dir_ / "cache" / "tmp"));
}

TEST_F(CpuBackendTest, CacheKeyChangesWithDefinesFlagsSourceAndHeaders) {
  auto base = backend_->compiler().compile(scale_request(2));
  ASSERT_TRUE(base.ok) << base.log;

  auto other_define = backend_->compiler().compile(scale_request(5));
  ASSERT_TRUE(other_define.ok);
  EXPECT_FALSE(other_define.cache_hit);
  EXPECT_NE(other_define.cache_key, base.cache_key);
  EXPECT_NE(other_define.artifact, base.artifact);

  CompileRequest flagged = scale_request(2);
  flagged.user_flags = {"-O1"};
  auto with_flag = backend_->compiler().compile(flagged);
  ASSERT_TRUE(with_flag.ok);
  EXPECT_NE(with_flag.cache_key, base.cache_key);

  // A header the kernel includes: editing it must not reuse the old artifact.
  write_source("factor.h", "#define OFFSET 1\n");
  CompileRequest with_header = scale_request(2);
  with_header.sources = {write_source("hdr.cc", "#include \"factor.h\"\nvoid scale(int n, float* x) { x[0] = n + OFFSET; }\n")};
  auto h1 = backend_->compiler().compile(with_header);
  ASSERT_TRUE(h1.ok) << h1.log;
  EXPECT_TRUE(backend_->compiler().compile(with_header).cache_hit);
  write_source("factor.h", "#define OFFSET 2\n");
  auto h2 = backend_->compiler().compile(with_header);
  ASSERT_TRUE(h2.ok) << h2.log;
  EXPECT_FALSE(h2.cache_hit);
  EXPECT_NE(h2.cache_key, h1.cache_key);
  auto kernel = backend_->load(0, h2, "scale", {});
  auto args = scale_arguments(4);
  kernel->bind(args);
  kernel->run();
  EXPECT_FLOAT_EQ(load_element(args[1].data.data(), 0, ElementType::F32), 6.0);
}

TEST_F(CpuBackendTest, ColdAndWarmTimedRunsArePositive) {
  auto compiled = backend_->compiler().compile(scale_request());
  ASSERT_TRUE(compiled.ok) << compiled.log;
  auto kernel = backend_->load(0, compiled, "scale", {});
  auto args = scale_arguments(1 << 16);
  kernel->bind(args);
  double cold = kernel->run_timed(true);
  double warm = kernel->run_timed(false);
  EXPECT_GT(cold, 0);
  EXPECT_GT(warm, 0);
  EXPECT_LT(cold, 1.0);
  EXPECT_LT(warm, 1.0);
}

// The clean flush (write, then read the buffer back) leaves the kernel's result as it was.
TEST_F(CpuBackendTest, ColdRunsAfterACleanFlushKeepTheResult) {
  EXPECT_TRUE(backend_->supports_clean_flush());
  auto compiled = backend_->compiler().compile(scale_request());
  ASSERT_TRUE(compiled.ok) << compiled.log;
  auto kernel = backend_->load(0, compiled, "scale", {});
  auto args = scale_arguments(1 << 12);
  kernel->bind(args);
  kernel->set_clean_flush(true);
  double cold = kernel->run_timed(true);
  EXPECT_GT(cold, 0);
  EXPECT_LT(cold, 1.0);
  kernel->download(args[1]);
  EXPECT_FLOAT_EQ(load_element(args[1].data.data(), 3, ElementType::F32), 3 * 2 + (1 << 12));  // x = x * 2 + n, once
}

// out[i] = 2 * a[i] + b[i]; where[0] and where[1] record which buffers a and b were.
constexpr const char* kRotationProbe = R"(
#include <cstdint>
void probe(int n, const float* a, const float* b, float* out, std::int64_t* where) {
  for (int i = 0; i < n; ++i) out[i] = 2 * a[i] + b[i];
  where[0] = reinterpret_cast<std::int64_t>(a);
  where[1] = reinterpret_cast<std::int64_t>(b);
}
)";

TEST_F(CpuBackendTest, RotationReadsEveryCopySetAndKeepsResultsCorrect) {
  CompileRequest r;
  r.entry = "probe";
  r.sources = {write_source("probe.cc", kRotationProbe)};
  r.signature = {{"n", ElementType::I32, false, false},
                 {"a", ElementType::F32, true, false},
                 {"b", ElementType::F32, true, false},
                 {"out", ElementType::F32, true, true},
                 {"where", ElementType::I64, true, true}};
  auto compiled = backend_->compiler().compile(r);
  ASSERT_TRUE(compiled.ok) << compiled.log;
  auto kernel = backend_->load(0, compiled, "probe", {});
  const int n = 1000;  // 4000 bytes per input: a set is 2 * 4032 bytes after alignment
  std::vector<HostArgument> args;
  args.push_back(scalar_argument("n", ElementType::I32, Value::integer(n)));
  args.push_back(array_argument("a", ElementType::F32, n));
  args.push_back(array_argument("b", ElementType::F32, n));
  args.push_back(array_argument("out", ElementType::F32, n, true));
  args.push_back(array_argument("where", ElementType::I64, 2, true));
  for (int i = 0; i < n; ++i) {
    store_element(args[1].data.data(), static_cast<std::size_t>(i), ElementType::F32, i);
    store_element(args[2].data.data(), static_cast<std::size_t>(i), ElementType::F32, 0.5);
  }
  kernel->bind(args);

  auto expect_outputs = [&](double a_offset, const std::string& when) {
    for (int i = 0; i < n; i += 97)
      ASSERT_EQ(load_element(args[3].data.data(), static_cast<std::size_t>(i), ElementType::F32),
                2 * (i + a_offset) + 0.5)
          << when << ", element " << i;
  };
  auto where = [&](std::size_t k) {
    std::int64_t address = 0;
    std::memcpy(&address, args[4].data.data() + k * sizeof address, sizeof address);
    return address;
  };

  const std::size_t min_bytes = 40000;  // 40000 / 8064 -> 5 sets
  const std::size_t sets = kernel->enable_rotation(min_bytes);
  EXPECT_EQ(sets, 5u);
  EXPECT_EQ(dynamic_cast<CpuKernel&>(*kernel).rotation_copies(), 5u);

  std::set<std::int64_t> a_addresses, b_addresses;
  for (std::size_t s = 0; s < 2 * sets; ++s) {
    std::fill(args[3].data.begin(), args[3].data.end(), std::byte{0xff});
    (void)kernel->run_timed(false);
    expect_outputs(0, "timed run " + std::to_string(s));
    a_addresses.insert(where(0));
    b_addresses.insert(where(1));
    if (where(0) != reinterpret_cast<std::int64_t>(args[1].data.data())) {
      EXPECT_EQ(where(0) % 64, 0) << "copies start aligned";
    }
  }
  EXPECT_EQ(a_addresses.size(), sets);
  EXPECT_EQ(b_addresses.size(), sets);
  EXPECT_TRUE(a_addresses.count(reinterpret_cast<std::int64_t>(args[1].data.data())));

  // run() reads set 0, the bound buffers.
  kernel->run();
  EXPECT_EQ(where(0), reinterpret_cast<std::int64_t>(args[1].data.data()));

  // upload() of an input refreshes every copy set.
  for (int i = 0; i < n; ++i) store_element(args[1].data.data(), static_cast<std::size_t>(i), ElementType::F32, i + 3);
  kernel->upload(args[1]);
  for (std::size_t s = 0; s < sets; ++s) {
    (void)kernel->run_timed(s % 2 == 0);
    expect_outputs(3, "timed run after upload " + std::to_string(s));
  }

  // Rebinding drops the copies; impossible requests leave rotation off.
  kernel->bind(args);
  EXPECT_EQ(dynamic_cast<CpuKernel&>(*kernel).rotation_copies(), 1u);
  (void)kernel->run_timed(false);
  EXPECT_EQ(where(0), reinterpret_cast<std::int64_t>(args[1].data.data()));
  EXPECT_EQ(kernel->enable_rotation(std::numeric_limits<std::size_t>::max()), 1u);
  EXPECT_EQ(kernel->enable_rotation(1), 2u);  // at least two sets, or nothing rotates
}

TEST_F(CpuBackendTest, RotationNeedsInputArrays) {
  auto compiled = backend_->compiler().compile(scale_request());
  ASSERT_TRUE(compiled.ok) << compiled.log;
  auto kernel = backend_->load(0, compiled, "scale", {});
  EXPECT_THROW(kernel->enable_rotation(1 << 20), DeviceError);  // nothing bound yet
  auto args = scale_arguments(64);  // x is an output: nothing to rotate
  kernel->bind(args);
  EXPECT_EQ(kernel->enable_rotation(1 << 20), 1u);
}

TEST_F(CpuBackendTest, BindChecksArgumentsAgainstTheCompiledSignature) {
  auto compiled = backend_->compiler().compile(scale_request());
  ASSERT_TRUE(compiled.ok) << compiled.log;
  auto kernel = backend_->load(0, compiled, "scale", {});
  EXPECT_THROW(kernel->run(), DeviceError);  // nothing bound yet

  std::vector<HostArgument> too_few = {scalar_argument("n", ElementType::I32, Value::integer(1))};
  EXPECT_THROW(kernel->bind(too_few), DeviceError);

  std::vector<HostArgument> wrong_type = {scalar_argument("n", ElementType::I64, Value::integer(1)),
                                          array_argument("x", ElementType::F32, 1)};
  try {
    kernel->bind(wrong_type);
    FAIL() << "bound an int64 to an int32 parameter";
  } catch (const DeviceError& e) {
    EXPECT_NE(std::string(e.what()).find("compiled for int32, got int64"), std::string::npos) << e.what();
  }

  std::vector<HostArgument> scalar_as_array = {array_argument("n", ElementType::I32, 1),
                                               array_argument("x", ElementType::F32, 1)};
  EXPECT_THROW(kernel->bind(scalar_as_array), DeviceError);
}

TEST_F(CpuBackendTest, LoadRejectsWrongOrdinalEntryOrArtifact) {
  auto compiled = backend_->compiler().compile(scale_request());
  ASSERT_TRUE(compiled.ok) << compiled.log;
  EXPECT_THROW(backend_->load(1, compiled, "scale", {}), DeviceError);
  EXPECT_THROW(backend_->load(0, compiled, "other", {}), DeviceError);
  CompileResult bogus = compiled;
  bogus.artifact = write_source("not-a-library.so", "garbage");
  EXPECT_THROW(backend_->load(0, bogus, "scale", {}), DeviceError);
  bogus.artifact = dir_ / "missing.so";
  EXPECT_THROW(backend_->load(0, bogus, "scale", {}), DeviceError);
}

TEST_F(CpuBackendTest, KernelExceptionsBecomeDeviceErrors) {
  CompileRequest r;
  r.entry = "ns::checked";
  r.sources = {write_source("throws.cc",
                            "#include <stdexcept>\nnamespace ns {\n"
                            "void checked(int n) { if (n < 0) throw std::invalid_argument(\"n must be >= 0\"); }\n}\n")};
  r.signature = {{"n", ElementType::I32, false, false}};
  auto compiled = backend_->compiler().compile(r);
  ASSERT_TRUE(compiled.ok) << compiled.log;
  auto kernel = backend_->load(0, compiled, "ns::checked", {});
  std::vector<HostArgument> args = {scalar_argument("n", ElementType::I32, Value::integer(-1))};
  kernel->bind(args);
  try {
    kernel->run();
    FAIL() << "the exception vanished";
  } catch (const DeviceError& e) {
    EXPECT_NE(std::string(e.what()).find("n must be >= 0"), std::string::npos);
  }
  store_element(args[0].data.data(), 0, ElementType::I32, 1);
  EXPECT_NO_THROW(kernel->run());
}

TEST_F(CpuBackendTest, HalfPrecisionArgumentsPassTheirBits) {
  CompileRequest r;
  r.entry = "twice";
  r.sources = {write_source("half.cc",
                            "#include <cstdint>\n"
                            "void twice(std::uint16_t* out, std::uint16_t in, int n) {\n"
                            "  for (int i = 0; i < n; ++i) out[i] = in;\n}\n")};
  r.signature = {{"out", ElementType::F16, true, true}, {"in", ElementType::F16, false, false},
                 {"n", ElementType::I32, false, false}};
  auto compiled = backend_->compiler().compile(r);
  ASSERT_TRUE(compiled.ok) << compiled.log;
  auto kernel = backend_->load(0, compiled, "twice", {});
  std::vector<HostArgument> args = {array_argument("out", ElementType::F16, 3, true),
                                    scalar_argument("in", ElementType::F16, Value::real(1.5)),
                                    scalar_argument("n", ElementType::I32, Value::integer(3))};
  kernel->bind(args);
  kernel->run();
  for (std::size_t i = 0; i < 3; ++i) EXPECT_EQ(load_element(args[0].data.data(), i, ElementType::F16), 1.5);
}

TEST_F(CpuBackendTest, CompilerTimeoutKillsTheCompiler) {
  // A "compiler" that answers --version but hangs on real work.
  fs::path fake = dir_ / "slow-cxx";
  std::ofstream(fake) << "#!/bin/sh\n"
                         "case \"$*\" in *--version*) echo 'slow-cxx 1.0'; exit 0;; *-dM*) exit 0;; esac\n"
                         "sleep 60\n";
  ::chmod(fake.c_str(), 0755);
  CpuCompilerOptions options;
  options.cxx = fake.string();
  options.cache_directory = dir_ / "cache";
  options.timeout_seconds = 0.5;
  CpuCompiler compiler(options);
  auto start = std::chrono::steady_clock::now();
  auto result = compiler.compile(scale_request());
  double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  EXPECT_FALSE(result.ok);
  EXPECT_NE(result.log.find("timed out"), std::string::npos) << result.log;
  EXPECT_LT(elapsed, 10.0);
}

TEST_F(CpuBackendTest, AnotherCompilerGivesAnotherKey) {
  if (find_executable("clang++").empty()) GTEST_SKIP() << "no clang++ on this machine";
  auto with_default = backend_->compiler().compile(scale_request());
  ASSERT_TRUE(with_default.ok) << with_default.log;
  CpuCompilerOptions options;
  options.cxx = "clang++";
  options.cache_directory = dir_ / "cache";
  auto with_clang = CpuCompiler(options).compile(scale_request());
  ASSERT_TRUE(with_clang.ok) << with_clang.log;
  EXPECT_FALSE(with_clang.cache_hit);
  EXPECT_NE(with_clang.cache_key, with_default.cache_key);
  auto kernel = backend_->load(0, with_clang, "scale", {});
  auto args = scale_arguments(3);
  kernel->bind(args);
  kernel->run();
  EXPECT_FLOAT_EQ(load_element(args[1].data.data(), 2, ElementType::F32), 2 * 2 + 3);
}

TEST_F(CpuBackendTest, ConcurrentCompilesOfTheSameKernelAgree) {
  std::vector<std::thread> threads;
  std::vector<CompileResult> results(4);
  const CompileRequest request = scale_request(7);  // writes the source once, before the threads start
  for (std::size_t i = 0; i < results.size(); ++i)
    threads.emplace_back([&, i] { results[i] = backend_->compiler().compile(request); });
  for (auto& t : threads) t.join();
  for (const auto& r : results) {
    ASSERT_TRUE(r.ok) << r.log;
    EXPECT_EQ(r.cache_key, results[0].cache_key);
  }
  auto kernel = backend_->load(0, results[0], "scale", {});
  auto args = scale_arguments(2);
  kernel->bind(args);
  kernel->run();
  EXPECT_FLOAT_EQ(load_element(args[1].data.data(), 1, ElementType::F32), 1 * 7 + 2);
}

}  // namespace
}  // namespace ktune::device::cpu
