// `ktune inspect` and `ktune asm` through the real binary: AMD code objects and assembly (the
// amdgpu testdata, and kernels compiled here with clang-19/22 when installed), cubins compiled
// with NVRTC, results in a database, a spec configuration, and bad input.

#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include <nlohmann/json.hpp>

#include "ktune/amdgpu/elf64.h"
#include "ktune/amdgpu/toolchain.h"
#include "ktune/cli/cubin_info.h"
#include "ktune/core/read_file.h"
#include "ktune/db/database.h"
#include "ktune/device/cuda/nvrtc.h"
#include "support/cli_run.h"

namespace {
namespace fs = std::filesystem;

using ktune::testing::CommandResult;
using ktune::testing::ktune_binary;

fs::path temp_dir() {
  static const fs::path dir = [] {
    auto d = fs::temp_directory_path() / ("ktune-inspect-cli-" + std::to_string(::getpid()));
    fs::create_directories(d);
    return d;
  }();
  return dir;
}

CommandResult ktune(const std::string& args) {
  return ktune::testing::run_command(ktune::testing::shell_quote(ktune_binary().string()) + " " + args, temp_dir());
}

// Output that is not JSON comes back discarded, with no failure of its own: the tests check.
nlohmann::json json_of(const CommandResult& r) { return nlohmann::json::parse(r.out, nullptr, false); }

std::string testdata(const std::string& name) {
  return (ktune::testing::source_dir() / "src/ktune/amdgpu/testdata" / name).string();
}

const nlohmann::json* kernel_named(const nlohmann::json& report, const std::string& name) {
  for (const auto& k : report["kernels"])
    if (k["name"] == name) return &k;
  return nullptr;
}

void write(const fs::path& path, const std::string& text) {
  std::ofstream(path, std::ios::binary) << text;
}

// ---- AMD code objects -----------------------------------------------------------------------

TEST(InspectCli, AmdCodeObjectElfFactsResourcesOccupancy) {
  const CommandResult r = ktune("inspect " + testdata("kernels_hip_gfx942.hsaco") + " --json");
  ASSERT_EQ(r.code, 0) << r.err << r.out;
  const nlohmann::json j = json_of(r);
  ASSERT_TRUE(j.is_object()) << r.out;
  EXPECT_EQ(j["kind"], "amdgpu-code-object");
  EXPECT_EQ(j["target"], "gfx942");
  EXPECT_NE(j["facts"]["machine"].get<std::string>().find("224"), std::string::npos);
  EXPECT_NE(j["facts"]["e_flags"].get<std::string>().find("gfx942"), std::string::npos);
  EXPECT_NE(j["facts"]["abi_version"].get<std::string>().find("code object v5"), std::string::npos);
  ASSERT_GE(j["kernels"].size(), 4u);
  // The MFMA 32x32 kernel keeps its accumulators in AGPRs: 136 unified VGPRs -> 3 waves/SIMD.
  const nlohmann::json* mfma = nullptr;
  for (const auto& k : j["kernels"])
    if (k["resources"]["agprs"].get<int>() > 0) mfma = &k;
  ASSERT_NE(mfma, nullptr) << j.dump(1);
  EXPECT_EQ((*mfma)["occupancy"]["waves_per_simd_limit"]["vgprs"], 3) << mfma->dump(1);
  ASSERT_FALSE((*mfma)["hints"].empty());
  EXPECT_NE((*mfma)["hints"][0].get<std::string>().find("fewer VGPRs"), std::string::npos) << (*mfma)["hints"];
  // The forced spill shows as scratch.
  bool spill_seen = false;
  for (const auto& k : j["kernels"])
    if (k["resources"]["vgpr_spills"].get<int>() > 0 && k["resources"]["scratch_bytes_per_lane"].get<int>() > 0)
      spill_seen = true;
  EXPECT_TRUE(spill_seen) << j.dump(1);

  // Text: the same facts for a person.
  const CommandResult text = ktune("inspect " + testdata("kernels_hip_gfx942.hsaco") + " --block 256");
  ASSERT_EQ(text.code, 0) << text.err;
  EXPECT_NE(text.out.find("occupancy: "), std::string::npos) << text.out;
  EXPECT_NE(text.out.find("what would raise occupancy"), std::string::npos) << text.out;
  EXPECT_NE(text.out.find("256 threads per workgroup"), std::string::npos) << text.out;
}

TEST(InspectCli, AmdCodeObjectIsaFindingsNameLines) {
  if (!ktune::amdgpu::Toolchain::find("gfx942")) GTEST_SKIP() << "no clang/llvm-objdump for gfx942";
  const CommandResult r = ktune("inspect " + testdata("kernels_hip_gfx942.hsaco") + " --json");
  ASSERT_EQ(r.code, 0) << r.err;
  const nlohmann::json j = json_of(r);
  ASSERT_TRUE(j["isa"].is_object()) << j["notes"];
  EXPECT_EQ(j["isa"]["dialect"], "amdgpu");
  int findings = 0;
  for (const auto& k : j["kernels"]) {
    for (const auto& f : k["findings"]) {
      if (f["count"].get<int>() == 0) continue;  // a kernel-wide summary, no instruction to name
      ++findings;
      ASSERT_FALSE(f["lines"].empty()) << f;
      EXPECT_GT(f["lines"][0]["line"].get<int>(), 0);
    }
  }
  EXPECT_GT(findings, 0) << j.dump(1);
  // The spilling kernel's scratch traffic is a finding.
  bool scratch = false;
  for (const auto& k : j["kernels"])
    for (const auto& f : k["findings"])
      if (f["check"] == "scratch") scratch = true;
  EXPECT_TRUE(scratch) << j.dump(1);
}

TEST(InspectCli, AmdAssemblyMatchesItsCodeObject) {
  const nlohmann::json s = json_of(ktune("inspect " + testdata("kernels_hip_gfx90a.s") + " --json"));
  const nlohmann::json o = json_of(ktune("inspect " + testdata("kernels_hip_gfx90a.hsaco") + " --json"));
  ASSERT_TRUE(s.is_object() && o.is_object());
  EXPECT_EQ(s["kind"], "amdgpu-assembly");
  EXPECT_EQ(s["target"], "gfx90a");
  ASSERT_EQ(s["kernels"].size(), o["kernels"].size());
  for (std::size_t i = 0; i < s["kernels"].size(); ++i) {
    EXPECT_EQ(s["kernels"][i]["occupancy"]["waves_per_simd"], o["kernels"][i]["occupancy"]["waves_per_simd"]);
    // clang's own comment agrees with ktune's computation of it.
    EXPECT_EQ(s["kernels"][i]["resources"]["compiler_occupancy (; Occupancy:)"],
              s["kernels"][i]["occupancy"]["compiler_occupancy"])
        << s["kernels"][i]["name"];
  }
}

// ---- bad input ------------------------------------------------------------------------------

TEST(InspectCli, BadInputNamesTheFileAndWhatIsWrong) {
  CommandResult r = ktune("inspect /nonexistent/k.hsaco");
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("/nonexistent/k.hsaco: no such file"), std::string::npos) << r.err;

