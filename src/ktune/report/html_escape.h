#pragma once
// Text from the database (config values, compiler logs, device names) goes into HTML and SVG;
// these make it inert there.

#include <string>
#include <string_view>

namespace ktune::report {

// For element content and double-quoted attribute values, in HTML and in SVG/XML alike:
// & < > " ' become character references; control characters other than tab and newline are
// dropped (XML forbids them) and invalid UTF-8 bytes become U+FFFD, so the page always parses.
std::string escape_html(std::string_view text);

// Valid UTF-8 with control characters other than tab/newline/CR removed; nothing else changed.
std::string sanitize_utf8(std::string_view text);

}  // namespace ktune::report
