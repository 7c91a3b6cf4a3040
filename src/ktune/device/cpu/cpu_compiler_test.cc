// Unit tests of the CPU backend's pieces that need no compiler run.
#include <gtest/gtest.h>
#include <stdlib.h>

#include <optional>

#include "ktune/device/cpu/cpu_compiler.h"
#include "ktune/device/cpu/cpu_info.h"
#include "ktune/device/cpu/cpu_launch_shim.h"

namespace ktune::device::cpu {
namespace {

TEST(DependencyFile, ParsesGccOutput) {
  std::string text =
      "/tmp/x/tmp/1-0-a.so: /cache/cpu/abc.cc /usr/include/stdc-predef.h \\\n"
      " /home/u/kernel.cc /home/u/my\\ header.h /home/u/cost$$.h \\\n"
      " /home/u/include/tile.h\n";
  EXPECT_EQ(parse_dependency_file(text),
            (std::vector<std::string>{"/cache/cpu/abc.cc", "/usr/include/stdc-predef.h", "/home/u/kernel.cc",
                                      "/home/u/my header.h", "/home/u/cost$.h", "/home/u/include/tile.h"}));
}

TEST(DependencyFile, HandlesPhonyTargetsAndDuplicates) {
  std::string text = "out.o: a.cc b.h\n\nb.h:\nc.h :\nother.o: b.h c.h\n";
  EXPECT_EQ(parse_dependency_file(text), (std::vector<std::string>{"a.cc", "b.h", "c.h"}));
  EXPECT_TRUE(parse_dependency_file("").empty());
}

TEST(TrimLog, KeepsHeadAndTail) {
  EXPECT_EQ(trim_log("short", 100), "short");
  std::string log = std::string(1000, 'a') + std::string(1000, 'z');
  std::string trimmed = trim_log(log, 400);
  EXPECT_LT(trimmed.size(), 500u);
  EXPECT_EQ(trimmed.substr(0, 300), std::string(300, 'a'));
  EXPECT_EQ(trimmed.substr(trimmed.size() - 100), std::string(100, 'z'));
  EXPECT_NE(trimmed.find("1600 bytes of compiler output omitted"), std::string::npos);
}

TEST(LaunchShim, CallsTheEntryWithEachArgumentCast) {
  CompileRequest r;
  r.entry = "saxpy";
  r.sources = {"/src/k.cc"};
  r.signature = {{"y", ElementType::F32, true, true}, {"n", ElementType::I32, false, false},
                 {"h", ElementType::F16, true, false}, {"s", ElementType::BF16, false, false}};
  std::string shim = generate_launch_shim(r);
  EXPECT_NE(shim.find("#include \"/src/k.cc\""), std::string::npos);
  EXPECT_NE(shim.find("saxpy("), std::string::npos);
  EXPECT_NE(shim.find("*static_cast<float**>(ktune_args[0])"), std::string::npos);
  EXPECT_NE(shim.find("*static_cast<std::int32_t*>(ktune_args[1])"), std::string::npos);
  EXPECT_NE(shim.find("ktune_shim::bits16_pointer{*static_cast<void**>(ktune_args[2])}"), std::string::npos);
  EXPECT_NE(shim.find("ktune_shim::bits16_value{ktune_args[3]}"), std::string::npos);
  EXPECT_NE(shim.find("ktune_signature[] = \"float32*,int32,float16*,bfloat16\""), std::string::npos);
  EXPECT_NE(shim.find("ktune_entry[] = \"saxpy\""), std::string::npos);
  EXPECT_EQ(signature_text(r.signature), "float32*,int32,float16*,bfloat16");
}

TEST(LaunchShim, RejectsUnsafeEntryNamesAndPaths) {
  CompileRequest r;
  r.entry = "f(); system(\"rm\")";
  r.sources = {"/src/k.cc"};
  EXPECT_THROW(generate_launch_shim(r), DeviceError);
  r.entry = "f";
  r.sources = {"/src/we\"ird.cc"};
  EXPECT_THROW(generate_launch_shim(r), DeviceError);
  r.sources = {};
  EXPECT_THROW(generate_launch_shim(r), DeviceError);
}

TEST(CpuInfo, ParsesCacheSizes) {
  EXPECT_EQ(parse_cache_size("32K"), 32768u);
  EXPECT_EQ(parse_cache_size("32768K\n"), 32768u * 1024);
  EXPECT_EQ(parse_cache_size("2M"), 2u << 20);
  EXPECT_EQ(parse_cache_size("512"), 512u);
  EXPECT_EQ(parse_cache_size("big"), 0u);
  EXPECT_EQ(parse_cache_size("3X"), 0u);
}

TEST(CpuInfo, ParsesProcCpuinfo) {
  std::string cpuinfo =
      "processor\t: 0\nmodel name\t: AMD EPYC 7B13\nflags\t\t: fpu sse avx2 fma\n\n"
      "processor\t: 1\nmodel name\t: AMD EPYC 7B13\nflags\t\t: fpu sse avx2 fma\n";
  std::vector<CacheLevel> caches = {{1, "Data", 32768}, {1, "Instruction", 32768}, {2, "Unified", 1 << 20},
                                    {3, "Unified", 32u << 20}};
  auto info = parse_host_cpu_info(cpuinfo, caches);
  EXPECT_EQ(info.model, "AMD EPYC 7B13");
  EXPECT_EQ(info.isa_flags, (std::vector<std::string>{"fpu", "sse", "avx2", "fma"}));
  EXPECT_EQ(info.last_level_cache_bytes, 32u << 20);
  EXPECT_GE(info.logical_cores, 1);

  auto arm = parse_host_cpu_info("processor : 0\nFeatures : fp asimd\nCPU part : 0xd0c\n", {});
  EXPECT_EQ(arm.model, "CPU part 0xd0c");
  EXPECT_EQ(arm.isa_flags, (std::vector<std::string>{"fp", "asimd"}));
  EXPECT_EQ(arm.last_level_cache_bytes, 32u << 20);  // fallback
}

TEST(CpuInfo, ThisHost) {
  const auto& info = host_cpu_info();
  EXPECT_FALSE(info.model.empty());
  EXPECT_GE(info.logical_cores, 1);
  EXPECT_GT(info.last_level_cache_bytes, 0u);
}

TEST(CompilerIdentity, DefaultCommandFollowsEnvironment) {
  auto saved = [](const char* name) -> std::optional<std::string> {
    const char* v = getenv(name);
    return v ? std::optional<std::string>(v) : std::nullopt;
  };
  auto restore = [](const char* name, const std::optional<std::string>& v) {
    if (v) setenv(name, v->c_str(), 1); else unsetenv(name);
  };
  auto ktune_cxx = saved("KTUNE_CXX"), cxx = saved("CXX");
  setenv("KTUNE_CXX", "clang++-14", 1);
  setenv("CXX", "g++", 1);
  EXPECT_EQ(default_compiler_command(), "clang++-14");
  unsetenv("KTUNE_CXX");
  EXPECT_EQ(default_compiler_command(), "g++");
  setenv("CXX", "  ", 1);
  EXPECT_EQ(default_compiler_command(), "c++");
  unsetenv("CXX");
  EXPECT_EQ(default_compiler_command(), "c++");
  restore("KTUNE_CXX", ktune_cxx);
  restore("CXX", cxx);
}

TEST(CompilerIdentity, ProbesOnceAndReportsMissingCompilers) {
  const auto& missing = compiler_identity("ktune-no-such-compiler");
  EXPECT_FALSE(missing.usable());
  EXPECT_NE(missing.error.find("not found"), std::string::npos);
  const auto& cxx = compiler_identity("c++");
  ASSERT_TRUE(cxx.usable()) << cxx.error;
  EXPECT_EQ(cxx.path.front(), '/');
  EXPECT_FALSE(cxx.version.empty());
  EXPECT_EQ(cxx.native_target.size(), 64u);
  EXPECT_EQ(&compiler_identity("c++"), &cxx);
}

}  // namespace
}  // namespace ktune::device::cpu
