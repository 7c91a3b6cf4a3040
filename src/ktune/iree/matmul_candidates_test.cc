#include "ktune/iree/matmul_candidates.h"

#include <gtest/gtest.h>

#include <set>

#include "ktune/iree/substitution.h"
#include "ktune/iree/testdata.h"

namespace ktune::iree {
namespace {

std::string fixture(const std::string& name) { return testing::read_testdata(name); }

TEST(MmaIntrinsic, ParsesIreeNames) {
  const auto nv = parse_mma_intrinsic("NV_MMA_SYNC_F32_16x8x16_F16");
  ASSERT_TRUE(nv);
  EXPECT_EQ(nv->accumulator, "F32");
  EXPECT_EQ(nv->input, "F16");
  EXPECT_EQ(nv->m, 16);
  EXPECT_EQ(nv->n, 8);
  EXPECT_EQ(nv->k, 16);
  const auto mfma = parse_mma_intrinsic("MFMA_F32_32x32x8_BF16");
  ASSERT_TRUE(mfma);
  EXPECT_EQ(mfma->input, "BF16");
  EXPECT_EQ(mfma->m, 32);
  EXPECT_FALSE(parse_mma_intrinsic("MFMA_F32_4x4x4x16B_F16"));  // blocked form
  EXPECT_FALSE(parse_mma_intrinsic("MFMA_F32_16x16x32_F8E5M2FNUZ_F8E4M3FNUZ"));  // mixed inputs
  EXPECT_FALSE(parse_mma_intrinsic("nonsense"));
}

TEST(MatmulCandidates, DefaultKnobsReproduceIreesTiles) {
  const ConfiguredDispatch d = parse_configured_dispatch(fixture("configured_matmul_sm80.mlir"), "sm80");
  const auto k = default_knobs(d);
  ASSERT_TRUE(k);
  EXPECT_EQ(k->mma_kind, "NV_MMA_SYNC_F32_16x8x16_F16");
  EXPECT_EQ(k->subgroup_m, 4);
  EXPECT_EQ(k->subgroup_n, 4);
  EXPECT_EQ(k->subgroups_m, 2);  // 128 / (4 x 16)
  EXPECT_EQ(k->subgroups_n, 2);  // 64 / (4 x 8)
  EXPECT_EQ(k->reduction, 2);
  EXPECT_EQ(k->prefetch_stages, 2);
  EXPECT_EQ(k->threads(32), 128);  // IREE's workgroup_size
}

void check_space(const std::string& file, int subgroup_size) {
  const ConfiguredDispatch d = parse_configured_dispatch(fixture(file), file);
  CandidateSpaceSummary summary;
  CandidateOptions options;
  options.max_candidates = 24;
  const std::vector<MatmulCandidate> c = matmul_candidates(d, options, &summary);
  ASSERT_GE(c.size(), 10u) << summary.to_json().dump();
  EXPECT_LE(c.size(), 24u);
  EXPECT_TRUE(c.front().is_default);
  EXPECT_EQ(c.front().workgroup, d.lowering_configs[0].tiles("workgroup").value());
  EXPECT_EQ(c.front().workgroup_size, d.translation->workgroup_size[0]);
  EXPECT_LT(summary.seconds, 1.0) << "candidate generation must take under a second";
  EXPECT_GT(summary.enumerated, summary.kept);
  EXPECT_FALSE(summary.rejected.empty());
  std::set<std::string> keys;
  for (std::size_t i = 0; i < c.size(); ++i) {
    SCOPED_TRACE(c[i].knobs.key());
    EXPECT_TRUE(keys.insert(c[i].knobs.key()).second) << "duplicate";
    EXPECT_EQ(2048 % c[i].workgroup[0], 0);
    EXPECT_EQ(10240 % c[i].workgroup[1], 0);
    EXPECT_LE(c[i].workgroup_size, 1024);
    EXPECT_EQ(c[i].workgroup_size % subgroup_size, 0);
    if (i > 1) {
      EXPECT_GE(c[i - 1].score, c[i].score);
    }
    // Each candidate's rewritten configuration reads back as what it asks for.
    const std::string text = apply_candidate(fixture(file), d, c[i]);
    const ConfiguredDispatch back = parse_configured_dispatch(text, "rewritten");
    ASSERT_EQ(back.lowering_configs.size(), 1u);
    EXPECT_EQ(back.lowering_configs[0].tiles("workgroup"), c[i].workgroup);
    EXPECT_EQ(back.lowering_configs[0].tiles("reduction"), c[i].reduction);
    EXPECT_EQ(back.lowering_configs[0].tiles("subgroup"), c[i].subgroup);
    EXPECT_EQ(back.lowering_configs[0].mma_kind(), c[i].knobs.mma_kind);
    EXPECT_EQ(back.translation->workgroup_size[0], c[i].workgroup_size);
    EXPECT_EQ(default_knobs(back), c[i].knobs);
  }
}

TEST(MatmulCandidates, CudaSpaceIsConstrainedRankedAndRewritable) { check_space("configured_matmul_sm80.mlir", 32); }
TEST(MatmulCandidates, HipSpaceIsConstrainedRankedAndRewritable) { check_space("configured_matmul_gfx942.mlir", 64); }

TEST(MatmulCandidates, ANonMatmulHasNoneAndSaysWhy) {
  std::string text = fixture("configured_matmul_sm80.mlir");
  text.replace(text.find("\"parallel\", \"parallel\", \"reduction\""), 35, "\"parallel\", \"parallel\", \"parallel\"");
  const ConfiguredDispatch d = parse_configured_dispatch(text, "x");
  CandidateSpaceSummary summary;
  EXPECT_TRUE(matmul_candidates(d, {}, &summary).empty());
  EXPECT_FALSE(summary.unsupported.empty());
}

// A batch matmul (attention's P V) has candidates: IREE's batch tile kept (one batch per
// workgroup), M, N, K tiles at their loops' places.
TEST(MatmulCandidates, BatchedContractionsKeepTheBatchTile) {
  const ConfiguredDispatch d = parse_configured_dispatch(fixture("configured_attention_pv_sm80.mlir"), "pv");
  CandidateSpaceSummary summary;
  CandidateOptions options;
  options.max_candidates = 8;
  const std::vector<MatmulCandidate> c = matmul_candidates(d, options, &summary);
  ASSERT_GE(c.size(), 2u) << summary.to_json().dump();
  EXPECT_EQ(c.front().workgroup, d.lowering_configs[0].tiles("workgroup").value());
  EXPECT_EQ(c.front().reduction, d.lowering_configs[0].tiles("reduction").value());
  EXPECT_EQ(c.front().subgroup, d.lowering_configs[0].tiles("subgroup").value());
  for (const MatmulCandidate& m : c) {
    SCOPED_TRACE(m.knobs.key());
    ASSERT_EQ(m.workgroup.size(), 4u);
    EXPECT_EQ(m.workgroup[0], 1);
    EXPECT_EQ(m.reduction[0], 0);
    EXPECT_EQ(m.subgroup[0], 0);
    EXPECT_EQ(m.workgroup[3], 0);
    EXPECT_EQ(512 % m.workgroup[1], 0);
    EXPECT_EQ(128 % m.workgroup[2], 0);
  }
  // The rewritten configuration carries the 4-entry tiles.
  const std::string applied = apply_candidate(fixture("configured_attention_pv_sm80.mlir"), d, c[1]);
  EXPECT_EQ(parse_configured_dispatch(applied, "pv").lowering_configs[0].tiles("workgroup"), c[1].workgroup);
}

// Why there are none names what was found.
TEST(MatmulCandidates, TheReasonForNoneNamesWhatWasFound) {
  std::string text = fixture("configured_matmul_sm80.mlir");
  CandidateSpaceSummary summary;
  // Dynamic M: the type's 2048 made '?'.
  std::string dynamic = text;
  for (std::size_t at = dynamic.find("tensor<2048x"); at != std::string::npos; at = dynamic.find("tensor<2048x"))
    dynamic.replace(at, 12, "tensor<?x");
  EXPECT_TRUE(matmul_candidates(parse_configured_dispatch(dynamic, "dyn"), {}, &summary).empty());
  EXPECT_NE(summary.unsupported.find("dynamic sizes (M x N x K = ?x10240x1280)"), std::string::npos) << summary.unsupported;
  // No MMA intrinsic: the pipeline is named.
  std::string plain = text;
  const auto kind = plain.find("mma_kind = ");
  ASSERT_NE(kind, std::string::npos);
  plain.erase(kind, plain.find(", ", kind) + 2 - kind);
  EXPECT_TRUE(matmul_candidates(parse_configured_dispatch(plain, "plain"), {}, &summary).empty());
  EXPECT_NE(summary.unsupported.find("without an MMA intrinsic (pipeline TileAndFuse"), std::string::npos) << summary.unsupported;
}

}  // namespace
}  // namespace ktune::iree
