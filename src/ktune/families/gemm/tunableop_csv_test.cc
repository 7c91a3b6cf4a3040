#include "ktune/families/gemm/tunableop_csv.h"

#include <gtest/gtest.h>

#include "ktune/core/sha256.h"
#include "ktune/db/database.h"

namespace ktune::gemm::tunableop {
namespace {

constexpr const char* kAlgo66 = "Gemm_Cublaslt_id_66_tile_20_stages_8_splitk_1_red_0_swizzle_0_custom_0_inner_0_cluster_0";

// What a CUDA build of PyTorch writes (Tunable.cpp's InitRealtimeAppend / AppendResultLine), with
// a ROCm line, a BLAS_PARAMS tail, a wildcard, a double GEMM and three malformed lines mixed in.
std::string sample_file() {
  return std::string("Validator,PT_VERSION,2.10.0\n"
                     "Validator,CUBLASLT_VERSION,130002\r\n"
                     "Validator,CUDA_DEVICE,9.0:NVIDIA H100 80GB HBM3\n"
                     "GemmTunableOp_BFloat16_TN,tn_11008_8192_4096_ld_4096_4096_11008,") +
         kAlgo66 +
         ",0.512\n"                                                                       // line 4
         "GemmAndBiasTunableOp_Half_TN,tn_4096_1024_4096_ld_4096_4096_4096,Default,0.101\n"  // 5
         "\n"                                                                               // 6
         "GemmStridedBatchedTunableOp_BFloat16_NN,nn_128_256_64_B_32_ld_128_64_128,"
         "Gemm_Cublaslt_id_31_tile_15_stages_20_splitk_4_red_1_swizzle_1_custom_2_inner_0_cluster_0,0.02\n"  // 7
         "GemmTunableOp_Half_NN,nn_64_64\n"                                                          // 8: malformed
         "GemmTunableOp_float_NN,nn_64_64_64_ld_64_64_64,Default,fast\n"                             // 9: bad time
         "GemmTunableOp_Half_NT,nt_512_512_512_ld_512_512_512,Gemm_Hipblaslt_NT_123456,0.2\n"        // 10
         "GemmTunableOp_float_NT,nt_256_128_64_ld_256_128_256,Default,0.01,BLAS_PARAMS: - { function: matmul, M: 256 }\n"  // 11
         "GemmTunableOp_BFloat16_TN,tn_*_8192_4096_ld_4096_4096_*,Default,0.3\n"                     // 12: wildcard
         "GemmTunableOp_double_NN,nn_32_32_32_ld_32_32_32,Default\n"                                 // 13: double, no time
         "GemmTunableOp_BFloat16_TN,tn_11008_8192_4096_ld_4096_4096_11008,Default,0.7\n";            // 14: repeat
}

TEST(TunableOpCsv, ParsesValidatorsEntriesAndErrors) {
  const CsvFile f = parse_csv(sample_file(), "results0.csv");
  ASSERT_EQ(f.validators.size(), 3u);
  EXPECT_EQ(f.validator("PT_VERSION"), "2.10.0");
  EXPECT_EQ(f.validator("CUBLASLT_VERSION"), "130002");  // the \r of a CRLF line is not part of the value
  EXPECT_EQ(f.validator("CUDA_DEVICE"), "9.0:NVIDIA H100 80GB HBM3");
  ASSERT_EQ(f.entries.size(), 7u);
  EXPECT_EQ(f.entries[0].line, 4);
  EXPECT_EQ(f.entries[0].op_signature, "GemmTunableOp_BFloat16_TN");
  EXPECT_EQ(f.entries[0].solution, kAlgo66);
  EXPECT_DOUBLE_EQ(*f.entries[0].time_ms, 0.512);
  EXPECT_EQ(f.entries[2].line, 7);
  EXPECT_EQ(f.entries[4].line, 11);
  EXPECT_EQ(f.entries[4].blas_params, "BLAS_PARAMS: - { function: matmul, M: 256 }");
  EXPECT_EQ(f.entries[6].line, 13);
  EXPECT_FALSE(f.entries[6].time_ms.has_value());
  ASSERT_EQ(f.errors.size(), 3u);
  EXPECT_EQ(f.errors[0], "results0.csv:8: expected <op signature>,<params signature>,<solution>[,<time ms>]; found 2 field(s)");
  EXPECT_EQ(f.errors[1], "results0.csv:9: the time 'fast' is not a number of milliseconds");
  EXPECT_NE(f.errors[2].find("results0.csv:14: repeats GemmTunableOp_BFloat16_TN,tn_11008_8192_4096"), std::string::npos);
  EXPECT_NE(f.errors[2].find("of line 4"), std::string::npos);
}

TEST(TunableOpCsv, MapsEntriesToProblemsAndConfigs) {
  const ImportResult r = import_file(parse_csv(sample_file(), "results0.csv"));
  ASSERT_EQ(r.mapped.size(), 5u);
  ASSERT_EQ(r.unmapped.size(), 2u);
  const Mapped& linear = r.mapped[0];
  EXPECT_EQ(linear.problem->name(), "gemm 8192x11008x4096 bf16 nt");
  ASSERT_TRUE(linear.config.has_value());
  const cublaslt::AlgoConfig algo = cublaslt::algo_config_from(*linear.config);
  EXPECT_EQ(algo.algo_id, 66);
  EXPECT_EQ(algo.tile, 20u);
  EXPECT_EQ(algo.stages, 8u);

  const Mapped& bias = r.mapped[1];  // GemmAndBias: bias per output column, f16
  EXPECT_TRUE(bias.problem->bias);
  EXPECT_EQ(bias.problem->precision, Precision::F16);
  EXPECT_EQ(bias.problem->layout(), "nt");
  EXPECT_EQ(bias.problem->m, 1024);
  EXPECT_EQ(bias.problem->n, 4096);
  EXPECT_EQ(bias.solution.kind, Solution::Kind::Default);
  EXPECT_FALSE(bias.config.has_value());

  const Mapped& batched = r.mapped[2];  // BLAS nn, m 128, n 256: row-major M 256, N 128
  EXPECT_EQ(batched.problem->batch, 32);
  EXPECT_EQ(batched.problem->m, 256);
  EXPECT_EQ(batched.problem->n, 128);
  EXPECT_EQ(batched.problem->k, 64);
  EXPECT_EQ(batched.problem->layout(), "nn");
  EXPECT_EQ(cublaslt::algo_config_from(*batched.config).splitk, 4);
  EXPECT_EQ(cublaslt::algo_config_from(*batched.config).reduction, cublaslt::lt::kReductionInplace);

  EXPECT_EQ(r.mapped[3].solution.kind, Solution::Kind::Rocm);  // the shape maps, the solution does not
  EXPECT_FALSE(r.mapped[3].config.has_value());
  EXPECT_EQ(r.mapped[4].problem->precision, Precision::F32);

  EXPECT_EQ(r.unmapped[0].entry.line, 12);
  EXPECT_NE(r.unmapped[0].reason.find("wildcard"), std::string::npos);
  EXPECT_EQ(r.unmapped[1].entry.line, 13);
  EXPECT_NE(r.unmapped[1].reason.find("'double'"), std::string::npos);
  const nlohmann::json j = r.to_json();
  EXPECT_EQ(j["entries"][0]["tune_command"], "ktune tune gemm --m 8192 --n 11008 --k 4096 --dtype bf16 --layout nt");
  EXPECT_EQ(j["errors"].size(), 3u);
}

// The header's worked example: y = x @ w.T, x [8192, 4096], w [11008, 4096] (ktune "nt").
TEST(TunableOpCsv, LayoutMappingWorkedExample) {
  GemmProblem p;
  p.m = 8192;
  p.n = 11008;
  p.k = 4096;
  set_layout(p, "nt");
  const auto sig = std::get<SignaturePair>(signature_for(p));
  EXPECT_EQ(sig.op, "GemmTunableOp_BFloat16_TN");
  EXPECT_EQ(sig.params, "tn_11008_8192_4096_ld_4096_4096_11008");
  // The same column-major call ktune itself makes (cublaslt::lt_shape): X = B transposed, ld K.
  const cublaslt::LtShape lt = cublaslt::lt_shape(p);
  EXPECT_EQ(lt.op_x, cublaslt::lt::kOpT);
  EXPECT_EQ(lt.op_y, cublaslt::lt::kOpN);
  EXPECT_EQ(lt.ld_x, 4096);
  EXPECT_EQ(lt.ld_y, 4096);
  EXPECT_EQ(lt.ld_d, 11008);
  // Every layout, batched or with bias, comes back as the same problem.
  for (const char* layout : {"nn", "nt", "tn", "tt"})
    for (int variant = 0; variant < 3; ++variant) {
      GemmProblem q;
      q.m = 96;
      q.n = 40;
      q.k = 72;
      q.precision = variant == 2 ? Precision::F16 : Precision::BF16;
      q.out = default_output(q.precision);
      q.batch = variant == 1 ? 3 : 1;
      q.bias = variant == 2;
      set_layout(q, layout);
      const auto s = std::get<SignaturePair>(signature_for(q));
      const Mapped m = map_entry({1, s.op, s.params, "Default", 1.0, ""});
      ASSERT_TRUE(m.problem) << s.op << " " << s.params << ": " << m.reason;
      EXPECT_EQ(*m.problem, q) << layout << " " << s.op << " " << s.params;
    }
}

TEST(TunableOpCsv, RejectsWhatKtuneDoesNotTune) {
  auto reason = [](const std::string& op, const std::string& params) { return map_entry({1, op, params, "Default", 1.0, ""}).reason; };
  EXPECT_NE(reason("GemmTunableOp_Half_NN", "nn_64_64_64_ld_80_64_64").find("leading dimensions 80/64/64"), std::string::npos);
  EXPECT_NE(reason("GemmTunableOp_Half_NT", "nn_64_64_64_ld_64_64_64").find("the op says NT but the params say nn"), std::string::npos);
  EXPECT_NE(reason("GemmTunableOp_float_NN", "nn_64_64_64_ld_64_64_64_compute_bf16x9_r").find("BF16x9"), std::string::npos);
  EXPECT_NE(reason("ConvTunableOp_Half_NN", "nn_1_1_1").find("not one of TunableOp's GEMMs"), std::string::npos);
  EXPECT_NE(reason("ScaledGemmTunableOp_Float8_e4m3fn_Float8_e4m3fn_BFloat16_TN",
                   "tn_64_64_64_ld_64_64_64_rw_1_bias_None").find("row-wise"), std::string::npos);
  // Older signatures without leading dimensions still map (dense assumed, and said so).
  const Mapped old = map_entry({1, "GemmTunableOp_float_NT", "nt_25088_4096_64", "1219", 1.262, ""});
  ASSERT_TRUE(old.problem);
  EXPECT_EQ(old.problem->m, 4096);
  EXPECT_EQ(old.problem->n, 25088);
  EXPECT_EQ(old.problem->layout(), "tn");
  EXPECT_EQ(old.solution.kind, Solution::Kind::Unknown);
  // fp8: e4m3 inputs, bf16 output and bias.
  const Mapped fp8 = map_entry({1, "ScaledGemmTunableOp_Float8_e4m3fn_Float8_e4m3fn_BFloat16_TN",
                                "tn_4096_2048_1024_ld_1024_1024_4096_rw_0_bias_BFloat16", "Default", 0.3, ""});
  ASSERT_TRUE(fp8.problem) << fp8.reason;
  EXPECT_EQ(fp8.problem->name(), "gemm 2048x4096x1024 fp8 nt +bias");
}

TEST(TunableOpCsv, SolutionNames) {
  cublaslt::AlgoConfig a;
  a.algo_id = 71;
  a.tile = 24;
  a.stages = 35;
  a.splitk = 3;
  a.reduction = cublaslt::lt::kReductionOutputType;
  a.swizzle = 1;
  a.custom = 5;
  a.inner_shape = 2;
  a.cluster = 7;
  const std::string name = cublaslt_solution_name(a);
  EXPECT_EQ(name, "Gemm_Cublaslt_id_71_tile_24_stages_35_splitk_3_red_4_swizzle_1_custom_5_inner_2_cluster_7");
  EXPECT_EQ(parse_solution(name).algo, a);
  // Built without CUBLAS_VERSION >= 12000 PyTorch leaves inner/cluster out.
  const Solution short_form = parse_solution("Gemm_Cublaslt_id_6_tile_18_stages_8_splitk_1_red_0_swizzle_0_custom_0");
  ASSERT_EQ(short_form.kind, Solution::Kind::Cublaslt);
  EXPECT_EQ(short_form.algo->cluster, 0);
  const Solution legacy = parse_solution("Gemm_Cublaslt_TN_3");
  EXPECT_EQ(legacy.kind, Solution::Kind::CublasltIndex);
  EXPECT_EQ(legacy.index, 3);
  EXPECT_EQ(parse_solution("Gemm_Rocblas_4521").kind, Solution::Kind::Rocm);
  EXPECT_EQ(parse_solution("Gemm_Cublaslt_id_x_tile_1").kind, Solution::Kind::Unknown);
}

// ---- database round trip -----------------------------------------------------------------

struct Filled {
  db::Database db{":memory:"};
  std::int64_t device = 0, lt_kernel = 0, gen_kernel = 0, pick_kernel = 0;
  cublaslt::AlgoConfig algo;

