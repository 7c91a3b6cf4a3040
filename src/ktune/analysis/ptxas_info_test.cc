#include "ktune/analysis/ptxas_info.h"

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

namespace ktune::analysis {
namespace {

std::string read_testdata(const std::string& name) {
  std::string path = std::string(KTUNE_SOURCE_DIR) + "/src/ktune/analysis/testdata/" + name;
  std::ifstream in(path, std::ios::binary);
  EXPECT_TRUE(in.good()) << "missing test data " << path;
  std::stringstream buffer;
  buffer << in.rdbuf();
  return buffer.str();
}

TEST(PtxasInfo, SgemmSm80HasTwoKernelsWithSharedAndConstantMemory) {
  PtxasReport report = parse_ptxas_log(read_testdata("sgemm_sm80.log"));
  ASSERT_EQ(report.kernels.size(), 2u);
  EXPECT_TRUE(report.unparsed_lines.empty()) << report.unparsed_lines.front();
  EXPECT_EQ(report.global_bytes, 0);

  const KernelResourceUsage& tk = report.kernels[0];
  EXPECT_EQ(tk.name, "_Z2tkILi4EEvPf");
  EXPECT_EQ(tk.demangled_name, "void tk<4>(float*)");
  EXPECT_EQ(tk.arch, "sm_80");
  EXPECT_EQ(tk.registers, 8);
  EXPECT_EQ(tk.barriers, 0);
  EXPECT_EQ(tk.shared_bytes, 0);
  EXPECT_EQ(tk.constant_bytes.at(0), 360);

  const KernelResourceUsage* sgemm = report.find("sgemm");
  ASSERT_NE(sgemm, nullptr);
  EXPECT_EQ(sgemm->demangled_name, "sgemm");
  EXPECT_EQ(sgemm->registers, 31);
  EXPECT_EQ(sgemm->barriers, 1);
  EXPECT_EQ(sgemm->shared_bytes, 8448);  // 2 x 32 x 33 floats
  EXPECT_EQ(sgemm->constant_bytes.at(0), 388);
  EXPECT_EQ(sgemm->stack_frame_bytes, 0);
  EXPECT_FALSE(sgemm->has_spills());
  ASSERT_TRUE(sgemm->compile_time_ms.has_value());
  EXPECT_DOUBLE_EQ(*sgemm->compile_time_ms, 5.401);
  EXPECT_TRUE(sgemm->other.empty());
}

TEST(PtxasInfo, Sm90aPrintsNoConstantBank) {
  PtxasReport report = parse_ptxas_log(read_testdata("sgemm_sm90a.log"));
  const KernelResourceUsage* sgemm = report.find("sgemm");
  ASSERT_NE(sgemm, nullptr);
  EXPECT_EQ(sgemm->arch, "sm_90a");
  EXPECT_EQ(sgemm->registers, 31);
  EXPECT_EQ(sgemm->shared_bytes, 8448);
  EXPECT_TRUE(sgemm->constant_bytes.empty());
  EXPECT_TRUE(report.unparsed_lines.empty());
}

TEST(PtxasInfo, SpillsAndRegisterCapAreReported) {
  for (const char* file : {"spill_maxrreg32_sm80.log", "spill_maxrreg32_sm90a.log"}) {
    SCOPED_TRACE(file);
    PtxasReport report = parse_ptxas_log(read_testdata(file));
    ASSERT_EQ(report.kernels.size(), 1u);
    const KernelResourceUsage& k = report.kernels[0];
    EXPECT_EQ(k.name, "spill");
    EXPECT_EQ(k.registers, 32);
    EXPECT_EQ(k.max_registers_override, 32);
    EXPECT_TRUE(k.has_spills());
    EXPECT_GT(k.spill_store_bytes, 1000);
    EXPECT_GT(k.spill_load_bytes, 1000);
    EXPECT_GT(k.stack_frame_bytes, 1000);
    EXPECT_EQ(k.cumulative_stack_bytes, k.stack_frame_bytes);
    EXPECT_TRUE(report.unparsed_lines.empty()) << report.unparsed_lines.front();
  }
  PtxasReport sm80 = parse_ptxas_log(read_testdata("spill_maxrreg32_sm80.log"));
  EXPECT_EQ(sm80.kernels[0].stack_frame_bytes, 1072);
  EXPECT_EQ(sm80.kernels[0].spill_store_bytes, 1952);
  EXPECT_EQ(sm80.kernels[0].spill_load_bytes, 2224);
}

TEST(PtxasInfo, ModuleVariablesAndDeviceFunctions) {
  PtxasReport report = parse_ptxas_log(read_testdata("module_variables_sm80.log"));
  EXPECT_EQ(report.global_bytes, 4096);
  EXPECT_EQ(report.module_constant_bytes.at(3), 1024);
  EXPECT_EQ(report.module_constant_bytes.at(4), 8);
  ASSERT_EQ(report.kernels.size(), 1u);
  EXPECT_EQ(report.kernels[0].stack_frame_bytes, 256);
  EXPECT_EQ(report.kernels[0].cumulative_stack_bytes, 256);
  EXPECT_FALSE(report.kernels[0].has_spills());
  EXPECT_TRUE(report.kernels[0].uses_local_memory());
  ASSERT_EQ(report.device_functions.size(), 1u);
  EXPECT_EQ(report.device_functions[0].name, "_Z6helperPfi");
  EXPECT_EQ(report.device_functions[0].demangled_name, "helper(float*, int)");
  EXPECT_TRUE(report.unparsed_lines.empty());
}

TEST(PtxasInfo, TemplateKernelsAreFoundByTemplateIdAndDeviceFunctionsDeduplicated) {
  PtxasReport report = parse_ptxas_log(read_testdata("templates_sm90a.log"));
  ASSERT_EQ(report.kernels.size(), 2u);
  EXPECT_EQ(report.device_functions.size(), 1u);  // _Z2sqf appears after each kernel
  const KernelResourceUsage* a = report.find("tile<64, 64>");
  const KernelResourceUsage* b = report.find("tile<128,32>");
  ASSERT_NE(a, nullptr);
  ASSERT_NE(b, nullptr);
  EXPECT_NE(a, b);
  EXPECT_EQ(a->name, "_Z4tileILi64ELi64EEvPK6__halfPf");
  EXPECT_EQ(a->barriers, 2);  // __syncthreads and an explicit bar.sync 1
  EXPECT_EQ(a->shared_bytes, 8192);
  EXPECT_EQ(report.find("tile"), nullptr) << "ambiguous: two instantiations";
  EXPECT_EQ(report.find(a->name), a);
  EXPECT_EQ(report.find("void tile<64, 64>(__half const*, float*)"), a);
  EXPECT_EQ(report.find("nope"), nullptr);
}

TEST(PtxasInfo, FailedCompileStillShowsTheUsageThatCausedIt) {
  PtxasReport report = parse_ptxas_log(read_testdata("static_smem_too_large_sm80.log"));
  ASSERT_EQ(report.kernels.size(), 1u);
  EXPECT_EQ(report.kernels[0].shared_bytes, 240000);
  ASSERT_EQ(report.errors.size(), 1u);
  EXPECT_EQ(report.errors[0], "Entry function 'too_much_smem' uses too much shared data (0x3a980 bytes, 0xc000 max)");
  EXPECT_TRUE(report.unparsed_lines.empty());
}

TEST(PtxasInfo, FrontEndErrorsAreNotPtxasLines) {
  PtxasReport report = parse_ptxas_log(read_testdata("front_end_errors.log"));
  EXPECT_TRUE(report.empty());
  EXPECT_TRUE(report.errors.empty());
  EXPECT_TRUE(report.unparsed_lines.empty());
}

TEST(PtxasInfo, OldFormatWithSplitCountsAndUnprefixedProperties) {
  PtxasReport report = parse_ptxas_log(read_testdata("hand_old_format.log"));
  ASSERT_EQ(report.kernels.size(), 1u);
  const KernelResourceUsage& k = report.kernels[0];
  EXPECT_EQ(k.arch, "sm_35");
  EXPECT_EQ(k.registers, 10);
  EXPECT_EQ(k.local_bytes, 4);
  EXPECT_EQ(k.shared_bytes, 2064);
  EXPECT_EQ(k.constant_bytes.at(0), 336);
  EXPECT_EQ(k.constant_bytes.at(16), 4);
  EXPECT_EQ(k.other.at("textures"), 1);
  EXPECT_EQ(k.stack_frame_bytes, 8);
  EXPECT_EQ(k.spill_store_bytes, 4);
  EXPECT_EQ(k.spill_load_bytes, 12);
  EXPECT_EQ(k.demangled_name, "kernel(float*, float*, int)");
}

TEST(PtxasInfo, WarningsErrorsAndUnknownLinesAreKept) {
  PtxasReport report = parse_ptxas_log(read_testdata("hand_warnings_errors.log"));
  ASSERT_EQ(report.warnings.size(), 1u);
  ASSERT_EQ(report.errors.size(), 2u);
  EXPECT_NE(report.errors[0].find("too much shared data"), std::string::npos);
  EXPECT_EQ(report.errors[1], "Ptx assembly aborted due to errors");
  const KernelResourceUsage* hot = report.find("hot");
  ASSERT_NE(hot, nullptr);
  EXPECT_EQ(hot->registers, 255);
  EXPECT_EQ(hot->barriers, 16);
  EXPECT_EQ(hot->other.at("bytes future resource"), 12);
  ASSERT_EQ(hot->warnings.size(), 1u);
  EXPECT_NE(hot->warnings[0].find("spilled"), std::string::npos);
  ASSERT_TRUE(hot->compile_time_ms.has_value());
  EXPECT_DOUBLE_EQ(*hot->compile_time_ms, 1500.0);
  ASSERT_EQ(report.unparsed_lines.size(), 1u);
  EXPECT_EQ(report.unparsed_lines[0], "ptxas info    : Something new that ptxas says");
}

TEST(PtxasInfo, CrlfLineEndingsAndGarbageNeverThrow) {
  std::string log =
      "ptxas info    : Compiling entry function 'k' for 'sm_86'\r\n"
      "ptxas info    : Function properties for k\r\n"
      "ptxas         .     0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads\r\n"
      "ptxas info    : Used 40 registers, used 1 barriers, 100 bytes smem\r\n";
  PtxasReport report = parse_ptxas_log(log);
  ASSERT_EQ(report.kernels.size(), 1u);
  EXPECT_EQ(report.kernels[0].registers, 40);
  EXPECT_EQ(report.kernels[0].shared_bytes, 100);
  EXPECT_TRUE(report.unparsed_lines.empty());

  for (std::string garbage : {std::string(), std::string("ptxas"), std::string("ptxas info : Used"),
                              std::string("ptxas info : Used x registers, , 99999999999999999999 bytes smem"),
                              std::string("ptxas info : Compiling entry function 'unterminated"),
                              std::string("ptxas         .  12 bytes stack frame"), std::string("\0\0ptxas\n", 8)}) {
    EXPECT_NO_THROW(parse_ptxas_log(garbage)) << garbage;
  }
  PtxasReport odd = parse_ptxas_log("ptxas info : Used 3 registers\n");
  EXPECT_TRUE(odd.kernels.empty());
  EXPECT_EQ(odd.unparsed_lines.size(), 1u) << "a usage line without a kernel is kept, not dropped";
}

TEST(PtxasInfo, JsonCarriesEveryField) {
  PtxasReport report = parse_ptxas_log(read_testdata("module_variables_sm80.log"));
  nlohmann::json j = to_json(report);
  EXPECT_EQ(j["global_bytes"], 4096);
  EXPECT_EQ(j["module_constant_bytes"]["3"], 1024);
  EXPECT_EQ(j["kernels"][0]["registers"], 79);
  EXPECT_EQ(j["kernels"][0]["constant_bytes"]["0"], 372);
  EXPECT_TRUE(j["kernels"][0]["max_registers_override"].is_null());
  EXPECT_EQ(j["device_functions"][0]["name"], "_Z6helperPfi");
}

}  // namespace
}  // namespace ktune::analysis
