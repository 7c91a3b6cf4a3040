#include "ktune/iree/compile_model.h"

#include "ktune/iree/candidate_compile.h"
#include "ktune/iree/dispatch_kind.h"
#include "ktune/iree/model_session.h"
#include "ktune/iree/matmul_candidates.h"
#include "ktune/core/read_file.h"

#include <gtest/gtest.h>

#include "ktune/iree/iree_test_fixture.h"

#include <cstdlib>
#include <fstream>
#include <set>

namespace ktune::iree {
namespace {
namespace fs = std::filesystem;

using testing::kSource;

using CompileModel = testing::RealIree;

TEST_F(CompileModel, FindsThePinnedRelease) {
  EXPECT_EQ(tools_.version.rfind(kPinnedVersion, 0), 0u) << tools_.version;
  EXPECT_FALSE(tools_.revision.empty());
  EXPECT_FALSE(tools_.benchmark_module.empty());
  EXPECT_FALSE(tools_.run_module.empty());
}

TEST_F(CompileModel, SeedMatmulForCudaAndHip) {
  for (const char* target : {"cuda:sm_80", "hip:gfx942"}) {
    SCOPED_TRACE(target);
    const CompiledModel c = compile_model(tools_, kSource / "examples/iree/matmul_2048x10240x1280_f16.mlir",
                                          parse_target(target), out_ / target);
    EXPECT_TRUE(fs::is_regular_file(c.vmfb));
    ASSERT_EQ(c.dispatches.size(), 1u);
    const DumpedDispatch& d = c.dispatches[0];
    EXPECT_TRUE(fs::is_regular_file(d.benchmark)) << d.benchmark;
    EXPECT_EQ(d.config.matmul_mnk(), (std::vector<std::int64_t>{2048, 10240, 1280}));
    ASSERT_FALSE(d.config.lowering_configs.empty());
    const auto workgroup = d.config.lowering_configs[0].tiles("workgroup");
    ASSERT_TRUE(workgroup);
    EXPECT_EQ(workgroup->size(), 3u);
    EXPECT_TRUE(d.config.lowering_configs[0].mma_kind());
    ASSERT_TRUE(d.config.translation);
    EXPECT_FALSE(d.config.translation->pipeline.empty());
    EXPECT_EQ(d.config.arch, std::string(target).substr(std::string(target).find(':') + 1));
  }
}

// Candidates applied through --iree-hal-substitute-executable-configuration: the compiled
// binary's workgroup size (read back from IREE's dump) is the candidate's, not IREE's default.
TEST_F(CompileModel, CandidatesCompileWithTheirOwnConfiguration) {
  for (const char* name : {"cuda:sm_80", "hip:gfx942"}) {
    SCOPED_TRACE(name);
    const Target target = parse_target(name);
    const CompiledModel c =
        compile_model(tools_, kSource / "examples/iree/matmul_2048x10240x1280_f16.mlir", target, out_ / name);
    ASSERT_EQ(c.dispatches.size(), 1u);
    CandidateOptions options;
    options.max_candidates = 5;
    const std::vector<MatmulCandidate> candidates = matmul_candidates(c.dispatches[0].config, options);
    ASSERT_EQ(candidates.size(), 5u);
    std::set<std::int64_t> sizes;
    int built = 0;
    for (std::size_t i = 0; i < candidates.size(); ++i) {
      SCOPED_TRACE(candidates[i].knobs.key());
      const CandidateBuild b = build_candidate(tools_, c.dispatches[0], target, candidates[i], out_ / name / std::to_string(i));
      if (i == 0) {
        ASSERT_TRUE(b.ok) << b.error;  // IREE's own configuration, substituted back
      }
      if (!b.ok) {
        EXPECT_FALSE(b.error.empty());
        continue;
      }
      ++built;
      EXPECT_TRUE(fs::is_regular_file(b.vmfb));
      ASSERT_TRUE(b.compiled_workgroup_size);
      EXPECT_EQ(*b.compiled_workgroup_size, candidates[i].workgroup_size);
      sizes.insert(*b.compiled_workgroup_size);
    }
    EXPECT_GE(built, 4) << "IREE refused more than one of the top candidates";
  }
}

TEST_F(CompileModel, MlpBlockHasTwoMatmulDispatchesInOrder) {
  const CompiledModel c = compile_model(tools_, kSource / "examples/iree/mlp_block_f16.mlir", parse_target("cuda:sm_80"), out_);
  ASSERT_EQ(c.dispatches.size(), 2u);
  EXPECT_EQ(c.dispatches[0].config.matmul_mnk(), (std::vector<std::int64_t>{512, 4096, 1024}));
  EXPECT_EQ(c.dispatches[1].config.matmul_mnk(), (std::vector<std::int64_t>{512, 1024, 4096}));
}

TEST_F(CompileModel, BadMlirNamesTheFileAndIreesMessage) {
  const fs::path bad = out_ / "bad.mlir";
  std::ofstream(bad) << "func.func @f(%a: tensor<4xf32>) -> tensor<4xf32> {\n  return %b : tensor<4xf32>\n}\n";
  try {
    compile_model(tools_, bad, parse_target("cuda:sm_80"), out_ / "bad");
    FAIL() << "bad MLIR must throw";
  } catch (const IreeError& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find(bad.string()), std::string::npos) << what;
    EXPECT_NE(what.find("iree-compile for cuda:sm_80 exited with code"), std::string::npos) << what;
    EXPECT_NE(what.find("undeclared SSA value"), std::string::npos) << what;
  }
  EXPECT_THROW(compile_model(tools_, out_ / "missing.mlir", parse_target("cuda:sm_80"), out_), IreeError);
}

TEST(IreeTarget, ParsesAndRefuses) {
  EXPECT_EQ(parse_target("cuda:sm_80").compile_flags(),
            (std::vector<std::string>{"--iree-hal-target-device=cuda", "--iree-cuda-target=sm_80"}));
  EXPECT_EQ(parse_target("rocm:gfx942").compile_flags(),
            (std::vector<std::string>{"--iree-hal-target-device=hip", "--iree-rocm-target=gfx942"}));
  EXPECT_THROW(parse_target("cuda"), IreeError);
  EXPECT_THROW(parse_target("cuda:gfx942"), IreeError);
  EXPECT_THROW(parse_target("vulkan:x"), IreeError);
}

TEST(IreeTools, AMissingDirectorySaysHowToInstall) {
  const IreeLookup lookup = find_iree_tools("/nonexistent/iree/bin");
  EXPECT_FALSE(lookup.tools);
  EXPECT_NE(lookup.reason.find("--iree-tools"), std::string::npos) << lookup.reason;
  EXPECT_NE(lookup.reason.find("scripts/install-deps.sh"), std::string::npos) << lookup.reason;
  EXPECT_EQ(parse_compiler_version("IREE compiler version 3.13.0rc20261016 @ 89ece87b\n  LLVM version 24"),
            (std::pair<std::string, std::string>{"3.13.0rc20261016", "89ece87b"}));
  EXPECT_FALSE(parse_compiler_version("clang version 19"));
}

// The compile side of DispatchKind, as the tuning loop's compile pool calls it: IREE's default
// builds its dispatch benchmark alone; a candidate builds the benchmark and the whole model with
// the candidate substituted, and both show its workgroup size.
TEST_F(CompileModel, DispatchKindBuildsWhatTheWorkerRuns) {
  ModelSessionOptions so;
  so.seed = 3;
  const ModelSession session =
      open_model_session(tools_, kSource / "examples/iree/mlp_block_f16.mlir", parse_target("cuda:sm_80"), out_ / "session", so);
  ASSERT_EQ(session.function.name, "mlp");
  ASSERT_EQ(session.inputs.size(), 5u);
  EXPECT_EQ(session.function.outputs.at(0).shape, (std::vector<std::int64_t>{512, 1024}));
  DispatchKindOptions ko;
  ko.max_candidates = 4;
  ko.max_object_candidates = 0;
  DispatchKind kind(session, 1, ko);
  ASSERT_EQ(kind.space().size(), 4u);
  EXPECT_EQ(kind.space().at(0).at("candidate").as_string(), "default");
  EXPECT_TRUE(kind.tunable());
  EXPECT_EQ(kind.flop_count({}), 2.0 * 512 * 1024 * 4096);

  const device::CompileResult def = kind.compile(kind.space().at(0), "");
  ASSERT_TRUE(def.ok) << def.log;
  EXPECT_EQ(def.resources["model_vmfb"], session.model.vmfb.string());  // the default is the reference build
  EXPECT_TRUE(fs::is_regular_file(def.resources["dispatch_vmfb"].get<std::string>()));
  const device::CompileResult cand = kind.compile(kind.space().at(1), "");
  ASSERT_TRUE(cand.ok) << cand.log;
  EXPECT_TRUE(fs::is_regular_file(cand.resources["model_vmfb"].get<std::string>()));
  EXPECT_NE(cand.resources["model_vmfb"], session.model.vmfb.string());
  EXPECT_EQ(cand.resources["compiled_workgroup_size"], cand.resources["workgroup_size"]);

  const std::optional<device::CompileResult> reference = kind.compile_reference("");
  const Config config = kind.space().at(1);
  tuner::CandidateKind::Request q;
  q.config = &config;
  q.artifact = &cand;
  q.reference = &reference;
  const nlohmann::json request = kind.evaluation_request(q);
  EXPECT_EQ(request["op"], kIreeEvaluateOp);
  EXPECT_EQ(request["reference_vmfb"], session.model.vmfb.string());
  EXPECT_EQ(request["batch_size"], 20);
  EXPECT_EQ(request["inputs"].size(), 5u);

  const device::CompileResult bad = kind.compile({{"candidate", Value::string("no-such")}}, "");
  EXPECT_FALSE(bad.ok);
  EXPECT_NE(bad.log.find("not a candidate of mlp_dispatch_1"), std::string::npos) << bad.log;
}

// Attention scores as a linalg.batch_matmul: candidates exist and IREE takes them (the batch
// tile kept), for CUDA and HIP.
TEST_F(CompileModel, BatchMatmulCandidatesCompileWithTheirOwnConfiguration) {
  for (const char* name : {"cuda:sm_80", "hip:gfx942"}) {
    SCOPED_TRACE(name);
    const Target target = parse_target(name);
    const CompiledModel c = compile_model(tools_, kSource / "examples/iree/attention_scores_bmm_f16.mlir", target, out_ / name);
    ASSERT_EQ(c.dispatches.size(), 1u);
    CandidateOptions options;
    options.max_candidates = 3;
    CandidateSpaceSummary summary;
    const std::vector<MatmulCandidate> candidates = matmul_candidates(c.dispatches[0].config, options, &summary);
    ASSERT_EQ(candidates.size(), 3u) << summary.unsupported;
    for (std::size_t i = 0; i < 2; ++i) {
      SCOPED_TRACE(candidates[i].knobs.key());
      const CandidateBuild b = build_candidate(tools_, c.dispatches[0], target, candidates[i], out_ / name / std::to_string(i));
      ASSERT_TRUE(b.ok) << b.error;
      ASSERT_TRUE(b.compiled_workgroup_size);
      EXPECT_EQ(*b.compiled_workgroup_size, candidates[i].workgroup_size);
    }
  }
}

// On llvm-cpu, IREE's dumped benchmark of a 3x3 f32 conv compiled alone fails ("large vector
// sizes"): the default's benchmark is built with the model's own configuration substituted.
TEST_F(CompileModel, TheDefaultsBenchmarkUsesTheModelsConfiguration) {
  const ModelSession session =
      open_model_session(tools_, kSource / "examples/iree/conv_3x3_f32.mlir", parse_target("cpu:host"), out_ / "conv", {});
  ASSERT_EQ(session.model.dispatches.size(), 1u);
  DispatchKindOptions ko;
  ko.default_only_when_untunable = true;
  DispatchKind kind(session, 0, ko);
  EXPECT_FALSE(kind.tunable());
  EXPECT_NE(kind.space_summary().unsupported.find("not a matmul-like contraction"), std::string::npos) << kind.space_summary().unsupported;
  const device::CompileResult def = kind.compile(kind.space().at(0), "");
  EXPECT_TRUE(def.ok) << def.log;
}

// A bf16 model's outputs (iree-run-module writes bf16 only raw) are read and verified.
TEST_F(CompileModel, Bf16OutputsAreVerified) {
  const ModelSession session =
      open_model_session(tools_, kSource / "examples/iree/mlp_gelu_bf16.mlir", parse_target("cpu:host"), out_ / "bf16", {});
  IreeEvaluationRequest r = session.request_base(0);
  r.work_dir = (out_ / "bf16" / "eval").string();
  r.model_vmfb = r.reference_vmfb = session.model.vmfb.string();
  IreeEvaluator evaluator;
  const tuner::EvaluationReply reply = evaluator.evaluate(r);
  EXPECT_EQ(reply.status, tuner::EvaluationStatus::Ok) << reply.error;
  EXPECT_TRUE(reply.verified);
  EXPECT_TRUE(reply.verification.contains("output0")) << reply.verification.dump();
}

// ktune's generated kernel as the executable of the MLP's first dispatch (matmul + bias + relu):
// compiled by NVRTC to PTX for sm_80, substituted into the dispatch's benchmark and the model,
// and IREE's build holds it (the PTX IREE dumps declares the kernel's workgroup size).
TEST_F(CompileModel, DispatchKindBuildsKtuneKernelsAsTheExecutableObject) {
  if (!cuda::NvrtcCompiler::load()) GTEST_SKIP() << "NVRTC is not installed: " << cuda::NvrtcCompiler::load().error;
  const ModelSession session =
      open_model_session(tools_, kSource / "examples/iree/mlp_block_f16.mlir", parse_target("cuda:sm_80"), out_ / "session", {});
  DispatchKindOptions ko;
  ko.max_candidates = 2;
  ko.max_object_candidates = 3;
  DispatchKind kind(session, 0, ko);
  ASSERT_TRUE(kind.gemm()) << kind.objects_unsupported();
  EXPECT_TRUE(kind.gemm()->problem.bias);
  ASSERT_EQ(kind.object_candidates().size(), 3u);
  ASSERT_EQ(kind.space().size(), 5u);
  const Config config = kind.space().at(2);
  ASSERT_NE(kind.object_candidate(config), nullptr);
  EXPECT_EQ(kind.object_candidate(kind.space().at(1)), nullptr);
  const device::CompileResult built = kind.compile(config, "");
  ASSERT_TRUE(built.ok) << built.log;
  const fs::path exe = built.resources["executable"].get<std::string>();
  EXPECT_EQ(exe, kind.substitution_file(config.at("candidate").as_string()));
  const std::string ptx = read_file(exe.parent_path() / "kernel.ptx").value_or("");
  EXPECT_NE(ptx.find(".entry " + kind.dispatch().config.export_name), std::string::npos);
  EXPECT_TRUE(fs::is_regular_file(built.resources["model_vmfb"].get<std::string>()));
  EXPECT_TRUE(fs::is_regular_file(built.resources["dispatch_vmfb"].get<std::string>()));
  EXPECT_GT(built.resources["build"]["ptxas"]["registers"].get<int>(), 0);
}

// For a Hopper GPU (--object-arch sm_90a): wgmma objects, sm_90a PTX that builds its own tensor
// maps, taken by IREE 3.13 into an sm_80 build of the MLP's dispatch and of the whole model,
// with their 384-thread workgroups and dynamic shared memory beyond sm_80's 163 KB.
TEST_F(CompileModel, DispatchKindBuildsWgmmaObjectsForAHopperGpu) {
  if (!cuda::NvrtcCompiler::load()) GTEST_SKIP() << "NVRTC is not installed: " << cuda::NvrtcCompiler::load().error;
  const ModelSession session =
      open_model_session(tools_, kSource / "examples/iree/mlp_block_f16.mlir", parse_target("cuda:sm_80"), out_ / "session90", {});
  DispatchKindOptions ko;
  ko.max_candidates = 1;
  ko.max_object_candidates = 8;
  ko.object_device = resolve_object_device("sm_90a", 0).device;
  DispatchKind kind(session, 0, ko);
  int built_count = 0;
  for (std::size_t i = 0; i < kind.space().size(); ++i) {
    const Config config = kind.space().at(i);
    const ObjectCandidate* object = kind.object_candidate(config);
    if (object == nullptr || object->knobs.path != generated::KernelPath::Wgmma) continue;
    const device::CompileResult built = kind.compile(config, "");
    ASSERT_TRUE(built.ok) << object->label << ": " << built.log;
    const fs::path exe = built.resources["executable"].get<std::string>();
    const std::string ptx = read_file(exe.parent_path() / "kernel.ptx").value_or("");
    EXPECT_NE(ptx.find(".target sm_90a"), std::string::npos);
    EXPECT_NE(ptx.find("tensormap.cp_fenceproxy"), std::string::npos);
    EXPECT_EQ(built.resources["build"]["threads"].get<int>() % 128, 0);
    if (++built_count == 2) break;
  }
  EXPECT_EQ(built_count, 2);
}

}  // namespace
}  // namespace ktune::iree