  Filled() {
    device = db.upsert_device({0, "fp-h100", "cuda", "NVIDIA H100 80GB HBM3",
                               {{"compute_capability", "9.0"}, {"name", "NVIDIA H100 80GB HBM3"}}});
    lt_kernel = db.upsert_kernel({0, sha256_hex("lt"), "cublaslt 13.0.2", "cublaslt", ""});
    gen_kernel = db.upsert_kernel({0, sha256_hex("gen"), "generated g3 nvrtc 12.8", "generated", ""});
    pick_kernel = db.upsert_kernel({0, sha256_hex("ktune-gemm-pick\n"), "gemm pick", "gemm-pick", ""});
    algo.algo_id = 66;
    algo.tile = 20;
    algo.stages = 8;
    algo.splitk = 2;
    algo.reduction = cublaslt::lt::kReductionInplace;
  }

  // A candidate row under `kernel` and the pick row pointing at it.
  void pick(const GemmProblem& p, std::int64_t kernel, const Config& config, double median_s) {
    const std::int64_t problem =
        db.upsert_problem({0, p.hash(), p.name(), {{"M", p.m}, {"N", p.n}, {"K", p.k}}, p.to_json()});
    db::ResultRecord r;
    r.device_id = device;
    r.kernel_id = kernel;
    r.problem_id = problem;
    r.config_key = config_key(config);
    r.config = config_to_json(config);
    r.median_s = median_s;
    r.samples = 20;
    const std::int64_t measured = db.insert_result(r);
    r.kernel_id = pick_kernel;
    r.resources = {{"picked_from", {{"family", config.at("family").as_string()}, {"result_id", measured}}}};
    db.insert_result(r);
  }
};

GemmProblem problem(std::int64_t m, std::int64_t n, std::int64_t k, const char* layout, Precision precision = Precision::BF16) {
  GemmProblem p;
  p.m = m;
  p.n = n;
  p.k = k;
  p.precision = precision;
  p.out = default_output(precision);
  set_layout(p, layout);
  return p;
}

TEST(TunableOpCsv, ExportImportRoundTrip) {
  Filled f;
  const GemmProblem linear = problem(8192, 11008, 4096, "nt");
  GemmProblem batched = problem(256, 128, 64, "nn", Precision::F16);
  batched.batch = 32;
  f.pick(linear, f.lt_kernel, cublaslt::to_config(f.algo, 0), 512e-6);
  f.pick(batched, f.lt_kernel, cublaslt::to_config(f.algo, -1), 20e-6);
  f.pick(problem(4096, 4096, 4096, "nn"), f.gen_kernel,
         {{"family", Value::string("generated")}, {"path", Value::string("wgmma")}}, 1e-3);
  f.pick(problem(2048, 2048, 2048, "nt", Precision::F8E4M3), f.lt_kernel, cublaslt::to_config(f.algo, 0), 1e-4);

  EXPECT_THROW(export_picks(f.db, {}), ExportError);  // no PT_VERSION: PyTorch would reject the file
  ExportOptions options;
  options.overrides["PT_VERSION"] = "2.10.0";
  const ExportResult out = export_picks(f.db, options);
  ASSERT_EQ(out.entries.size(), 2u);
  ASSERT_EQ(out.skipped.size(), 2u);
  EXPECT_NE(out.skipped[0].reason.find("generated kernel"), std::string::npos);
  EXPECT_NE(out.skipped[1].reason.find("ScaledGemmTunableOp registers only Default"), std::string::npos);
  const std::string text = out.text();
  EXPECT_EQ(text.substr(0, text.find("GemmTunableOp")),
            "Validator,PT_VERSION,2.10.0\nValidator,CUBLASLT_VERSION,130002\n"
            "Validator,CUDA_DEVICE,9.0:NVIDIA H100 80GB HBM3\n");
  EXPECT_NE(text.find("GemmTunableOp_BFloat16_TN,tn_11008_8192_4096_ld_4096_4096_11008,"
                      "Gemm_Cublaslt_id_66_tile_20_stages_8_splitk_2_red_1_swizzle_0_custom_0_inner_0_cluster_0,0.512\n"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("GemmStridedBatchedTunableOp_Half_NN,nn_128_256_64_B_32_ld_128_64_128,"), std::string::npos) << text;

  const ImportResult back = import_file(parse_csv(text, "exported.csv"));
  EXPECT_TRUE(back.file.errors.empty());
  ASSERT_EQ(back.mapped.size(), 2u);
  EXPECT_EQ(*back.mapped[0].problem, linear);
  EXPECT_EQ(*back.mapped[1].problem, batched);
  EXPECT_EQ(cublaslt::algo_config_from(*back.mapped[0].config), f.algo);
  EXPECT_EQ(back.file.validator("CUBLASLT_VERSION"), "130002");

  // Recorded under a device and kernel of their own: the real device's best is untouched.
  EXPECT_EQ(record_entries(f.db, back), 2);
  const auto device = f.db.device_by_fingerprint("tunableop:9.0:NVIDIA H100 80GB HBM3");
  ASSERT_TRUE(device.has_value());
  db::ResultQuery q;
  q.device_id = device->id;
  const std::vector<db::ResultRecord> rows = f.db.query(q);
  ASSERT_EQ(rows.size(), 2u);
  EXPECT_EQ(rows[0].stop_reason, "imported");
  EXPECT_DOUBLE_EQ(*rows[0].median_s, 512e-6);
}

TEST(TunableOpCsv, AGeneratedPickIsExportedAsTheFastestCublasltConfiguration) {
  Filled f;
  const GemmProblem p = problem(4096, 4096, 4096, "nn");
  cublaslt::AlgoConfig slower = f.algo;
  slower.algo_id = 21;
  f.pick(p, f.lt_kernel, cublaslt::to_config(slower, 0), 1.3e-3);   // cuBLASLt's, slower
  f.pick(p, f.lt_kernel, cublaslt::to_config(f.algo, 1), 1.1e-3);   // cuBLASLt's fastest
  f.pick(p, f.gen_kernel, {{"family", Value::string("generated")}, {"path", Value::string("wgmma")}}, 1e-3);
  f.pick(problem(2048, 2048, 2048, "nn"), f.gen_kernel,
         {{"family", Value::string("generated")}, {"path", Value::string("wgmma")}}, 1e-4);  // nothing to replace it
  ExportOptions options;
  options.overrides["PT_VERSION"] = "2.10.0";
  const ExportResult out = export_picks(f.db, options);
  ASSERT_EQ(out.entries.size(), 1u);
  EXPECT_EQ(out.entries[0].solution, cublaslt_solution_name(f.algo));
  EXPECT_NEAR(*out.entries[0].time_ms, 1.1, 1e-9);
  EXPECT_EQ(out.replaced, std::vector<std::string>{p.name()});
  EXPECT_EQ(out.to_json().at("entries")[0].at("replaces_generated_kernel"), true);
  ASSERT_EQ(out.skipped.size(), 1u);
  EXPECT_NE(out.skipped[0].reason.find("generated kernel"), std::string::npos);
}

TEST(TunableOpCsv, ExportFollowsTheValidatorsOfAnImportedFile) {
  Filled f;
  f.pick(problem(1024, 1024, 1024, "nn"), f.lt_kernel, cublaslt::to_config(f.algo, 0), 1e-4);
  const CsvFile theirs = parse_csv("Validator,PT_VERSION,2.9.1\nValidator,CUBLASLT_VERSION,120804\n"
                                   "Validator,CUDA_DEVICE,9.0:NVIDIA H100 80GB HBM3\n",
                                   "theirs.csv");
  ExportOptions options;
  options.validators = theirs.validators;
  const ExportResult out = export_picks(f.db, options);
  EXPECT_TRUE(out.entries.empty());  // measured with 13.0.2: that PyTorch loads 12.8.4
  ASSERT_EQ(out.skipped.size(), 1u);
  EXPECT_EQ(out.skipped[0].reason, "measured with cuBLASLt 130002; the file declares CUBLASLT_VERSION 120804");
  EXPECT_EQ(out.validators, theirs.validators);
  options.overrides["CUBLASLT_VERSION"] = "130002";  // the user says their PyTorch loads 13.0.2
  EXPECT_EQ(export_picks(f.db, options).entries.size(), 1u);
  options.device = "some other GPU";
  EXPECT_THROW(export_picks(f.db, options), ExportError);
}

}  // namespace
}  // namespace ktune::gemm::tunableop
