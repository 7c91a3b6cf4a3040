// The AMD tuning spec with the real IREE (the pinned wheels in .venv): written for chosen
// candidates, applied by iree-compile, and checked in IREE's own dump; a matcher for other sizes
// applies to nothing.
#include "ktune/iree/tuning_spec.h"

#include <gtest/gtest.h>

#include "ktune/iree/iree_test_fixture.h"

#include <unistd.h>

#include <cstdlib>
#include <fstream>

#include "ktune/core/read_file.h"

namespace ktune::iree {
namespace {
namespace fs = std::filesystem;

using testing::kSource;

TEST(TuningSpec, EmitsOneMatcherPerEntryAndOneForeachMatch) {
  ContractionMatch m;
  m.lhs_type = "f16", m.rhs_type = "f16", m.output_type = "f32";
  m.indexing_maps = "[affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>]";
  m.m = {512}, m.n = {4096}, m.k = {1024};
  const std::string text = emit_tuning_spec({{"a_dispatch_0", m, "#iree_codegen.compilation_info<X>"},
                                             {"a_dispatch_1", m, "#iree_codegen.compilation_info<Y>"}});
  EXPECT_NE(text.find("@match_a_dispatch_0("), std::string::npos);
  EXPECT_NE(text.find("@match_a_dispatch_1("), std::string::npos);
  EXPECT_NE(text.find("transform.iree.match.dims_equal %m, [512]"), std::string::npos);
  EXPECT_NE(text.find("transform.iree.match.dims_equal %batch, []"), std::string::npos);
  EXPECT_NE(text.find("@match_a_dispatch_0 -> @apply_op_config,\n        @match_a_dispatch_1 -> @apply_op_config\n"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("attributes {iree_codegen.tuning_spec_entrypoint}"), std::string::npos);
  EXPECT_EQ(parse_spec_choice("d_0=mma=X,sg=1x2").candidate, "mma=X,sg=1x2");
  EXPECT_THROW(parse_spec_choice("d_0"), IreeError);
}

using TuningSpecIree = testing::RealIree;

TEST_F(TuningSpecIree, ChosenCandidatesApplyOnGfx942AndGfx950) {
  for (const char* target : {"hip:gfx942", "hip:gfx950"}) {
    SCOPED_TRACE(target);
    const CompiledModel model =
        compile_model(tools_, kSource / "examples/iree/mlp_block_f16.mlir", parse_target(target), out_ / target / "default");
    // Candidates 2 and 3: not IREE's own choice (candidate 0), so taking them is visible.
    const WrittenSpec w = write_tuning_spec(tools_, model, {{"mlp_dispatch_0", "3"}, {"mlp_dispatch_1", "2"}},
                                            out_ / target / "spec.mlir", out_ / target / "with_spec");
    ASSERT_EQ(w.checks.size(), 2u);
    for (const SpecCheck& c : w.checks) EXPECT_TRUE(c.applied) << c.dispatch << ": wanted " << c.wanted << "\ngot " << c.got;
    EXPECT_TRUE(w.verified());
    for (std::size_t i = 0; i < 2; ++i)
      EXPECT_NE(compilation_info_of(model.dispatches[i].config), w.checks[i].got) << "the default was kept";
    EXPECT_EQ(to_json(w).at("verified"), true);
  }
}

TEST_F(TuningSpecIree, AMatcherForOtherSizesAppliesToNothing) {
  const CompiledModel model = compile_model(tools_, kSource / "examples/iree/mlp_block_f16.mlir", parse_target("hip:gfx942"),
                                            out_ / "default");
  const DumpedDispatch& d = model.dispatches[0];
  ContractionMatch m = contraction_match(d.config, *read_file(d.configured));
  EXPECT_EQ(m.lhs_type, "f16");
  EXPECT_EQ(m.output_type, "f32");
  m.k = {m.k[0] * 2};  // no contraction of the model has this K
  std::string info = compilation_info_of(d.config);
  const std::string from = "reduction = [0, 0, 8]", to = "reduction = [0, 0, 4]";
  ASSERT_NE(info.find(from), std::string::npos) << info;
  info.replace(info.find(from), from.size(), to);
  std::ofstream(out_ / "wrong.mlir") << emit_tuning_spec({{d.name, m, info}});
  CompileOptions options;
  options.extra_flags = {"--iree-codegen-tuning-spec-path=" + (out_ / "wrong.mlir").string()};
  const CompiledModel again =
      compile_model(tools_, kSource / "examples/iree/mlp_block_f16.mlir", parse_target("hip:gfx942"), out_ / "wrong", options);
  EXPECT_EQ(compilation_info_of(again.dispatches[0].config), compilation_info_of(d.config));
}

TEST_F(TuningSpecIree, ErrorsNameWhatIsWrong) {
  const CompiledModel model = compile_model(tools_, kSource / "examples/iree/transformer_block_f16.mlir",
                                            parse_target("hip:gfx942"), out_ / "transformer");
  auto message = [&](const std::vector<SpecChoice>& choices) {
    try {
      write_tuning_spec(tools_, model, choices, out_ / "s.mlir", out_ / "w");
    } catch (const IreeError& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_NE(message({{"transformer_block_dispatch_99", "1"}}).find("has no dispatch 'transformer_block_dispatch_99'"),
            std::string::npos);
  EXPECT_NE(message({{"transformer_block_dispatch_0", "999"}}).find("has no candidate '999'"), std::string::npos);
  // The softmax dispatch is no contraction.
  EXPECT_NE(message({{"transformer_block_dispatch_6", "0"}}).find("has no candidates"), std::string::npos);
  const CompiledModel cuda = compile_model(tools_, kSource / "examples/iree/matmul_32x2048x1024_f16.mlir",
                                           parse_target("cuda:sm_80"), out_ / "cuda");
  try {
    write_tuning_spec(tools_, cuda, {{cuda.dispatches[0].name, "1"}}, out_ / "c.mlir", out_ / "cw");
    FAIL() << "wrote a spec for CUDA";
  } catch (const IreeError& e) {
    EXPECT_NE(std::string(e.what()).find("not hip:gfx*"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace ktune::iree