  const fs::path text = temp_dir() / "notes.txt";
  write(text, "hello\n");
  r = ktune("inspect " + text.string());
  EXPECT_EQ(r.code, 3);
  EXPECT_NE(r.err.find(text.string() + ": not an ELF file"), std::string::npos) << r.err;

  // ELF magic, then garbage.
  const fs::path broken = temp_dir() / "broken.hsaco";
  std::string bytes = ktune::read_file(testdata("kernels_hip_gfx942.hsaco")).value();
  bytes.resize(200);
  write(broken, bytes);
  r = ktune("inspect " + broken.string());
  EXPECT_EQ(r.code, 3) << r.out;
  EXPECT_NE(r.err.find("broken.hsaco"), std::string::npos) << r.err;

  // An x86 ELF.
  r = ktune("inspect " + ktune_binary().string());
  EXPECT_EQ(r.code, 3);
  EXPECT_NE(r.err.find("machine 62"), std::string::npos) << r.err;

  r = ktune("inspect");
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("nothing to inspect"), std::string::npos) << r.err;
}

TEST(InspectCli, UnknownResultIdAndMissingDatabase) {
  const fs::path db_path = temp_dir() / "empty.db";
  { ktune::db::Database db(db_path); }
  CommandResult r = ktune("--db " + db_path.string() + " inspect --result 42");
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("no result with id 42"), std::string::npos) << r.err;
  r = ktune("--db " + (temp_dir() / "absent.db").string() + " inspect --result 1");
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("no tuning database"), std::string::npos) << r.err;
  EXPECT_FALSE(fs::exists(temp_dir() / "absent.db"));
}

