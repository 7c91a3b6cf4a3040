#include "ktune/amdgpu/kernel_metadata.h"

#include <gtest/gtest.h>

#include <fstream>
#include <iterator>
#include <string>

#include "ktune/amdgpu/code_object.h"

namespace ktune::amdgpu {
namespace {

std::string testdata(const std::string& name) {
  std::ifstream in(std::string(KTUNE_SOURCE_DIR) + "/src/ktune/amdgpu/testdata/" + name, std::ios::binary);
  EXPECT_TRUE(in.good()) << name;
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

std::string metadata_error(std::string_view yaml) {
  try {
    parse_metadata_yaml(yaml);
  } catch (const MetadataError& e) {
    return e.what();
  }
  return "no error";
}

// Every committed code object: the note (MessagePack) and the assembly's YAML agree field by field.
TEST(KernelMetadata, NoteAndAssemblyAgree) {
  for (const char* stem : {"kernels_hip_gfx942", "kernels_hip_gfx90a", "kernels_hip_gfx950", "kernels_cl_gfx942",
                           "kernels_cl_gfx90a"}) {
    SCOPED_TRACE(stem);
    const CodeObject co = parse_code_object(testdata(std::string(stem) + ".hsaco"));
    const CodeObjectMetadata from_asm = parse_asm_metadata(testdata(std::string(stem) + ".s"));
    EXPECT_EQ(compare_metadata(from_asm, co.metadata, "assembly", "note"), std::vector<std::string>{});
    EXPECT_EQ(from_asm, co.metadata);
    EXPECT_FALSE(co.metadata.kernels.empty());
  }
}

TEST(KernelMetadata, HipGfx942Facts) {
  const CodeObject co = parse_code_object(testdata("kernels_hip_gfx942.hsaco"));
  EXPECT_EQ(co.elf.code_object_version, 5);
  EXPECT_EQ(co.metadata.target, "amdgcn-amd-amdhsa--gfx942");
  EXPECT_EQ(co.metadata.version, (std::vector<std::int64_t>{1, 2}));
  ASSERT_EQ(co.metadata.kernels.size(), 5u);

  const KernelMetadata* mm = co.find_kernel("matmul_tiled");
  ASSERT_NE(mm, nullptr);
  EXPECT_EQ(mm->symbol, "matmul_tiled.kd");
  EXPECT_EQ(mm->group_segment_fixed_size, 2048);  // two 16x16 float tiles
  EXPECT_EQ(mm->max_flat_workgroup_size, 256);
  EXPECT_EQ(mm->wavefront_size, 64);
  EXPECT_EQ(mm->vgpr_count, 42);
  EXPECT_EQ(mm->agpr_count, 0);
  EXPECT_EQ(mm->kernarg_segment_size, 28);
  ASSERT_GE(mm->args.size(), 4u);
  EXPECT_EQ(mm->args[0].value_kind, "global_buffer");
  EXPECT_EQ(mm->args[0].address_space, "global");
  EXPECT_EQ(mm->args[0].access, "read_only");
  EXPECT_EQ(mm->args[3].value_kind, "by_value");
  EXPECT_EQ(mm->args[3].size, 4);

  const KernelMetadata* agpr = co.find_kernel("mfma32_agpr");
  ASSERT_NE(agpr, nullptr);
  EXPECT_EQ(agpr->agpr_count, 128);
  EXPECT_EQ(agpr->vgpr_count, 136);  // alignTo(8 arch VGPRs, 4) + 128 AGPRs

  const KernelMetadata* spill = co.find_kernel("spill_kernel");
  ASSERT_NE(spill, nullptr);
  EXPECT_GT(spill->vgpr_spill_count, 0);
  EXPECT_GT(spill->private_segment_fixed_size, 0);
  EXPECT_EQ(spill->max_flat_workgroup_size, 1024);

  ASSERT_EQ(co.kernel_code.size(), 5u);
  for (const auto& k : co.kernel_code) EXPECT_GT(k.code_bytes, 0u) << k.name;

  // Launched with 256 threads the AGPR kernel holds 3 waves per SIMD; with 1024 it cannot launch
  // (max_flat_workgroup_size 256), and dynamic LDS adds to the static 2 KiB of the matmul.
  const analysis::AmdgpuArch& gfx942 = analysis::amdgpu_arch(co.elf.processor);
  EXPECT_DOUBLE_EQ(kernel_occupancy(*agpr, gfx942).waves_per_simd, 3.0);
  EXPECT_FALSE(kernel_occupancy(*agpr, gfx942, 1024).launchable);
  EXPECT_EQ(occupancy_input(*mm, 128, 30000).lds_bytes, 32048);
  EXPECT_EQ(kernel_occupancy(*mm, gfx942, 128, 30000).workgroups_limit_lds, 2);

  const auto j = to_json(co);
  EXPECT_EQ(j["elf"]["processor"], "gfx942");
  EXPECT_EQ(j["metadata"]["kernels"][0]["name"], "matmul_tiled");
}

TEST(KernelMetadata, AsmKernelInfoComments) {
  const auto info = parse_asm_kernel_info(testdata("kernels_hip_gfx942.s"));
  ASSERT_EQ(info.size(), 5u);
  EXPECT_EQ(info[0].name, "matmul_tiled");
  EXPECT_EQ(info[0].occupancy, 8);
  EXPECT_EQ(info[0].total_num_vgprs, 42);
  EXPECT_EQ(info[0].lds_size, 2048);
  EXPECT_GT(info[0].code_length.value_or(0), 0);
  EXPECT_EQ(info[2].name, "mfma32_agpr");
  EXPECT_EQ(info[2].num_vgprs, 8);
  EXPECT_EQ(info[2].num_agprs, 128);
  EXPECT_EQ(info[2].total_num_vgprs, 136);
  EXPECT_EQ(info[2].occupancy, 3);
  EXPECT_EQ(info[3].name, "spill_kernel");
  EXPECT_EQ(info[3].scratch_size, 28);
  // clang-22 writes TotalNumSgprs instead of NumSgprs.
  const auto info22 = parse_asm_kernel_info(testdata("kernels_hip_gfx950.s"));
  ASSERT_EQ(info22.size(), 5u);
  EXPECT_EQ(info22[0].num_sgprs, 16);
}

TEST(KernelMetadata, ExtractsTheYamlBlockOnly) {
  const std::string text = "\t.text\n\t.amdgpu_metadata\n---\namdhsa.kernels: []\n...\n\n\t.end_amdgpu_metadata\n"
                           "; .amdgpu_metadata in a comment is not a directive\n";
  EXPECT_EQ(extract_asm_metadata_yaml(text), "---\namdhsa.kernels: []\n...\n\n");
  EXPECT_EQ(extract_asm_metadata_yaml("\t.text\n"), std::nullopt);
  EXPECT_TRUE(parse_asm_metadata(text).kernels.empty());
  try {
    parse_asm_metadata("s_endpgm\n");
    FAIL();
  } catch (const MetadataError& e) {
    EXPECT_NE(std::string(e.what()).find("no .amdgpu_metadata block"), std::string::npos);
  }
}

TEST(KernelMetadata, BadFieldsNameTheKernelAndField) {
  EXPECT_EQ(metadata_error("amdhsa.kernels:\n  - .name: k\n    .vgpr_count: lots\n"),
            "kernel 'k': .vgpr_count is a string, expected an integer");
  EXPECT_EQ(metadata_error("amdhsa.kernels:\n  - .name: k\n    .vgpr_count: -4\n"),
            "kernel 'k': .vgpr_count is out of range (0..2147483647)");
  EXPECT_EQ(metadata_error("amdhsa.kernels:\n  - .vgpr_count: 4\n"), "amdhsa.kernels[0]: .name is missing");
  EXPECT_EQ(metadata_error("amdhsa.kernels: 3\n"), "amdhsa.kernels is a uint, expected an array");
  EXPECT_EQ(metadata_error("amdhsa.target: x\n"), "AMDGPU metadata has no amdhsa.kernels");
  EXPECT_EQ(metadata_error("- 1\n"), "AMDGPU metadata is a array, expected a map");
  EXPECT_EQ(metadata_error("amdhsa.kernels:\n  - .name: k\n    .reqd_workgroup_size: [1, 2]\n"),
            "kernel 'k': .reqd_workgroup_size must be an array of 3 integers");
  EXPECT_EQ(metadata_error("amdhsa.kernels:\n  - .name: k\n    .args: 7\n"),
            "kernel 'k': .args is a uint, expected an array");
  EXPECT_NE(metadata_error("amdhsa.kernels: [\n").find("metadata YAML: "), std::string::npos);
  EXPECT_EQ(metadata_error(std::string(100, '[')), "metadata YAML nests [ ] / { } deeper than 64 levels");
  // Quoted numbers stay strings, and a quoted name is a name.
  EXPECT_EQ(metadata_error("amdhsa.kernels:\n  - .name: k\n    .sgpr_count: '12'\n"),
            "kernel 'k': .sgpr_count is a string, expected an integer");
  const auto md = parse_metadata_yaml(
      "amdhsa.kernels:\n  - .name: '42'\n    .reqd_workgroup_size: [64, 1, 1]\n    .uses_dynamic_stack: true\n");
  ASSERT_EQ(md.kernels.size(), 1u);
  EXPECT_EQ(md.kernels[0].name, "42");
  EXPECT_EQ(md.kernels[0].reqd_workgroup_size, (std::array<int, 3>{64, 1, 1}));
  EXPECT_TRUE(md.kernels[0].uses_dynamic_stack);
}

TEST(KernelMetadata, AliasExpansionIsBounded) {
  // Each level doubles the aliased nodes: 2^30 nodes if expanded naively.
  std::string yaml = "a0: &a0 [1, 1]\n";
  for (int i = 1; i < 30; ++i) {
    yaml += "a" + std::to_string(i) + ": &a" + std::to_string(i) + " [*a" + std::to_string(i - 1) + ", *a" +
            std::to_string(i - 1) + "]\n";
  }
  yaml += "amdhsa.kernels: []\n";
  EXPECT_NE(metadata_error(yaml).find("more than 4194304 nodes"), std::string::npos);
}

TEST(KernelMetadata, CompareReportsDifferences) {
  CodeObjectMetadata a = parse_asm_metadata(testdata("kernels_hip_gfx942.s"));
  CodeObjectMetadata b = a;
  b.kernels[1].vgpr_count += 2;
  b.kernels.pop_back();
  const auto diffs = compare_metadata(a, b, "assembly", "note");
  ASSERT_EQ(diffs.size(), 2u);
  EXPECT_EQ(diffs[0], "mfma16: vgpr_count 16 (assembly) vs 18 (note)");
  EXPECT_EQ(diffs[1], "kernel scalar_sum only in assembly");
}

TEST(KernelMetadata, JsonSurvivesInvalidUtf8Names) {
  KernelMetadata k;
  k.name = std::string("bad\xff\xfe name");
  EXPECT_NO_THROW(to_json(k).dump());
}

TEST(KernelMetadata, CodeObjectErrors) {
  try {
    parse_code_object("not elf");
    FAIL();
  } catch (const CodeObjectError& e) {
    EXPECT_STREQ(e.what(), "malformed ELF: not an ELF file (no \\x7fELF magic)");
  }
  std::string bytes = testdata("kernels_hip_gfx942.hsaco");
  bytes[18] = 62;  // EM_X86_64
  try {
    parse_code_object(bytes);
    FAIL();
  } catch (const CodeObjectError& e) {
    EXPECT_STREQ(e.what(), "not an AMDGPU code object: e_machine is 62, expected 224 (EM_AMDGPU)");
  }
  EXPECT_THROW(read_code_object("/nonexistent/k.hsaco"), CodeObjectError);
}

}  // namespace
}  // namespace ktune::amdgpu
