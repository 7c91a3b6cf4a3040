// The model commands' tables, from configured dispatches IREE 3.13 dumped (src/ktune/iree/testdata).

#include "ktune/cli/model_command_tables.h"

#include <gtest/gtest.h>

#include <sstream>

#include "ktune/iree/testdata.h"

namespace ktune::cli {
namespace {

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

iree::DumpedDispatch dumped(const std::string& file, const std::string& name) {
  iree::DumpedDispatch d;
  d.name = name;
  const char* moved = std::getenv("KTUNE_SOURCE_DIR");
  d.configured = std::string(moved && *moved ? moved : KTUNE_SOURCE_DIR) + "/src/ktune/iree/testdata/" + file;
  d.config = iree::parse_configured_dispatch(iree::testing::read_testdata(file), file);
  return d;
}

// Every column starts where its header does, however long the cells before it are.
void expect_aligned(const std::vector<std::string>& lines, const std::string& header, const std::string& cell, std::size_t row) {
  ASSERT_LT(row + 1, lines.size());
  const std::size_t at = lines[0].find(header);
  ASSERT_NE(at, std::string::npos) << header;
  EXPECT_EQ(lines[row + 1].find(cell), at) << "'" << cell << "' under '" << header << "':\n" << lines[0] << "\n" << lines[row + 1];
}

TEST(TextTable, ColumnsAreAsWideAsTheirWidestCell) {
  TextTable t({"#", "name", "n", "note"});
  t.align_right(2);
  t.add_row({"0", "a-very-long-pipeline-name", "7", "x"});
  t.add_row({"1", "b", "1234", "a long last cell"});
  const auto lines = lines_of(t.render());
  ASSERT_EQ(lines.size(), 3u);
  EXPECT_EQ(lines[0], "#  name                          n  note");
  EXPECT_EQ(lines[1], "0  a-very-long-pipeline-name     7  x");
  EXPECT_EQ(lines[2], "1  b                          1234  a long last cell");
  EXPECT_EQ(t.rows(), 2u);
}

// `model dispatches`: a batch matmul is "batch x MxNxK" (K was missing: "8x512x128"), and a
// long pipeline name moves the columns after it instead of breaking them.
TEST(ModelTables, DispatchesShowTheBatchAndKAndStayAligned) {
  iree::CompiledModel model;
  model.dispatches = {dumped("configured_attention_pv_sm80.mlir", "transformer_block_dispatch_8"),
                      dumped("configured_matmul_sm80.mlir", "matmul_dispatch_0")};
  model.dispatches[1].config.translation->pipeline = "LLVMGPUVectorDistribute";
  const TextTable t = dispatches_table(model);
  ASSERT_EQ(t.rows(), 2u);
  EXPECT_EQ(t.row(0)[3], "8 x 512x128x512");
  EXPECT_EQ(t.row(1)[3], "2048x10240x1280");
  const auto lines = lines_of(t.render());
  expect_aligned(lines, "pipeline", "LLVMGPUVectorDistribute", 1);
  expect_aligned(lines, "workgroup", t.row(1)[5], 1);
  expect_aligned(lines, "workgroup", t.row(0)[5], 0);
  expect_aligned(lines, "mma_kind", "NV_MMA_SYNC", 0);
  expect_aligned(lines, "mma_kind", "NV_MMA_SYNC", 1);
}

// `model inspect`: the same shape for a batch matmul (it showed "-"), and NVIDIA rows have no
// empty AGPR column.
TEST(ModelTables, InspectionShowsABatchMatmulsShape) {
  iree::ModelInspection in;
  in.target = iree::parse_target("cuda:sm_80");
  in.dispatches.push_back({dumped("configured_attention_pv_sm80.mlir", "transformer_block_dispatch_8"), std::nullopt, {}});
  const TextTable t = inspection_table(in);
  ASSERT_EQ(t.rows(), 1u);
  EXPECT_EQ(t.row(0)[3], "8 x 512x128x512");
  const auto lines = lines_of(t.render());
  EXPECT_EQ(lines[0].find("AGPR"), std::string::npos) << lines[0];
  const std::size_t regs = lines[0].find("REGS");  // right-aligned: ends where its header does
  ASSERT_NE(regs, std::string::npos);
  EXPECT_EQ(lines[1].substr(regs, 4), "   -") << lines[1];
}

// `model candidates --build 1` of three: mma_kind stays in its column; the build column says
// "not built" for the candidates past K (it showed their mma_kind).
TEST(ModelTables, UnbuiltCandidatesSayNotBuilt) {
  std::vector<iree::MatmulCandidate> candidates(3);
  for (auto& c : candidates) {
    c.knobs.mma_kind = "NV_MMA_SYNC_F32_16x8x16_F16";
    c.workgroup = {1, 64, 64, 0};
    c.workgroup_size = 128;
  }
  candidates[0].is_default = true;
  std::vector<iree::CandidateBuild> builds(1);
  builds[0].ok = false;
  builds[0].error = "error: something\nwith a second line";
  const TextTable built = candidates_table(candidates, builds, true);
  ASSERT_EQ(built.rows(), 3u);
  EXPECT_EQ(built.row(0)[7], "NV_MMA_SYNC_F32_16x8x16_F16");
  EXPECT_EQ(built.row(0)[8], "FAILED: error: something  (IREE's default)");
  EXPECT_EQ(built.row(1)[7], "NV_MMA_SYNC_F32_16x8x16_F16");
  EXPECT_EQ(built.row(1)[8], "not built");
  EXPECT_EQ(built.row(2)[8], "not built");
  const auto lines = lines_of(built.render());
  expect_aligned(lines, "build", "not built", 2);

  const TextTable listed = candidates_table(candidates, {}, false);
  EXPECT_EQ(listed.row(0).size(), 8u);
  EXPECT_EQ(listed.row(0)[7], "NV_MMA_SYNC_F32_16x8x16_F16  (IREE's default)");
}

TEST(ModelTables, ProfileRowsKeepLongRootsAligned) {
  iree::ModelProfile p;
  iree::DispatchProfile a, b;
  a.name = "scores_dispatch_0";
  a.root = "batch_matmul 8x128x128x64";
  a.median_s = 12e-6;
  a.share = 0.75;
  a.tunable = true;
  b.name = "main$async_dispatch_12_softmax";
  b.root = "linalg.generic";
  b.status = "compile_error";
  b.why_not = "no contraction\nsecond line";
  p.dispatches = {a, b};
  const TextTable t = profile_table(p);
  EXPECT_EQ(t.row(0)[4], "75.0%");
  EXPECT_EQ(t.row(1)[3], "compile_error");
  EXPECT_EQ(t.row(1)[5], "no: no contraction");
  const auto lines = lines_of(t.render());
  expect_aligned(lines, "root", "batch_matmul", 0);
  expect_aligned(lines, "root", "linalg.generic", 1);
}

// `model tune`: one row per tuned dispatch; a long winner label or dispatch name keeps the
// columns after it aligned, and a dispatch without times shows "-".
TEST(ModelTables, TuningRowsShowTimesAndSpeedup) {
  iree::ModelTuning tuning;
  iree::DispatchTuning a, b;
  a.name = "main$async_dispatch_1_matmul_512x1024x4096_f16";
  a.candidates = 40;
  a.object_candidates = 8;
  a.summary.evaluated = 38;
  a.summary.resumed = 2;
  a.summary.wall_seconds = 21.25;
  a.default_s = 69.8e-6;
  a.best_s = 17.5e-6;
  a.best_label = "ktune/wgmma 64x64 s8 persistent";
  b.name = "scores_dispatch_0";
  b.candidates = 12;
  b.best_label = "default";
  tuning.dispatches = {a, b};
  const TextTable t = tuning_table(tuning);
  ASSERT_EQ(t.rows(), 2u);
  EXPECT_EQ(t.row(0)[5], "21.2");
  EXPECT_EQ(t.row(0)[6], "69.8");
  EXPECT_EQ(t.row(0)[7], "17.5");
  EXPECT_EQ(t.row(0)[8], "3.99x");
  EXPECT_EQ(t.row(1)[8], "-");
  const auto lines = lines_of(t.render());
  expect_aligned(lines, "winner", "ktune/wgmma", 0);
  expect_aligned(lines, "winner", "default", 1);
}

// `model rank`: at most max_rows candidates, IREE's default marked, the status column aligned
// whatever the knobs' key length.
TEST(ModelTables, RankingRowsStayAlignedAndStopAtMaxRows) {
  iree::DispatchRanking r;
  r.candidates.resize(3);
  for (std::size_t i = 0; i < 3; ++i) {
    r.candidates[i].rank = static_cast<int>(i) + 1;
    r.candidates[i].candidate.knobs.mma_kind = i == 0 ? "MFMA_F32_16x16x16_F16" : "MFMA_F32_32x32x8_F16";
    r.candidates[i].candidate.score = 1.0 - 0.25 * static_cast<double>(i);
  }
  r.candidates[0].assessment = {{"waves_per_simd", 2}, {"spills", 0}, {"mfma", {{"count", 16}}}};
  r.candidates[1].candidate.is_default = true;
  r.candidates[2].status = "compile_error";
  const TextTable t = ranking_table(r, 2);
  ASSERT_EQ(t.rows(), 2u);
  EXPECT_EQ(t.row(0)[0], "#1");
  EXPECT_EQ(t.row(0)[3], "2");
  EXPECT_EQ(t.row(0)[5], "yes");
  EXPECT_EQ(t.row(0)[6], "1.000");
  EXPECT_EQ(t.row(1)[3], "-");
  EXPECT_EQ(t.row(1)[5], "no");
  EXPECT_EQ(t.row(1)[7], "(IREE's default)");
  const auto lines = lines_of(t.render());
  expect_aligned(lines, "status", "ok", 0);
  expect_aligned(lines, "status", "ok", 1);
}

}  // namespace
}  // namespace ktune::cli