// ---- results in the database ----------------------------------------------------------------

TEST(InspectCli, ResultUsesRecordedResourcesAndDeviceProperties) {
  const fs::path db_path = temp_dir() / "results.db";
  std::int64_t id = 0;
  {
    ktune::db::Database db(db_path);
    ktune::db::DeviceRecord dev;
    dev.fingerprint = "test-h100";
    dev.backend = "cuda";
    dev.name = "NVIDIA H100 (recorded)";
    // What CudaBackend::devices() records for an H100 (the fields occupancy needs).
    dev.properties = {{"compute_capability", "9.0"},
                      {"compute_major", 9},
                      {"compute_minor", 0},
                      {"target", "sm_90a"},
                      {"multiprocessors", 132},
                      {"warp_size", 32},
                      {"max_threads_per_block", 1024},
                      {"max_threads_per_multiprocessor", 2048},
                      {"max_blocks_per_multiprocessor", 32},
                      {"registers_per_multiprocessor", 65536},
                      {"registers_per_block", 65536},
                      {"shared_memory_per_block", 49152},
                      {"shared_memory_per_block_optin", 232448},
                      {"shared_memory_per_multiprocessor", 233472},
                      {"reserved_shared_memory_per_block", 1024}};
    const auto device_id = db.upsert_device(dev);
    const auto kernel_id = db.upsert_kernel({0, "h", "sgemm", "cuda", "sgemm.cu"});
    const auto problem_id = db.upsert_problem({0, "p", "sgemm", nlohmann::json::object(), nlohmann::json::object()});
    ktune::db::ResultRecord r;
    r.device_id = device_id;
    r.kernel_id = kernel_id;
    r.problem_id = problem_id;
    r.config_key = "BM=64";
    r.config = {{"BM", 64}};
    r.median_s = 1e-3;
    r.resources = {{"registers", 128},      {"barriers", 1},        {"shared_bytes", 16384},
                   {"spill_store_bytes", 0}, {"spill_load_bytes", 0}, {"stack_frame_bytes", 0},
                   {"arch", "sm_90a"},
                   {"occupancy", {{"threads_per_block", 256}, {"dynamic_shared_bytes", 0}}}};
    id = db.insert_result(r);
  }
  const CommandResult run = ktune("--db " + db_path.string() + " inspect --result " + std::to_string(id) + " --json");
  ASSERT_EQ(run.code, 0) << run.err << run.out;
  const nlohmann::json j = json_of(run);
  ASSERT_EQ(j["kernels"].size(), 1u) << run.out;
  const nlohmann::json& k = j["kernels"][0];
  EXPECT_EQ(k["name"], "sgemm");
  EXPECT_EQ(k["resources"]["registers"], 128);
  // 128 regs x 256 threads = 32 K registers per block: 2 blocks/SM, limited by registers.
  EXPECT_EQ(k["occupancy"]["active_blocks_per_sm"], 2) << k.dump(1);
  EXPECT_EQ(k["occupancy"]["limiters"], nlohmann::json::array({"registers"}));
  ASSERT_FALSE(k["hints"].empty());
  EXPECT_NE(k["hints"][0].get<std::string>().find("fewer registers"), std::string::npos) << k["hints"];
  // A result with no database record of occupancy: --block fills in the launch.
  const CommandResult wide = ktune("--db " + db_path.string() + " inspect --result " + std::to_string(id) + " --block 512 --json");
  EXPECT_EQ(json_of(wide)["kernels"][0]["occupancy"]["active_blocks_per_sm"], 1);
}

TEST(InspectCli, AmdResultUsesItsMetadataFigures) {
  const fs::path db_path = temp_dir() / "amd.db";
  std::int64_t id = 0;
  {
    ktune::db::Database db(db_path);
    const auto device_id = db.upsert_device({0, "offline-gfx942", "hip", "gfx942 (offline)", {{"target", "gfx942"}}});
    const auto kernel_id = db.upsert_kernel({0, "h", "matmul", "hip", "m.hip"});
    const auto problem_id = db.upsert_problem({0, "p", "matmul", nlohmann::json::object(), nlohmann::json::object()});
    ktune::db::ResultRecord r;
    r.device_id = device_id;
    r.kernel_id = kernel_id;
    r.problem_id = problem_id;
    r.config_key = "T=1";
    r.resources = {{"vgpr_count", 171}, {"sgpr_count", 40}, {"lds_bytes", 0}, {"max_flat_workgroup_size", 256}};
    id = db.insert_result(r);
  }
  const CommandResult run = ktune("--db " + db_path.string() + " inspect --result " + std::to_string(id) + " --json");
  ASSERT_EQ(run.code, 0) << run.err << run.out;
  const nlohmann::json k = json_of(run)["kernels"][0];
  EXPECT_EQ(k["occupancy"]["waves_per_simd_limit"]["vgprs"], 2) << k.dump(1);
  ASSERT_FALSE(k["hints"].empty());
  EXPECT_NE(k["hints"][0].get<std::string>().find("3 fewer VGPRs (171 -> 168)"), std::string::npos) << k["hints"];
}

