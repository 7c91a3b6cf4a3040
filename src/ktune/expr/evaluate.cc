// Tree-walking evaluator. Intermediate results are a small tagged union, so numeric and bool
// evaluation never allocates; strings are referenced, never copied, until the final Value.
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>

#include "ktune/expr/expr.h"
#include "ktune/expr/node.h"

namespace ktune::expr {
namespace {

using Type = Value::Type;

struct Val {
  Type type;
  union {
    std::int64_t i;
    double f;
    bool b;
    const std::string* s;
  };
  static Val integer(std::int64_t v) {
    Val r{Type::Int, {}};
    r.i = v;
    return r;
  }
  static Val real(double v) {
    Val r{Type::Float, {}};
    r.f = v;
    return r;
  }
  static Val boolean(bool v) {
    Val r{Type::Bool, {}};
    r.b = v;
    return r;
  }
  static Val string(const std::string* v) {
    Val r{Type::String, {}};
    r.s = v;
    return r;
  }
  bool numeric() const { return type == Type::Int || type == Type::Float; }
  double as_double() const { return type == Type::Int ? static_cast<double>(i) : f; }
};

const char* type_name(const Val& v) { return Value::type_name(v.type); }

std::string show(double d) { return Value::real(d).to_string(); }

// Errors are built out of line so the hot evaluator stays small: string building inlined into
// it would bloat its stack frame and slow every evaluation down.
template <typename... Parts>
[[noreturn, gnu::cold, gnu::noinline]] void fail(const Node& n, const Parts&... parts) {
  std::string message;
  (message += ... += parts);
  throw ExprError(n.position, message);
}

[[noreturn, gnu::cold, gnu::noinline]] void fail_float(const Node& n, const char* before, double d, const char* after) {
  fail(n, before, show(d), after);
}

[[noreturn, gnu::cold, gnu::noinline]] void fail_int(const Node& n, const char* before, std::int64_t i) {
  fail(n, before, std::to_string(i));
}

[[noreturn, gnu::cold, gnu::noinline]] void fail_not_integer(const Node& n, double d) {
  fail(n, n.spelling, " of ", show(d), " does not fit an integer");
}

[[noreturn, gnu::cold, gnu::noinline]] void overflow(const Node& n) { fail(n, "integer overflow in '", n.spelling, "'"); }

// 2^63 as a double: the first value past the int64 range, exactly representable.
constexpr double kTwo63 = 9223372036854775808.0;

// Converts an integral-valued double to int64, or throws naming the function.
std::int64_t to_int(const Node& n, double d) {
  if (!(d >= -kTwo63 && d < kTwo63)) fail_not_integer(n, d);
  return static_cast<std::int64_t>(d);
}

// -1, 0, 1, or 2 when unordered (NaN). Exact for every int64/double pair, unlike a cast.
int compare_int_double(std::int64_t a, double b) {
  if (std::isnan(b)) return 2;
  if (b >= kTwo63) return -1;
  if (b < -kTwo63) return 1;
  double whole = std::trunc(b);
  auto bi = static_cast<std::int64_t>(whole);
  if (a < bi) return -1;
  if (a > bi) return 1;
  double frac = b - whole;
  return frac > 0 ? -1 : frac < 0 ? 1 : 0;
}

int compare_numbers(const Val& a, const Val& b) {
  if (a.type == Type::Int && b.type == Type::Int) return a.i < b.i ? -1 : a.i > b.i ? 1 : 0;
  if (a.type == Type::Int) return compare_int_double(a.i, b.f);
  if (b.type == Type::Int) {
    int c = compare_int_double(b.i, a.f);
    return c == 2 ? 2 : -c;
  }
  if (a.f < b.f) return -1;
  if (a.f > b.f) return 1;
  if (a.f == b.f) return 0;
  return 2;
}

std::int64_t floor_div_int(const Node& n, std::int64_t a, std::int64_t b) {
  if (b == 0) fail(n, "division by zero");
  if (a == std::numeric_limits<std::int64_t>::min() && b == -1) overflow(n);
  std::int64_t q = a / b;
  if (a % b != 0 && ((a < 0) != (b < 0))) --q;
  return q;
}

std::int64_t ceil_div_int(const Node& n, std::int64_t a, std::int64_t b) {
  if (b == 0) fail(n, "division by zero");
  if (a == std::numeric_limits<std::int64_t>::min() && b == -1) overflow(n);
  std::int64_t q = a / b;
  if (a % b != 0 && ((a < 0) == (b < 0))) ++q;
  return q;
}

std::int64_t mod_int(const Node& n, std::int64_t a, std::int64_t b) {
  if (b == 0) fail(n, "modulo by zero");
  if (b == -1) return 0;  // INT64_MIN % -1 is undefined behaviour in C++
  std::int64_t r = a % b;
  if (r != 0 && ((r < 0) != (b < 0))) r += b;
  return r;
}

std::int64_t pow_int(const Node& n, std::int64_t base, std::int64_t exponent) {
  std::int64_t result = 1;
  while (exponent > 0) {
    if ((exponent & 1) != 0 && __builtin_mul_overflow(result, base, &result)) overflow(n);
    exponent >>= 1;
    // Squaring only when another bit needs it: an overflow here means the result overflows too.
    if (exponent > 0 && __builtin_mul_overflow(base, base, &base)) overflow(n);
  }
  return result;
}

double pow_float(const Node& n, double base, double exponent) {
  if (base == 0 && exponent < 0) fail(n, "zero cannot be raised to a negative power");
  if (base < 0 && std::isfinite(exponent) && std::trunc(exponent) != exponent) {
    fail(n, "a negative number cannot be raised to a fractional power");
  }
  return std::pow(base, exponent);
}

[[noreturn, gnu::cold, gnu::noinline]] void fail_missing_slot(const Node& n, std::size_t given) {
  fail(n, "no value for '", n.text, "' (slot ", std::to_string(n.slot), ", but ", std::to_string(given), " values given)");
}

class Evaluator {
 public:
  explicit Evaluator(std::span<const Value> slots) : slots_(slots) {}

