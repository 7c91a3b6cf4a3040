#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <limits>

#include "ktune/core/source_error.h"
#include "ktune/spec/problem.h"

namespace ktune::spec {
namespace {

const std::filesystem::path kExamples = std::filesystem::path(KTUNE_SOURCE_DIR) / "examples" / "cpu";

class SpecTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = std::filesystem::temp_directory_path() / ("ktune_spec_test_" + std::to_string(::getpid()));
    std::filesystem::create_directories(dir_);
    std::ofstream(dir_ / "k.cpp") << "extern \"C\" void k(float* y, int n) {}\n";
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }

  TuningProblem parse(const std::string& text, const Config& overrides = {}) {
    return parse_spec(text, "t.yaml", dir_, overrides);
  }
  // Parses and returns the error, failing the test if there is none.
  SourceError error_of(const std::string& text) {
    try {
      parse(text);
    } catch (const SourceError& e) {
      return e;
    }
    ADD_FAILURE() << "expected a SourceError for:\n" << text;
    return SourceError("", 0, 0, "");
  }

  std::filesystem::path dir_;
};

constexpr const char* kMinimal = R"(kernel: {source: k.cpp, entry: k}
sizes: {N: 64}
parameters:
  B: [1, 2, 4]
arguments:
  - {name: y, type: float32, length: N, output: true}
  - {name: n, type: int32, value: N}
)";

TEST_F(SpecTest, LoadsShippedExamples) {
  TuningProblem mm = load_spec(kExamples / "matmul" / "matmul.yaml");
  EXPECT_EQ(mm.name, "cpu_matmul");
  EXPECT_EQ(mm.entry, "matmul");
  EXPECT_EQ(mm.parameters.size(), 5u);
  EXPECT_EQ(mm.sizes.at("M"), Value::integer(256));
  EXPECT_EQ(mm.make_space().size(), 1296u);
  EXPECT_EQ(mm.reference.kind, ReferenceSpec::Kind::Kernel);
  EXPECT_EQ(mm.arguments.size(), 6u);
  EXPECT_TRUE(mm.arguments[2].output);
  EXPECT_FALSE(mm.arguments[3].is_array);
  EXPECT_EQ(evaluate_int(mm, mm.flops, {}, 0, "flops"), 2 * 256 * 256 * 256);
  EXPECT_DOUBLE_EQ(mm.policy.min_seconds, 0.05);

  TuningProblem red = load_spec(kExamples / "reduction" / "reduction.yaml");
  EXPECT_EQ(red.make_space().size(), 342u);
  EXPECT_EQ(red.flags, std::vector<std::string>{"-pthread"});
}

TEST_F(SpecTest, ParameterForms) {
  TuningProblem p = parse(R"(kernel: {source: k.cpp, entry: k}
parameters:
  A: [1, 2]
  B: {range: [1, 7, 3]}
  C: {pow2: [16, 128]}
  D: {values: [row, col]}
  E: "8"
arguments:
  - {name: y, type: f32, length: 4, output: true}
)");
  ASSERT_EQ(p.parameters.size(), 5u);
  EXPECT_EQ(p.parameters[1].values, (std::vector<Value>{Value::integer(1), Value::integer(4), Value::integer(7)}));
  EXPECT_EQ(p.parameters[2].values.size(), 4u);
  EXPECT_EQ(p.parameters[3].values[1], Value::string("col"));
  EXPECT_EQ(p.parameters[4].values[0], Value::string("8"));  // quoted: a string
  EXPECT_EQ(p.parameters[1].line, 4);
}

TEST_F(SpecTest, SizeOverrides) {
  TuningProblem p = parse(kMinimal, {{"N", Value::integer(1024)}});
  EXPECT_EQ(p.sizes.at("N"), Value::integer(1024));
  try {
    parse(kMinimal, {{"Q", Value::integer(3)}});
    FAIL();
  } catch (const SourceError& e) {
    EXPECT_NE(std::string(e.what()).find("no such size"), std::string::npos) << e.what();
  }
  for (const double bad : {std::numeric_limits<double>::infinity(), std::numeric_limits<double>::quiet_NaN()}) {
    try {
      parse(kMinimal, {{"N", Value::real(bad)}});
      FAIL() << "--size N=" << bad << " was accepted";
    } catch (const SourceError& e) {
      EXPECT_NE(std::string(e.what()).find("--size N must be finite"), std::string::npos) << e.what();
      EXPECT_EQ(e.line(), 2) << "the error points at the size's line in the spec";
    }
  }
}

TEST_F(SpecTest, HashesSeparateKernelAndProblem) {
  TuningProblem a = parse(kMinimal);
  TuningProblem b = parse(kMinimal, {{"N", Value::integer(128)}});
  EXPECT_EQ(a.kernel_hash(), b.kernel_hash());
  EXPECT_NE(a.problem_hash(), b.problem_hash());
  const std::string before = a.kernel_hash();
  std::ofstream(dir_ / "k.cpp", std::ios::app) << "// changed\n";
  EXPECT_NE(parse(kMinimal).kernel_hash(), before);
}

struct ErrorCase {
  const char* name;
  std::string text;
  int line;
  const char* fragment;
};