// ---- cubins (NVRTC, no GPU needed) ------------------------------------------------------------

std::optional<std::string> nvrtc_cubin(const std::string& source, const std::string& arch, std::string* why) {
  const auto nvrtc = ktune::cuda::NvrtcCompiler::load();
  if (!nvrtc) {
    *why = nvrtc.error;
    return std::nullopt;
  }
  const auto out = nvrtc->compile(source, "k.cu", {}, {}, arch);
  if (!out.ok) {
    *why = out.error;
    return std::nullopt;
  }
  return out.cubin;
}

constexpr const char* kCudaKernels = R"(
extern "C" __global__ void __launch_bounds__(256) staged(const float* x, float* y) {
  __shared__ float tile[2048];
  tile[threadIdx.x] = x[blockIdx.x * 256 + threadIdx.x];
  __syncthreads();
  asm volatile("bar.sync 3;");
  y[blockIdx.x * 256 + threadIdx.x] = tile[(threadIdx.x + 1) % 256];
}
extern "C" __global__ void spills(float* out, int n) {
  float v[64];
  for (int i = 0; i < 64; ++i) v[i] = out[i * n];
  float s = 0;
  for (int i = 0; i < n; ++i) s += v[(i * 7) % 64];
  out[0] = s;
}
)";

TEST(InspectCli, CubinNvInfoGivesRegistersSharedBarriersStack) {
  std::string why;
  const auto cubin = nvrtc_cubin(kCudaKernels, "sm_90", &why);
  if (!cubin) GTEST_SKIP() << "NVRTC not available: " << why;
  const ktune::cli::CubinInfo info = ktune::cli::parse_cubin(*cubin);
  EXPECT_EQ(info.sm, 90);
  EXPECT_EQ(info.arch, "sm_90");
  ASSERT_EQ(info.kernels.size(), 2u);
  const ktune::cli::CubinKernel* staged = nullptr;
  const ktune::cli::CubinKernel* spills = nullptr;
  for (const auto& k : info.kernels) (k.name == "staged" ? staged : spills) = &k;
  ASSERT_TRUE(staged && spills);
  ASSERT_TRUE(staged->registers.has_value());
  EXPECT_GT(*staged->registers, 0);
  EXPECT_EQ(staged->barriers, 4);  // bar.sync 3 -> barriers 0..3
  ASSERT_TRUE(staged->max_threads.has_value());
  EXPECT_EQ((*staged->max_threads)[0], 256);
  const std::int64_t reserved = info.shared_includes_reserved ? 1024 : 0;
  EXPECT_EQ(staged->shared_section_bytes.value_or(0) - reserved, 8192);
  EXPECT_GT(spills->frame_bytes.value_or(0), 0);

  const fs::path path = temp_dir() / "k.cubin";
  write(path, *cubin);
  const CommandResult r = ktune("inspect " + path.string() + " --json");
  ASSERT_EQ(r.code, 0) << r.err << r.out;
  const nlohmann::json j = json_of(r);
  EXPECT_EQ(j["kind"], "cubin");
  const nlohmann::json* k = kernel_named(j, "staged");
  ASSERT_NE(k, nullptr) << r.out;
  EXPECT_EQ((*k)["resources"]["static_shared_bytes"], 8192);
  EXPECT_EQ((*k)["resources"]["barriers"], 4);
  EXPECT_NE((*k)["launch"].get<std::string>().find("256 threads"), std::string::npos);  // launch bounds
  EXPECT_TRUE((*k)["occupancy"]["launchable"].get<bool>());
  const nlohmann::json* s = kernel_named(j, "spills");
  ASSERT_NE(s, nullptr);
  EXPECT_GT((*s)["resources"]["stack_frame_bytes"].get<int>(), 0);

  // Truncated: a clear error naming the file.
  const fs::path cut = temp_dir() / "cut.cubin";
  write(cut, cubin->substr(0, 100));
  const CommandResult bad = ktune("inspect " + cut.string());
  EXPECT_EQ(bad.code, 3);
  EXPECT_NE(bad.err.find("cut.cubin"), std::string::npos) << bad.err;
}

