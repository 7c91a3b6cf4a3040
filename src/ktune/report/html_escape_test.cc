#include "ktune/report/html_escape.h"

#include <gtest/gtest.h>

namespace ktune::report {
namespace {

TEST(EscapeHtml, ReplacesMarkupCharacters) {
  EXPECT_EQ(escape_html("<script>alert(\"x\" & 'y')</script>"),
            "&lt;script&gt;alert(&quot;x&quot; &amp; &#39;y&#39;)&lt;/script&gt;");
  EXPECT_EQ(escape_html("plain 128x256"), "plain 128x256");
  EXPECT_EQ(escape_html(""), "");
}

TEST(EscapeHtml, KeepsValidUtf8AndReplacesInvalidBytes) {
  EXPECT_EQ(escape_html("\xCE\xBCs \xE2\x80\xA6"), "\xCE\xBCs \xE2\x80\xA6");  // "µs …"
  EXPECT_EQ(escape_html("a\xFF" "b"), "a\xEF\xBF\xBD" "b");
  EXPECT_EQ(escape_html("\xC0\xAF"), "\xEF\xBF\xBD\xEF\xBF\xBD");  // overlong '/'
  EXPECT_EQ(escape_html("\xED\xA0\x80"), "\xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBD");  // a surrogate
  EXPECT_EQ(escape_html("cut \xE2\x80"), "cut \xEF\xBF\xBD\xEF\xBF\xBD");
}

TEST(EscapeHtml, DropsControlCharactersXmlForbids) {
  EXPECT_EQ(escape_html(std::string("a\0b\x01\x1b[31mc\td\ne\r\n", 16)), "ab[31mc\td\ne\n");
  EXPECT_EQ(sanitize_utf8(std::string("x\0y\r\n", 5)), "xy\r\n");
  EXPECT_EQ(sanitize_utf8("<kept>"), "<kept>");
}

}  // namespace
}  // namespace ktune::report