TEST_F(SpecTest, ErrorsNameLineAndProblem) {
  const std::string args = "arguments:\n  - {name: y, type: float32, length: N, output: true}\n";
  const std::string kernel = "kernel: {source: k.cpp, entry: k}\n";
  const std::vector<ErrorCase> cases = {
      {"empty", "", 1, "empty"},
      {"syntax", "kernel: [a, b\n", 2, "YAML syntax error"},
      {"unknown top key", kernel + "sizes: {N: 4}\nparamters: {}\n" + args, 3, "unknown key 'paramters'"},
      {"unknown kernel key", "kernel: {source: k.cpp, entry: k, lang: cpp}\n" + args, 1, "unknown key 'lang'"},
      {"missing source file", "kernel: {source: nope.cpp, entry: k}\n" + args, 1, "file not found"},
      {"bad language", "kernel: {source: k.cpp, entry: k, language: fortran}\n" + args, 1, "cpp, cuda or hip"},
      {"undefined name", kernel + "sizes: {N: 4}\nconstraints:\n  - B < 3\n" + args, 4, "undefined name 'B'"},
      {"expr syntax", kernel + "sizes: {N: 4}\nparameters: {B: [1]}\nconstraints:\n  - B < (3\n" + args, 5, "expected"},
      {"bad type", kernel + "sizes: {N: 4}\narguments:\n  - {name: y, type: complex, length: N, output: true}\n", 4,
       "unknown type 'complex'"},
      {"no output", kernel + "sizes: {N: 4}\narguments:\n  - {name: y, type: float32, length: N}\n", 4,
       "output: true"},
      {"duplicate value", kernel + "sizes: {N: 4}\nparameters:\n  B: [1, 2, 1]\n" + args, 4, "twice"},
      {"duplicate name", kernel + "sizes: {N: 4}\nparameters:\n  N: [1, 2]\n" + args, 4, "defined twice"},
      {"bad range", kernel + "sizes: {N: 4}\nparameters:\n  B: {range: [5, 1]}\n" + args, 4, "below its start"},
      {"not pow2", kernel + "sizes: {N: 4}\nparameters:\n  B: {pow2: [3, 16]}\n" + args, 4, "not a power of two"},
      {"wrong type size", kernel + "sizes: {N: [1]}\n" + args, 2, "must be a scalar"},
      {"infinite size", kernel + "sizes: {N: inf}\n" + args, 2, "must be finite"},
      {"NaN size", kernel + "sizes:\n  N: nan\n" + args, 3, "must be finite"},
      {"launch for cpp", kernel + "sizes: {N: 4}\nlaunch: {grid: 1, block: 1}\n" + args, 3, "GPU languages only"},
      {"cuda without launch", "kernel: {source: k.cpp, entry: k, language: cuda}\nsizes: {N: 4}\n" + args, 1,
       "need a 'launch'"},
      {"scalar output", kernel + "sizes: {N: 4}\narguments:\n  - {name: y, type: float32, length: N, output: true}\n"
                                 "  - {name: n, type: int32, value: N, output: true}\n", 5, "only arrays"},
      {"reference config unknown", kernel + "sizes: {N: 4}\nparameters: {B: [1]}\nreference: {config: {C: 1}}\n" + args,
       4, "not a parameter"},
      {"measure key", kernel + "sizes: {N: 4}\nmeasure: {min_sample: 3}\n" + args, 3, "min_sample"},
      {"not utf8", kernel + "sizes: {N: 4}\n# caf\xe9\n" + args, 3, "not valid UTF-8"},
      {"tune budget", kernel + "sizes: {N: 4}\ntune: {max_evaluations: 0}\n" + args, 3, "must be positive"},
  };
  for (const auto& c : cases) {
    SourceError e = error_of(c.text);
    EXPECT_EQ(e.file(), "t.yaml") << c.name;
    EXPECT_EQ(e.line(), c.line) << c.name << ": " << e.what();
    EXPECT_NE(std::string(e.what()).find(c.fragment), std::string::npos) << c.name << ": " << e.what();
  }
}

TEST_F(SpecTest, ExpressionErrorPointsIntoTheLine) {
  SourceError e = error_of("kernel: {source: k.cpp, entry: k}\nsizes: {N: 4}\nconstraints:\n  - N + * 2\n"
                           "arguments:\n  - {name: y, type: float32, length: N, output: true}\n");
  EXPECT_EQ(e.line(), 4);
  EXPECT_EQ(e.column(), 9);  // the '*' (column of the scalar + its offset)
}

TEST_F(SpecTest, EvaluateReportsNonIntegers) {
  TuningProblem p = parse(kMinimal);
  EXPECT_EQ(evaluate_int(p, expr::Expr::parse("N / 2"), {}, 3, "grid"), 32);
  EXPECT_THROW(evaluate_int(p, expr::Expr::parse("N / 3"), {}, 3, "grid"), SourceError);
  EXPECT_THROW(evaluate_int(p, expr::Expr::parse("N // 0"), {}, 3, "grid"), SourceError);
}

}  // namespace
}  // namespace ktune::spec