TEST(InspectCli, CubinParserRejectsMalformedInfo) {
  EXPECT_THROW(ktune::cli::parse_cubin("not an elf"), ktune::cli::CubinError);
  std::string why;
  const auto cubin = nvrtc_cubin(kCudaKernels, "sm_80", &why);
  if (!cubin) GTEST_SKIP() << "NVRTC not available: " << why;
  // Every single-byte corruption either parses or throws CubinError: never a crash.
  for (std::size_t at = 0; at < cubin->size(); at += 7) {
    std::string bad = *cubin;
    bad[at] = static_cast<char>(bad[at] ^ 0x5a);
    try {
      (void)ktune::cli::parse_cubin(bad);
    } catch (const ktune::cli::CubinError&) {
    }
  }
}

// Found by the cubin fuzzer: a section named exactly ".nv.info." used to yield a kernel with an
// empty name, which every later lookup by name then matched against unnamed symbols.
TEST(InspectCli, CubinParserRejectsPerKernelInfoWithoutAName) {
  std::string why;
  const auto cubin = nvrtc_cubin(kCudaKernels, "sm_80", &why);
  if (!cubin) GTEST_SKIP() << "NVRTC not available: " << why;
  std::string bad = *cubin;
  const std::string section = std::string(".nv.info.staged") + '\0';
  const std::size_t at = bad.find(section);
  ASSERT_NE(at, std::string::npos) << "the section name table has no .nv.info.staged";
  bad[at + std::string(".nv.info.").size()] = '\0';
  try {
    (void)ktune::cli::parse_cubin(bad);
    FAIL() << "a '.nv.info.' section without a kernel name was accepted";
  } catch (const ktune::cli::CubinError& e) {
    EXPECT_NE(std::string(e.what()).find("names no kernel"), std::string::npos) << e.what();
  }
}

TEST(InspectCli, CuobjdumpResourceUsageParses) {
  const auto usage = ktune::cli::parse_cuobjdump_resource_usage(R"(
Resource usage:
 Common:
  GLOBAL:0
 Function spill:
  REG:32 STACK:256 SHARED:0 LOCAL:0 CONSTANT[0]:540 TEXTURE:0 SURFACE:0 SAMPLER:0
 Function saxpy:
  REG:10 STACK:0 SHARED:5120 LOCAL:0 CONSTANT[0]:556 TEXTURE:0 SURFACE:0 SAMPLER:0
)");
  ASSERT_EQ(usage.size(), 2u);
  EXPECT_EQ(usage[0].name, "spill");
  EXPECT_EQ(usage[0].values.at("STACK"), 256);
  EXPECT_EQ(usage[1].values.at("SHARED"), 5120);
  EXPECT_EQ(usage[1].values.at("CONSTANT[0]"), 556);
}

// ---- a configuration of a spec --------------------------------------------------------------

