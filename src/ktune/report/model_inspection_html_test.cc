#include "ktune/report/model_inspection_html.h"

#include <gtest/gtest.h>

namespace ktune::report {
namespace {

TEST(ModelInspectionHtml, OneRowPerDispatchEscapedWithItsDetails) {
  const nlohmann::json j = {
      {"model", "m<1>.mlir"},
      {"target", "hip:gfx942"},
      {"iree_version", "3.13.0"},
      {"code_object", "x.hsaco"},
      {"notes", {"a note & more"}},
      {"dispatches",
       {{{"dispatch", "m_dispatch_0"},
         {"kernel", "m_dispatch_0_matmul"},
         {"root_op", "linalg.generic"},
         {"mnk", {512, 4096, 1024}},
         {"code_object",
          {{"resources", {{"vgprs (total, incl. AGPRs)", 159}, {"lds_bytes", 50688}}},
           {"occupancy", {{"summary", "1 waves/SIMD, limited by LDS"}}},
           {"hints", {"17920 fewer LDS bytes -> 2 waves"}},
           {"findings", {{{"check", "narrow-loads"}, {"severity", "warning"}, {"message", "<narrow>"}}}}}},
         {"assembly_check", {{"agrees", false}, {"mismatches", {{{"figure", "lds_bytes"}, {"ktune", 1}, {"assembly", 2}}}}}}}}}};
  const std::string html = render_model_inspection_html(j);
  EXPECT_NE(html.find("m&lt;1&gt;.mlir"), std::string::npos);
  EXPECT_EQ(html.find("m<1>"), std::string::npos) << "escaped everywhere";
  EXPECT_NE(html.find("<td>m_dispatch_0</td>"), std::string::npos);
  EXPECT_NE(html.find("<td>159</td>"), std::string::npos);
  EXPECT_NE(html.find("1 waves/SIMD, limited by LDS"), std::string::npos);
  EXPECT_NE(html.find("class=\"differs\">differs"), std::string::npos);
  EXPECT_NE(html.find("narrow-loads"), std::string::npos);
  EXPECT_NE(html.find("&lt;narrow&gt;"), std::string::npos);
  EXPECT_NE(html.find("lds_bytes: ktune 1, IREE's assembly 2"), std::string::npos);
  EXPECT_NE(html.find("a note &amp; more"), std::string::npos);
  EXPECT_NE(html.find("</html>"), std::string::npos);
}

}  // namespace
}  // namespace ktune::report
