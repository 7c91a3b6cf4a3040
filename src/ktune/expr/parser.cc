// Recursive-descent parser: one function per precedence level, lowest first.
#include <algorithm>
#include <string>
#include <utility>

#include "ktune/expr/expr.h"
#include "ktune/expr/lexer.h"
#include "ktune/expr/node.h"

namespace ktune::expr {
namespace {

constexpr std::size_t kVariadic = static_cast<std::size_t>(-1);

struct FunctionInfo {
  std::string_view name;
  Fn fn;
  std::size_t min_args;
  std::size_t max_args;  // kVariadic: any number from min_args up
};

constexpr FunctionInfo kFunctions[] = {
    {"min", Fn::Min, 1, kVariadic},       {"max", Fn::Max, 1, kVariadic},
    {"ceil_div", Fn::CeilDiv, 2, 2},    {"floor_div", Fn::FloorDiv, 2, 2},
    {"is_pow2", Fn::IsPow2, 1, 1},      {"abs", Fn::Abs, 1, 1},
    {"log2", Fn::Log2, 1, 1},           {"sqrt", Fn::Sqrt, 1, 1},
    {"ceil", Fn::Ceil, 1, 1},           {"floor", Fn::Floor, 1, 1},
    {"round_up", Fn::RoundUp, 2, 2},    {"int", Fn::Int, 1, 1},
    {"float", Fn::Float, 1, 1},
};

std::string arguments(std::size_t n) { return std::to_string(n) + (n == 1 ? " argument" : " arguments"); }

class Parser {
 public:
  explicit Parser(std::string_view text) : tokens_(tokenize(text)) {}

  Node parse_all(std::vector<std::string>& names) {
    if (peek().kind == Tok::End) throw ExprError(peek().position, "empty expression");
    Node root = ternary();
    if (peek().kind != Tok::End) {
      throw ExprError(peek().position, "expected an operator or end of expression, found " + describe(peek()));
    }
    names = std::move(names_);
    return root;
  }

 private:
  // Counts recursion through the grammar so "((((...))))" and "- - - ... 1" stop at kMaxDepth.
  class Nest {
   public:
    Nest(Parser& parser, std::size_t position) : parser_(parser) {
      if (++parser_.nesting_ > kMaxDepth) {
        throw ExprError(position, "expression is nested too deeply (the limit is " + std::to_string(kMaxDepth) + " levels)");
      }
    }
    ~Nest() { --parser_.nesting_; }
    Nest(const Nest&) = delete;
    Nest& operator=(const Nest&) = delete;

   private:
    Parser& parser_;
  };

  const Token& peek() const { return tokens_[index_]; }
  const Token& advance() { return tokens_[index_ < tokens_.size() - 1 ? index_++ : index_]; }
  bool at(Tok kind) const { return peek().kind == kind; }

  void expect(Tok kind, const char* what) {
    if (!at(kind)) throw ExprError(peek().position, std::string("expected ") + what + ", found " + describe(peek()));
    advance();
  }

  static Node make(Op op, const Token& token, const char* spelling, std::vector<Node> kids) {
    Node n;
    n.op = op;
    n.position = token.position;
    n.spelling = spelling;
    std::size_t depth = 0;
    for (const Node& k : kids) depth = std::max<std::size_t>(depth, k.depth);
    if (depth + 1 > kMaxDepth) {
      throw ExprError(token.position, "expression is nested too deeply (the limit is " + std::to_string(kMaxDepth) + " levels)");
    }
    n.depth = static_cast<std::uint16_t>(depth + 1);
    n.kids = std::move(kids);
    return n;
  }

  static Node binary(Op op, const Token& token, const char* spelling, Node lhs, Node rhs) {
    std::vector<Node> kids;
    kids.reserve(2);
    kids.push_back(std::move(lhs));
    kids.push_back(std::move(rhs));
    return make(op, token, spelling, std::move(kids));
  }

