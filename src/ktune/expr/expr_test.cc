#include "ktune/expr/expr.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <string>
#include <vector>

namespace ktune::expr {
namespace {

Value eval(const std::string& text, const Config& values = {}) { return Expr::parse(text).evaluate(values); }
std::int64_t eval_int(const std::string& text, const Config& values = {}) {
  Value v = eval(text, values);
  EXPECT_TRUE(v.is_int()) << text << " gave " << v.to_string();
  return v.is_int() ? v.as_int() : 0;
}
double eval_float(const std::string& text, const Config& values = {}) {
  Value v = eval(text, values);
  EXPECT_TRUE(v.is_float()) << text << " gave " << v.to_string();
  return v.is_float() ? v.as_double() : 0;
}
bool eval_bool(const std::string& text, const Config& values = {}) {
  Value v = eval(text, values);
  EXPECT_TRUE(v.is_bool()) << text << " gave " << v.to_string();
  return v.is_bool() && v.as_bool();
}

// The error raised by parsing and evaluating `text`, or a failure if there is none.
ExprError error_of(const std::string& text, const Config& values = {}) {
  try {
    Value v = Expr::parse(text).evaluate(values);
    ADD_FAILURE() << "no error for: " << text << " (gave " << v.to_string() << ")";
  } catch (const ExprError& e) {
    return e;
  }
  return ExprError(static_cast<std::size_t>(-1), "");
}

#define EXPECT_EXPR_ERROR_WITH(text, values, expected_position, expected_message) \
  do {                                                                          \
    ExprError e_ = error_of(text, values);                                      \
    EXPECT_EQ(e_.position(), expected_position) << (text);                      \
    EXPECT_STREQ(e_.what(), expected_message) << (text);                        \
  } while (0)
#define EXPECT_EXPR_ERROR(text, expected_position, expected_message) \
  EXPECT_EXPR_ERROR_WITH(text, Config{}, expected_position, expected_message)

constexpr std::int64_t kMax = std::numeric_limits<std::int64_t>::max();
constexpr std::int64_t kMin = std::numeric_limits<std::int64_t>::min();

TEST(ExprLiterals, Numbers) {
  EXPECT_EQ(eval_int("42"), 42);
  EXPECT_EQ(eval_int("0"), 0);
  EXPECT_EQ(eval_int("0x2a"), 42);
  EXPECT_EQ(eval_int("0XFF"), 255);
  EXPECT_EQ(eval_int("9223372036854775807"), kMax);
  EXPECT_EQ(eval_int("0x7fffffffffffffff"), kMax);
  EXPECT_DOUBLE_EQ(eval_float("1.5"), 1.5);
  EXPECT_DOUBLE_EQ(eval_float("1e-3"), 1e-3);
  EXPECT_DOUBLE_EQ(eval_float("2E3"), 2000.0);
  EXPECT_DOUBLE_EQ(eval_float("1.5e+2"), 150.0);
  EXPECT_DOUBLE_EQ(eval_float(".5"), 0.5);
  EXPECT_DOUBLE_EQ(eval_float("3."), 3.0);
  EXPECT_DOUBLE_EQ(eval_float("0.25"), 0.25);
  EXPECT_DOUBLE_EQ(eval_float("1.e2"), 100.0);
  EXPECT_DOUBLE_EQ(eval_float("0e0"), 0.0);
  EXPECT_DOUBLE_EQ(eval_float("1.7976931348623157e308"), 1.7976931348623157e308);
  EXPECT_TRUE(eval_bool("true"));
  EXPECT_FALSE(eval_bool("false"));
}

TEST(ExprLiterals, Strings) {
  EXPECT_EQ(eval("\"row\""), Value::string("row"));
  EXPECT_EQ(eval("'col'"), Value::string("col"));
  EXPECT_EQ(eval("''"), Value::string(""));
  EXPECT_EQ(eval(R"("a\"b\\c\n\t")"), Value::string("a\"b\\c\n\t"));
  EXPECT_EQ(eval(R"('it\'s')"), Value::string("it's"));
  EXPECT_EQ(eval(R"("it's")"), Value::string("it's"));
  EXPECT_EQ(eval("\"a b  c\""), Value::string("a b  c"));
}

TEST(ExprLiterals, Whitespace) {
  EXPECT_EQ(eval_int(" \t1 +\n 2\r\n"), 3);
}

TEST(ExprPrecedence, Arithmetic) {
  EXPECT_EQ(eval_int("1 + 2 * 3"), 7);
  EXPECT_EQ(eval_int("(1 + 2) * 3"), 9);
  EXPECT_EQ(eval_int("10 - 4 - 3"), 3);
  EXPECT_EQ(eval_int("100 // 10 // 5"), 2);
  EXPECT_EQ(eval_int("2 * 3 % 4"), 2);
  EXPECT_EQ(eval_int("7 % 4 * 3"), 9);
  EXPECT_EQ(eval_int("2 ** 3 ** 2"), 512);
  EXPECT_EQ(eval_int("(2 ** 3) ** 2"), 64);
  EXPECT_EQ(eval_int("-2 ** 2"), -4);
  EXPECT_EQ(eval_int("(-2) ** 2"), 4);
  EXPECT_DOUBLE_EQ(eval_float("2 ** -1"), 0.5);
  EXPECT_EQ(eval_int("2 * -3"), -6);
  EXPECT_EQ(eval_int("- - 3"), 3);
  EXPECT_EQ(eval_int("-+-3"), 3);
  EXPECT_DOUBLE_EQ(eval_float("2 ** -1 ** 2 * 4 + 1"), 3.0);  // 2 ** -(1 ** 2) is a float
  EXPECT_EQ(eval_int("1 + 2 * 3 ** 2 - 4 // 2"), 17);
}

TEST(ExprPrecedence, Logic) {
  EXPECT_TRUE(eval_bool("true or false and false"));
  EXPECT_FALSE(eval_bool("(true or false) and false"));
  EXPECT_TRUE(eval_bool("not false and true"));
  EXPECT_FALSE(eval_bool("not true or false"));
  EXPECT_TRUE(eval_bool("not 1 == 2"));  // not binds looser than ==
  EXPECT_TRUE(eval_bool("!1 == 2"));     // ! has the same precedence as not
  EXPECT_TRUE(eval_bool("1 + 1 == 2 && 3 > 2 || false"));
  EXPECT_TRUE(eval_bool("(1 < 2) == true"));
  EXPECT_TRUE(eval_bool("not not true"));
  EXPECT_TRUE(eval_bool("!!true"));
}

TEST(ExprTernary, BothForms) {
  Config v{{"x", Value::integer(5)}};
  EXPECT_EQ(eval_int("x > 3 ? 10 : 20", v), 10);
  EXPECT_EQ(eval_int("x > 9 ? 10 : 20", v), 20);
  EXPECT_EQ(eval_int("10 if x > 3 else 20", v), 10);
  EXPECT_EQ(eval_int("10 if x > 9 else 20", v), 20);
  // Right associative.
  EXPECT_EQ(eval_int("x < 3 ? 1 : x < 6 ? 2 : 3", v), 2);
  EXPECT_EQ(eval_int("1 if x < 3 else 2 if x < 6 else 3", v), 2);
  // Lowest precedence: the branches take whole expressions.
  EXPECT_EQ(eval_int("true ? 1 + 2 : 3 + 4"), 3);
  EXPECT_EQ(eval_int("1 + 2 if false else 3 + 4"), 7);
  EXPECT_EQ(eval_int("true or false ? 1 : 2"), 1);
  EXPECT_EQ(eval("x > 3 ? 'big' : 'small'", v), Value::string("big"));
  // Only the chosen branch is evaluated.
  EXPECT_EQ(eval_int("true ? 1 : 1 // 0"), 1);
  EXPECT_EQ(eval_int("1 // 0 if false else 2"), 2);
}

TEST(ExprSemantics, IntegerDivisionFloors) {
  EXPECT_EQ(eval_int("7 // 2"), 3);
  EXPECT_EQ(eval_int("-7 // 2"), -4);
  EXPECT_EQ(eval_int("7 // -2"), -4);
  EXPECT_EQ(eval_int("-7 // -2"), 3);
  EXPECT_EQ(eval_int("7 % 3"), 1);
  EXPECT_EQ(eval_int("-7 % 3"), 2);
  EXPECT_EQ(eval_int("7 % -3"), -2);
  EXPECT_EQ(eval_int("-7 % -3"), -1);
  EXPECT_EQ(eval_int("-9223372036854775807 - 1 % -1"), -9223372036854775807);
  EXPECT_DOUBLE_EQ(eval_float("7 / 2"), 3.5);
  EXPECT_DOUBLE_EQ(eval_float("6 / 2"), 3.0);
  EXPECT_DOUBLE_EQ(eval_float("7.5 // 2"), 3.0);
  EXPECT_DOUBLE_EQ(eval_float("-7.5 // 2"), -4.0);
  EXPECT_DOUBLE_EQ(eval_float("7.5 % 2"), 1.5);
  EXPECT_DOUBLE_EQ(eval_float("-7.5 % 2"), 0.5);
  EXPECT_DOUBLE_EQ(eval_float("7.5 % -2"), -0.5);
}

TEST(ExprSemantics, IntFloatMix) {
  EXPECT_DOUBLE_EQ(eval_float("1 + 0.5"), 1.5);
  EXPECT_DOUBLE_EQ(eval_float("2 * 1.5"), 3.0);
  EXPECT_DOUBLE_EQ(eval_float("3 - 1.0"), 2.0);
  EXPECT_DOUBLE_EQ(eval_float("2.0 ** 3"), 8.0);
  EXPECT_DOUBLE_EQ(eval_float("4 ** 0.5"), 2.0);
  EXPECT_EQ(eval_int("2 ** 0"), 1);
  EXPECT_EQ(eval_int("0 ** 0"), 1);
  EXPECT_EQ(eval_int("(-1) ** 9223372036854775807"), -1);
  EXPECT_EQ(eval_int("2 ** 62"), std::int64_t{1} << 62);
  EXPECT_EQ(eval_int("(-2) ** 63"), kMin);
  EXPECT_DOUBLE_EQ(eval_float("(-2) ** -2"), 0.25);
  EXPECT_DOUBLE_EQ(eval_float("(-8.0) ** 2.0"), 64.0);
}

TEST(ExprSemantics, Comparisons) {
  EXPECT_TRUE(eval_bool("1 == 1.0"));
  EXPECT_TRUE(eval_bool("1 < 1.5"));
  EXPECT_TRUE(eval_bool("2 >= 1.5"));
  EXPECT_TRUE(eval_bool("1 <= 1"));
  EXPECT_FALSE(eval_bool("1 > 1"));
  EXPECT_TRUE(eval_bool("1 != 2"));
  // Exact across int64/double: 2^53 + 1 is not equal to the double 2^53.
  EXPECT_FALSE(eval_bool("9007199254740993 == 9007199254740992.0"));
  EXPECT_TRUE(eval_bool("9007199254740993 > 9007199254740992.0"));
  EXPECT_TRUE(eval_bool("9223372036854775807 < 9223372036854775808.0"));
  EXPECT_TRUE(eval_bool("-9223372036854775807 - 1 == -9223372036854775808.0"));
  EXPECT_TRUE(eval_bool("-3 < -2.5"));
  EXPECT_TRUE(eval_bool("-2 > -2.5"));
  EXPECT_TRUE(eval_bool("'abc' == \"abc\""));
  EXPECT_TRUE(eval_bool("'abc' < 'abd'"));
  EXPECT_TRUE(eval_bool("'b' > 'abc'"));
  EXPECT_TRUE(eval_bool("'a' <= 'a' and 'a' >= 'a'"));
  EXPECT_FALSE(eval_bool("'1' == 1"));
  EXPECT_TRUE(eval_bool("'1' != 1"));
  EXPECT_TRUE(eval_bool("1 != '1'"));
  EXPECT_TRUE(eval_bool("true == true"));
  EXPECT_TRUE(eval_bool("true != false"));
  EXPECT_FALSE(eval_bool("true == 1"));
  EXPECT_TRUE(eval_bool("true != 1"));
  EXPECT_FALSE(eval_bool("'true' == true"));
}

TEST(ExprSemantics, NanComparesUnordered) {
  Config v{{"nan", Value::real(std::nan(""))}};
  EXPECT_FALSE(eval_bool("nan == nan", v));
  EXPECT_TRUE(eval_bool("nan != nan", v));
  EXPECT_FALSE(eval_bool("nan < 1", v));
  EXPECT_FALSE(eval_bool("1 >= nan", v));
  EXPECT_FALSE(eval_bool("nan == 1", v));
  EXPECT_TRUE(eval_bool("1 != nan", v));
}

TEST(ExprSemantics, ShortCircuit) {
  // The right operand would fail; it must not be evaluated.
  EXPECT_FALSE(eval_bool("false and 1 // 0 == 0"));
  EXPECT_TRUE(eval_bool("true or 1 // 0 == 0"));
  EXPECT_FALSE(eval_bool("false && 'x' + 1 == 2"));
  EXPECT_FALSE(eval_bool("false and 1"));  // the right operand is never type-checked
  EXPECT_TRUE(eval_bool("true || 'x' + 1 == 2"));
  Config v{{"BM", Value::integer(0)}};
  EXPECT_FALSE(eval_bool("BM != 0 and 128 % BM == 0", v));
}

TEST(ExprFunctions, MinMax) {
  EXPECT_EQ(eval_int("min(3, 1, 2)"), 1);
  EXPECT_EQ(eval_int("max(3, 1, 2)"), 3);
  EXPECT_EQ(eval_int("min(7)"), 7);
  EXPECT_EQ(eval_int("max(-1, -5)"), -1);
  EXPECT_DOUBLE_EQ(eval_float("min(1, 2.5)"), 1.0);
  EXPECT_DOUBLE_EQ(eval_float("max(1, 2.5)"), 2.5);
  EXPECT_DOUBLE_EQ(eval_float("max(1.5)"), 1.5);
  EXPECT_EQ(eval_int("max(1, 2) * min(3, 4)"), 6);
}

TEST(ExprFunctions, IntegerHelpers) {
  EXPECT_EQ(eval_int("ceil_div(7, 2)"), 4);
  EXPECT_EQ(eval_int("ceil_div(8, 2)"), 4);
  EXPECT_EQ(eval_int("ceil_div(-7, 2)"), -3);
  EXPECT_EQ(eval_int("ceil_div(7, -2)"), -3);
  EXPECT_EQ(eval_int("ceil_div(-7, -2)"), 4);
  EXPECT_EQ(eval_int("ceil_div(0, 5)"), 0);
  EXPECT_EQ(eval_int("floor_div(7, 2)"), 3);
  EXPECT_EQ(eval_int("floor_div(-7, 2)"), -4);
  EXPECT_EQ(eval_int("round_up(100, 32)"), 128);
  EXPECT_EQ(eval_int("round_up(128, 32)"), 128);
  EXPECT_EQ(eval_int("round_up(0, 32)"), 0);
  EXPECT_EQ(eval_int("round_up(-5, 4)"), -4);
  EXPECT_TRUE(eval_bool("is_pow2(1)"));
  EXPECT_TRUE(eval_bool("is_pow2(64)"));
  EXPECT_TRUE(eval_bool("is_pow2(4611686018427387904)"));
  EXPECT_FALSE(eval_bool("is_pow2(0)"));
  EXPECT_FALSE(eval_bool("is_pow2(-4)"));
  EXPECT_FALSE(eval_bool("is_pow2(96)"));
  EXPECT_FALSE(eval_bool("is_pow2(-9223372036854775807 - 1)"));
  EXPECT_EQ(eval_int("abs(-5)"), 5);
  EXPECT_EQ(eval_int("abs(5)"), 5);
  EXPECT_DOUBLE_EQ(eval_float("abs(-2.5)"), 2.5);
}

TEST(ExprFunctions, FloatHelpers) {
  EXPECT_DOUBLE_EQ(eval_float("log2(8)"), 3.0);
  EXPECT_DOUBLE_EQ(eval_float("log2(0.5)"), -1.0);
  EXPECT_DOUBLE_EQ(eval_float("sqrt(16)"), 4.0);
  EXPECT_DOUBLE_EQ(eval_float("sqrt(2.25)"), 1.5);
  EXPECT_DOUBLE_EQ(eval_float("sqrt(0)"), 0.0);
  EXPECT_EQ(eval_int("ceil(1.2)"), 2);
  EXPECT_EQ(eval_int("ceil(-1.2)"), -1);
  EXPECT_EQ(eval_int("ceil(3)"), 3);
  EXPECT_EQ(eval_int("floor(1.8)"), 1);
  EXPECT_EQ(eval_int("floor(-1.2)"), -2);
  EXPECT_EQ(eval_int("floor(3)"), 3);
  EXPECT_EQ(eval_int("int(2.9)"), 2);
  EXPECT_EQ(eval_int("int(-2.9)"), -2);
  EXPECT_EQ(eval_int("int(7)"), 7);
  EXPECT_EQ(eval_int("int(log2(1024))"), 10);
  EXPECT_DOUBLE_EQ(eval_float("float(3)"), 3.0);
  EXPECT_DOUBLE_EQ(eval_float("float(3.5)"), 3.5);
  EXPECT_EQ(eval_int("ceil(7 / 2)"), 4);
}

TEST(ExprNames, FirstAppearanceOrderAndFunctionsExcluded) {
  Expr e = Expr::parse("BM * BN <= max(BM, 64) and layout == 'row' and min == 1");
  EXPECT_EQ(e.names(), (std::vector<std::string>{"BM", "BN", "layout", "min"}));
  EXPECT_EQ(e.text(), "BM * BN <= max(BM, 64) and layout == 'row' and min == 1");
  EXPECT_FALSE(e.empty());
  EXPECT_TRUE(Expr().empty());
  EXPECT_TRUE(Expr::parse("1 + 2").names().empty());
}

TEST(ExprBind, SlotsFollowScope) {
  Scope scope;
  EXPECT_EQ(scope.add("N"), 0u);
  EXPECT_EQ(scope.add("BM"), 1u);
  EXPECT_EQ(scope.add("N"), 0u);
  EXPECT_EQ(scope.size(), 2u);
  EXPECT_EQ(scope.find("BM"), std::optional<std::size_t>(1));
  EXPECT_EQ(scope.find("BK"), std::nullopt);
  EXPECT_EQ(scope.names(), (std::vector<std::string>{"N", "BM"}));

  Expr e = Expr::parse("N % BM == 0");
  BoundExpr b = e.bind(scope);
  EXPECT_EQ(b.text(), "N % BM == 0");
  std::vector<Value> slots{Value::integer(1024), Value::integer(64)};
  EXPECT_TRUE(b.evaluate_bool(slots));
  slots[1] = Value::integer(96);
  EXPECT_FALSE(b.evaluate_bool(slots));
  EXPECT_EQ(b.evaluate(slots), Value::boolean(false));
}

TEST(ExprBind, OutlivesExpr) {
  Scope scope;
  scope.add("layout");
  BoundExpr b;
  {
    Expr e = Expr::parse("layout == 'row' ? 'R' : 'C'");
    b = e.bind(scope);
  }
  std::vector<Value> slots{Value::string("row")};
  EXPECT_EQ(b.evaluate(slots), Value::string("R"));
  slots[0] = Value::string("col");
  EXPECT_EQ(b.evaluate(slots), Value::string("C"));
}

TEST(ExprBind, UndefinedNameReportsPosition) {
  Scope scope;
  scope.add("N");
  try {
    Expr::parse("N % BM == 0").bind(scope);
    FAIL() << "expected an error";
  } catch (const ExprError& e) {
    EXPECT_EQ(e.position(), 4u);
    EXPECT_STREQ(e.what(), "undefined name 'BM'");
  }
  EXPECT_EXPR_ERROR("1 + BM", 4u, "undefined name 'BM'");
}

TEST(ExprBind, ReportsTheFirstUnknownNameInTheText) {
  Scope scope;
  scope.add("c");
  try {
    Expr::parse("a if c else b").bind(scope);  // the tree holds c before a
    FAIL() << "expected an error";
  } catch (const ExprError& e) {
    EXPECT_EQ(e.position(), 0u);
    EXPECT_STREQ(e.what(), "undefined name 'a'");
  }
}

TEST(ExprBind, ConstantPartsKeepTheirRuntimeBehaviour) {
  Scope scope;
  scope.add("x");
  // The failing constant subtree must not fail at bind time, only when it is reached.
  BoundExpr b = Expr::parse("x > 0 or 1 // 0 == 0").bind(scope);
  std::vector<Value> one{Value::integer(1)};
  std::vector<Value> zero{Value::integer(0)};
  EXPECT_TRUE(b.evaluate_bool(one));
  try {
    b.evaluate_bool(zero);
    FAIL() << "expected an error";
  } catch (const ExprError& e) {
    EXPECT_EQ(e.position(), 11u);
    EXPECT_STREQ(e.what(), "division by zero");
  }
  BoundExpr s = Expr::parse("x == ('r' if 2 ** 10 > 1000 else 'c') ? ceil_div(1000, 3) : -2.5 * 2").bind(scope);
  std::vector<Value> r{Value::string("r")};
  EXPECT_EQ(s.evaluate(r), Value::integer(334));
  EXPECT_EQ(s.evaluate(one), Value::real(-5.0));
  // Constant errors at the top are still reported on evaluation, with their position.
  BoundExpr overflow = Expr::parse("x + (9223372036854775807 + 1)").bind(scope);
  try {
    overflow.evaluate(one);
    FAIL() << "expected an error";
  } catch (const ExprError& e) {
    EXPECT_EQ(e.position(), 25u);
  }
}

TEST(ExprBind, SlotOutOfRangeIsAnError) {
  Scope scope;
  scope.add("a");
  scope.add("b");
  BoundExpr b = Expr::parse("b + 1").bind(scope);
  std::vector<Value> slots{Value::integer(1)};
  try {
    b.evaluate(slots);
    FAIL() << "expected an error";
  } catch (const ExprError& e) {
    EXPECT_EQ(e.position(), 0u);
    EXPECT_STREQ(e.what(), "no value for 'b' (slot 1, but 1 values given)");
  }
}

TEST(ExprBind, EmptyExpressions) {
  EXPECT_THROW(Expr().bind(Scope()), ExprError);
  EXPECT_THROW(Expr().evaluate({}), ExprError);
  EXPECT_THROW(BoundExpr().evaluate({}), ExprError);
  EXPECT_THROW(BoundExpr().evaluate_bool({}), ExprError);
}

TEST(ExprBind, EvaluateBoolNeedsBool) {
  Scope scope;
  BoundExpr b = Expr::parse("1 + 2").bind(scope);
  try {
    b.evaluate_bool({});
    FAIL() << "expected an error";
  } catch (const ExprError& e) {
    EXPECT_EQ(e.position(), 0u);
    EXPECT_STREQ(e.what(), "expected a bool result, got int 3");
  }
}

TEST(ExprErrors, Syntax) {
  EXPECT_EXPR_ERROR("", 0u, "empty expression");
  EXPECT_EXPR_ERROR("   ", 3u, "empty expression");
  EXPECT_EXPR_ERROR("(1 + 2", 6u, "expected ')', found end of expression");
  EXPECT_EXPR_ERROR("(1 + 2 3", 7u, "expected ')', found number '3'");
  EXPECT_EXPR_ERROR("1 +", 3u, "expected an expression, found end of expression");
  EXPECT_EXPR_ERROR("1 + * 2", 4u, "expected an expression, found '*'");
  EXPECT_EXPR_ERROR("1 2", 2u, "expected an operator or end of expression, found number '2'");
  EXPECT_EXPR_ERROR("a b", 2u, "expected an operator or end of expression, found name 'b'");
  EXPECT_EXPR_ERROR("1)", 1u, "expected an operator or end of expression, found ')'");
  EXPECT_EXPR_ERROR("()", 1u, "expected an expression, found ')'");
  EXPECT_EXPR_ERROR("1 < 2 < 3", 6u, "comparisons cannot be chained; combine them with 'and'");
  EXPECT_EXPR_ERROR("1 == 2 != 3", 7u, "comparisons cannot be chained; combine them with 'and'");
  EXPECT_EXPR_ERROR("true ? 1", 8u, "expected ':' of 'cond ? a : b', found end of expression");
  EXPECT_EXPR_ERROR("1 if true", 9u, "expected 'else' of 'a if cond else b', found end of expression");
  EXPECT_EXPR_ERROR("1 if true : 2", 10u, "expected 'else' of 'a if cond else b', found ':'");
  EXPECT_EXPR_ERROR("min(1, 2", 8u, "expected ',' or ')', found end of expression");
  EXPECT_EXPR_ERROR("min(1 2)", 6u, "expected ',' or ')', found number '2'");
  EXPECT_EXPR_ERROR("min(1,)", 6u, "expected an expression, found ')'");
  EXPECT_EXPR_ERROR("else", 0u, "expected an expression, found 'else'");
}

TEST(ExprErrors, Lexical) {
  EXPECT_EXPR_ERROR("1 @ 2", 2u, "unexpected character '@'");
  EXPECT_EXPR_ERROR("a = 2", 2u, "unexpected '=' (use '==' to compare)");
  EXPECT_EXPR_ERROR("a & b", 2u, "unexpected '&' (use '&&' or 'and')");
  EXPECT_EXPR_ERROR("a | b", 2u, "unexpected '|' (use '||' or 'or')");
  EXPECT_EXPR_ERROR("1 + \x01", 4u, "unexpected character byte 0x01");
  EXPECT_EXPR_ERROR("'abc", 0u, "unterminated string");
  EXPECT_EXPR_ERROR("x == \"abc", 5u, "unterminated string");
  EXPECT_EXPR_ERROR("'ab\\", 0u, "unterminated string");
  EXPECT_EXPR_ERROR("'a\\qb'", 2u, "unknown escape '\\q' in string");
  EXPECT_EXPR_ERROR("12abc", 0u, "invalid number '12abc'");
  EXPECT_EXPR_ERROR("1.2.3", 0u, "invalid number '1.2.3'");
  EXPECT_EXPR_ERROR("1e", 0u, "invalid number '1e'");
  EXPECT_EXPR_ERROR("1e+", 0u, "invalid number '1e'");
  EXPECT_EXPR_ERROR("0x", 0u, "invalid number '0x'");
  EXPECT_EXPR_ERROR("0xfg", 0u, "invalid number '0xfg'");
  EXPECT_EXPR_ERROR("012", 0u, "invalid number '012' (leading zeros are not allowed)");
  EXPECT_EXPR_ERROR("1 + 9223372036854775808", 4u,
                    "integer literal '9223372036854775808' is too large (the limit is 9223372036854775807)");
  EXPECT_EXPR_ERROR("0x10000000000000000", 0u, "integer literal '0x10000000000000000' is too large");
  EXPECT_EXPR_ERROR("1e999", 0u, "float literal '1e999' is out of range");
  EXPECT_EXPR_ERROR("x.y", 1u, "unexpected character '.'");
  EXPECT_EXPR_ERROR("1 + \xc3\xa9", 4u, "unexpected character byte 0xc3");
  EXPECT_EXPR_ERROR(std::string("1 +\0 2", 6), 3u, "unexpected character byte 0x00");
  EXPECT_EQ(eval("'\xc3\xa9t\xc3\xa9'"), Value::string("\xc3\xa9t\xc3\xa9"));  // bytes inside strings pass through
}

TEST(ExprErrors, Functions) {
  EXPECT_EXPR_ERROR("1 + foo(2)", 4u, "unknown function 'foo'");
  EXPECT_EXPR_ERROR("ceil_div(1, 2, 3)", 0u, "ceil_div takes 2 arguments, got 3");
  EXPECT_EXPR_ERROR("ceil_div(1)", 0u, "ceil_div takes 2 arguments, got 1");
  EXPECT_EXPR_ERROR("abs()", 0u, "abs takes 1 argument, got 0");
  EXPECT_EXPR_ERROR("abs(1, 2)", 0u, "abs takes 1 argument, got 2");
  EXPECT_EXPR_ERROR("min()", 0u, "min takes at least 1 argument, got 0");
  EXPECT_EXPR_ERROR("1 + ceil_div(1.5, 2)", 4u, "ceil_div needs int arguments, got float");
  EXPECT_EXPR_ERROR("floor_div(1, 'a')", 0u, "floor_div needs int arguments, got string");
  EXPECT_EXPR_ERROR("round_up(true, 2)", 0u, "round_up needs int arguments, got bool");
  EXPECT_EXPR_ERROR("is_pow2(4.0)", 0u, "is_pow2 needs int arguments, got float");
  EXPECT_EXPR_ERROR("min(1, 'a')", 0u, "min needs a numeric argument, got string");
  EXPECT_EXPR_ERROR("abs(true)", 0u, "abs needs a numeric argument, got bool");
  EXPECT_EXPR_ERROR("int('12')", 0u, "int needs a numeric argument, got string");
  EXPECT_EXPR_ERROR("int(true)", 0u, "int needs a numeric argument, got bool");
  EXPECT_EXPR_ERROR("float('1.5')", 0u, "float needs a numeric argument, got string");
  EXPECT_EXPR_ERROR("log2(0)", 0u, "log2 needs a positive argument, got 0.0");
  EXPECT_EXPR_ERROR("log2(-2)", 0u, "log2 needs a positive argument, got -2.0");
  EXPECT_EXPR_ERROR("sqrt(-1)", 0u, "sqrt needs a non-negative argument, got -1.0");
  EXPECT_EXPR_ERROR("ceil_div(1, 0)", 0u, "division by zero");
  EXPECT_EXPR_ERROR("floor_div(1, 0)", 0u, "division by zero");
  EXPECT_EXPR_ERROR("round_up(5, 0)", 0u, "round_up needs a positive multiple, got 0");
  EXPECT_EXPR_ERROR("round_up(5, -4)", 0u, "round_up needs a positive multiple, got -4");
  EXPECT_EXPR_ERROR("ceil(1e300)", 0u, "ceil of 1e+300 does not fit an integer");
  EXPECT_EXPR_ERROR("int(-1e19)", 0u, "int of -1e+19 does not fit an integer");
  EXPECT_EXPR_ERROR("floor(9223372036854775807.0)", 0u, "floor of 9223372036854775808.0 does not fit an integer");
}

TEST(ExprErrors, Runtime) {
  EXPECT_EXPR_ERROR("1 + 1 // 0", 6u, "division by zero");
  EXPECT_EXPR_ERROR("1 / 0", 2u, "division by zero");
  EXPECT_EXPR_ERROR("1.5 / 0.0", 4u, "division by zero");
  EXPECT_EXPR_ERROR("1.5 // 0", 4u, "division by zero");
  EXPECT_EXPR_ERROR("5 % 0", 2u, "modulo by zero");
  EXPECT_EXPR_ERROR("5.5 % 0.0", 4u, "modulo by zero");
  EXPECT_EXPR_ERROR("0 ** -1", 2u, "zero cannot be raised to a negative power");
  EXPECT_EXPR_ERROR("(-8) ** 0.5", 5u, "a negative number cannot be raised to a fractional power");
  EXPECT_EXPR_ERROR("1 and true", 2u, "'and' needs bool operands, got int");
  EXPECT_EXPR_ERROR("true && 1", 5u, "'&&' needs bool operands, got int");
  EXPECT_EXPR_ERROR("false or 'x'", 6u, "'or' needs bool operands, got string");
  EXPECT_EXPR_ERROR("1.5 || true", 4u, "'||' needs bool operands, got float");
  EXPECT_EXPR_ERROR("not 1", 0u, "'not' needs a bool operand, got int");
  EXPECT_EXPR_ERROR("!'x'", 0u, "'!' needs a bool operand, got string");
  EXPECT_EXPR_ERROR("-true", 0u, "'-' needs a numeric operand, got bool");
  EXPECT_EXPR_ERROR("+'x'", 0u, "'+' needs a numeric operand, got string");
  EXPECT_EXPR_ERROR("1 + 'x'", 2u, "'+' needs numeric operands, got int and string");
  EXPECT_EXPR_ERROR("true * 2", 5u, "'*' needs numeric operands, got bool and int");
  EXPECT_EXPR_ERROR("'a' ** 'b'", 4u, "'**' needs numeric operands, got string and string");
  EXPECT_EXPR_ERROR("1 < 'x'", 2u, "'<' needs two numbers or two strings, got int and string");
  EXPECT_EXPR_ERROR("true >= false", 5u, "'>=' needs two numbers or two strings, got bool and bool");
  EXPECT_EXPR_ERROR("1 ? 2 : 3", 2u, "the condition of '?' must be bool, got int");
  EXPECT_EXPR_ERROR("2 if 'x' else 3", 2u, "the condition of 'if' must be bool, got string");
}

TEST(ExprErrors, Overflow) {
  EXPECT_EXPR_ERROR("9223372036854775807 + 1", 20u, "integer overflow in '+'");
  EXPECT_EXPR_ERROR("-9223372036854775807 - 2", 21u, "integer overflow in '-'");
  EXPECT_EXPR_ERROR("4611686018427387904 * 2", 20u, "integer overflow in '*'");
  EXPECT_EXPR_ERROR("2 ** 63", 2u, "integer overflow in '**'");
  EXPECT_EXPR_ERROR("3 ** 40", 2u, "integer overflow in '**'");
  EXPECT_EXPR_ERROR("(-9223372036854775807 - 1) // -1", 27u, "integer overflow in '//'");
  EXPECT_EXPR_ERROR("-(-9223372036854775807 - 1)", 0u, "integer overflow in '-'");
  EXPECT_EXPR_ERROR("abs(-9223372036854775807 - 1)", 0u, "integer overflow in 'abs'");
  EXPECT_EXPR_ERROR("ceil_div(-9223372036854775807 - 1, -1)", 0u, "integer overflow in 'ceil_div'");
  EXPECT_EXPR_ERROR("round_up(9223372036854775807, 2)", 0u, "integer overflow in 'round_up'");
  EXPECT_EQ(eval_int("(-9223372036854775807 - 1) % -1"), 0);
  EXPECT_DOUBLE_EQ(eval_float("9223372036854775807 + 1.0"), 9223372036854775808.0);
}

TEST(ExprErrors, DepthIsCapped) {
  std::string ok = std::string(100, '(') + "1" + std::string(100, ')');
  EXPECT_EQ(eval_int(ok), 1);
  std::string deep = std::string(100000, '(') + "1" + std::string(100000, ')');
  ExprError e = error_of(deep);
  EXPECT_STREQ(e.what(), "expression is nested too deeply (the limit is 256 levels)");
  EXPECT_LT(e.position(), 300u);
  std::string negs(100000, '-');
  EXPECT_STREQ(error_of(negs + "1").what(), "expression is nested too deeply (the limit is 256 levels)");
  std::string nots;
  for (int i = 0; i < 10000; ++i) nots += "not ";
  EXPECT_STREQ(error_of(nots + "true").what(), "expression is nested too deeply (the limit is 256 levels)");
  // Long left-associative chains build deep trees without deep parser recursion.
  std::string chain = "1";
  for (int i = 0; i < 100000; ++i) chain += "+1";
  EXPECT_STREQ(error_of(chain).what(), "expression is nested too deeply (the limit is 256 levels)");
  std::string pows = "1";
  for (int i = 0; i < 100000; ++i) pows += "**1";
  EXPECT_STREQ(error_of(pows).what(), "expression is nested too deeply (the limit is 256 levels)");
  std::string ternaries;
  for (int i = 0; i < 100000; ++i) ternaries += "true ? 1 : ";
  EXPECT_STREQ(error_of(ternaries + "2").what(), "expression is nested too deeply (the limit is 256 levels)");
  std::string calls;
  for (int i = 0; i < 100000; ++i) calls += "abs(";
  EXPECT_STREQ(error_of(calls + "1" + std::string(100000, ')')).what(),
               "expression is nested too deeply (the limit is 256 levels)");
  std::string chain_ok = "1";
  for (int i = 0; i < 200; ++i) chain_ok += "+1";
  EXPECT_EQ(eval_int(chain_ok), 201);
}

TEST(ExprEvaluate, ConfigLookup) {
  Config v{{"BM", Value::integer(64)}, {"BN", Value::integer(128)}, {"alpha", Value::real(0.5)},
           {"layout", Value::string("row")}, {"split", Value::boolean(true)}};
  EXPECT_EQ(eval_int("BM * BN", v), 8192);
  EXPECT_DOUBLE_EQ(eval_float("alpha * BM", v), 32.0);
  EXPECT_TRUE(eval_bool("layout == 'row' and split", v));
  EXPECT_EQ(eval("layout", v), Value::string("row"));
  EXPECT_EXPR_ERROR_WITH("BM + BK", v, 5u, "undefined name 'BK'");
}

// A differential test against C++ arithmetic on random integer expressions. The generator
// builds the text and the expected value together, tracking overflow with the same builtins
// but written independently of the evaluator.
class RandomArithmetic {
 public:
  explicit RandomArithmetic(std::uint32_t seed) : rng_(seed) {}

  struct Sample {
    std::string text;
    std::int64_t value = 0;
    bool fails = false;  // overflow or division by zero somewhere
  };

  Sample generate(int depth) {
    std::uniform_int_distribution<int> pick(0, depth <= 0 ? 1 : 9);
    int choice = pick(rng_);
    if (choice <= 1) {
      std::uniform_int_distribution<std::int64_t> small(0, 20);
      std::uniform_int_distribution<std::int64_t> large(0, kMax);
      std::int64_t v = std::bernoulli_distribution(0.1)(rng_) ? large(rng_) : small(rng_);
      if (choice == 1) return {"x", x_, false};
      return {std::to_string(v), v, false};
    }
    if (choice == 2) {
      Sample s = generate(depth - 1);
      Sample r{"(-(" + s.text + "))", 0, s.fails};
      if (!r.fails && __builtin_sub_overflow(std::int64_t{0}, s.value, &r.value)) r.fails = true;
      return r;
    }
    static const char* const kOps[] = {"+", "-", "*", "//", "%", "**", "+", "*"};
    const char* op = kOps[std::uniform_int_distribution<int>(0, 7)(rng_)];
    Sample a = generate(depth - 1);
    Sample b = generate(depth - 1);
    Sample r{"(" + a.text + " " + op + " " + b.text + ")", 0, a.fails || b.fails};
    if (r.fails) return r;
    std::string o = op;
    std::int64_t x = a.value, y = b.value;
    if (o == "+") {
      r.fails = __builtin_add_overflow(x, y, &r.value);
    } else if (o == "-") {
      r.fails = __builtin_sub_overflow(x, y, &r.value);
    } else if (o == "*") {
      r.fails = __builtin_mul_overflow(x, y, &r.value);
    } else if (o == "//" || o == "%") {
      if (y == 0 || (x == kMin && y == -1 && o == "//")) {
        r.fails = true;
      } else if (y == -1) {
        r.value = o == "//" ? -x : 0;
      } else {
        std::int64_t q = x / y, m = x % y;
        if (m != 0 && ((m < 0) != (y < 0))) {
          q -= 1;
          m += y;
        }
        r.value = o == "//" ? q : m;
      }
    } else {  // "**": keep exponents small and non-negative so the result stays an int
      r.text = "(" + a.text + " ** " + std::to_string(y % 5 < 0 ? -(y % 5) : y % 5) + ")";
      std::int64_t e = y % 5 < 0 ? -(y % 5) : y % 5;
      std::int64_t acc = 1;
      for (std::int64_t k = 0; k < e && !r.fails; ++k) r.fails = __builtin_mul_overflow(acc, x, &acc);
      r.value = acc;
    }
    return r;
  }

  std::int64_t x_ = 7;

 private:
  std::mt19937 rng_;
};

TEST(ExprDifferential, RandomIntegerArithmetic) {
  RandomArithmetic gen(12345);
  Scope scope;
  scope.add("x");
  int checked = 0, failed = 0;
  for (int i = 0; i < 20000; ++i) {
    gen.x_ = static_cast<std::int64_t>(i % 41) - 20;
    RandomArithmetic::Sample s = gen.generate(1 + i % 6);
    Expr e = Expr::parse(s.text);
    BoundExpr b = e.bind(scope);
    std::vector<Value> slots{Value::integer(gen.x_)};
    if (s.fails) {
      EXPECT_THROW(b.evaluate(slots), ExprError) << s.text;
      ++failed;
    } else {
      Value v = b.evaluate(slots);
      ASSERT_TRUE(v.is_int()) << s.text;
      ASSERT_EQ(v.as_int(), s.value) << s.text << " with x = " << gen.x_;
      ++checked;
    }
  }
  // Both outcomes must be exercised for the test to mean anything.
  EXPECT_GT(checked, 5000);
  EXPECT_GT(failed, 500);
}

TEST(ExprDifferential, RandomComparisonsMatchCpp) {
  std::mt19937 rng(7);
  std::uniform_int_distribution<std::int64_t> small(-50, 50);
  static const char* const kOps[] = {"==", "!=", "<", "<=", ">", ">="};
  Scope scope;
  scope.add("a");
  scope.add("b");
  for (int op = 0; op < 6; ++op) {
    BoundExpr b = Expr::parse(std::string("a ") + kOps[op] + " b").bind(scope);
    for (int i = 0; i < 500; ++i) {
      std::int64_t x = small(rng), y = small(rng);
      bool expected = op == 0 ? x == y : op == 1 ? x != y : op == 2 ? x < y : op == 3 ? x <= y : op == 4 ? x > y : x >= y;
      std::vector<Value> ints{Value::integer(x), Value::integer(y)};
      std::vector<Value> mixed{Value::integer(x), Value::real(static_cast<double>(y) + 0.0)};
      EXPECT_EQ(b.evaluate_bool(ints), expected);
      EXPECT_EQ(b.evaluate_bool(mixed), expected);
    }
  }
}

}  // namespace
}  // namespace ktune::expr
