#pragma once
// Text read from compiled files (kernel names, assembly lines) may hold any bytes, but JSON
// must be UTF-8: invalid bytes (and overlong forms, surrogates, code points above U+10FFFF)
// become U+FFFD, so a report can always be written.

#include <string>
#include <string_view>

namespace ktune::analysis {

std::string to_valid_utf8(std::string_view text);

}  // namespace ktune::analysis