TEST(InspectCli, CudaSpecConfigCompilesWithNvrtc) {
  std::string why;
  if (!nvrtc_cubin("__global__ void k() {}", "sm_90a", &why)) GTEST_SKIP() << "NVRTC not available: " << why;
  const std::string spec = (ktune::testing::source_dir() / "examples/cuda/sgemm/sgemm.yaml").string();
  const std::string config = "--config BM=64 --config BN=64 --config BK=16 --config TM=4 --config TN=4 --config VEC=4 "
                             "--config UNROLL=4 --config DB=1 --config PAD_A=4";
  const CommandResult r = ktune("inspect " + spec + " " + config + " --target sm_90a --json");
  ASSERT_EQ(r.code, 0) << r.err << r.out;
  const nlohmann::json j = json_of(r);
  EXPECT_EQ(j["kind"], "spec");
  EXPECT_EQ(j["target"], "sm_90a");
  ASSERT_EQ(j["kernels"].size(), 1u);
  const nlohmann::json& k = j["kernels"][0];
  EXPECT_GT(k["resources"]["registers"].get<int>(), 0);
  // 16x16 threads per block, (1 + DB) * BK * (BM + PAD_A + BN) * 4 dynamic shared bytes.
  EXPECT_NE(k["launch"].get<std::string>().find("256 threads"), std::string::npos) << k["launch"];
  EXPECT_NE(k["launch"].get<std::string>().find(std::to_string(2 * 16 * (64 + 4 + 64) * 4)), std::string::npos);
  EXPECT_TRUE(j["isa"].is_object());  // PTX (or SASS where cuobjdump exists)

  // Missing and unknown parameters, a wrong target: usage errors naming what is wrong.
  CommandResult bad = ktune("inspect " + spec + " --config BM=64 --target sm_90a");
  EXPECT_EQ(bad.code, 2);
  EXPECT_NE(bad.err.find("missing: BN"), std::string::npos) << bad.err;
  bad = ktune("inspect " + spec + " " + config + " --config NOPE=1");
  EXPECT_EQ(bad.code, 2);
  EXPECT_NE(bad.err.find("NOPE"), std::string::npos) << bad.err;
  bad = ktune("inspect " + spec + " " + config + " --target gfx942");
  EXPECT_EQ(bad.code, 2);
  EXPECT_NE(bad.err.find("AMD GPU"), std::string::npos) << bad.err;
}

