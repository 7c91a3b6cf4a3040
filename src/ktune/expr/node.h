#pragma once
// The expression tree shared by the parser, binder and evaluator. Private to the expr module.

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "ktune/core/value.h"

namespace ktune::expr {

// Tree depth and parser nesting are both capped so that neither parsing, evaluation nor
// destruction of a tree can exhaust the stack, whatever text a user hands us.
inline constexpr std::size_t kMaxDepth = 256;

enum class Op : std::uint8_t {
  Literal, Name,
  Neg, Pos, Not,
  Add, Sub, Mul, Div, FloorDiv, Mod, Pow,
  Eq, Ne, Lt, Le, Gt, Ge,
  And, Or,
  Cond,  // kids: condition, then, else
  Call,
};

enum class Fn : std::uint8_t {
  None, Min, Max, CeilDiv, FloorDiv, IsPow2, Abs, Log2, Sqrt, Ceil, Floor, RoundUp, Int, Float,
};

inline constexpr std::size_t kNoSlot = static_cast<std::size_t>(-1);

struct Node {
  Op op = Op::Literal;
  Fn fn = Fn::None;
  Value::Type literal_type = Value::Type::Int;
  bool literal_bool = false;
  std::uint16_t depth = 1;
  std::size_t position = 0;
  // The operator or function as the user wrote it ("&&" or "and"), for error messages.
  const char* spelling = "";
  std::int64_t literal_int = 0;
  double literal_float = 0;
  std::string text;  // string literal contents, or the name of a Name node
  std::size_t slot = kNoSlot;  // Name nodes after bind()
  std::vector<Node> kids;
};

// Replaces every subtree without names by its value, except subtrees whose evaluation fails.
// Returns whether `n` is now a literal.
bool fold_constants(Node& n);

}  // namespace ktune::expr
