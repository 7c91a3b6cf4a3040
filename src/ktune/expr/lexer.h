#pragma once
// Splits expression text into tokens. Private to the expr module.

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace ktune::expr {

enum class Tok : std::uint8_t {
  End, Int, Float, String, Name,
  True, False, And, Or, Not, If, Else,
  Plus, Minus, Star, Slash, SlashSlash, Percent, StarStar,
  EqEq, NotEq, Less, LessEq, Greater, GreaterEq,
  AmpAmp, PipePipe, Bang, Question, Colon, LParen, RParen, Comma,
};

struct Token {
  Tok kind = Tok::End;
  std::size_t position = 0;
  std::string_view source;  // the token's text as written
  std::int64_t int_value = 0;
  double float_value = 0;
  std::string string_value;  // unescaped contents of a string literal
};

// Throws ExprError at the offending byte. The last token is always Tok::End.
std::vector<Token> tokenize(std::string_view text);

// "'+'", "name 'BM'", "number '12'", "end of expression": for "expected X, found Y" messages.
std::string describe(const Token& token);

}  // namespace ktune::expr