  // cond ? a : b  and  a if cond else b; both associate to the right.
  Node ternary() {
    Nest nest(*this, peek().position);
    Node first = logical_or();
    if (at(Tok::Question)) {
      Token question = advance();
      Node then_branch = ternary();
      expect(Tok::Colon, "':' of 'cond ? a : b'");
      Node else_branch = ternary();
      return cond(question, "?", std::move(first), std::move(then_branch), std::move(else_branch));
    }
    if (at(Tok::If)) {
      Token if_token = advance();
      Node condition = logical_or();
      expect(Tok::Else, "'else' of 'a if cond else b'");
      Node else_branch = ternary();
      return cond(if_token, "if", std::move(condition), std::move(first), std::move(else_branch));
    }
    return first;
  }

  static Node cond(const Token& token, const char* spelling, Node condition, Node then_branch, Node else_branch) {
    std::vector<Node> kids;
    kids.reserve(3);
    kids.push_back(std::move(condition));
    kids.push_back(std::move(then_branch));
    kids.push_back(std::move(else_branch));
    return make(Op::Cond, token, spelling, std::move(kids));
  }

  Node logical_or() {
    Node lhs = logical_and();
    while (at(Tok::Or) || at(Tok::PipePipe)) {
      Token op = advance();
      const char* spelling = op.kind == Tok::Or ? "or" : "||";
      lhs = binary(Op::Or, op, spelling, std::move(lhs), logical_and());
    }
    return lhs;
  }

  Node logical_and() {
    Node lhs = logical_not();
    while (at(Tok::And) || at(Tok::AmpAmp)) {
      Token op = advance();
      const char* spelling = op.kind == Tok::And ? "and" : "&&";
      lhs = binary(Op::And, op, spelling, std::move(lhs), logical_not());
    }
    return lhs;
  }

  Node logical_not() {
    if (at(Tok::Not) || at(Tok::Bang)) {
      Token op = advance();
      Nest nest(*this, op.position);
      std::vector<Node> kids;
      kids.push_back(logical_not());
      return make(Op::Not, op, op.kind == Tok::Not ? "not" : "!", std::move(kids));
    }
    return comparison();
  }

  static bool comparison_op(Tok kind, Op& op, const char*& spelling) {
    switch (kind) {
      case Tok::EqEq: op = Op::Eq; spelling = "=="; return true;
      case Tok::NotEq: op = Op::Ne; spelling = "!="; return true;
      case Tok::Less: op = Op::Lt; spelling = "<"; return true;
      case Tok::LessEq: op = Op::Le; spelling = "<="; return true;
      case Tok::Greater: op = Op::Gt; spelling = ">"; return true;
      case Tok::GreaterEq: op = Op::Ge; spelling = ">="; return true;
      default: return false;
    }
  }

  Node comparison() {
    Node lhs = additive();
    Op op;
    const char* spelling;
    if (!comparison_op(peek().kind, op, spelling)) return lhs;
    Token token = advance();
    Node result = binary(op, token, spelling, std::move(lhs), additive());
    if (comparison_op(peek().kind, op, spelling)) {
      // Python reads a < b < c as a chain and C as (a < b) < c; refusing both avoids surprises.
      throw ExprError(peek().position, "comparisons cannot be chained; combine them with 'and'");
    }
    return result;
  }

  Node additive() {
    Node lhs = multiplicative();
    while (at(Tok::Plus) || at(Tok::Minus)) {
      Token op = advance();
      bool plus = op.kind == Tok::Plus;
      lhs = binary(plus ? Op::Add : Op::Sub, op, plus ? "+" : "-", std::move(lhs), multiplicative());
    }
    return lhs;
  }

