#include "ktune/analysis/valid_utf8.h"

#include <cstdint>

namespace ktune::analysis {

std::string to_valid_utf8(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  std::size_t i = 0;
  while (i < s.size()) {
    const auto c = static_cast<unsigned char>(s[i]);
    std::size_t len = c < 0x80 ? 1 : (c >> 5) == 0x6 ? 2 : (c >> 4) == 0xe ? 3 : (c >> 3) == 0x1e ? 4 : 0;
    bool ok = len != 0 && i + len <= s.size();
    for (std::size_t k = 1; ok && k < len; ++k) ok = (static_cast<unsigned char>(s[i + k]) & 0xc0) == 0x80;
    if (ok && len > 1) {
      // Overlong forms, surrogates and code points above U+10FFFF are invalid too.
      std::uint32_t cp = c & (0x7f >> len);
      for (std::size_t k = 1; k < len; ++k) cp = (cp << 6) | (static_cast<unsigned char>(s[i + k]) & 0x3f);
      const std::uint32_t min[] = {0, 0, 0x80, 0x800, 0x10000};
      ok = cp >= min[len] && cp <= 0x10ffff && (cp < 0xd800 || cp > 0xdfff);
    }
    if (ok) {
      out.append(s.substr(i, len));
      i += len;
    } else {
      out += "\xEF\xBF\xBD";
      ++i;
    }
  }
  return out;
}

}  // namespace ktune::analysis
