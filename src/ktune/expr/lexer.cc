#include "ktune/expr/lexer.h"

#include <charconv>
#include <cstdio>
#include <system_error>

#include "ktune/expr/expr.h"

namespace ktune::expr {
namespace {

bool is_digit(char c) { return c >= '0' && c <= '9'; }
bool is_hex_digit(char c) { return is_digit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F'); }
bool is_name_start(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_'; }
bool is_name_char(char c) { return is_name_start(c) || is_digit(c); }

std::string quote_char(char c) {
  if (c >= 0x20 && c < 0x7f) return std::string("'") + c + "'";
  char buf[16];
  std::snprintf(buf, sizeof buf, "byte 0x%02x", static_cast<unsigned>(static_cast<unsigned char>(c)));
  return buf;
}

struct Keyword {
  std::string_view text;
  Tok kind;
};
constexpr Keyword kKeywords[] = {
    {"true", Tok::True}, {"false", Tok::False}, {"and", Tok::And}, {"or", Tok::Or},
    {"not", Tok::Not},   {"if", Tok::If},       {"else", Tok::Else},
};

class Lexer {
 public:
  explicit Lexer(std::string_view text) : text_(text) {}

  std::vector<Token> run() {
    std::vector<Token> tokens;
    for (;;) {
      skip_space();
      Token t = next();
      bool end = t.kind == Tok::End;
      tokens.push_back(std::move(t));
      if (end) return tokens;
    }
  }

 private:
  char peek(std::size_t ahead = 0) const { return pos_ + ahead < text_.size() ? text_[pos_ + ahead] : '\0'; }
  bool at_end(std::size_t ahead = 0) const { return pos_ + ahead >= text_.size(); }

  void skip_space() {
    while (!at_end() && (peek() == ' ' || peek() == '\t' || peek() == '\n' || peek() == '\r')) ++pos_;
  }

  Token make(Tok kind, std::size_t start) const {
    Token t;
    t.kind = kind;
    t.position = start;
    t.source = text_.substr(start, pos_ - start);
    return t;
  }

  Token next() {
    std::size_t start = pos_;
    if (at_end()) return make(Tok::End, start);
    char c = peek();
    if (is_digit(c) || (c == '.' && is_digit(peek(1)))) return number();
    if (is_name_start(c)) return name();
    if (c == '"' || c == '\'') return string_literal();
    auto op = [&](Tok kind, std::size_t length) {
      pos_ += length;
      return make(kind, start);
    };
    char d = peek(1);
    switch (c) {
      case '+': return op(Tok::Plus, 1);
      case '-': return op(Tok::Minus, 1);
      case '*': return d == '*' ? op(Tok::StarStar, 2) : op(Tok::Star, 1);
      case '/': return d == '/' ? op(Tok::SlashSlash, 2) : op(Tok::Slash, 1);
      case '%': return op(Tok::Percent, 1);
      case '<': return d == '=' ? op(Tok::LessEq, 2) : op(Tok::Less, 1);
      case '>': return d == '=' ? op(Tok::GreaterEq, 2) : op(Tok::Greater, 1);
      case '!': return d == '=' ? op(Tok::NotEq, 2) : op(Tok::Bang, 1);
      case '?': return op(Tok::Question, 1);
      case ':': return op(Tok::Colon, 1);
      case '(': return op(Tok::LParen, 1);
      case ')': return op(Tok::RParen, 1);
      case ',': return op(Tok::Comma, 1);
      case '=':
        if (d == '=') return op(Tok::EqEq, 2);
        throw ExprError(start, "unexpected '=' (use '==' to compare)");
      case '&':
        if (d == '&') return op(Tok::AmpAmp, 2);
        throw ExprError(start, "unexpected '&' (use '&&' or 'and')");
      case '|':
        if (d == '|') return op(Tok::PipePipe, 2);
        throw ExprError(start, "unexpected '|' (use '||' or 'or')");
      default: break;
    }
    throw ExprError(start, "unexpected character " + quote_char(c));
  }

  Token name() {
    std::size_t start = pos_;
    while (!at_end() && is_name_char(peek())) ++pos_;
    Token t = make(Tok::Name, start);
    for (const Keyword& k : kKeywords) {
      if (t.source == k.text) t.kind = k.kind;
    }
    return t;
  }

  // The whole run of characters that could belong to a malformed number, for the message.
  std::string_view number_run(std::size_t start) const {
    std::size_t end = start;
    while (end < text_.size() && (is_name_char(text_[end]) || text_[end] == '.')) ++end;
    return text_.substr(start, end - start);
  }

  [[noreturn]] void invalid_number(std::size_t start, const char* why) const {
    throw ExprError(start, "invalid number '" + std::string(number_run(start)) + "'" + why);
  }

  Token number() {
    std::size_t start = pos_;
    if (peek() == '0' && (peek(1) == 'x' || peek(1) == 'X')) {
      pos_ += 2;
      std::size_t digits = pos_;
      while (!at_end() && is_hex_digit(peek())) ++pos_;
      if (pos_ == digits || (!at_end() && (is_name_char(peek()) || peek() == '.'))) invalid_number(start, "");
      Token t = make(Tok::Int, start);
      auto [p, ec] = std::from_chars(text_.data() + digits, text_.data() + pos_, t.int_value, 16);
      if (ec != std::errc()) {
        throw ExprError(start, "integer literal '" + std::string(t.source) + "' is too large");
      }
      return t;
    }
    bool is_float = false;
    while (!at_end() && is_digit(peek())) ++pos_;
    if (peek() == '.') {
      is_float = true;
      ++pos_;
      while (!at_end() && is_digit(peek())) ++pos_;
    }
    if (peek() == 'e' || peek() == 'E') {
      std::size_t exponent = 1;
      if (peek(1) == '+' || peek(1) == '-') exponent = 2;
      if (!is_digit(peek(exponent))) invalid_number(start, "");
      is_float = true;
      pos_ += exponent;
      while (!at_end() && is_digit(peek())) ++pos_;
    }
    if (!at_end() && (is_name_char(peek()) || peek() == '.')) invalid_number(start, "");
    Token t = make(is_float ? Tok::Float : Tok::Int, start);
    const char* first = text_.data() + start;
    const char* last = text_.data() + pos_;
    if (is_float) {
      auto [p, ec] = std::from_chars(first, last, t.float_value);
      if (ec != std::errc() || p != last) {
        throw ExprError(start, "float literal '" + std::string(t.source) + "' is out of range");
      }
      return t;
    }
    // C reads 012 as octal; refusing it avoids silently meaning something else.
    if (t.source.size() > 1 && t.source[0] == '0') invalid_number(start, " (leading zeros are not allowed)");
    auto [p, ec] = std::from_chars(first, last, t.int_value);
    if (ec != std::errc() || p != last) {
      throw ExprError(start, "integer literal '" + std::string(t.source) + "' is too large (the limit is 9223372036854775807)");
    }
    return t;
  }

  Token string_literal() {
    std::size_t start = pos_;
    char quote = peek();
    ++pos_;
    std::string value;
    for (;;) {
      if (at_end()) throw ExprError(start, "unterminated string");
      char c = peek();
      if (c == quote) {
        ++pos_;
        break;
      }
      if (c == '\\') {
        char e = peek(1);
        switch (e) {
          case '\\': value += '\\'; break;
          case '"': value += '"'; break;
          case '\'': value += '\''; break;
          case 'n': value += '\n'; break;
          case 't': value += '\t'; break;
          default:
            if (at_end(1)) throw ExprError(start, "unterminated string");
            throw ExprError(pos_, "unknown escape '\\" + std::string(1, e) + "' in string");
        }
        pos_ += 2;
        continue;
      }
      value += c;
      ++pos_;
    }
    Token t = make(Tok::String, start);
    t.string_value = std::move(value);
    return t;
  }

  std::string_view text_;
  std::size_t pos_ = 0;
};

}  // namespace

std::vector<Token> tokenize(std::string_view text) { return Lexer(text).run(); }

std::string describe(const Token& token) {
  switch (token.kind) {
    case Tok::End: return "end of expression";
    case Tok::Int:
    case Tok::Float: return "number '" + std::string(token.source) + "'";
    case Tok::String: return "string " + std::string(token.source);
    case Tok::Name: return "name '" + std::string(token.source) + "'";
    default: return "'" + std::string(token.source) + "'";
  }
}

}  // namespace ktune::expr
