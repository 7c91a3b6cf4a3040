// The pieces of IREE model tuning that need no IREE: .npy files, IREE's function declarations,
// iree-benchmark-module's JSON, the evaluation request's wire form.
#include "ktune/iree/iree_evaluation.h"

#include <gtest/gtest.h>

#include <fstream>

#include "ktune/iree/compile_model.h"
#include "ktune/iree/model_signature.h"
#include "ktune/iree/npy.h"

namespace ktune::iree {
namespace {
namespace fs = std::filesystem;

fs::path scratch(const std::string& name) {
  const fs::path dir = fs::temp_directory_path() / ("ktune_iree_eval_" + std::to_string(::getpid()));
  fs::create_directories(dir);
  return dir / name;
}

TEST(Npy, RoundTripsEveryTypeAndShape) {
  for (ElementType t : {ElementType::F16, ElementType::BF16, ElementType::F32, ElementType::I8, ElementType::I64}) {
    for (const std::vector<std::int64_t>& shape : {std::vector<std::int64_t>{}, {7}, {3, 5}, {2, 3, 4}}) {
      NpyArray a;
      a.shape = shape;
      a.type = t;
      a.data.resize(a.element_count() * element_size(t));
      for (std::size_t i = 0; i < a.data.size(); ++i) a.data[i] = std::byte(static_cast<unsigned char>(i * 37 + 1));
      const fs::path p = scratch("a.npy");
      write_npy(p, a);
      // Data starts on a 64-byte boundary, as NumPy writes it.
      EXPECT_EQ((fs::file_size(p) - a.data.size()) % 64, 0u);
      const NpyArray b = read_npy(p, t);
      EXPECT_EQ(b.shape, a.shape);
      EXPECT_EQ(b.type, t);
      EXPECT_EQ(b.data, a.data);
    }
  }
}

TEST(Npy, BadFilesNameTheFileAndTheProblem) {
  const fs::path p = scratch("bad.npy");
  std::ofstream(p) << "not numpy";
  try {
    read_npy(p);
    FAIL();
  } catch (const NpyError& e) {
    EXPECT_NE(std::string(e.what()).find(p.string() + ": not a .npy file"), std::string::npos) << e.what();
  }
  NpyArray a;
  a.shape = {4, 4};
  a.type = ElementType::F32;
  a.data.resize(64);
  write_npy(p, a);
  fs::resize_file(p, fs::file_size(p) - 8);
  EXPECT_THROW(read_npy(p), NpyError);
  EXPECT_THROW(read_npy(scratch("missing.npy")), NpyError);
}

// iree-run-module writes bf16 outputs only raw (`--output=@file.bin`): read with the signature's type.
TEST(Npy, RawOutputsAreReadWithTheirElementType) {
  const fs::path p = scratch("raw.bin");
  std::ofstream(p, std::ios::binary).write("\x80\x3f\x00\x40\x40\x40", 6);  // bf16 1, 2, 3
  const NpyArray a = read_raw(p, ElementType::BF16);
  EXPECT_EQ(a.shape, (std::vector<std::int64_t>{3}));
  EXPECT_DOUBLE_EQ(load_element(a.data.data(), 1, ElementType::BF16), 2.0);
  try {
    read_raw(p, ElementType::F32);  // 6 bytes: not whole f32 elements
    FAIL();
  } catch (const NpyError& e) {
    EXPECT_NE(std::string(e.what()).find("6 bytes are not a whole number of"), std::string::npos) << e.what();
  }
  fs::remove(p);
  EXPECT_THROW(read_raw(p, ElementType::F32), NpyError);
}

TEST(ModuleSignature, ReadsIreesDeclarations) {
  // As iree-dump-module 3.13 prints the MLP block's module.
  const std::string dump =
      "  [  0] mlp(!vm.ref<?>, !vm.ref<?>) -> (!vm.ref<?>)\n"
      "        iree.abi.declaration: sync func @mlp(%input0: tensor<512x1024xf16>, %input1: tensor<1024xbf16>) -> "
      "(%output0: tensor<512x1024xf32>)\n";
  const auto f = parse_module_signatures(dump);
  ASSERT_EQ(f.size(), 1u);
  EXPECT_EQ(f[0].name, "mlp");
  ASSERT_EQ(f[0].inputs.size(), 2u);
  EXPECT_EQ(f[0].inputs[0].shape, (std::vector<std::int64_t>{512, 1024}));
  EXPECT_EQ(f[0].inputs[1].type, ElementType::BF16);
  ASSERT_EQ(f[0].outputs.size(), 1u);
  EXPECT_EQ(f[0].outputs[0].type, ElementType::F32);
  EXPECT_EQ(select_function(f, "", "m.mlir").name, "mlp");
  EXPECT_THROW(select_function(f, "other", "m.mlir"), IreeError);
}

TEST(ModuleSignature, DynamicShapesAreAClearError) {
  try {
    parse_module_signatures("iree.abi.declaration: sync func @f(%input0: tensor<?x4xf32>) -> (%output0: tensor<4xf32>)\n");
    FAIL();
  } catch (const IreeError& e) {
    EXPECT_NE(std::string(e.what()).find("function @f: 'tensor<?x4xf32>' has a dynamic dimension"), std::string::npos) << e.what();
  }
  EXPECT_THROW(parse_tensor_type("tensor<4xcomplex<f32>>"), IreeError);
}

TEST(BenchmarkJson, OneSamplePerRepetitionInSeconds) {
  const std::string out = R"(some log line
{"context": {}, "benchmarks": [
 {"name": "BM/rep", "run_type": "iteration", "real_time": 250.5, "time_unit": "us"},
 {"name": "BM/rep", "run_type": "iteration", "real_time": 0.25, "time_unit": "ms"},
 {"name": "BM_mean", "run_type": "aggregate", "real_time": 250.2, "time_unit": "us"}]})";
  const auto s = parse_benchmark_json(out);
  ASSERT_EQ(s.size(), 2u);
  EXPECT_DOUBLE_EQ(s[0], 250.5e-6);
  EXPECT_DOUBLE_EQ(s[1], 0.25e-3);
  EXPECT_THROW(parse_benchmark_json("error: no device"), std::runtime_error);
  EXPECT_THROW(parse_benchmark_json(R"({"benchmarks": []})"), std::runtime_error);
}

TEST(IreeEvaluationRequest, RoundTripsThroughJson) {
  IreeEvaluationRequest r;
  r.run_module = "/x/iree-run-module";
  r.benchmark_module = "/x/iree-benchmark-module";
  r.device = "cuda://1";
  r.function = "main";
  r.inputs = {"a.npy", "b.npy"};
  r.output_types = {"f16"};
  r.work_dir = "/w";
  r.model_vmfb = "m.vmfb";
  r.reference_vmfb = "d.vmfb";
  r.benchmark_vmfb = "b.vmfb";
  r.benchmark_function = "main_dispatch_0";
  r.batch_size = 20;
  r.policy.min_samples = 7;
  const nlohmann::json j = r.to_json();
  EXPECT_EQ(j["op"], kIreeEvaluateOp);
  const IreeEvaluationRequest b = IreeEvaluationRequest::from_json(j);
  EXPECT_EQ(b.to_json(), j);
  EXPECT_THROW(IreeEvaluationRequest::from_json({{"op", kIreeEvaluateOp}}), nlohmann::json::exception);
}

TEST(OutputTolerance, ReducedPrecisionOutputsAreBoundedByRelativeL2) {
  EXPECT_TRUE(output_tolerance(ElementType::F16).max_rel_l2);
  EXPECT_LT(*output_tolerance(ElementType::F32).max_rel_l2, *output_tolerance(ElementType::F16).max_rel_l2);
  EXPECT_EQ(output_tolerance(ElementType::I32).rtol, 0);
}

TEST(Target, CpuRunsOnTheLocalTaskDriver) {
  const Target t = parse_target("cpu:host");
  EXPECT_EQ(t.runtime_device(0), "local-task");
  EXPECT_EQ(parse_target("cuda:sm_80").runtime_device(1), "cuda://1");
  EXPECT_THROW(parse_target("tpu:v4"), IreeError);
}

}  // namespace
}  // namespace ktune::iree