  // Leaves are by far the most common operands; handling them here saves a call and a
  // poorly predicted jump through the big switch.
  Val operand(const Node& n) const {
    if (n.op == Op::Name) return name(n);
    if (n.op == Op::Literal) return literal(n);
    return eval(n);
  }

  Val eval(const Node& n) const {
    switch (n.op) {
      case Op::Literal: return literal(n);
      case Op::Name: return name(n);
      case Op::Neg: {
        Val v = operand(n.kids[0]);
        if (v.type == Type::Int) {
          std::int64_t r;
          if (__builtin_sub_overflow(std::int64_t{0}, v.i, &r)) overflow(n);
          return Val::integer(r);
        }
        if (v.type == Type::Float) return Val::real(-v.f);
        fail(n, "'-' needs a numeric operand, got ", type_name(v));
      }
      case Op::Pos: {
        Val v = operand(n.kids[0]);
        if (!v.numeric()) fail(n, "'+' needs a numeric operand, got ", type_name(v));
        return v;
      }
      case Op::Not: {
        Val v = operand(n.kids[0]);
        if (v.type != Type::Bool) fail(n, "'", n.spelling, "' needs a bool operand, got ", type_name(v));
        return Val::boolean(!v.b);
      }
      case Op::And:
      case Op::Or: {
        bool is_and = n.op == Op::And;
        Val lhs = operand(n.kids[0]);
        check_bool_operand(n, lhs);
        if (lhs.b != is_and) return lhs;  // short circuit: false and ..., true or ...
        Val rhs = operand(n.kids[1]);
        check_bool_operand(n, rhs);
        return rhs;
      }
      case Op::Cond: {
        Val c = operand(n.kids[0]);
        if (c.type != Type::Bool) {
          fail(n, "the condition of '", n.spelling, "' must be bool, got ", type_name(c));
        }
        return operand(n.kids[c.b ? 1 : 2]);
      }
      case Op::Eq: case Op::Ne: case Op::Lt: case Op::Le: case Op::Gt: case Op::Ge:
        return Val::boolean(compare(n, operand(n.kids[0]), operand(n.kids[1])));
      case Op::Add: case Op::Sub: case Op::Mul: case Op::Div: case Op::FloorDiv: case Op::Mod: case Op::Pow:
        return arithmetic(n, operand(n.kids[0]), operand(n.kids[1]));
      case Op::Call: return call(n);
    }
    fail(n, "internal error: unknown node");
  }

 private:
  static Val literal(const Node& n) {
    switch (n.literal_type) {
      case Type::Int: return Val::integer(n.literal_int);
      case Type::Float: return Val::real(n.literal_float);
      case Type::Bool: return Val::boolean(n.literal_bool);
      case Type::String: return Val::string(&n.text);
    }
    return Val::integer(0);
  }

