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

}  // namespace
}  // namespace ktune::iree
