// Feeds arbitrary bytes to the expression language: parse, bind every name it mentions,
// evaluate. ExprError (and ValueTypeError, should one escape) is the expected way to fail;
// any other exception, a crash, a sanitizer report or an out-of-range error position is a bug.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <limits>
#include <string>
#include <string_view>
#include <vector>

#include "ktune/core/value.h"
#include "ktune/expr/expr.h"

namespace {

using ktune::Value;
using ktune::expr::BoundExpr;
using ktune::expr::Expr;
using ktune::expr::ExprError;
using ktune::expr::Scope;

[[noreturn]] void bug(const char* what, const std::string& detail) {
  std::fprintf(stderr, "expr_fuzz: %s: %s\n", what, detail.c_str());
  std::abort();
}

// Values chosen from the name, so a given input always evaluates the same way, covering the
// edges of int64 and every value type.
Value value_for(std::string_view name) {
  static const Value kValues[] = {
      Value::integer(0),
      Value::integer(1),
      Value::integer(-1),
      Value::integer(2),
      Value::integer(64),
      Value::integer(-7),
      Value::integer(1 << 20),
      Value::integer(std::numeric_limits<std::int64_t>::max()),
      Value::integer(std::numeric_limits<std::int64_t>::min()),
      Value::real(0.5),
      Value::real(-2.0),
      Value::real(0.0),
      Value::real(1e300),
      Value::real(std::numeric_limits<double>::quiet_NaN()),
      Value::real(std::numeric_limits<double>::infinity()),
      Value::boolean(true),
      Value::boolean(false),
      Value::string("row"),
      Value::string(""),
  };
  std::size_t h = std::hash<std::string_view>{}(name);
  return kValues[h % (sizeof kValues / sizeof kValues[0])];
}

std::string outcome(const std::function<Value()>& run, std::size_t text_size) {
  try {
    Value v = run();
    return std::string(Value::type_name(v.type())) + ":" + v.to_string();
  } catch (const ExprError& e) {
    if (e.position() > text_size) bug("error position past the end", e.what());
    return "error@" + std::to_string(e.position()) + ":" + e.what();
  } catch (const ktune::ValueTypeError& e) {
    return std::string("type error:") + e.what();
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  Expr expr;
  try {
    expr = Expr::parse(text);
  } catch (const ExprError& e) {
    if (e.position() > size) bug("parse error position past the end", e.what());
    return 0;
  }
  if (expr.empty() || expr.text() != text) bug("parsed expression lost its text", std::string(text));

  Scope scope;
  ktune::Config config;
  std::vector<Value> slots;
  for (const std::string& name : expr.names()) {
    if (scope.find(name)) bug("name listed twice", name);
    scope.add(name);
    slots.push_back(value_for(name));
    config.emplace(name, slots.back());
  }
  BoundExpr bound;
  try {
    bound = expr.bind(scope);
  } catch (const ExprError& e) {
    bug("binding every listed name failed", e.what());
  }

  std::string via_slots = outcome([&] { return bound.evaluate(slots); }, size);
  std::string via_config = outcome([&] { return expr.evaluate(config); }, size);
  if (via_slots != via_config) bug("slot and config evaluation disagree", via_slots + " vs " + via_config);

  bool is_bool = via_slots.rfind("bool:", 0) == 0;
  try {
    bool b = bound.evaluate_bool(slots);
    if (!is_bool || via_slots != (b ? "bool:true" : "bool:false")) bug("evaluate_bool disagrees", via_slots);
  } catch (const ExprError& e) {
    if (is_bool) bug("evaluate_bool failed on a bool result", e.what());
  }

  // Binding to a scope that lacks a name must fail cleanly at that name.
  if (!expr.names().empty()) {
    Scope partial;
    for (std::size_t i = 1; i < expr.names().size(); ++i) partial.add(expr.names()[i]);
    try {
      (void)expr.bind(partial);
      bug("binding without a name succeeded", expr.names()[0]);
    } catch (const ExprError& e) {
      if (e.position() >= size) bug("undefined-name position past the end", e.what());
      if (text.substr(e.position(), expr.names()[0].size()) != expr.names()[0]) {
        bug("undefined-name position does not point at the name", e.what());
      }
    }
  }
  return 0;
}