  Val name(const Node& n) const {
    if (n.slot >= slots_.size()) {
      fail_missing_slot(n, slots_.size());
    }
    const Value& v = slots_[n.slot];
    switch (v.type()) {
      case Type::Int: return Val::integer(v.as_int());
      case Type::Float: return Val::real(v.as_double());
      case Type::Bool: return Val::boolean(v.as_bool());
      case Type::String: return Val::string(&v.as_string());
    }
    return Val::integer(0);
  }

  static void check_bool_operand(const Node& n, const Val& v) {
    if (v.type != Type::Bool) fail(n, "'", n.spelling, "' needs bool operands, got ", type_name(v));
  }

  static bool compare(const Node& n, const Val& a, const Val& b) {
    int c;
    if (a.numeric() && b.numeric()) {
      c = compare_numbers(a, b);
    } else if (a.type == Type::String && b.type == Type::String) {
      int raw = a.s->compare(*b.s);
      c = raw < 0 ? -1 : raw > 0 ? 1 : 0;
    } else if (n.op == Op::Eq || n.op == Op::Ne) {
      // Values of different kinds are simply unequal; bools compare with bools.
      bool equal = a.type == Type::Bool && b.type == Type::Bool && a.b == b.b;
      return (n.op == Op::Eq) == equal;
    } else {
      fail(n, "'", n.spelling, "' needs two numbers or two strings, got ", type_name(a), " and ", type_name(b));
    }
    switch (n.op) {
      case Op::Eq: return c == 0;
      case Op::Ne: return c != 0;
      case Op::Lt: return c == -1;
      case Op::Le: return c == -1 || c == 0;
      case Op::Gt: return c == 1;
      case Op::Ge: return c == 1 || c == 0;
      default: return false;
    }
  }

  static Val arithmetic(const Node& n, const Val& a, const Val& b) {
    if (!a.numeric() || !b.numeric()) {
      fail(n, "'", n.spelling, "' needs numeric operands, got ", type_name(a), " and ", type_name(b));
    }
    if (a.type == Type::Int && b.type == Type::Int) {
      std::int64_t r;
      switch (n.op) {
        case Op::Add: if (__builtin_add_overflow(a.i, b.i, &r)) overflow(n); return Val::integer(r);
        case Op::Sub: if (__builtin_sub_overflow(a.i, b.i, &r)) overflow(n); return Val::integer(r);
        case Op::Mul: if (__builtin_mul_overflow(a.i, b.i, &r)) overflow(n); return Val::integer(r);
        case Op::FloorDiv: return Val::integer(floor_div_int(n, a.i, b.i));
        case Op::Mod: return Val::integer(mod_int(n, a.i, b.i));
        case Op::Pow:
          if (b.i >= 0) return Val::integer(pow_int(n, a.i, b.i));
          return Val::real(pow_float(n, static_cast<double>(a.i), static_cast<double>(b.i)));
        default: break;  // '/' is true division: falls through to floats
      }
    }
    double x = a.as_double(), y = b.as_double();
    switch (n.op) {
      case Op::Add: return Val::real(x + y);
      case Op::Sub: return Val::real(x - y);
      case Op::Mul: return Val::real(x * y);
      case Op::Div:
        if (y == 0) fail(n, "division by zero");
        return Val::real(x / y);
      case Op::FloorDiv:
        if (y == 0) fail(n, "division by zero");
        return Val::real(std::floor(x / y));
      case Op::Mod: {
        if (y == 0) fail(n, "modulo by zero");
        double r = std::fmod(x, y);
        if (r != 0 && ((r < 0) != (y < 0))) r += y;
        return Val::real(r);
      }
      case Op::Pow: return Val::real(pow_float(n, x, y));
      default: break;
    }
    fail(n, "internal error: unknown operator");
  }

  std::int64_t int_arg(const Node& n, std::size_t index) const {
    Val v = operand(n.kids[index]);
    if (v.type != Type::Int) fail(n, n.spelling, " needs int arguments, got ", type_name(v));
    return v.i;
  }

  Val number_arg(const Node& n, std::size_t index) const {
    Val v = operand(n.kids[index]);
    if (!v.numeric()) fail(n, n.spelling, " needs a numeric argument, got ", type_name(v));
    return v;
  }

