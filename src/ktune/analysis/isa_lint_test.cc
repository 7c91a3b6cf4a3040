#include "ktune/analysis/isa_lint.h"

#include <gtest/gtest.h>

#include <fstream>
#include <iterator>
#include <stdexcept>

#include "ktune/analysis/valid_utf8.h"

namespace ktune::analysis {
namespace {

std::string read(const std::string& relative) {
  std::ifstream in(std::string(KTUNE_SOURCE_DIR) + "/src/ktune/" + relative, std::ios::binary);
  EXPECT_TRUE(in.good()) << relative;
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

const IsaFinding& only(const IsaLintReport& r, const char* check, const char* kernel) {
  const auto found = r.find(check, kernel);
  if (found.size() != 1) throw std::runtime_error(std::string("expected one ") + check + " finding for " + kernel);
  return *found[0];
}

// Line numbers are 1-based positions in the text: each named line must be that line.
void expect_lines_match_text(const std::string& text, const IsaLintReport& report) {
  std::vector<std::string> lines;
  std::size_t pos = 0;
  while (pos < text.size()) {
    std::size_t end = text.find('\n', pos);
    if (end == std::string::npos) end = text.size();
    lines.push_back(text.substr(pos, end - pos));
    pos = end + 1;
  }
  for (const auto& f : report.findings) {
    for (const auto& l : f.lines) {
      ASSERT_GE(l.number, 1);
      ASSERT_LE(static_cast<std::size_t>(l.number), lines.size());
      EXPECT_NE(lines[static_cast<std::size_t>(l.number) - 1].find(l.text.substr(0, l.text.find(" <"))),
                std::string::npos)
          << f.check << " line " << l.number << ": " << l.text;
    }
  }
}

// clang-19 -S output for gfx942 (src/ktune/amdgpu/testdata/kernels.hip).
TEST(IsaLintAmdgpu, AssemblyFromClang) {
  const std::string text = read("amdgpu/testdata/kernels_hip_gfx942.s");
  EXPECT_EQ(detect_isa_dialect(text), IsaDialect::Amdgpu);
  const IsaLintReport r = lint_isa(text);
  expect_lines_match_text(text, r);
  ASSERT_EQ(r.kernels.size(), 5u);

  // Tiled matmul: scalar global loads and LDS column reads in the k loop, 128-bit row reads.
  const IsaKernelSummary* mm = r.kernel("matmul_tiled");
  ASSERT_NE(mm, nullptr);
  EXPECT_EQ(mm->loops, 1);
  EXPECT_EQ(mm->count("global_load_narrow_in_loop"), 2);
  EXPECT_EQ(mm->count("shared_128_in_loop"), 4);
  const IsaFinding& loads = only(r, kCheckGlobalLoadWidth, "matmul_tiled");
  EXPECT_EQ(loads.severity, IsaSeverity::Warning);
  ASSERT_EQ(loads.lines.size(), 2u);
  EXPECT_EQ(loads.lines[0].text, "global_load_dword v1, v[12:13], off");
  EXPECT_EQ(loads.message.rfind("2 global loads narrower than 128 bits inside loops (2 x 32-bit), 0 are 128-bit", 0),
            0u);
  const IsaFinding& lds = only(r, kCheckSharedWidth, "matmul_tiled");
  EXPECT_EQ(lds.severity, IsaSeverity::Warning);
  EXPECT_EQ(lds.count, 10);
  EXPECT_NE(lds.message.find("4 are 128-bit"), std::string::npos);
  const IsaFinding& waits = only(r, kCheckWaitcnt, "matmul_tiled");
  EXPECT_EQ(waits.severity, IsaSeverity::Warning);
  EXPECT_EQ(waits.lines.at(0).text, "s_waitcnt vmcnt(0)");

  // MFMA kernels: shapes named.
  const IsaFinding& mfma16 = only(r, kCheckMatrix, "mfma16");
  EXPECT_EQ(mfma16.severity, IsaSeverity::Info);
  EXPECT_NE(mfma16.message.find("1 x v_mfma_f32_16x16x16_f16"), std::string::npos) << mfma16.message;
  EXPECT_EQ(r.kernel("mfma16")->matrix_shapes, std::vector<std::string>{"16x16x16"});
  EXPECT_EQ(r.kernel("mfma32_agpr")->matrix_shapes, std::vector<std::string>{"32x32x8"});
  EXPECT_EQ(r.kernel("mfma32_agpr")->count("matrix"), 8);

  // Spills go to scratch (flat scratch on gfx942), with the spill comments on the lines.
  const IsaFinding& spill = only(r, kCheckScratch, "spill_kernel");
  EXPECT_EQ(spill.severity, IsaSeverity::Warning);
  EXPECT_EQ(spill.count, 8);
  EXPECT_NE(spill.lines[0].text.find("scratch_store_dwordx2"), std::string::npos);
  EXPECT_NE(spill.lines[0].text.find("Folded Spill"), std::string::npos);
  EXPECT_TRUE(r.find(kCheckScratch, "matmul_tiled").empty());
  // The unrolled float4 loads of the spill kernel are 128-bit.
  EXPECT_EQ(r.kernel("spill_kernel")->count("global_load_128"), 24);

  // One float per iteration, waited for right away.
  EXPECT_EQ(only(r, kCheckWaitcnt, "scalar_sum").severity, IsaSeverity::Warning);
  EXPECT_EQ(only(r, kCheckGlobalLoadWidth, "scalar_sum").count, 1);
}

TEST(IsaLintAmdgpu, MatrixExpectation) {
  IsaLintOptions options;
  options.expect_matrix_instructions = true;
  const IsaLintReport r = lint_isa(read("amdgpu/testdata/kernels_hip_gfx942.s"), IsaDialect::Amdgpu, options);
  EXPECT_EQ(only(r, kCheckMatrix, "matmul_tiled").severity, IsaSeverity::Warning);
  EXPECT_NE(only(r, kCheckMatrix, "matmul_tiled").message.find("no MFMA/WMMA instructions"), std::string::npos);
  EXPECT_EQ(only(r, kCheckMatrix, "mfma16").severity, IsaSeverity::Info);
}

// llvm-objdump-19 -d of the gfx90a code object: addresses instead of labels, no comments,
// and spills through buffer instructions (gfx90a has no flat scratch by default).
TEST(IsaLintAmdgpu, DisassemblyWithBufferSpills) {
  const std::string text = read("analysis/testdata/isa/kernels_hip_gfx90a.objdump");
  const IsaLintReport r = lint_isa(text);
  expect_lines_match_text(text, r);
  ASSERT_EQ(r.kernels.size(), 5u);
  EXPECT_EQ(r.kernel("matmul_tiled")->loops, 1);
  EXPECT_EQ(r.kernel("matmul_tiled")->count("global_load_narrow_in_loop"), 2);
  const IsaFinding& spill = only(r, kCheckScratch, "spill_kernel");
  EXPECT_GT(spill.count, 0);
  EXPECT_EQ(spill.lines[0].text.rfind("buffer_store_dword v2, off, s[12:15], 0 offset:16", 0), 0u) << spill.lines[0].text;
  // Spill reloads are not global loads.
  EXPECT_EQ(r.kernel("spill_kernel")->count("global_load_narrow"), 0);
  EXPECT_EQ(r.kernel("mfma32_agpr")->matrix_shapes, std::vector<std::string>{"32x32x8"});
  const IsaLintReport asm_report = lint_isa(read("amdgpu/testdata/kernels_hip_gfx90a.s"));
  EXPECT_EQ(asm_report.kernel("spill_kernel")->count("scratch"), r.kernel("spill_kernel")->count("scratch"));
}

TEST(IsaLintAmdgpu, Gfx942DisassemblyAgreesWithAssembly) {
  const IsaLintReport dis = lint_isa(read("analysis/testdata/isa/kernels_hip_gfx942.objdump"));
  const IsaLintReport as = lint_isa(read("amdgpu/testdata/kernels_hip_gfx942.s"));
  ASSERT_EQ(dis.kernels.size(), as.kernels.size());
  for (std::size_t i = 0; i < as.kernels.size(); ++i) {
    SCOPED_TRACE(as.kernels[i].name);
    EXPECT_EQ(dis.kernels[i].name, as.kernels[i].name);
    EXPECT_EQ(dis.kernels[i].loops, as.kernels[i].loops);
    for (const char* key : {"global_load_128", "global_load_narrow", "global_load_narrow_in_loop", "shared_128_in_loop",
                            "shared_narrow_in_loop", "scratch", "matrix", "full_wait_vm"}) {
      EXPECT_EQ(dis.kernels[i].count(key), as.kernels[i].count(key)) << key;
    }
  }
}

// nvcc 13 -ptx -arch=sm_90a of testdata/isa/lint_kernels.cu.
TEST(IsaLintNvidia, Ptx) {
  const std::string text = read("analysis/testdata/isa/lint_kernels_sm90a.ptx");
  EXPECT_EQ(detect_isa_dialect(text), IsaDialect::Ptx);
  const IsaLintReport r = lint_isa(text);
  expect_lines_match_text(text, r);
  ASSERT_EQ(r.kernels.size(), 5u);
  const IsaFinding& vec = only(r, kCheckGlobalLoadWidth, "vec4_copy");
  EXPECT_EQ(vec.severity, IsaSeverity::Info);
  EXPECT_EQ(vec.lines.at(0).text, "ld.global.nc.v4.f32 \t{%f1, %f2, %f3, %f4}, [%rd6];");
  EXPECT_EQ(only(r, kCheckGlobalLoadWidth, "scalar_sum").severity, IsaSeverity::Warning);
  const IsaFinding& local = only(r, kCheckScratch, "local_array");
  EXPECT_EQ(local.count, 5);
  EXPECT_EQ(local.lines[0].text.rfind("st.local.v4.f32", 0), 0u);
  const IsaFinding& mma = only(r, kCheckMatrix, "mma_loop");
  EXPECT_EQ(mma.count, r.kernel("mma_loop")->count("matrix"));
  EXPECT_EQ(r.kernel("mma_loop")->matrix_shapes, std::vector<std::string>{"m16n8k16"});
  EXPECT_GE(r.kernel("mma_loop")->loops, 1);
  // ptxas spills are not in PTX: the spill kernel's PTX has no local traffic.
  EXPECT_TRUE(r.find(kCheckScratch, "spill").empty());
}

// cuobjdump -sass (CUDA 13) of the nvcc cubin of the same source.
TEST(IsaLintNvidia, Sass) {
  const std::string text = read("analysis/testdata/isa/lint_kernels_sm90a.sass");
  EXPECT_EQ(detect_isa_dialect(text), IsaDialect::Sass);
  const IsaLintReport r = lint_isa(text);
  expect_lines_match_text(text, r);
  ASSERT_EQ(r.kernels.size(), 5u);
  const IsaFinding& vec = only(r, kCheckGlobalLoadWidth, "vec4_copy");
  EXPECT_EQ(vec.severity, IsaSeverity::Info);
  EXPECT_NE(vec.lines.at(0).text.find("LDG.E.128.CONSTANT R12, desc[UR6][R2.64] ;"), std::string::npos);
  const IsaFinding& spill = only(r, kCheckScratch, "spill");
  EXPECT_EQ(spill.count, 2);
  EXPECT_NE(spill.lines[0].text.find("STL [R1], R8"), std::string::npos);
  EXPECT_NE(spill.lines[1].text.find("LDL.LU R8, [R1]"), std::string::npos);
  EXPECT_EQ(r.kernel("spill")->loops, 0);  // the trailing `BRA` to itself is not a loop
  EXPECT_EQ(r.kernel("mma_loop")->matrix_shapes, std::vector<std::string>{"m16n8k16"});
  EXPECT_EQ(only(r, kCheckMatrix, "mma_loop").lines.at(0).text.find("HMMA.16816.F32"), 27u);
  EXPECT_EQ(r.kernel("mma_loop")->count("global_load_narrow_in_loop"), 30);
}

TEST(IsaLintNvidia, LabelsAndHandWrittenForms) {
  // nvdisasm-style labels, a cp.async 16-byte copy in PTX, wgmma, and a prototype with no body.
  const std::string sass = "\t\tFunction : k\n"
                           "        /*0000*/                   MOV R1, c[0x0][0x28] ;\n"
                           ".L_x_1:\n"
                           "        /*0010*/                   LDG.E.64 R2, desc[UR4][R4.64] ;\n"
                           "        /*0020*/                   HGMMA.64x128x16.F32 R24, gdesc[UR4], R24 ;\n"
                           "        /*0030*/              @P0 BRA `(.L_x_1) ;\n"
                           "        /*0040*/                   EXIT ;\n";
  const IsaLintReport s = lint_isa(sass, IsaDialect::Sass);
  EXPECT_EQ(s.kernel("k")->loops, 1);
  EXPECT_EQ(s.kernel("k")->count("global_load_narrow_in_loop"), 1);
  EXPECT_EQ(s.kernel("k")->matrix_shapes, std::vector<std::string>{"64x128x16"});
  const std::string ptx = ".version 8.0\n.target sm_90a\n"
                          ".extern .func (.param .b32 r) vprintf\n(\n.param .b64 a\n)\n;\n"
                          ".visible .entry k(\n.param .u64 p\n)\n{\n"
                          "$L__BB0_1:\n"
                          "\tcp.async.cg.shared.global [%r1], [%rd1], 16;\n"
                          "\twgmma.mma_async.sync.aligned.m64n128k16.f32.f16.f16 {%f1}, %rd2, %rd3, 1, 1, 1, 1, 1;\n"
                          "\t@%p1 bra $L__BB0_1;\n"
                          "\tret;\n}\n";
  const IsaLintReport p = lint_isa(ptx);
  ASSERT_EQ(p.kernels.size(), 1u);
  EXPECT_EQ(p.kernels[0].name, "k");
  EXPECT_EQ(p.kernels[0].count("global_load_128_in_loop"), 1);
  EXPECT_EQ(p.kernels[0].matrix_shapes, std::vector<std::string>{"m64n128k16"});
}

// cuobjdump -sass of ktune's generated sm_90a GEMM (session 15): each lane bulk-copied its own
// output row, and ptxas wrapped UBLKCP in a loop over the lanes' distinct addresses.
TEST(IsaLintNvidia, UniformOperandsWithPerThreadValuesAreSerialised) {
  const std::string sass =
      "\t\tFunction : ktune_gemm_sm90\n"
      "        /*11310*/                   VIADD R8, R28, 0x24000 ;\n"
      "        /*11320*/                   PLOP3.LUT P0, PT, P0, P1, PT, 0xa2, 0x0 ;\n"
      "        /*11330*/               @P1 R2UR P0, UR6, R8 ;\n"
      "        /*11340*/                   PLOP3.LUT P0, PT, P0, P1, PT, 0xa2, 0x0 ;\n"
      "        /*11350*/               @P1 R2UR.OR P0, UR8, R34 ;\n"
      "        /*11360*/                   PLOP3.LUT P0, PT, P0, P1, PT, 0xa2, 0x0 ;\n"
      "        /*11370*/               @P1 R2UR.OR P0, UR9, R35 ;\n"
      "        /*11380*/               @P1 PLOP3.LUT P1, PT, P0, PT, PT, 0x80, 0x0 ;\n"
      "        /*11390*/                   UBLKCP.G.S [UR8], [UR6], UR5 ;\n"
      "        /*113a0*/               @P1 BRA.U.ANY 0x11320 ;\n"
      "        /*113b0*/                   HGMMA.64x128x16.F32.BF16 R24, gdesc[UR16], R24 ;\n"
      "        /*113c0*/               @P2 BRA 0x11310 ;\n"
      "        /*113d0*/                   EXIT ;\n";
  const IsaLintReport r = lint_isa(sass, IsaDialect::Sass);
  const IsaFinding& f = only(r, kCheckUniformWaterfall, "ktune_gemm_sm90");
  EXPECT_EQ(f.severity, IsaSeverity::Warning);
  ASSERT_EQ(f.count, 1);
  EXPECT_NE(f.lines.at(0).text.find("UBLKCP.G.S [UR8], [UR6], UR5"), std::string::npos);
  EXPECT_NE(f.message.find("UBLKCP.G.S"), std::string::npos);
  EXPECT_EQ(r.kernel("ktune_gemm_sm90")->count("uniform_waterfall_loops"), 1);
  EXPECT_EQ(r.kernel("ktune_gemm_sm90")->loops, 2);
  // An ordinary backward branch (no BRA.U.ANY, no R2UR) is not one.
  const std::string plain = "\t\tFunction : k\n"
                            "        /*0000*/                   R2UR UR4, R2 ;\n"
                            "        /*0010*/                   UBLKCP.G.S [UR8], [UR6], UR5 ;\n"
                            "        /*0020*/              @P0 BRA 0x0 ;\n"
                            "        /*0030*/                   EXIT ;\n";
  EXPECT_TRUE(lint_isa(plain, IsaDialect::Sass).find(kCheckUniformWaterfall).empty());
  // The checked-in kernels have none.
  EXPECT_TRUE(lint_isa(read("analysis/testdata/isa/lint_kernels_sm90a.sass")).find(kCheckUniformWaterfall).empty());
}

TEST(IsaLint, ErrorsAndJson) {
  EXPECT_THROW(lint_isa("hello world"), std::invalid_argument);
  EXPECT_THROW(lint_isa("s_endpgm\n", IsaDialect::Amdgpu), std::invalid_argument);  // no function label
  const IsaLintReport r = lint_isa(read("amdgpu/testdata/kernels_hip_gfx942.s"));
  const auto j = to_json(r);
  EXPECT_EQ(j["dialect"], "amdgpu");
  EXPECT_EQ(j["kernels"].size(), 5u);
  EXPECT_FALSE(j["findings"].empty());
  EXPECT_FALSE(j["findings"][0]["lines"].empty());
  // Arbitrary bytes in the text still give a writable report.
  std::string bad = ".amdgcn_target \"x\"\n\t.type\tk\xff,@function\nk\xff:\n\tglobal_load_dword v1, v[2:3], off ; \xfe\n";
  const auto jb = to_json(lint_isa(bad));
  EXPECT_NO_THROW(jb.dump());
}

TEST(ValidUtf8, ReplacesInvalidBytes) {
  EXPECT_EQ(to_valid_utf8("ok \xc3\xa9"), "ok \xc3\xa9");
  EXPECT_EQ(to_valid_utf8("\xc0\x80"), "\xEF\xBF\xBD\xEF\xBF\xBD");            // overlong NUL
  EXPECT_EQ(to_valid_utf8("\xed\xa0\x80"), "\xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBD");  // surrogate
  EXPECT_EQ(to_valid_utf8("\xf0\x9f\x98\x80"), "\xf0\x9f\x98\x80");
  EXPECT_EQ(to_valid_utf8("a\xe2\x82"), "a\xEF\xBF\xBD\xEF\xBF\xBD");  // truncated sequence
}

}  // namespace
}  // namespace ktune::analysis
