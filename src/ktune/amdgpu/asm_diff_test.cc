// asm diff's normalisation of llvm-objdump output and its line diff (no toolchain needed).

#include "ktune/amdgpu/asm_diff.h"

#include <gtest/gtest.h>

namespace ktune::amdgpu {
namespace {

TEST(AsmDiff, NormalizesAddressesAndBranchOffsets) {
  const std::string a = R"(
kernels.hsaco:	file format elf64-amdgpu

Disassembly of section .text:

0000000000001000 <k>:
	s_mov_b32 s0, 0                                            // 000000001000: BE800080
	v_add_f32_e32 v1, v1, v2                                   // 000000001004: 02020501
	s_cbranch_scc0 65534                                       // 000000001008: BF84FFFE <k+0x4>
	s_endpgm                                                   // 00000000100C: BF810000
)";
  const std::string b = R"(
0000000000001000 <k>:
	s_mov_b32 s0, 0                                            // 000000001000: BE800080
	v_add_f32_e32 v1, v1, v2                                   // 000000001004: 02020501
	s_nop 0                                                    // 000000001008: BF800000
	s_cbranch_scc0 65533                                       // 00000000100C: BF84FFFD <k+0x4>
	s_endpgm                                                   // 000000001010: BF810000
)";
  const auto la = normalize_objdump(a);
  const auto lb = normalize_objdump(b);
  ASSERT_EQ(la.size(), 6u);  // header, 3 instructions + a label, endpgm
  EXPECT_EQ(la[2].text, "L0:");
  EXPECT_EQ(la[4].text, "  s_cbranch_scc0 L0");
  EXPECT_EQ(la[1].source_line, 7);
  const auto changes = diff_lines(la, lb);
  ASSERT_EQ(changes.size(), 1u);
  EXPECT_EQ(changes[0].kind, AsmChange::Kind::Added);
  EXPECT_EQ(lb[changes[0].b_index].text, "  s_nop 0");

  // Larger edits: replaced and removed lines; the diff reproduces b from a.
  std::vector<AsmLine> x, y;
  for (const char* t : {"a", "b", "c", "d", "e", "f"}) x.push_back({t, 0});
  for (const char* t : {"a", "X", "c", "e", "f", "g"}) y.push_back({t, 0});
  const auto c = diff_lines(x, y);
  int changed = 0, added = 0, removed = 0;
  for (const auto& ch : c) {
    if (ch.kind == AsmChange::Kind::Changed) ++changed;
    if (ch.kind == AsmChange::Kind::Added) ++added;
    if (ch.kind == AsmChange::Kind::Removed) ++removed;
  }
  EXPECT_EQ(changed, 1);
  EXPECT_EQ(added, 1);
  EXPECT_EQ(removed, 1);
  const std::string unified = format_unified(x, y, c, "x", "y", 1);
  EXPECT_NE(unified.find("-b\n+X\n"), std::string::npos) << unified;
  EXPECT_NE(unified.find("-d\n"), std::string::npos) << unified;
  EXPECT_NE(unified.find("+g\n"), std::string::npos) << unified;
}

}  // namespace
}  // namespace ktune::amdgpu