  Val call(const Node& n) const {
    switch (n.fn) {
      case Fn::Min:
      case Fn::Max: {
        bool want_max = n.fn == Fn::Max;
        Val best = number_arg(n, 0);
        for (std::size_t k = 1; k < n.kids.size(); ++k) {
          Val next = number_arg(n, k);
          if (best.type == Type::Int && next.type == Type::Int) {
            if (want_max ? next.i > best.i : next.i < best.i) best = next;
          } else {
            // Mixing ints and floats gives a float, whichever argument wins.
            double x = best.as_double(), y = next.as_double();
            best = Val::real(want_max ? (y > x ? y : x) : (y < x ? y : x));
          }
        }
        return best;
      }
      case Fn::CeilDiv: {
        std::int64_t a = int_arg(n, 0), b = int_arg(n, 1);
        return Val::integer(ceil_div_int(n, a, b));
      }
      case Fn::FloorDiv: {
        std::int64_t a = int_arg(n, 0), b = int_arg(n, 1);
        return Val::integer(floor_div_int(n, a, b));
      }
      case Fn::RoundUp: {
        std::int64_t a = int_arg(n, 0), m = int_arg(n, 1);
        if (m <= 0) fail_int(n, "round_up needs a positive multiple, got ", m);
        std::int64_t r;
        if (__builtin_mul_overflow(ceil_div_int(n, a, m), m, &r)) overflow(n);
        return Val::integer(r);
      }
      case Fn::IsPow2: {
        std::int64_t a = int_arg(n, 0);
        return Val::boolean(a > 0 && (a & (a - 1)) == 0);
      }
      case Fn::Abs: {
        Val v = number_arg(n, 0);
        if (v.type == Type::Float) return Val::real(std::fabs(v.f));
        if (v.i == std::numeric_limits<std::int64_t>::min()) overflow(n);
        return Val::integer(v.i < 0 ? -v.i : v.i);
      }
      case Fn::Log2: {
        double x = number_arg(n, 0).as_double();
        if (!(x > 0)) fail_float(n, "log2 needs a positive argument, got ", x, "");
        return Val::real(std::log2(x));
      }
      case Fn::Sqrt: {
        double x = number_arg(n, 0).as_double();
        if (!(x >= 0)) fail_float(n, "sqrt needs a non-negative argument, got ", x, "");
        return Val::real(std::sqrt(x));
      }
      case Fn::Ceil:
      case Fn::Floor:
      case Fn::Int: {
        Val v = number_arg(n, 0);
        if (v.type == Type::Int) return v;
        double r = n.fn == Fn::Ceil ? std::ceil(v.f) : n.fn == Fn::Floor ? std::floor(v.f) : std::trunc(v.f);
        return Val::integer(to_int(n, r));
      }
      case Fn::Float: return Val::real(number_arg(n, 0).as_double());
      case Fn::None: break;
    }
    fail(n, "internal error: unknown function");
  }

  std::span<const Value> slots_;
};

Value to_value(const Val& v) {
  switch (v.type) {
    case Type::Int: return Value::integer(v.i);
    case Type::Float: return Value::real(v.f);
    case Type::Bool: return Value::boolean(v.b);
    case Type::String: return Value::string(*v.s);
  }
  return Value();
}

}  // namespace

bool fold_constants(Node& n) {
  if (n.op == Op::Literal) return true;
  if (n.op == Op::Name) return false;
  bool constant = true;
  for (Node& k : n.kids) constant = fold_constants(k) && constant;
  if (!constant) return false;
  Val v = Val::integer(0);
  try {
    v = Evaluator({}).eval(n);
  } catch (const ExprError&) {
    return false;  // left in place so the error is raised, with its position, when evaluated
  }
  Node folded;
  folded.op = Op::Literal;
  folded.position = n.position;
  folded.literal_type = v.type;
  switch (v.type) {
    case Type::Int: folded.literal_int = v.i; break;
    case Type::Float: folded.literal_float = v.f; break;
    case Type::Bool: folded.literal_bool = v.b; break;
    case Type::String: folded.text = *v.s; break;
  }
  n = std::move(folded);
  return true;
}

Value BoundExpr::evaluate(std::span<const Value> slots) const {
  if (root_ == nullptr) throw ExprError(0, "empty expression");
  return to_value(Evaluator(slots).eval(*root_));
}

bool BoundExpr::evaluate_bool(std::span<const Value> slots) const {
  if (root_ == nullptr) throw ExprError(0, "empty expression");
  Val v = Evaluator(slots).eval(*root_);
  if (v.type != Type::Bool) {
    throw ExprError(0, std::string("expected a bool result, got ") + type_name(v) + " " + to_value(v).to_string());
  }
  return v.b;
}

}  // namespace ktune::expr