TEST(InspectCli, HipSpecConfigCompilesForGfx942) {
  if (!ktune::amdgpu::Toolchain::find("gfx942")) GTEST_SKIP() << "no clang for gfx942";
  const fs::path dir = temp_dir() / "hipspec";
  fs::create_directories(dir);
  write(dir / "scale.hip", R"(
extern "C" __global__ void scale(float* x, int n) {
  __shared__ float tile[TILE];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  tile[threadIdx.x % TILE] = i < n ? x[i] : 0.0f;
  __syncthreads();
  if (i < n) x[i] = tile[(threadIdx.x + 1) % TILE] * 2.0f;
}
)");
  write(dir / "scale.yaml", R"(
name: hip_scale
kernel: {language: hip, source: scale.hip, entry: scale}
sizes: {N: 4096}
parameters:
  TILE: [256, 4096]
  BLOCK: [256]
launch: {grid: [N // BLOCK], block: [BLOCK]}
arguments:
  - {name: x, type: float32, length: N, output: true}
  - {name: n, type: int32, value: N}
)");
  const CommandResult r = ktune("inspect " + (dir / "scale.yaml").string() + " --config TILE=4096 --config BLOCK=256 --json");
  ASSERT_EQ(r.code, 0) << r.err << r.out;
  const nlohmann::json j = json_of(r);
  EXPECT_EQ(j["target"], "gfx942");
  const nlohmann::json* k = kernel_named(j, "scale");
  ASSERT_NE(k, nullptr) << r.out;
  EXPECT_EQ((*k)["resources"]["lds_bytes"], 16384);
  // 16 KiB of LDS per workgroup: 4 workgroups of 4 waves in 64 KiB -> 4 waves/SIMD, limited by LDS.
  EXPECT_EQ((*k)["occupancy"]["workgroups_limit"]["lds"], 4) << k->dump(1);
  EXPECT_NE((*k)["launch"].get<std::string>().find("256 threads"), std::string::npos);
  bool lds_hint = false;
  for (const auto& h : (*k)["hints"]) lds_hint |= h.get<std::string>().find("LDS") != std::string::npos;
  EXPECT_TRUE(lds_hint) << (*k)["hints"];
  const CommandResult nv = ktune("inspect " + (dir / "scale.yaml").string() + " --config TILE=256 --config BLOCK=256 --target sm_90");
  EXPECT_EQ(nv.code, 2);
  EXPECT_NE(nv.err.find("HIP kernel"), std::string::npos) << nv.err;
  const CommandResult unknown = ktune("inspect " + (dir / "scale.yaml").string() + " --config TILE=256 --config BLOCK=256 --target gfx1234");
  EXPECT_EQ(unknown.code, 2);
  EXPECT_NE(unknown.err.find("gfx1234"), std::string::npos) << unknown.err;
}

// ---- asm dump / reassemble / diff ---------------------------------------------------------------

std::string text_section(const fs::path& path) {
  const std::string bytes = ktune::read_file(path).value();
  const auto elf = ktune::amdgpu::parse_elf64(bytes);
  const auto* text = elf.find_section(".text");
  return text ? std::string(elf.section_data(*text)) : std::string();
}

TEST(AsmCli, ReassembleRoundTripAndOneLineEdit) {
  if (!ktune::amdgpu::Toolchain::find("gfx942")) GTEST_SKIP() << "no clang/lld/llvm for gfx942";
  const fs::path dir = temp_dir() / "dump";
  CommandResult r = ktune("asm dump " + testdata("kernels.hip") + " --target gfx942 -o " + dir.string() + " --json");
  ASSERT_EQ(r.code, 0) << r.err << r.out;
  const nlohmann::json dumped = json_of(r);
  const fs::path s = dumped["assembly"].get<std::string>();
  const fs::path hsaco = dumped["code_object"].get<std::string>();
  ASSERT_TRUE(fs::exists(s) && fs::exists(hsaco));

  // Unedited: the same .text, byte for byte.
  const fs::path again = temp_dir() / "again.hsaco";
  r = ktune("asm reassemble " + s.string() + " --target gfx942 -o " + again.string());
  ASSERT_EQ(r.code, 0) << r.err;
  const std::string original_text = text_section(hsaco);
  ASSERT_FALSE(original_text.empty());
  EXPECT_EQ(text_section(again), original_text);
  r = ktune("asm diff " + hsaco.string() + " " + again.string() + " --json");
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_TRUE(json_of(r)["changes"].empty()) << r.out;

  // One operand of one v_add_f32 changed: exactly one changed line.
  std::string asm_text = ktune::read_file(s).value();
  const auto at = asm_text.find("v_add_f32_e32 v1, v1, v15");
  ASSERT_NE(at, std::string::npos);
  std::string edited_text = asm_text;
  edited_text.replace(at, 25, "v_add_f32_e32 v1, v1, v16");
  const fs::path edited_s = temp_dir() / "edited.s";
  write(edited_s, edited_text);
  const fs::path edited = temp_dir() / "edited.hsaco";
  r = ktune("asm reassemble " + edited_s.string() + " -o " + edited.string());
  ASSERT_EQ(r.code, 0) << r.err;
  r = ktune("asm diff " + hsaco.string() + " " + edited.string() + " --json");
  ASSERT_EQ(r.code, 0) << r.err;
  nlohmann::json d = json_of(r);
  ASSERT_EQ(d["changes"].size(), 1u) << d.dump(1);
  EXPECT_EQ(d["changes"][0]["kind"], "changed");
  EXPECT_NE(d["changes"][0]["a_text"].get<std::string>().find("v15"), std::string::npos);
  EXPECT_NE(d["changes"][0]["b_text"].get<std::string>().find("v16"), std::string::npos);

  // An inserted s_nop inside a loop: one added line, branches over it unchanged.
  edited_text = asm_text;
  edited_text.insert(at, "s_nop 0\n\t");
  write(edited_s, edited_text);
  r = ktune("asm reassemble " + edited_s.string() + " -o " + edited.string());
  ASSERT_EQ(r.code, 0) << r.err;
  r = ktune("asm diff " + hsaco.string() + " " + edited.string() + " --json");
  d = json_of(r);
  ASSERT_EQ(d["changes"].size(), 1u) << d.dump(1);
  EXPECT_EQ(d["changes"][0]["kind"], "added");
  EXPECT_EQ(d["changes"][0]["b_text"], "  s_nop 0");
  const CommandResult unified = ktune("asm diff " + hsaco.string() + " " + edited.string());
  EXPECT_NE(unified.out.find("+  s_nop 0"), std::string::npos) << unified.out;
  const CommandResult sbs = ktune("asm diff " + hsaco.string() + " " + edited.string() + " --side-by-side");
  EXPECT_NE(sbs.out.find(">   s_nop 0"), std::string::npos) << sbs.out;

  // Target mismatch and broken assembly.
  r = ktune("asm reassemble " + s.string() + " --target gfx90a -o " + edited.string());
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("not for --target gfx90a"), std::string::npos) << r.err;
  write(edited_s, asm_text + "\n\tv_bogus_instruction v0\n");
  r = ktune("asm reassemble " + edited_s.string() + " -o " + edited.string());
  EXPECT_EQ(r.code, 3);
  EXPECT_NE(r.err.find("assembling"), std::string::npos) << r.err;
  r = ktune("asm diff /nonexistent.hsaco " + hsaco.string());
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("/nonexistent.hsaco: no such file"), std::string::npos) << r.err;
}

}  // namespace
