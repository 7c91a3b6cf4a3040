#include "ktune/report/model_profile_html.h"

#include <gtest/gtest.h>

namespace ktune::report {
namespace {

// The shape of iree::ModelProfile::to_json(): dispatches slowest first, share of their summed time.
nlohmann::json profile_json() {
  return {{"model", "/m/mlp.mlir"},
          {"target", "cuda:sm_80"},
          {"function", "forward"},
          {"device", "NVIDIA A100"},
          {"model_median_s", 123.5e-6},
          {"wall_seconds", 12.25},
          {"dispatches",
           {{{"name", "mlp_dispatch_1_matmul"}, {"root", "matmul 512x1024x4096"}, {"tunable", true}, {"status", "ok"},
             {"share", 0.25}, {"result_id", 3}, {"median_s", 25e-6}},
            {{"name", "mlp_dispatch_0_matmul"}, {"root", "matmul 512x4096x1024"}, {"tunable", true}, {"status", "ok"},
             {"share", 0.75}, {"result_id", 2}, {"median_s", 75e-6}},
            {{"name", "mlp_dispatch_2_generic"}, {"root", "linalg.generic"}, {"tunable", false}, {"status", "runtime_error"},
             {"share", 0}, {"result_id", 4}, {"median_s", nullptr}, {"why_not_tunable", "not a matmul; a < b"}}}}};
}

TEST(ModelProfileHtml, RanksTheDispatchesByShareWithBars) {
  const std::string html = render_model_profile_html(profile_json());
  EXPECT_NE(html.find("<title>ktune model profile: /m/mlp.mlir for cuda:sm_80</title>"), std::string::npos);
  EXPECT_NE(html.find("NVIDIA A100"), std::string::npos);
  EXPECT_NE(html.find("<td>forward</td>"), std::string::npos);
  EXPECT_NE(html.find("<td>123.50</td>"), std::string::npos) << "whole model in us";
  const auto first = html.find("mlp_dispatch_0_matmul");
  const auto second = html.find("mlp_dispatch_1_matmul");
  const auto never = html.find("mlp_dispatch_2_generic");
  ASSERT_NE(first, std::string::npos);
  ASSERT_NE(second, std::string::npos);
  ASSERT_NE(never, std::string::npos);
  EXPECT_LT(first, second) << "75% before 25%";
  EXPECT_LT(second, never) << "the untimed dispatch last";
  EXPECT_NE(html.find("<td class=\"num\">75.00</td><td class=\"num\">75.0 %</td>"), std::string::npos);
  EXPECT_NE(html.find("<span style=\"width:75.0%\">"), std::string::npos);
  EXPECT_NE(html.find("<span style=\"width:25.0%\">"), std::string::npos);
  EXPECT_NE(html.find("no: not a matmul; a &lt; b"), std::string::npos);
  EXPECT_EQ(html.find("Tuned dispatches"), std::string::npos) << "a profile has no tuning sections";
  EXPECT_EQ(html.find("<script"), std::string::npos);
  EXPECT_NE(html.find("</html>"), std::string::npos);
}

TEST(ModelProfileHtml, ADispatchNeverTimedShowsDashes) {
  const std::string html = render_model_profile_html(profile_json());
  const auto row = html.find("mlp_dispatch_2_generic");
  ASSERT_NE(row, std::string::npos);
  const std::string tail = html.substr(row, html.find("</tr>", row) - row);
  EXPECT_NE(tail.find("<td class=\"num\">-</td><td class=\"num\">-</td><td class=\"bar\"></td>"), std::string::npos) << tail;
  EXPECT_NE(tail.find("runtime_error"), std::string::npos) << tail;

  // Fields missing altogether, nulls and wrong types do not throw.
  nlohmann::json sparse = {{"dispatches", {{{"name", "d0"}, {"median_s", nullptr}, {"share", nullptr}}, {{"share", "x"}}, 7}}};
  std::string page;
  ASSERT_NO_THROW(page = render_model_profile_html(sparse));
  EXPECT_NE(page.find("<code>d0</code>"), std::string::npos);
  EXPECT_NE(page.find("ktune model profile: - for -"), std::string::npos);
  ASSERT_NO_THROW(page = render_model_profile_html(nlohmann::json()));
  EXPECT_NE(page.find("No dispatch."), std::string::npos);
  ASSERT_NO_THROW(render_model_profile_html(nlohmann::json({{"profile", {{"dispatches", nullptr}}}, {"dispatches", 3}})));
}

TEST(ModelProfileHtml, InModelTimesComeFromIreesHalProfileOrSayWhyNot) {
  nlohmann::json j = profile_json();
  j["timing"] = "in-model";
  j["hal_profile_mode"] = "host-execution";
  j["dispatches"][1]["in_model_s"] = 80e-6;
  const std::string html = render_model_profile_html(j);
  EXPECT_NE(html.find("IREE's HAL profile, host-execution"), std::string::npos);
  EXPECT_NE(html.find("<th>in model (us)</th><th>alone (us)</th>"), std::string::npos);
  EXPECT_NE(html.find("<td class=\"num\">80.00</td><td class=\"num\">75.00</td><td class=\"num\">75.0 %</td>"), std::string::npos) << html;

  nlohmann::json alone = profile_json();
  alone["timing"] = "alone";
  alone["hal_profile_error"] = "UNIMPLEMENTED; CUDA HAL-native profiling is not implemented";
  const std::string page = render_model_profile_html(alone);
  EXPECT_NE(page.find("No in-model profile: UNIMPLEMENTED; CUDA HAL-native profiling is not implemented."), std::string::npos);
}

TEST(ModelProfileHtml, EverythingFromTheDatabaseIsEscaped) {
  nlohmann::json j = profile_json();
  j["model"] = "<script>alert(1)</script>.mlir";
  j["dispatches"][0]["name"] = "<script>alert('d')</script>";
  j["dispatches"][0]["root"] = "a & b";
  const std::string html = render_model_profile_html(j);
  EXPECT_EQ(html.find("<script"), std::string::npos) << html;
  EXPECT_NE(html.find("&lt;script&gt;alert(&#39;d&#39;)&lt;/script&gt;"), std::string::npos);
  EXPECT_NE(html.find("&lt;script&gt;alert(1)&lt;/script&gt;.mlir"), std::string::npos);
  EXPECT_NE(html.find("a &amp; b"), std::string::npos);
}

// The shape of iree::ModelTuning::to_json(): the profile, the tuned dispatches, the whole model.
nlohmann::json tuning_json() {
  return {{"profile", profile_json()},
          {"dispatches",
           {{{"name", "mlp_dispatch_0_matmul"},
             {"candidates", 40},
             {"object_candidates", 8},
             {"best", "ktune/128x128x32/w2x2/s3/g8/b1"},
             {"evaluated", 40},
             {"resumed", 1},
             {"by_status", {{"ok", 37}, {"compile_error", 3}}},
             {"wall_seconds", 90.5},
             {"stop_reason", "space exhausted"},
             {"session_id", 7},
             {"phase_totals", nlohmann::json::object()},
             {"default_s", 75e-6},
             {"best_s", 50e-6},
             {"speedup", 1.5},
             {"configured", "/w/executable.mlir"}},
            {{"name", "mlp_dispatch_1_matmul"},
             {"candidates", 32},
             {"object_candidates", 0},
             {"best", "default"},
             {"evaluated", 0},
             {"resumed", 0},
             {"by_status", nlohmann::json::object()},
             {"stop_reason", "interrupted"},
             {"default_s", nullptr},
             {"best_s", nullptr},
             {"objects_unsupported", "B is <transposed>"}}}},
          {"substitutions", {{"mlp_dispatch_0_matmul", "/w/executable.mlir"}}},
          {"compile_flags",
           {"--iree-hal-target-device=cuda", "--iree-cuda-target=sm_80",
            "--iree-hal-substitute-executable-configuration=mlp_dispatch_0_matmul=/w/executable.mlir"}},
          {"tuned_status", "ok"},
          {"tuned_kept", true},
          {"wall_seconds", 200.0},
          {"default_model_s", 120e-6},
          {"tuned_model_s", 100e-6},
          {"model_speedup", 1.2}};
}

TEST(ModelProfileHtml, ATuningShowsEachTunedDispatchTheWholeModelAndTheFlags) {
  const std::string html = render_model_profile_html(tuning_json());
  EXPECT_NE(html.find("<title>ktune model tune: /m/mlp.mlir for cuda:sm_80</title>"), std::string::npos);
  EXPECT_NE(html.find("<span style=\"width:75.0%\">"), std::string::npos) << "the profile's table";
  EXPECT_NE(html.find("Tuned dispatches"), std::string::npos);
  EXPECT_NE(html.find("<td class=\"num\">40</td><td class=\"num\">8</td><td class=\"num\">40</td><td class=\"num\">1</td>"
                      "<td class=\"num\">75.00</td><td class=\"num\">50.00</td>"
                      "<td><code>ktune/128x128x32/w2x2/s3/g8/b1</code></td><td class=\"num\">1.50x</td>"),
            std::string::npos)
      << html;
  EXPECT_NE(html.find("compile_error 3, ok 37"), std::string::npos);
  EXPECT_NE(html.find("B is &lt;transposed&gt;"), std::string::npos);
  // The dispatch never measured: dashes, no speedup.
  EXPECT_NE(html.find("<td class=\"num\">-</td><td class=\"num\">-</td><td><code>default</code></td><td class=\"num\">-</td>"),
            std::string::npos);
  EXPECT_NE(html.find("<th>IREE default build (us)</th><td>120.00</td>"), std::string::npos);
  EXPECT_NE(html.find("<th>tuned build (us)</th><td>100.00</td>"), std::string::npos);
  EXPECT_NE(html.find("<th>speedup</th><td>1.20x</td>"), std::string::npos);
  EXPECT_NE(html.find("The tuned build is the answer."), std::string::npos);
  EXPECT_NE(html.find("--iree-hal-substitute-executable-configuration=mlp_dispatch_0_matmul=/w/executable.mlir\n"),
            std::string::npos);
  EXPECT_NE(html.find("<th>tuned in (s)</th><td>200.0</td>"), std::string::npos);

  // No tuned build: the default stays; missing numbers are dashes.
  nlohmann::json j = tuning_json();
  j["tuned_model_s"] = nullptr;
  j.erase("model_speedup");
  j["tuned_kept"] = false;
  j["tuned_status"] = "verify_failed: <mismatch>";
  j["substitutions"] = nlohmann::json::object();
  const std::string kept = render_model_profile_html(j);
  EXPECT_NE(kept.find("<th>tuned build (us)</th><td>-</td>"), std::string::npos);
  EXPECT_NE(kept.find("<th>speedup</th><td>-</td>"), std::string::npos);
  EXPECT_NE(kept.find("verify_failed: &lt;mismatch&gt;"), std::string::npos);
  EXPECT_NE(kept.find("The default build stays the answer."), std::string::npos);
  EXPECT_EQ(kept.find("Substituted dispatches"), std::string::npos);
}

}  // namespace
}  // namespace ktune::report
