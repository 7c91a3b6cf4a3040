#include "ktune/space/search_space.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "ktune/space/uniform.h"

namespace ktune::space {
namespace {

using N = SearchSpace::Neighbourhood;

Parameter ints(const std::string& name, std::vector<std::int64_t> values, int line = 0) {
  Parameter p{name, {}, line};
  for (auto v : values) p.values.push_back(Value::integer(v));
  return p;
}

Constraint constraint(const std::string& text, int line = 0) { return {expr::Expr::parse(text), line}; }

// ---------------------------------------------------------------------------------------------
// Brute force over the full Cartesian product, using the unbound evaluation path of expr.

struct BruteForce {
  std::vector<Config> all;              // Cartesian product
  std::map<std::string, bool> valid;    // config_key -> satisfies every constraint
  std::set<std::string> valid_keys;
};

bool satisfies(const Config& config, const std::vector<Constraint>& constraints, const Config& constants) {
  Config scope = config;
  for (const auto& [name, value] : constants) scope[name] = value;
  for (const auto& c : constraints) {
    try {
      Value v = c.expr.evaluate(scope);
      if (!v.is_bool() || !v.as_bool()) return false;
    } catch (const std::exception&) {
      return false;  // evaluation errors reject the config
    }
  }
  return true;
}

BruteForce brute_force(const std::vector<Parameter>& params, const std::vector<Constraint>& constraints,
                       const Config& constants) {
  BruteForce bf;
  std::vector<std::size_t> odometer(params.size(), 0);
  for (;;) {
    Config c;
    for (std::size_t p = 0; p < params.size(); ++p) c[params[p].name] = params[p].values[odometer[p]];
    bool ok = satisfies(c, constraints, constants);
    bf.valid[config_key(c)] = ok;
    if (ok) bf.valid_keys.insert(config_key(c));
    bf.all.push_back(std::move(c));
    std::size_t p = 0;
    while (p < params.size() && ++odometer[p] == params[p].values.size()) odometer[p++] = 0;
    if (p == params.size()) break;
  }
  return bf;
}

std::vector<std::string> brute_neighbours(const Config& c, const std::vector<Parameter>& params, const BruteForce& bf,
                                          N kind) {
  std::vector<std::string> keys;
  for (const auto& p : params) {
    auto here = static_cast<std::size_t>(
        std::find(p.values.begin(), p.values.end(), c.at(p.name)) - p.values.begin());
    std::vector<std::size_t> candidates;
    if (kind == N::Adjacent) {
      if (here > 0) candidates.push_back(here - 1);
      if (here + 1 < p.values.size()) candidates.push_back(here + 1);
    } else {
      for (std::size_t i = 0; i < p.values.size(); ++i)
        if (i != here) candidates.push_back(i);
    }
    for (std::size_t i : candidates) {
      Config changed = c;
      changed[p.name] = p.values[i];
      if (bf.valid.at(config_key(changed))) keys.push_back(config_key(changed));
    }
  }
  return keys;
}

struct RandomSpace {
  std::vector<Parameter> params;
  std::vector<Constraint> constraints;
  Config constants;
};

RandomSpace random_space(std::mt19937_64& rng) {
  auto pick = [&](std::size_t n) { return static_cast<std::size_t>(uniform_below(rng, n)); };
  RandomSpace s;
  const std::size_t numeric = 1 + pick(5);
  std::vector<std::string> names;
  for (std::size_t i = 0; i < numeric; ++i) {
    std::vector<std::int64_t> pool = {-2, -1, 0, 1, 2, 3, 4, 5, 6, 8, 9, 12};
    shuffle_in_place(pool, rng);
    pool.resize(1 + pick(5));
    names.push_back("p" + std::to_string(i));
    s.params.push_back(ints(names.back(), pool, static_cast<int>(i + 1)));
  }
  const bool with_string = pick(3) == 0;
  if (with_string) {
    s.params.push_back(Parameter{"mode", {Value::string("a"), Value::string("b"), Value::string("c")}, 9});
  }
  s.constants["N"] = Value::integer(static_cast<std::int64_t>(pick(10)));
  auto any_name = [&] { return names[pick(names.size())]; };
  const std::size_t count = pick(5);
  for (std::size_t i = 0; i < count; ++i) {
    std::string a = any_name(), b = any_name(), c = any_name();
    std::string lit = std::to_string(static_cast<std::int64_t>(pick(12)) - 2);
    std::string text;
    switch (pick(11)) {
      case 0: text = a + " % " + b + " == 0"; break;
      case 1: text = a + " + " + b + " <= " + lit; break;
      case 2: text = a + " * " + b + " >= " + lit; break;
      case 3: text = a + " != " + b; break;
      case 4: text = a + " < " + lit; break;
      case 5: text = "(" + a + " + " + b + " + " + c + ") % 2 == 0"; break;
      case 6: text = "N >= " + a; break;
      case 7: text = "N > " + std::to_string(pick(4)); break;  // constants only
      case 8: text = a + " // " + b + " <= 2"; break;          // may divide by zero
      case 9: text = with_string ? "mode == \"a\" || " + a + " > 2" : a + " >= " + b; break;
      default: text = "max(" + a + ", " + b + ") - min(" + b + ", " + c + ") <= " + lit; break;
    }
    s.constraints.push_back(constraint(text, static_cast<int>(20 + i)));
  }
  return s;
}

TEST(SearchSpace, AgreesWithBruteForceOnRandomSpaces) {
  std::mt19937_64 rng(20240601);
  std::size_t nonempty = 0, empty = 0, multi_param_groups = 0;
  for (int trial = 0; trial < 300; ++trial) {
    RandomSpace rs = random_space(rng);
    SCOPED_TRACE("trial " + std::to_string(trial));
    BruteForce bf = brute_force(rs.params, rs.constraints, rs.constants);
    SearchSpace space(rs.params, rs.constraints, rs.constants);

    ASSERT_EQ(space.size(), bf.valid_keys.size());
    EXPECT_DOUBLE_EQ(space.cartesian_size(), static_cast<double>(bf.all.size()));
    (space.size() == 0 ? empty : nonempty)++;
    for (const auto& g : space.group_stats()) multi_param_groups += g.parameters.size() > 1 ? 1 : 0;

    std::set<std::string> enumerated;
    for (std::uint64_t i = 0; i < space.size(); ++i) {
      Config c = space.at(i);
      ASSERT_EQ(c.size(), rs.params.size());
      ASSERT_TRUE(bf.valid_keys.count(config_key(c))) << config_key(c);
      enumerated.insert(config_key(c));
      ASSERT_EQ(space.index_of(c), i);
    }
    EXPECT_EQ(enumerated.size(), space.size());  // no config twice
    EXPECT_THROW(space.at(space.size()), std::out_of_range);

    for (const auto& c : bf.all) {
      const bool valid = bf.valid.at(config_key(c));
      ASSERT_EQ(space.contains(c), valid) << config_key(c);
      ASSERT_EQ(space.violated_constraints(c).empty(), valid) << config_key(c);
      for (N kind : {N::Adjacent, N::Any}) {
        std::vector<std::string> got;
        for (const auto& n : space.neighbours(c, kind)) got.push_back(config_key(n));
        ASSERT_EQ(got, brute_neighbours(c, rs.params, bf, kind)) << config_key(c);
        if (auto index = space.index_of(c)) {
          std::vector<std::string> by_index;
          for (auto j : space.neighbour_indices(*index, kind)) by_index.push_back(config_key(space.at(j)));
          ASSERT_EQ(by_index, got);
        }
      }
    }
  }
  // The generator must exercise both outcomes and real constraint groups.
  EXPECT_GT(nonempty, 100u);
  EXPECT_GT(empty, 10u);
  EXPECT_GT(multi_param_groups, 100u);
}

TEST(SearchSpace, GroupsAreConnectedByConstraintsNotConstants) {
  SearchSpace space({ints("a", {1, 2, 3}), ints("b", {1, 2, 3}), ints("c", {1, 2}), ints("d", {5, 6})},
                    {constraint("a < b"), constraint("c <= N"), constraint("d + N > 0")}, {{"N", Value::integer(1)}});
  auto groups = space.group_stats();
  ASSERT_EQ(groups.size(), 3u);
  EXPECT_EQ(groups[0].parameters, (std::vector<std::string>{"a", "b"}));
  EXPECT_EQ(groups[0].valid, 3u);
  EXPECT_DOUBLE_EQ(groups[0].cartesian, 9.0);
  EXPECT_EQ(groups[1].parameters, std::vector<std::string>{"c"});
  EXPECT_EQ(groups[1].valid, 1u);
  EXPECT_EQ(groups[2].valid, 2u);
  EXPECT_EQ(space.size(), 6u);
  auto stats = space.constraint_stats();
  ASSERT_EQ(stats.size(), 3u);
  EXPECT_EQ(stats[0].group, 0u);
  EXPECT_EQ(stats[1].group, 1u);
  EXPECT_EQ(stats[1].rejected, 1u);  // c = 2
  EXPECT_EQ(stats[2].rejected, 0u);
}

TEST(SearchSpace, RejectionsAreChargedToTheFirstFailingConstraint) {
  // x is bound first (it completes the unary constraint), so x > 1 prunes before x != y runs.
  SearchSpace space({ints("x", {1, 2, 3}), ints("y", {1, 2, 3})}, {constraint("x > 1", 3), constraint("x != y", 4)});
  auto stats = space.constraint_stats();
  EXPECT_EQ(stats[0].rejected, 1u);  // x = 1, before y is bound
  EXPECT_EQ(stats[0].line, 3);
  EXPECT_EQ(stats[1].rejected, 2u);  // (2,2), (3,3)
  EXPECT_EQ(space.size(), 4u);
}

TEST(SearchSpace, EvaluationErrorsRejectAndAreReported) {
  SearchSpace space({ints("a", {0, 1, 2}), ints("b", {0, 2, 4})}, {constraint("b % a == 0", 7)});
  auto stats = space.constraint_stats();
  ASSERT_EQ(stats.size(), 1u);
  EXPECT_NE(stats[0].first_error, "");
  EXPECT_NE(stats[0].first_error.find("a=0"), std::string::npos) << stats[0].first_error;
  EXPECT_EQ(space.size(), 6u);  // a=1: 3, a=2: 3
  EXPECT_FALSE(space.contains({{"a", Value::integer(0)}, {"b", Value::integer(0)}}));
  auto violated = space.violated_constraints({{"a", Value::integer(0)}, {"b", Value::integer(2)}});
  ASSERT_EQ(violated.size(), 1u);
  EXPECT_NE(violated[0].find("b % a == 0 (error:"), std::string::npos) << violated[0];
}

TEST(SearchSpace, ConstantOnlyConstraintDecidesOnce) {
  auto params = std::vector<Parameter>{ints("a", {1, 2}), ints("b", {1, 2, 3})};
  SearchSpace holds(params, {constraint("M >= 16"), constraint("a <= b")}, {{"M", Value::integer(32)}});
  EXPECT_EQ(holds.size(), 5u);
  EXPECT_EQ(holds.constraint_stats()[0].group, SearchSpace::kNoGroup);

  SearchSpace fails(params, {constraint("M >= 64"), constraint("a <= b")}, {{"M", Value::integer(32)}});
  EXPECT_EQ(fails.size(), 0u);
  EXPECT_TRUE(fails.empty());
  EXPECT_EQ(fails.constraint_stats()[0].rejected, 1u);
  EXPECT_THROW(fails.at(0), std::out_of_range);
  EXPECT_FALSE(fails.contains({{"a", Value::integer(1)}, {"b", Value::integer(1)}}));
  std::mt19937_64 rng(1);
  EXPECT_THROW(fails.sample(rng), SpaceError);
  EXPECT_TRUE(fails.sample_indices(5, rng, true).empty());
  EXPECT_TRUE(fails.neighbours({{"a", Value::integer(1)}, {"b", Value::integer(1)}}, N::Any).empty());
  EXPECT_EQ(fails.violated_constraints({{"a", Value::integer(1)}, {"b", Value::integer(1)}}),
            std::vector<std::string>{"M >= 64"});
}

TEST(SearchSpace, NoParametersIsOneEmptyConfig) {
  SearchSpace space({}, {});
  EXPECT_EQ(space.size(), 1u);
  EXPECT_TRUE(space.at(0).empty());
  EXPECT_EQ(space.index_of({}), 0u);
}

TEST(SearchSpace, IndexOfIsStrictAboutNamesAndLenientAboutNumericType) {
  SearchSpace space({ints("a", {1, 2}), Parameter{"f", {Value::real(0.5), Value::real(2.0)}, 0}}, {});
  EXPECT_TRUE(space.contains({{"a", Value::integer(1)}, {"f", Value::real(0.5)}}));
  EXPECT_TRUE(space.contains({{"a", Value::real(2.0)}, {"f", Value::integer(2)}}));
  EXPECT_FALSE(space.contains({{"a", Value::integer(3)}, {"f", Value::real(0.5)}}));
  EXPECT_FALSE(space.contains({{"a", Value::integer(1)}}));
  EXPECT_FALSE(space.contains({{"a", Value::integer(1)}, {"f", Value::real(0.5)}, {"g", Value::integer(0)}}));
  EXPECT_FALSE(space.contains({{"a", Value::string("1")}, {"f", Value::real(0.5)}}));
  EXPECT_THROW(space.neighbours({{"a", Value::integer(1)}}, N::Any), std::invalid_argument);
  EXPECT_THROW(space.neighbours({{"a", Value::integer(7)}, {"f", Value::real(0.5)}}, N::Any), std::invalid_argument);
  EXPECT_THROW(space.violated_constraints({{"a", Value::integer(1)}}), std::invalid_argument);
}

TEST(SearchSpace, HugeSpacesIndexWithoutMaterialising) {
  std::vector<Parameter> params;
  for (int i = 0; i < 60; ++i) params.push_back(ints("b" + std::to_string(i), {0, 1}));
  params.push_back(ints("x", {1, 2, 3, 4, 5, 6, 7}));
  params.push_back(ints("y", {1, 2, 3, 4, 5, 6, 7}));
  SearchSpace space(params, {constraint("x + y == 8")});  // 7 valid (x, y) pairs
  EXPECT_EQ(space.size(), (std::uint64_t{1} << 60) * 7);
  EXPECT_GT(space.cartesian_size(), 5e19);
  std::mt19937_64 rng(3);
  for (auto index : space.sample_indices(200, rng, false)) {
    Config c = space.at(index);
    EXPECT_EQ(c.at("x").as_int() + c.at("y").as_int(), 8);
    EXPECT_EQ(space.index_of(c), index);
    for (auto n : space.neighbour_indices(index, N::Any)) EXPECT_TRUE(space.contains(space.at(n)));
  }
  auto last = space.at(space.size() - 1);
  EXPECT_EQ(space.index_of(last), space.size() - 1);

  params.push_back(ints("z", {1, 2}));
  params.push_back(ints("w", {1, 2}));
  EXPECT_THROW(SearchSpace(params, {}), SpaceError);  // 2^60 * 7 * 4: more than 2^63
}

TEST(SearchSpace, WideValueListsUseWiderTuples) {
  std::vector<std::int64_t> many;
  for (std::int64_t i = 0; i < 70000; ++i) many.push_back(i);
  SearchSpace space({ints("a", many), ints("b", {0, 1, 2})}, {constraint("(a + b) % 1000 == 0")});
  EXPECT_EQ(space.size(), 210u);
  for (std::uint64_t i = 0; i < space.size(); ++i) EXPECT_EQ(space.index_of(space.at(i)), i);
  EXPECT_EQ(space.index_of({{"a", Value::integer(69998)}, {"b", Value::integer(2)}}).has_value(), true);
}

// ---------------------------------------------------------------------------------------------
// Sampling

TEST(SearchSpace, SampleIsUniformOverValidConfigs) {
  SearchSpace space({ints("a", {1, 2, 3, 4, 5, 6}), ints("b", {1, 2, 3, 4, 5, 6}), ints("c", {0, 1})},
                    {constraint("a <= b"), constraint("c == 0 || a % 2 == 0")});
  const std::uint64_t n = space.size();
  ASSERT_GT(n, 20u);
  std::vector<double> hits(n, 0);
  std::mt19937_64 rng(12345);
  const int draws = 40000;
  for (int i = 0; i < draws; ++i) {
    auto index = space.index_of(space.sample(rng));
    ASSERT_TRUE(index.has_value());
    hits[*index] += 1;
  }
  const double expected = static_cast<double>(draws) / static_cast<double>(n);
  double chi2 = 0;
  for (double h : hits) chi2 += (h - expected) * (h - expected) / expected;
  // df = n - 1 (about 30): the 0.999 quantile is below 2 * df + 10.
  EXPECT_LT(chi2, 2.0 * static_cast<double>(n - 1) + 10) << "chi2 " << chi2 << " over " << n << " cells";
}

TEST(SearchSpace, DistinctSamplesAreDistinctAndUniform) {
  SearchSpace space({ints("a", {0, 1, 2, 3, 4, 5, 6, 7, 8, 9})}, {});
  std::mt19937_64 rng(99);
  std::vector<double> member(10, 0), first(10, 0);
  const int rounds = 20000;
  for (int r = 0; r < rounds; ++r) {
    auto picks = space.sample_indices(3, rng, true);
    ASSERT_EQ(picks.size(), 3u);
    ASSERT_EQ(std::set<std::uint64_t>(picks.begin(), picks.end()).size(), 3u);
    for (auto p : picks) member[p] += 1;
    first[picks[0]] += 1;
  }
  auto chi2 = [](const std::vector<double>& counts, double expected) {
    double sum = 0;
    for (double c : counts) sum += (c - expected) * (c - expected) / expected;
    return sum;
  };
  EXPECT_LT(chi2(member, rounds * 0.3), 30.0);  // df 9: 0.999 quantile 27.9
  EXPECT_LT(chi2(first, rounds * 0.1), 30.0);   // order is uniform too
  auto all = space.sample_indices(50, rng, true);
  EXPECT_EQ(all.size(), 10u);
  EXPECT_EQ(std::set<std::uint64_t>(all.begin(), all.end()).size(), 10u);
}

TEST(SearchSpace, SamplingIsDeterministicBySeed) {
  SearchSpace space({ints("a", {1, 2, 3, 4}), ints("b", {1, 2, 3, 4})}, {constraint("a * b <= 8")});
  std::mt19937_64 r1(7), r2(7);
  EXPECT_EQ(space.sample_indices(20, r1, true), space.sample_indices(20, r2, true));
  EXPECT_EQ(space.sample(r1), space.sample(r2));
}

// ---------------------------------------------------------------------------------------------
// Errors

std::string construction_error(std::vector<Parameter> params, std::vector<Constraint> constraints,
                               Config constants = {}) {
  try {
    SearchSpace space(std::move(params), std::move(constraints), std::move(constants));
  } catch (const SpaceError& e) {
    return e.what();
  }
  return "(no error)";
}

TEST(SearchSpace, ReportsBadParameters) {
  EXPECT_NE(construction_error({ints("a", {1}, 2), ints("a", {2}, 5)}, {}).find("duplicate parameter 'a'"),
            std::string::npos);
  EXPECT_NE(construction_error({ints("a", {1}, 2), ints("a", {2}, 5)}, {}).find("line 5"), std::string::npos);
  EXPECT_NE(construction_error({ints("a", {}, 3)}, {}).find("'a' has no values"), std::string::npos);
  EXPECT_NE(construction_error({ints("a", {1, 2, 1}, 3)}, {}).find("lists value 1 twice"), std::string::npos);
  EXPECT_NE(construction_error({ints("M", {1, 2})}, {}, {{"M", Value::integer(4)}}).find("both"), std::string::npos);
  EXPECT_NE(construction_error({ints("a", {1})}, {Constraint{}}).find("empty constraint"), std::string::npos);
}

TEST(SearchSpace, ReportsUndefinedNamesWithConstraintAndLine) {
  std::string message =
      construction_error({ints("BM", {64}), ints("WM", {32})}, {constraint("BM % WMM == 0", 12)});
  EXPECT_NE(message.find("'WMM'"), std::string::npos) << message;
  EXPECT_NE(message.find("BM % WMM == 0"), std::string::npos) << message;
  EXPECT_NE(message.find("line 12"), std::string::npos) << message;
  EXPECT_NE(message.find("did you mean 'WM'"), std::string::npos) << message;
  try {
    SearchSpace space({ints("a", {1})}, {constraint("a < zzz", 4)});
    FAIL();
  } catch (const SpaceError& e) {
    EXPECT_EQ(e.line(), 4);
  }
}

}  // namespace
}  // namespace ktune::space