  Node multiplicative() {
    Node lhs = unary();
    for (;;) {
      Op op;
      const char* spelling;
      switch (peek().kind) {
        case Tok::Star: op = Op::Mul; spelling = "*"; break;
        case Tok::Slash: op = Op::Div; spelling = "/"; break;
        case Tok::SlashSlash: op = Op::FloorDiv; spelling = "//"; break;
        case Tok::Percent: op = Op::Mod; spelling = "%"; break;
        default: return lhs;
      }
      Token token = advance();
      lhs = binary(op, token, spelling, std::move(lhs), unary());
    }
  }

  Node unary() {
    if (at(Tok::Minus) || at(Tok::Plus)) {
      Token op = advance();
      Nest nest(*this, op.position);
      std::vector<Node> kids;
      kids.push_back(unary());
      bool minus = op.kind == Tok::Minus;
      return make(minus ? Op::Neg : Op::Pos, op, minus ? "-" : "+", std::move(kids));
    }
    return power();
  }

  // Like Python: -2 ** 2 is -(2 ** 2), 2 ** -1 is allowed, 2 ** 3 ** 2 is 2 ** 9.
  Node power() {
    Node base = primary();
    if (!at(Tok::StarStar)) return base;
    Token op = advance();
    Nest nest(*this, op.position);
    return binary(Op::Pow, op, "**", std::move(base), unary());
  }

  Node primary() {
    const Token& token = peek();
    Node n;
    n.position = token.position;
    switch (token.kind) {
      case Tok::Int:
        n.literal_type = Value::Type::Int;
        n.literal_int = token.int_value;
        advance();
        return n;
      case Tok::Float:
        n.literal_type = Value::Type::Float;
        n.literal_float = token.float_value;
        advance();
        return n;
      case Tok::True:
      case Tok::False:
        n.literal_type = Value::Type::Bool;
        n.literal_bool = token.kind == Tok::True;
        advance();
        return n;
      case Tok::String:
        n.literal_type = Value::Type::String;
        n.text = token.string_value;
        advance();
        return n;
      case Tok::Name: {
        Token name = advance();
        if (at(Tok::LParen)) return call(name);
        n.op = Op::Name;
        n.text = std::string(name.source);
        if (std::find(names_.begin(), names_.end(), n.text) == names_.end()) names_.push_back(n.text);
        return n;
      }
      case Tok::LParen: {
        advance();
        Node inner = ternary();
        expect(Tok::RParen, "')'");
        return inner;
      }
      default:
        throw ExprError(token.position, "expected an expression, found " + describe(token));
    }
  }

  Node call(const Token& name) {
    const FunctionInfo* info = nullptr;
    for (const FunctionInfo& f : kFunctions) {
      if (f.name == name.source) info = &f;
    }
    if (info == nullptr) throw ExprError(name.position, "unknown function '" + std::string(name.source) + "'");
    advance();
    std::vector<Node> args;
    if (!at(Tok::RParen)) {
      for (;;) {
        args.push_back(ternary());
        if (at(Tok::Comma)) {
          advance();
          continue;
        }
        expect(Tok::RParen, "',' or ')'");
        break;
      }
    } else {
      advance();
    }
    std::string fname(info->name);
    if (info->max_args == kVariadic) {
      if (args.size() < info->min_args) {
        throw ExprError(name.position, fname + " takes at least " + arguments(info->min_args) + ", got " + std::to_string(args.size()));
      }
    } else if (args.size() != info->min_args) {
      throw ExprError(name.position, fname + " takes " + arguments(info->min_args) + ", got " + std::to_string(args.size()));
    }
    Node n = make(Op::Call, name, info->name.data(), std::move(args));
    n.fn = info->fn;
    return n;
  }

  std::vector<Token> tokens_;
  std::size_t index_ = 0;
  std::size_t nesting_ = 0;
  std::vector<std::string> names_;
};

}  // namespace

Expr Expr::parse(std::string_view text) {
  Expr e;
  std::vector<std::string> names;
  Node root = Parser(text).parse_all(names);
  e.text_ = std::string(text);
  e.root_ = std::make_shared<const Node>(std::move(root));
  e.names_ = std::move(names);
  return e;
}

}  // namespace ktune::expr
