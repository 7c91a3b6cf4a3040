#include "ktune/iree/configured_dispatch.h"

#include <gtest/gtest.h>

#include "ktune/iree/testdata.h"

namespace ktune::iree {
namespace {

std::string fixture(const std::string& name) { return testing::read_testdata(name); }

TEST(SplitTopLevel, RespectsBracketsQuotesAndArrows) {
  EXPECT_EQ(split_top_level("a = 1, b = [2, 3], c"), (std::vector<std::string>{"a = 1", " b = [2, 3]", " c"}));
  EXPECT_EQ(split_top_level("m = affine_map<(d0, d1) -> (d1, d0)>, x = \"p, q\"").size(), 2u);
  EXPECT_EQ(split_top_level("2048x?x16", 'x'), (std::vector<std::string>{"2048", "?", "16"}));
}

TEST(ParseAttributeDict, KeysValuesAndUnitAttributes) {
  const auto e = parse_attribute_dict("convert_acc_gemm, mma_kind = #iree_gpu.mma_layout<X>, reduction = [0, 0, 2], o = #a<k = 1>");
  ASSERT_EQ(e.size(), 4u);
  EXPECT_EQ(e[0].key, "convert_acc_gemm");
  EXPECT_EQ(e[0].value, "");
  EXPECT_EQ(e[1].value, "#iree_gpu.mma_layout<X>");
  EXPECT_EQ(parse_int_list(e[2].value), (std::vector<std::int64_t>{0, 0, 2}));
  EXPECT_EQ(e[3].key, "o");
  EXPECT_EQ(e[3].value, "#a<k = 1>");
  EXPECT_FALSE(parse_int_list("[1, x]"));
  EXPECT_FALSE(parse_int_list("3"));
}

TEST(ConfiguredDispatch, ReadsTheCudaMatmul) {
  const ConfiguredDispatch d = parse_configured_dispatch(fixture("configured_matmul_sm80.mlir"), "sm80.mlir");
  EXPECT_EQ(d.executable, "matmul_dispatch_0");
  EXPECT_EQ(d.export_name, "matmul_dispatch_0_matmul_2048x10240x1280_f16xf16xf32");
  EXPECT_EQ(d.backend, "cuda");
  EXPECT_EQ(d.arch, "sm_80");
  EXPECT_NE(std::find(d.mma_intrinsics.begin(), d.mma_intrinsics.end(), "NV_MMA_SYNC_F32_16x8x16_F16"), d.mma_intrinsics.end());
  EXPECT_EQ(d.subgroup_size_choices, (std::vector<std::int64_t>{32}));
  EXPECT_EQ(d.max_workgroup_memory_bytes, 166912);
  ASSERT_TRUE(d.translation);
  EXPECT_EQ(d.translation->pipeline, "TileAndFuse");
  EXPECT_EQ(d.translation->workgroup_size, (std::vector<std::int64_t>{128, 1, 1}));
  EXPECT_EQ(d.translation->subgroup_size, 32);
  ASSERT_FALSE(d.translation->pipeline_options.empty());
  EXPECT_EQ(d.translation->pipeline_options[0].key, "prefetch_num_stages");
  EXPECT_EQ(d.translation->pipeline_options[0].value, "2");
  ASSERT_EQ(d.lowering_configs.size(), 1u);
  const LoweringConfig& c = d.lowering_configs[0];
  EXPECT_EQ(c.op, "linalg.generic");
  EXPECT_EQ(c.kind, "iree_gpu.lowering_config");
  EXPECT_EQ(c.iterator_types, (std::vector<std::string>{"parallel", "parallel", "reduction"}));
  EXPECT_EQ(c.tiles("workgroup"), (std::vector<std::int64_t>{128, 64, 0}));
  EXPECT_EQ(c.tiles("reduction"), (std::vector<std::int64_t>{0, 0, 2}));
  EXPECT_EQ(c.tiles("subgroup"), (std::vector<std::int64_t>{4, 4, 0}));
  EXPECT_EQ(c.tiles("promote_operands"), (std::vector<std::int64_t>{0, 1}));
  EXPECT_EQ(c.mma_kind(), "NV_MMA_SYNC_F32_16x8x16_F16");
  EXPECT_TRUE(c.find("convert_acc_gemm"));
  EXPECT_GT(c.line, 1);
  ASSERT_EQ(d.bindings.size(), 3u);
  EXPECT_EQ(d.bindings[0].shape, (std::vector<std::int64_t>{2048, 1280}));
  EXPECT_EQ(d.bindings[0].element_type, "f16");
  EXPECT_TRUE(d.bindings[0].read_only);
  EXPECT_FALSE(d.bindings[2].read_only);
  EXPECT_EQ(d.bindings[2].element_type, "f32");
  EXPECT_EQ(d.matmul_mnk(), (std::vector<std::int64_t>{2048, 10240, 1280}));
  const nlohmann::json j = d.to_json();
  EXPECT_EQ(j["lowering_configs"][0]["config"]["workgroup"], nlohmann::json({128, 64, 0}));
  EXPECT_EQ(j["translation_info"]["pipeline_options"]["prefetch_num_stages"], 2);
  EXPECT_EQ(j["translation_info"]["pipeline_options"]["use_igemm_convolution"], "false");
}

TEST(ConfiguredDispatch, ReadsTheHipMatmul) {
  const ConfiguredDispatch d = parse_configured_dispatch(fixture("configured_matmul_gfx942.mlir"), "gfx942.mlir");
  EXPECT_EQ(d.arch, "gfx942");
  EXPECT_EQ(d.subgroup_size_choices.empty(), false);
  ASSERT_TRUE(d.translation);
  EXPECT_EQ(d.translation->subgroup_size, 64);
  ASSERT_EQ(d.lowering_configs.size(), 1u);
  EXPECT_EQ(d.lowering_configs[0].mma_kind(), "MFMA_F32_16x16x16_F16");
  EXPECT_EQ(d.matmul_mnk(), (std::vector<std::int64_t>{2048, 10240, 1280}));
}

TEST(ConfiguredDispatch, BadInputNamesTheFileAndLine) {
  try {
    parse_configured_dispatch("func.func @f() { return }\n", "x.mlir");
    FAIL() << "no hal.executable must throw";
  } catch (const DispatchParseError& e) {
    EXPECT_NE(std::string(e.what()).find("x.mlir:1: no hal.executable"), std::string::npos) << e.what();
  }
  try {
    parse_configured_dispatch("\nhal.executable public @e {\n}\n", "y.mlir");
    FAIL() << "no export must throw";
  } catch (const DispatchParseError& e) {
    EXPECT_NE(std::string(e.what()).find("y.mlir:2:"), std::string::npos) << e.what();
  }
  std::string text = fixture("configured_matmul_sm80.mlir");
  text = text.substr(0, text.find("lowering_config = #") + 40);  // cut inside the attribute
  try {
    parse_configured_dispatch(text, "cut.mlir");
    FAIL() << "an unbalanced attribute must throw";
  } catch (const DispatchParseError& e) {
    EXPECT_NE(std::string(e.what()).find("cut.mlir:"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("unbalanced lowering_config"), std::string::npos) << e.what();
  }
}

// A batched contraction (P V of an attention: 8 heads): its loops from the indexing maps and the
// operand types; matmul_mnk stays for contractions without batch loops.
TEST(ConfiguredDispatch, ReadsABatchedContractionFromItsIndexingMaps) {
  const ConfiguredDispatch d = parse_configured_dispatch(fixture("configured_attention_pv_sm80.mlir"), "pv");
  const auto c = d.contraction();
  ASSERT_TRUE(c);
  EXPECT_EQ(c->sizes, (std::vector<std::int64_t>{8, 512, 128, 512}));
  EXPECT_EQ(c->batch, (std::vector<int>{0}));
  EXPECT_EQ(c->m, 1);
  EXPECT_EQ(c->n, 2);
  EXPECT_EQ(c->k, 3);
  EXPECT_EQ(c->batch_count(), 8);
  EXPECT_FALSE(d.matmul_mnk());
  EXPECT_EQ(d.to_json()["contraction"]["batch"], nlohmann::json::array({0}));
  // Tables show the batch count, then M x N x K (K was missing: "8x512x128").
  EXPECT_EQ(c->label(), "8 x 512x128x512");
  EXPECT_EQ(d.shape_label(), "8 x 512x128x512");
  EXPECT_EQ(d.to_json()["shape"], "8 x 512x128x512");
}

// A matmul with a dynamic M (IREE's `?`, read as -1) prints `?`, not -1; so do shapes of
// dispatches that are no contraction (the output binding's), and a dynamic batch count.
TEST(ConfiguredDispatch, DynamicExtentsPrintAsQuestionMarks) {
  const std::string text = R"(hal.executable public @dyn_dispatch_0 {
  hal.executable.export public @dyn_dispatch_0_matmul_Dx64x128_f32 ordinal(0)
        %8 = hal.interface.binding.subspan layout(#pl) binding(1) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<128x64xf32, #hal.descriptor_type<storage_buffer>>
        %10 = hal.interface.binding.subspan layout(#pl) binding(0) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<?x128xf32, #hal.descriptor_type<storage_buffer>>{%9}
        %11 = hal.interface.binding.subspan layout(#pl) binding(2) alignment(64) offset(%c0) flags(Indirect) : memref<?x64xf32, #hal.descriptor_type<storage_buffer>>{%9}
        %16 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%12, %13 : tensor<?x128xf32>, tensor<128x64xf32>) outs(%15 : tensor<?x64xf32>) attrs =  {lowering_config = #iree_gpu.lowering_config<{workgroup = [1, 1, 0]}>} {
})";
  const ConfiguredDispatch d = parse_configured_dispatch(text, "dyn.mlir");
  ASSERT_TRUE(d.contraction());
  EXPECT_EQ(d.shape_label(), "?x64x128");
  EXPECT_EQ(extents_text({-1, 30, 32}), "?x30x32");
  ContractionLoops batched;
  batched.sizes = {-1, 16, 32, 8};
  batched.batch = {0};
  batched.m = 1, batched.n = 2, batched.k = 3;
  EXPECT_EQ(batched.label(), "? x 16x32x8");
  ConfiguredDispatch softmax;  // no contraction: the output's shape
  softmax.bindings = {{0, {256, 1024}, "f32", true}, {1, {-1, 1024}, "f32", false}};
  EXPECT_EQ(softmax.shape_label(), "?x1024");
  EXPECT_EQ(ConfiguredDispatch{}.shape_label(), "-");
}

// llvm-cpu configures the accumulator's linalg.fill before the matmul: the matmul is the root.
// Its M, N, K come from the named op's maps and operand types, not from the order IREE declares
// the bindings in (B first here, with M == K, where the bindings alone would answer K = N).
TEST(ConfiguredDispatch, TheRootIsNotTheAccumulatorsFill) {
  const std::string text = R"(hal.executable public @mm_dispatch_0 {
  hal.executable.export public @mm_dispatch_0_matmul_256x512x256_f32 ordinal(0)
        %1 = hal.interface.binding.subspan layout(#pl) binding(1) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<256x512xf32>
        %0 = hal.interface.binding.subspan layout(#pl) binding(0) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<256x256xf32>
        %2 = hal.interface.binding.subspan layout(#pl) binding(2) alignment(64) offset(%c0) flags(Indirect) : memref<256x512xf32>
        %9 = linalg.fill {lowering_config = #iree_cpu.lowering_config<vector_common_parallel = [8, 16]>} ins(%cst : f32) outs(%8 : tensor<256x512xf32>) -> tensor<256x512xf32>
        %10 = linalg.matmul {lowering_config = #iree_cpu.lowering_config<distribution = [64, 64, 0], vector_common_parallel = [8, 16, 0], vector_reduction = [0, 0, 16]>} ins(%4, %5 : tensor<256x256xf32>, tensor<256x512xf32>) outs(%9 : tensor<256x512xf32>) -> tensor<256x512xf32>
})";
  const ConfiguredDispatch d = parse_configured_dispatch(text, "cpu.mlir");
  ASSERT_EQ(d.lowering_configs.size(), 2u);
  EXPECT_EQ(d.lowering_configs.front().op, "linalg.matmul");
  EXPECT_EQ(d.lowering_configs.back().op, "linalg.fill");
  EXPECT_EQ(d.matmul_mnk(), (std::vector<std::int64_t>{256, 512, 256}));
}

// A convolution's maps are not plain loops (d1 + d4): no contraction, no M, N, K.
TEST(ConfiguredDispatch, AConvolutionIsNotAContraction) {
  const std::string text = R"(hal.executable public @conv_dispatch_0 {
  hal.executable.export public @conv_dispatch_0_conv ordinal(0)
        %7 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4, d5) -> (d0 + d3, d1 + d4, d5)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d3, d4, d5, d2)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]} ins(%4, %3 : tensor<32x32x16xf32>, tensor<3x3x16x32xf32>) outs(%6 : tensor<30x30x32xf32>) attrs =  {lowering_config = #iree_gpu.lowering_config<{workgroup = [1, 1, 32, 0, 0, 0]}>} {
})";
  const ConfiguredDispatch d = parse_configured_dispatch(text, "conv.mlir");
  EXPECT_FALSE(d.contraction());
  EXPECT_FALSE(d.matmul_mnk());
}

}  // namespace
}  // namespace ktune::iree
