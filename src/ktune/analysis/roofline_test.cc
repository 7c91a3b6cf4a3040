#include "ktune/analysis/roofline.h"

#include <gtest/gtest.h>

namespace ktune::analysis {
namespace {

// H200-like ceilings: 4000 GB/s, 60 TFLOP/s FP32, 750 TFLOP/s bf16 tensor.
DeviceCeilings h200() {
  DeviceCeilings c;
  c.copy_gbps = 4000;
  c.fp32_gflops = 60000;
  c.tensor_tflops = {{"bf16", 750}, {"f16", 760}};
  return c;
}

TEST(Roofline, ComputeRoofPicksTheCeilingOfTheMath) {
  auto fp32 = compute_roof(h200(), "fp32");
  ASSERT_TRUE(fp32);
  EXPECT_EQ(fp32->name, "fp32");
  EXPECT_DOUBLE_EQ(fp32->gflops, 60000);
  auto bf16 = compute_roof(h200(), "bf16");
  ASSERT_TRUE(bf16);
  EXPECT_EQ(bf16->name, "tensor bf16");
  EXPECT_DOUBLE_EQ(bf16->gflops, 750000);
  // A tensor math that was not measured has no roof rather than the FP32 one.
  EXPECT_FALSE(compute_roof(h200(), "fp8"));
  DeviceCeilings cpu;
  cpu.copy_gbps = 20;
  EXPECT_FALSE(compute_roof(cpu, "fp32"));
}

TEST(Roofline, StreamingKernelAtBandwidthIsMemoryBound) {
  // saxpy-like: 2 FLOP per 12 bytes, 3600 GB/s achieved.
  const RooflinePoint p = classify({3600.0 * 2 / 12, 3600.0}, h200(), "fp32");
  ASSERT_TRUE(p.intensity);
  EXPECT_NEAR(*p.intensity, 2.0 / 12, 1e-12);
  ASSERT_TRUE(p.ridge_intensity);
  EXPECT_DOUBLE_EQ(*p.ridge_intensity, 15.0);
  ASSERT_TRUE(p.memory_roof_gflops);
  EXPECT_NEAR(*p.memory_roof_gflops, 4000.0 * 2 / 12, 1e-9);
  EXPECT_EQ(p.roof, "memory");
  ASSERT_TRUE(p.fraction);
  EXPECT_NEAR(*p.fraction, 0.9, 1e-12);
  EXPECT_EQ(p.bound, Bound::Memory);
}

TEST(Roofline, CacheResidentDataPassesTheMemoryRoofAndSaysWhy) {
  const RooflinePoint p = classify({9000.0 / 4, 9000.0}, h200(), "fp32");
  EXPECT_EQ(p.bound, Bound::Memory);
  EXPECT_NEAR(*p.fraction, 2.25, 1e-12);
  EXPECT_NE(p.note.find("served from cache"), std::string::npos);
  EXPECT_TRUE(classify({3600.0 / 4, 3600.0}, h200(), "fp32").note.empty());
}

TEST(Roofline, SlowStreamingKernelIsLatencyBound) {
  const RooflinePoint p = classify({100.0 * 2 / 12, 100.0}, h200(), "fp32");
  EXPECT_EQ(p.roof, "memory");
  EXPECT_NEAR(*p.fraction, 0.025, 1e-12);
  EXPECT_EQ(p.bound, Bound::Latency);
}

TEST(Roofline, LargeGemmNearTensorPeakIsComputeBound) {
  // 8192^3 bf16 GEMM: 2 * 8192^3 FLOP, 3 * 8192^2 * 2 bytes -> intensity 2730.
  const double flops = 2.0 * 8192 * 8192 * 8192, bytes = 3.0 * 8192 * 8192 * 2, seconds = 2.0e-3;
  const RooflinePoint p = classify({flops / seconds / 1e9, bytes / seconds / 1e9}, h200(), "bf16");
  EXPECT_NEAR(*p.intensity, flops / bytes, 1e-6);
  EXPECT_EQ(p.compute_roof, "tensor bf16");
  EXPECT_DOUBLE_EQ(*p.ridge_intensity, 750000.0 / 4000);
  EXPECT_EQ(p.roof, "compute");
  EXPECT_NEAR(*p.fraction, flops / seconds / 1e9 / 750000, 1e-12);
  EXPECT_EQ(p.bound, Bound::Compute);
  // The same kernel judged against FP32 would pass 1: the math choice matters.
  const RooflinePoint fp32 = classify({flops / seconds / 1e9, bytes / seconds / 1e9}, h200(), "fp32");
  EXPECT_GT(*fp32.fraction, 1.0);
}

TEST(Roofline, SlowGemmAboveTheRidgeIsLatencyBound) {
  const RooflinePoint p = classify({100000.0, 100000.0 / 2730}, h200(), "bf16");
  EXPECT_EQ(p.roof, "compute");
  EXPECT_NEAR(*p.fraction, 100000.0 / 750000, 1e-12);
  EXPECT_EQ(p.bound, Bound::Latency);
}

TEST(Roofline, RidgeDecidesWhichRoofApplies) {
  // Just below the ridge (15 FLOP/byte): the memory roof is lower.
  RooflinePoint below = classify({14.0 * 3000, 3000.0}, h200(), "fp32");
  EXPECT_EQ(below.roof, "memory");
  EXPECT_NEAR(*below.fraction, 0.75, 1e-12);
  EXPECT_EQ(below.bound, Bound::Memory);
  RooflinePoint above = classify({16.0 * 3000, 3000.0}, h200(), "fp32");
  EXPECT_EQ(above.roof, "compute");
  EXPECT_NEAR(*above.fraction, 0.8, 1e-12);
  EXPECT_EQ(above.bound, Bound::Compute);
}

TEST(Roofline, SaturationThresholdIsTheBoundary) {
  EXPECT_EQ(classify({std::nullopt, 2000.0}, h200(), "fp32").bound, Bound::Memory);
  EXPECT_EQ(classify({std::nullopt, 1999.0}, h200(), "fp32").bound, Bound::Latency);
  EXPECT_EQ(classify({std::nullopt, 1999.0}, h200(), "fp32", 0.4).bound, Bound::Memory);
  EXPECT_THROW(classify({1.0, 1.0}, h200(), "fp32", 0.0), std::invalid_argument);
  EXPECT_THROW(classify({1.0, 1.0}, h200(), "fp32", 1.5), std::invalid_argument);
}

TEST(Roofline, OneCountUsesTheOnlyRoofItCanReach) {
  const RooflinePoint bytes_only = classify({std::nullopt, 3000.0}, h200(), "fp32");
  EXPECT_FALSE(bytes_only.intensity);
  EXPECT_EQ(bytes_only.roof, "memory");
  EXPECT_NEAR(*bytes_only.fraction, 0.75, 1e-12);
  const RooflinePoint flops_only = classify({45000.0, std::nullopt}, h200(), "fp32");
  EXPECT_EQ(flops_only.roof, "compute");
  EXPECT_NEAR(*flops_only.fraction, 0.75, 1e-12);
  EXPECT_EQ(flops_only.bound, Bound::Compute);
}

TEST(Roofline, MissingInformationIsUnknownWithAReason) {
  RooflinePoint none = classify({std::nullopt, std::nullopt}, h200(), "fp32");
  EXPECT_EQ(none.bound, Bound::Unknown);
  EXPECT_NE(none.note.find("no FLOP or byte counts"), std::string::npos);
  RooflinePoint zero = classify({0.0, 0.0}, h200(), "fp32");
  EXPECT_EQ(zero.bound, Bound::Unknown);
  // fp8 was not calibrated and the GEMM has FLOPs: judged against memory only, said so.
  RooflinePoint fp8 = classify({500000.0, 200.0}, h200(), "fp8");
  EXPECT_EQ(fp8.roof, "memory");
  EXPECT_EQ(fp8.bound, Bound::Latency);
  EXPECT_NE(fp8.note.find("no fp8 compute ceiling"), std::string::npos);
  DeviceCeilings empty;
  RooflinePoint nothing = classify({10.0, 10.0}, empty, "fp32");
  EXPECT_EQ(nothing.bound, Bound::Unknown);
  EXPECT_FALSE(nothing.note.empty());
}

TEST(Roofline, MathFollowsTheProblem) {
  EXPECT_EQ(roofline_math({{"family", "cublaslt"}}, {{"op", "gemm"}, {"dtype", "bf16"}}), "bf16");
  EXPECT_EQ(roofline_math({{"family", "generated"}}, {{"op", "gemm"}, {"dtype", "f16"}}), "f16");
  EXPECT_EQ(roofline_math({{"family", "cublaslt"}}, {{"op", "gemm"}, {"dtype", "f32"}}), "fp32");
  EXPECT_EQ(roofline_math({{"family", "cublaslt"}}, {{"op", "gemm"}, {"dtype", "tf32"}}), "tf32");
  EXPECT_EQ(roofline_math({{"family", "cublaslt"}}, nlohmann::json::object()), "bf16");
  EXPECT_EQ(roofline_math({{"BLOCK", 128}}, {{"name", "saxpy"}}), "fp32");
  EXPECT_EQ(roofline_math({{"BLOCK", 128}}, {{"roofline", {{"compute", "f16"}}}}), "f16");
  EXPECT_EQ(roofline_math(nlohmann::json(), nlohmann::json()), "fp32");
}

TEST(Roofline, JsonNamesEveryField) {
  nlohmann::json j = to_json(classify({3600.0 * 2 / 12, 3600.0}, h200(), "fp32"));
  EXPECT_EQ(j.at("bound"), "memory");
  EXPECT_EQ(j.at("roof"), "memory");
  EXPECT_EQ(j.at("compute_roof"), "fp32");
  for (const char* key : {"intensity", "memory_roof_gflops", "compute_roof_gflops", "ridge_intensity", "fraction"})
    EXPECT_TRUE(j.at(key).is_number()) << key;
  nlohmann::json c = to_json(h200());
  EXPECT_EQ(c.at("copy_gbps"), 4000.0);
  EXPECT_EQ(c.at("tensor_tflops").at("bf16"), 750.0);
  EXPECT_EQ(bound_name(Bound::Latency), "latency");
}

}  // namespace
}  // namespace ktune::analysis
