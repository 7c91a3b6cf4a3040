// ktune model inspect's library side with the real IREE (the pinned wheels in .venv): every
// dispatch of the examples, compiled for gfx942, gfx950 and gfx90a, has its kernel found in the
// code object, its occupancy computed, and ktune's register, LDS and scratch figures equal to
// the ones IREE's own assembly (.rocmasm) declares.
#include "ktune/iree/model_inspection.h"

#include <gtest/gtest.h>

#include "ktune/iree/iree_test_fixture.h"

#include <unistd.h>

#include <cstdlib>

namespace ktune::iree {
namespace {
namespace fs = std::filesystem;

using testing::kSource;

TEST(AssemblyFigures, ReadsSetLinesAndKernelDescriptors) {
  const std::string text = R"(
	.amdhsa_kernel main_dispatch_0_matmul
		.amdhsa_group_segment_fixed_size 50688
		.amdhsa_private_segment_fixed_size 16
		.amdhsa_next_free_vgpr 257
		.amdhsa_next_free_sgpr 96
		.amdhsa_accum_offset 160
	.end_amdhsa_kernel
	.set .Lmain_dispatch_0_matmul.num_vgpr, 159
	.set .Lmain_dispatch_0_matmul.num_agpr, 4
	.set .Lmain_dispatch_0_matmul.numbered_sgpr, 18
	.set .Lother.num_vgpr, max(12, .Lcallee.num_vgpr)
	.amdhsa_group_segment_fixed_size 7
)";
  const auto f = parse_assembly_figures(text);
  ASSERT_TRUE(f.count("main_dispatch_0_matmul"));
  const AssemblyKernelFigures& k = f.at("main_dispatch_0_matmul");
  EXPECT_EQ(k.group_segment_fixed_size, 50688);
  EXPECT_EQ(k.private_segment_fixed_size, 16);
  EXPECT_EQ(k.next_free_vgpr, 257);
  EXPECT_EQ(k.next_free_sgpr, 96);
  EXPECT_EQ(k.accum_offset, 160);
  EXPECT_EQ(k.num_vgpr, 159);
  EXPECT_EQ(k.num_agpr, 4);
  EXPECT_EQ(k.numbered_sgpr, 18);
  // An expression is not a figure; a directive outside a kernel block belongs to no kernel.
  EXPECT_FALSE(f.count("other"));
  EXPECT_EQ(f.size(), 1u);
}

using ModelInspection = testing::RealIree;

TEST_F(ModelInspection, EveryDispatchOfTheExamplesAgreesWithIreesAssembly) {
  const std::vector<std::pair<const char*, const char*>> cases = {
      {"mlp_block_f16", "hip:gfx942"},         {"transformer_block_f16", "hip:gfx942"},
      {"matmul_32x2048x1024_f16", "hip:gfx942"}, {"transformer_block_f16", "hip:gfx950"},
      {"mlp_block_f16", "hip:gfx90a"}};
  for (const auto& [example, target] : cases) {
    SCOPED_TRACE(std::string(example) + " " + target);
    const CompiledModel c = compile_model(tools_, kSource / "examples/iree" / (std::string(example) + ".mlir"),
                                          parse_target(target), out_ / (std::string(example) + "_" + target));
    const iree::ModelInspection in = inspect_model(tools_, c);
    EXPECT_TRUE(fs::is_regular_file(in.code_object));
    ASSERT_TRUE(fs::is_regular_file(in.assembly)) << "IREE dumps the .rocmasm beside the .hsaco";
    ASSERT_EQ(in.dispatches.size(), c.dispatches.size());
    ASSERT_FALSE(in.dispatches.empty());
    for (const DispatchInspection& d : in.dispatches) {
      SCOPED_TRACE(d.dispatch.name);
      ASSERT_TRUE(d.kernel.has_value()) << "no kernel for the dispatch in the code object";
      EXPECT_EQ(d.kernel->name, d.dispatch.config.export_name);
      ASSERT_TRUE(d.kernel->amdgpu_occupancy.has_value());
      EXPECT_TRUE(d.kernel->amdgpu_occupancy->launchable);
      EXPECT_GT(d.kernel->amdgpu_occupancy->waves_per_simd, 0);
      // lds, scratch, AGPRs and the total VGPRs, each equal to the assembly's declaration.
      EXPECT_EQ(d.assembly_check.value("agrees", false), true) << d.assembly_check.dump(1);
      EXPECT_EQ(d.assembly_check.at("checked").size(), 4u) << d.assembly_check.dump(1);
      // A dispatch IREE gave an MMA intrinsic runs MFMA instructions (the disassembly was read).
      ASSERT_TRUE(d.kernel->isa.has_value()) << "no disassembly: " << (in.report.notes.empty() ? "" : in.report.notes[0]);
      if (!d.dispatch.config.lowering_configs.empty() && d.dispatch.config.lowering_configs.front().mma_kind()) {
        EXPECT_FALSE(d.kernel->isa->matrix_instructions.empty());
      }
      for (const auto& f : d.kernel->findings) {
        if (f.check == "matrix-instructions") {
          EXPECT_EQ(f.severity, analysis::IsaSeverity::Info) << f.message;
        }
      }
    }
    const nlohmann::json j = to_json(in);
    EXPECT_EQ(j.at("target"), target);
    EXPECT_EQ(j.at("dispatches").size(), in.dispatches.size());
    EXPECT_TRUE(j.at("dispatches")[0].contains("code_object"));
    EXPECT_TRUE(j.at("dispatches")[0].at("code_object").contains("occupancy"));
  }
}

TEST(ExportFacts, ThreadsAndLocalMemoryOfEachExport) {
  const std::string text = R"(
      hal.executable.export public @k_matmul ordinal(0) layout(#hal.pipeline.layout<bindings = []>) count(%arg0: !hal.device) -> (index, index, index) {
      } <workgroup_size = [128 : index, 1 : index, 1 : index], subgroup_size = 32, workgroup_local_memory = 34304>
      hal.executable.export public @k_softmax ordinal(0) layout(#hal.pipeline.layout<bindings = []>) count(%arg0: !hal.device) -> (index, index, index) {
      } <workgroup_size = [64 : index, 2 : index, 1 : index], subgroup_size = 32>
)";
  const auto facts = parse_export_facts(text);
  ASSERT_EQ(facts.size(), 2u);
  EXPECT_EQ(facts.at("k_matmul").threads, 128);
  EXPECT_EQ(facts.at("k_matmul").local_memory, 34304);
  EXPECT_EQ(facts.at("k_softmax").threads, 128);
  EXPECT_EQ(facts.at("k_softmax").local_memory, 0);
}

