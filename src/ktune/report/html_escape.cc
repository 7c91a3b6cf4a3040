#include "ktune/report/html_escape.h"

#include <cstdint>

namespace ktune::report {

namespace {

constexpr std::string_view kReplacement = "\xEF\xBF\xBD";  // U+FFFD

// Length of the valid UTF-8 sequence starting at text[i], or 0 when it is not one.
std::size_t utf8_sequence_length(std::string_view text, std::size_t i) {
  const auto byte = [&](std::size_t k) { return static_cast<std::uint8_t>(text[k]); };
  const std::uint8_t lead = byte(i);
  std::size_t length = 0;
  std::uint32_t code = 0;
  if (lead < 0x80) return 1;
  if ((lead & 0xE0) == 0xC0) length = 2, code = lead & 0x1Fu;
  else if ((lead & 0xF0) == 0xE0) length = 3, code = lead & 0x0Fu;
  else if ((lead & 0xF8) == 0xF0) length = 4, code = lead & 0x07u;
  else return 0;
  if (i + length > text.size()) return 0;
  for (std::size_t k = 1; k < length; ++k) {
    if ((byte(i + k) & 0xC0) != 0x80) return 0;
    code = (code << 6) | (byte(i + k) & 0x3Fu);
  }
  // Overlong encodings, surrogates and values past U+10FFFF are invalid.
  static constexpr std::uint32_t kMinimum[5] = {0, 0, 0x80, 0x800, 0x10000};
  if (code < kMinimum[length] || code > 0x10FFFF || (code >= 0xD800 && code <= 0xDFFF)) return 0;
  return length;
}

bool is_dropped_control(unsigned char c) { return (c < 0x20 && c != '\t' && c != '\n' && c != '\r') || c == 0x7F; }

template <typename Emit>
void for_each_clean(std::string_view text, Emit emit) {
  for (std::size_t i = 0; i < text.size();) {
    const std::size_t length = utf8_sequence_length(text, i);
    if (length == 0) {
      emit(kReplacement);
      ++i;
      continue;
    }
    if (length == 1 && is_dropped_control(static_cast<unsigned char>(text[i]))) {
      ++i;
      continue;
    }
    emit(text.substr(i, length));
    i += length;
  }
}

}  // namespace

std::string sanitize_utf8(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for_each_clean(text, [&](std::string_view piece) { out += piece; });
  return out;
}

std::string escape_html(std::string_view text) {
  std::string out;
  out.reserve(text.size() + text.size() / 8);
  for_each_clean(text, [&](std::string_view piece) {
    if (piece.size() != 1) {
      out += piece;
      return;
    }
    switch (piece[0]) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      case '\'': out += "&#39;"; break;
      case '\r': break;  // keeps <pre> blocks of Windows logs from doubling lines
      default: out += piece[0];
    }
  });
  return out;
}

}  // namespace ktune::report
