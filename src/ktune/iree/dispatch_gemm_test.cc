#include "ktune/iree/dispatch_gemm.h"

#include <gtest/gtest.h>

#include <regex>

#include "ktune/iree/generated_object.h"
#include "ktune/iree/testdata.h"

namespace ktune::iree {
namespace {

using testing::read_testdata;

struct Read {
  ConfiguredDispatch dispatch;
  std::string text;
  DispatchGemmResult result;
};

Read read(const std::string& name, const std::string& text_override = "") {
  Read r;
  r.text = text_override.empty() ? read_testdata(name) : text_override;
  r.dispatch = parse_configured_dispatch(r.text, name);
  r.result = recognize_dispatch_gemm(r.dispatch, r.text);
  return r;
}

std::string replace(std::string text, const std::string& from, const std::string& to) {
  const auto at = text.find(from);
  EXPECT_NE(at, std::string::npos) << from;
  if (at != std::string::npos) text.replace(at, from.size(), to);
  return text;
}

TEST(DispatchGemm, ThePlainMatmulIsAnNnGemmIntoF32) {
  const Read r = read("configured_matmul_sm80.mlir");
  ASSERT_TRUE(r.result.gemm) << r.result.unsupported;
  const gemm::GemmProblem& p = r.result.gemm->problem;
  EXPECT_EQ(p.m, 2048);
  EXPECT_EQ(p.n, 10240);
  EXPECT_EQ(p.k, 1280);
  EXPECT_EQ(p.batch, 1);
  EXPECT_EQ(p.layout(), "nn");
  EXPECT_EQ(p.precision, gemm::Precision::F16);
  EXPECT_EQ(p.out, gemm::Storage::F32);
  EXPECT_FALSE(p.bias);
  EXPECT_EQ(p.beta, 0.0);
  EXPECT_EQ(p.activation, gemm::Activation::None);
  ASSERT_EQ(r.result.gemm->operands.size(), 3u);
  EXPECT_EQ(r.result.gemm->binding_count, 3);
  for (int i = 0; i < 3; ++i) {
    EXPECT_EQ(r.result.gemm->operands[i].binding, i);
    EXPECT_EQ(r.result.gemm->operands[i].offset_bytes, 0);
  }
  EXPECT_EQ(r.result.gemm->operands[2].role, GemmRole::D);
  EXPECT_EQ(r.result.gemm->describe(), "2048x10240x1280 nn f16->f32");
}

TEST(DispatchGemm, BiasAndReluFusedAfterTheMatmul) {
  const Read r = read("configured_mlp_dispatch_0_sm80.mlir");
  ASSERT_TRUE(r.result.gemm) << r.result.unsupported;
  const gemm::GemmProblem& p = r.result.gemm->problem;
  EXPECT_EQ(p.m, 512);
  EXPECT_EQ(p.n, 4096);
  EXPECT_EQ(p.k, 1024);
  EXPECT_EQ(p.out, gemm::Storage::F16);
  EXPECT_TRUE(p.bias);
  EXPECT_EQ(p.activation, gemm::Activation::Relu);
  ASSERT_EQ(r.result.gemm->operands.size(), 4u);
  EXPECT_EQ(r.result.gemm->operands[2].role, GemmRole::Bias);
  EXPECT_EQ(r.result.gemm->operands[2].binding, 2);
  EXPECT_EQ(r.result.gemm->operands[3].role, GemmRole::D);
  EXPECT_EQ(r.result.gemm->operands[3].binding, 3);
  EXPECT_EQ(r.result.gemm->describe(), "512x4096x1024 nn f16->f16 +bias relu");

  const Read second = read("configured_mlp_dispatch_1_sm80.mlir");
  ASSERT_TRUE(second.result.gemm) << second.result.unsupported;
  EXPECT_TRUE(second.result.gemm->problem.bias);
  EXPECT_EQ(second.result.gemm->problem.activation, gemm::Activation::None);
}

// IREE packs tensors into shared bindings at constant offsets: the transformer block's last
// dispatch reads its A (512x4096) and its residual C (512x1024) from binding 0.
TEST(DispatchGemm, OperandsSharingABindingKeepTheirOffsets) {
  const Read r = read("configured_mlp_down_residual_sm80.mlir");
  ASSERT_TRUE(r.result.gemm) << r.result.unsupported;
  const DispatchGemm& g = *r.result.gemm;
  EXPECT_EQ(g.describe(), "512x1024x4096 nn f16->f16 +bias +c");
  EXPECT_EQ(g.binding_count, 4);
  ASSERT_EQ(g.operands.size(), 5u);
  EXPECT_EQ(g.operands[0].role, GemmRole::A);
  EXPECT_EQ(g.operands[0].binding, 0);
  EXPECT_EQ(g.operands[0].offset_bytes, 1048576);
  bool saw_c = false;
  for (const GemmOperand& o : g.operands)
    if (o.role == GemmRole::C) {
      saw_c = true;
      EXPECT_EQ(o.binding, 0);
      EXPECT_EQ(o.offset_bytes, 0);
    }
  EXPECT_TRUE(saw_c);
  std::string why;
  const auto cands = object_candidates(g, r.dispatch, 1, &why);
  ASSERT_EQ(cands.size(), 1u) << why;
  const std::string source = emit_object_source(g, cands[0], r.dispatch);
  EXPECT_NE(source.find("p.a = binding0 + 1048576LL;"), std::string::npos);
  EXPECT_NE(source.find("p.c = binding0;"), std::string::npos);
  EXPECT_NE(source.find("p.beta = 1.0f;"), std::string::npos);
}

// P V of the attention, its result written transposed (heads x tokens -> tokens x heads).
TEST(DispatchGemm, AResultWrittenTransposedIsRefused) {
  const Read r = read("configured_attention_pv_sm80.mlir");
  EXPECT_FALSE(r.result.gemm);
  EXPECT_NE(r.result.unsupported.find("transposed"), std::string::npos) << r.result.unsupported;
}

TEST(DispatchGemm, TransposedOperandsAreReadFromTheMaps) {
  const std::string text = read_testdata("configured_matmul_sm80.mlir");
  // B indexed (n, k): the same bytes read as a 'nt' GEMM of a 10240x1280 B.
  std::string t = replace(text, "affine_map<(d0, d1, d2) -> (d2, d1)>", "affine_map<(d0, d1, d2) -> (d1, d2)>");
  t = std::regex_replace(t, std::regex("memref<1280x10240xf16"), "memref<10240x1280xf16");
  const Read r = read("configured_matmul_sm80.mlir", t);
  ASSERT_TRUE(r.result.gemm) << r.result.unsupported;
  EXPECT_EQ(r.result.gemm->problem.layout(), "nt");
  EXPECT_EQ(r.result.gemm->problem.n, 10240);
  EXPECT_EQ(r.result.gemm->problem.k, 1280);
}

TEST(DispatchGemm, WhatTheKernelsDoNotComputeIsRefusedWithTheReason) {
  const std::string mlp = read_testdata("configured_mlp_dispatch_0_sm80.mlir");
  // relu before the bias: not the generated kernels' order.
  std::string relu_first = replace(mlp, "%13 = arith.addf %in, %12 : f32", "%13 = arith.maximumf %in, %cst : f32");
  relu_first = replace(relu_first, "%15 = arith.maximumf %14, %cst_0 : f16", "%15 = arith.addf %14, %cst_0 : f16");
  const Read a = read("x.mlir", relu_first);
  EXPECT_FALSE(a.result.gemm);
  EXPECT_FALSE(a.result.unsupported.empty());

  const Read b = read("x.mlir", replace(mlp, "%14 = arith.truncf %13 : f32 to f16", "%14 = math.exp %13 : f16"));
  EXPECT_FALSE(b.result.gemm);
  EXPECT_NE(b.result.unsupported.find("not an arith op"), std::string::npos) << b.result.unsupported;

  const std::string f32 = std::regex_replace(read_testdata("configured_matmul_sm80.mlir"), std::regex("xf16"), "xf32");
  const Read c = read("x.mlir", f32);
  EXPECT_FALSE(c.result.gemm);

  const Read amd = read("configured_matmul_gfx942.mlir");
  EXPECT_FALSE(amd.result.gemm);
  EXPECT_NE(amd.result.unsupported.find("CUDA"), std::string::npos) << amd.result.unsupported;
}

// The transformer's projection executable, which IREE dispatches at several sites writing into
// one buffer: the result's byte offset is push constant 0 (cast and range-assumed).
TEST(DispatchGemm, AResultAtAPushConstantOffsetIsTakenWithItsConstant) {
  const Read r = read("configured_qkv_projection_sm80.mlir");
  ASSERT_TRUE(r.result.gemm) << r.result.unsupported;
  const DispatchGemm& g = *r.result.gemm;
  EXPECT_EQ(g.describe(), "512x1024x1024 nn f16->f32");
  EXPECT_EQ(g.binding_count, 3);
  EXPECT_EQ(g.constant_count, 1);
  ASSERT_EQ(g.operands.size(), 3u);
  EXPECT_EQ(g.operands[2].role, GemmRole::D);
  EXPECT_EQ(g.operands[2].offset_constant, 0);
  EXPECT_EQ(g.operands[0].offset_constant, -1);

  std::string why;
  const std::vector<ObjectCandidate> cands = object_candidates(g, r.dispatch, 2, &why);
  ASSERT_FALSE(cands.empty()) << why;
  const std::string source = emit_object_source(g, cands[0], r.dispatch);
  EXPECT_NE(source.find("(char* binding0, char* binding1, char* binding2, unsigned int constant0)"), std::string::npos) << source;
  EXPECT_NE(source.find("p.d = binding2 + constant0;"), std::string::npos);
  const std::string exe = emit_object_executable(g, cands[0], r.dispatch, r.text, "/x/kernel.ptx");
  EXPECT_NE(exe.find("layout(#hal.pipeline.layout<constants = 1, bindings = ["), std::string::npos) << exe;

  // An operand (not the result) at a push-constant offset is not something the kernels take.
  std::string a_moved = r.text;
  const auto at = a_moved.find("binding(0) alignment(64) offset(%c0)");
  ASSERT_NE(at, std::string::npos);
  a_moved.replace(at, std::string("binding(0) alignment(64) offset(%c0)").size(), "binding(0) alignment(64) offset(%2)");
  const Read moved = read("x.mlir", a_moved);
  EXPECT_FALSE(moved.result.gemm);
  EXPECT_NE(moved.result.unsupported.find("push-constant offset"), std::string::npos) << moved.result.unsupported;
}

TEST(GeneratedObject, TheExecutableKeepsIreesTargetAndLayoutAndTakesTheBindingsInOrder) {
  const Read r = read("configured_mlp_dispatch_0_sm80.mlir");
  ASSERT_TRUE(r.result.gemm);
  std::string why;
  const std::vector<ObjectCandidate> cands = object_candidates(*r.result.gemm, r.dispatch, 6, &why);
  ASSERT_FALSE(cands.empty()) << why;
  EXPECT_LE(cands.size(), 6u);
  for (const auto& c : cands) {
    EXPECT_EQ(c.knobs.split_k, 1);
    EXPECT_EQ(c.knobs.path, generated::KernelPath::MmaSync);
    EXPECT_EQ(c.label.rfind("ktune/", 0), 0u);
  }
  const std::string source = emit_object_source(*r.result.gemm, cands[0], r.dispatch);
  EXPECT_NE(source.find("#define KT80_NO_DEFAULT_ENTRY 1"), std::string::npos);
  EXPECT_NE(source.find("void KT80_LAUNCH_BOUNDS " + r.dispatch.export_name + "(char* binding0, char* binding1, char* binding2, char* binding3)"),
            std::string::npos);
  EXPECT_NE(source.find("p.bias = binding2;"), std::string::npos);
  EXPECT_NE(source.find("p.d = binding3;"), std::string::npos);
  EXPECT_NE(source.find("p.m = 512LL; p.n = 4096LL; p.k = 1024LL;"), std::string::npos);
  EXPECT_NE(source.find("#define KT_HAS_BIAS 1"), std::string::npos);
  EXPECT_NE(source.find("#define KT_ACTIVATION 1"), std::string::npos);

  const std::string exe = emit_object_executable(*r.result.gemm, cands[0], r.dispatch, r.text, "/x/kernel.ptx");
  EXPECT_NE(exe.find("hal.executable public @" + r.dispatch.executable + " {"), std::string::npos);
  EXPECT_NE(exe.find("objects([#hal.executable.object<{path = \"/x/kernel.ptx\"}>])"), std::string::npos);
  EXPECT_NE(exe.find("target(<\"cuda\", \"cuda-nvptx-fb\""), std::string::npos);
  EXPECT_NE(exe.find("layout(#hal.pipeline.layout<bindings = ["), std::string::npos);
  EXPECT_NE(exe.find("count(%arg0: !hal.device) -> (index, index, index)"), std::string::npos);
  const int threads = 32 * cands[0].knobs.subgroup_m * cands[0].knobs.subgroup_n;
  EXPECT_NE(exe.find("workgroup_size = [" + std::to_string(threads) + " : index, 1 : index, 1 : index]"), std::string::npos) << exe;
  const std::int64_t tiles = (512 / cands[0].knobs.tile_m) * (4096 / cands[0].knobs.tile_n);
  EXPECT_NE(exe.find("%x = arith.constant " + std::to_string(tiles) + " : index"), std::string::npos) << exe;
}

}  // namespace
}  // namespace ktune::iree