// CUDA: the PTX assembled by the toolkit's ptxas, IREE's dynamic shared memory, the occupancy on
// sm_80, and the mma.sync instructions of the matmul dispatches found in IREE's multi-line PTX.
TEST_F(ModelInspection, CudaDispatchesFromPtxasAndIreesExportFacts) {
  if (!fs::exists("/usr/local/cuda/bin/ptxas") && !std::getenv("CUDA_HOME")) GTEST_SKIP() << "no CUDA toolkit (ptxas)";
  const CompiledModel c = compile_model(tools_, kSource / "examples/iree/transformer_block_f16.mlir",
                                        parse_target("cuda:sm_80"), out_ / "cuda");
  const iree::ModelInspection in = inspect_model(tools_, c);
  ASSERT_EQ(in.dispatches.size(), c.dispatches.size());
  for (const DispatchInspection& d : in.dispatches) {
    SCOPED_TRACE(d.dispatch.name);
    ASSERT_TRUE(d.kernel.has_value());
    EXPECT_GT(d.kernel->resource("registers")->get<int>(), 0);
    ASSERT_TRUE(d.kernel->nvidia_occupancy.has_value()) << "IREE's export facts gave no workgroup size";
    EXPECT_TRUE(d.kernel->nvidia_occupancy->launchable);
    const bool mma = !d.dispatch.config.lowering_configs.empty() && d.dispatch.config.lowering_configs.front().mma_kind();
    if (mma) {
      EXPECT_GT(d.kernel->resource("dynamic_shared_bytes (IREE's workgroup_local_memory)")->get<std::int64_t>(), 0);
      ASSERT_TRUE(d.kernel->isa.has_value());
      EXPECT_FALSE(d.kernel->isa->matrix_instructions.empty()) << "mma.sync not seen in the PTX";
    }
  }
}

TEST_F(ModelInspection, ACpuTargetIsRefusedWithTheReason) {
  const CompiledModel c = compile_model(tools_, kSource / "examples/iree/matmul_32x2048x1024_f16.mlir",
                                        parse_target("cpu:host"), out_ / "cpu");
  try {
    inspect_model(tools_, c);
    FAIL() << "inspected a CPU build";
  } catch (const IreeError& e) {
    EXPECT_NE(std::string(e.what()).find("neither hip:gfx* nor cuda:sm_*"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace ktune::iree
