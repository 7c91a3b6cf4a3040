#include "ktune/report/model_profile_html.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <optional>
#include <sstream>
#include <string_view>
#include <vector>

#include "ktune/report/html_escape.h"
#include "ktune/report/html_report.h"

namespace ktune::report {
namespace {

using nlohmann::json;

// Errors can be whole compiler logs; the page keeps their start.
constexpr std::size_t kMaxReasonChars = 600;

constexpr const char* kExtraStyle = R"css(
.facts th { text-align: left; }
td.bar { min-width: 160px; }
div.bar { background: #eef; height: 10px; width: 160px; }
div.bar span { display: block; height: 100%; background: #4477aa; }
.kept { color: #070; } .not-kept { color: #b00; }
)css";

const json& object_at(const json& j, const char* key) {
  static const json empty = json::object();
  if (!j.is_object()) return empty;
  const auto it = j.find(key);
  return it != j.end() && it->is_object() ? *it : empty;
}

const json& array_at(const json& j, const char* key) {
  static const json empty = json::array();
  if (!j.is_object()) return empty;
  const auto it = j.find(key);
  return it != j.end() && it->is_array() ? *it : empty;
}

// A finite number, or nothing for absent keys, null and non-numbers.
std::optional<double> number_at(const json& j, const char* key) {
  if (!j.is_object()) return std::nullopt;
  const auto it = j.find(key);
  if (it == j.end() || !it->is_number()) return std::nullopt;
  const double v = it->get<double>();
  return std::isfinite(v) ? std::optional<double>(v) : std::nullopt;
}

// Raw text (escaped by the caller): a string as it is, "-" for absent or null, else its JSON.
std::string text_at(const json& j, const char* key) {
  if (!j.is_object()) return "-";
  const auto it = j.find(key);
  if (it == j.end() || it->is_null()) return "-";
  if (it->is_string()) return it->get<std::string>();
  return it->dump();
}

// The string's text, empty for absent, null or non-strings.
std::string string_at(const json& j, const char* key) {
  if (!j.is_object()) return {};
  const auto it = j.find(key);
  return it != j.end() && it->is_string() ? it->get<std::string>() : std::string();
}

std::optional<bool> bool_at(const json& j, const char* key) {
  if (!j.is_object()) return std::nullopt;
  const auto it = j.find(key);
  return it != j.end() && it->is_boolean() ? std::optional<bool>(it->get<bool>()) : std::nullopt;
}

std::string fixed(std::optional<double> v, const char* format) {
  if (!v) return "-";
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, format, *v);
  return buffer;
}

std::string us(std::optional<double> seconds) { return fixed(seconds ? std::optional<double>(*seconds * 1e6) : std::nullopt, "%.2f"); }

std::string shortened(std::string text) {
  if (text.size() > kMaxReasonChars) text = text.substr(0, kMaxReasonChars) + " ...";
  return text;
}

std::string esc(std::string_view text) { return escape_html(text); }

void fact(std::ostringstream& out, std::string_view name, const std::string& value) {
  out << "<tr><th>" << esc(name) << "</th><td>" << esc(value) << "</td></tr>\n";
}

// The profile's dispatches by share, largest first; those never timed last, in their order.
std::vector<const json*> ranked(const json& profile) {
  std::vector<const json*> d;
  for (const auto& x : array_at(profile, "dispatches"))
    if (x.is_object()) d.push_back(&x);
  auto key = [](const json* x) {
    return number_at(*x, "median_s") || number_at(*x, "in_model_s") ? number_at(*x, "share").value_or(0) : -1.0;
  };
  std::stable_sort(d.begin(), d.end(), [&](const json* a, const json* b) { return key(a) > key(b); });
  return d;
}

void dispatch_row(std::ostringstream& out, std::size_t rank, const json& d) {
  const std::optional<double> median = number_at(d, "median_s");
  const std::optional<double> in_model = number_at(d, "in_model_s");
  const std::optional<double> share = median || in_model ? number_at(d, "share") : std::nullopt;
  const std::optional<bool> tunable = bool_at(d, "tunable");
  const std::string why = string_at(d, "why_not_tunable");
  const std::string status = string_at(d, "status");
  std::string status_text = status.empty() ? "-" : status;
  std::string tunable_text = !tunable ? "-" : *tunable ? "yes" : "no" + (why.empty() ? "" : ": " + shortened(why));
  // A tunable dispatch whose default did not run carries its error as the reason.
  if (tunable && *tunable && !why.empty()) status_text += ": " + shortened(why);
  out << "<tr><td class=\"num\">" << rank << "</td><td><code>" << esc(text_at(d, "name")) << "</code></td><td>"
      << esc(text_at(d, "root")) << "</td><td class=\"num\">" << us(in_model) << "</td><td class=\"num\">" << us(median)
      << "</td><td class=\"num\">"
      << fixed(share ? std::optional<double>(100 * *share) : std::nullopt, "%.1f %%") << "</td><td class=\"bar\">";
  if (share) {
    const double width = std::clamp(100 * *share, 0.0, 100.0);
    out << "<div class=\"bar\" title=\"" << fixed(100 * *share, "%.1f %%") << "\"><span style=\"width:"
        << fixed(width, "%.1f") << "%\"></span></div>";
  }
  out << "</td><td>" << esc(status_text) << "</td><td>" << esc(tunable_text) << "</td></tr>\n";
}

void profile_section(std::ostringstream& out, const json& profile) {
  const std::vector<const json*> d = ranked(profile);
  out << "<h2>Dispatches by share of time</h2>\n<p class=\"muted\">";
  if (string_at(profile, "timing") == "in-model")
    out << "In model: each dispatch inside the whole model's runs (IREE's HAL profile, " << esc(string_at(profile, "hal_profile_mode"))
        << ", read with iree-profile), per run; alone: its benchmark module; share: of the in-model sum.";
  else
    out << "Each dispatch's IREE default timed alone (its benchmark module); share: of the dispatches' summed time. No in-model "
           "profile: "
        << esc(string_at(profile, "hal_profile_error").empty() ? std::string("not captured") : shortened(string_at(profile, "hal_profile_error")))
        << ".";
  out << "</p>\n";
  if (d.empty()) {
    out << "<p>No dispatch.</p>\n";
    return;
  }
  out << "<table class=\"dispatches\"><tr><th>#</th><th>dispatch</th><th>root op</th><th>in model (us)</th><th>alone (us)</th><th>share</th>"
         "<th></th><th>status</th><th>tunable</th></tr>\n";
  for (std::size_t i = 0; i < d.size(); ++i) dispatch_row(out, i + 1, *d[i]);
  out << "</table>\n";
}

std::string by_status_text(const json& t) {
  std::string s;
  for (const auto& [status, count] : object_at(t, "by_status").items())
    s += (s.empty() ? "" : ", ") + status + " " + (count.is_string() ? count.get<std::string>() : count.dump());
  return s.empty() ? "-" : s;
}

void tuning_sections(std::ostringstream& out, const json& tuning) {
  out << "<h2>Tuned dispatches</h2>\n";
  const json& tuned = array_at(tuning, "dispatches");
  if (tuned.empty()) {
    out << "<p>No dispatch was tuned.</p>\n";
  } else {
    out << "<table class=\"tuned\"><tr><th>dispatch</th><th>candidates</th><th>of them ktune kernels</th><th>evaluated</th>"
           "<th>resumed</th><th>IREE default (us)</th><th>best (us)</th><th>best</th><th>speedup</th><th>by status</th>"
           "<th>stop reason</th></tr>\n";
    for (const auto& t : tuned) {
      if (!t.is_object()) continue;
      const std::string no_objects = string_at(t, "objects_unsupported");
      out << "<tr><td><code>" << esc(text_at(t, "name")) << "</code></td><td class=\"num\">" << esc(text_at(t, "candidates"))
          << "</td><td class=\"num\">" << esc(text_at(t, "object_candidates"));
      if (!no_objects.empty()) out << "<br><span class=\"muted\">" << esc(shortened(no_objects)) << "</span>";
      out << "</td><td class=\"num\">" << esc(text_at(t, "evaluated")) << "</td><td class=\"num\">" << esc(text_at(t, "resumed"))
          << "</td><td class=\"num\">" << us(number_at(t, "default_s")) << "</td><td class=\"num\">" << us(number_at(t, "best_s"))
          << "</td><td><code>" << esc(text_at(t, "best")) << "</code></td><td class=\"num\">"
          << fixed(number_at(t, "speedup"), "%.2fx") << "</td><td>" << esc(by_status_text(t)) << "</td><td>"
          << esc(text_at(t, "stop_reason")) << "</td></tr>\n";
    }
    out << "</table>\n";
  }

  const std::optional<double> default_s = number_at(tuning, "default_model_s");
  const std::optional<double> tuned_s = number_at(tuning, "tuned_model_s");
  const std::string tuned_status = string_at(tuning, "tuned_status");
  out << "<h2>Whole model</h2>\n<table class=\"facts\">\n";
  fact(out, "IREE default build (us)", us(default_s));
  fact(out, "tuned build (us)", us(tuned_s));
  fact(out, "speedup", fixed(number_at(tuning, "model_speedup"), "%.2fx"));
  fact(out, "tuned build status", tuned_status.empty() ? "-" : shortened(tuned_status));
  out << "</table>\n";
  const bool kept = bool_at(tuning, "tuned_kept").value_or(false);
  out << "<p class=\"" << (kept ? "kept" : "not-kept") << "\">"
      << (kept ? "The tuned build is the answer." : "The default build stays the answer.") << "</p>\n";

  const json& subs = object_at(tuning, "substitutions");
  if (!subs.empty()) {
    out << "<h3>Substituted dispatches</h3>\n<table><tr><th>dispatch</th><th>configuration</th></tr>\n";
    for (const auto& [name, file] : subs.items())
      out << "<tr><td><code>" << esc(name) << "</code></td><td><code>"
          << esc(file.is_string() ? file.get<std::string>() : file.dump()) << "</code></td></tr>\n";
    out << "</table>\n";
  }
  out << "<h2>iree-compile flags that apply the answer</h2>\n";
  const json& flags = array_at(tuning, "compile_flags");
  if (flags.empty()) {
    out << "<p>-</p>\n";
  } else {
    out << "<pre class=\"flags\">";
    for (const auto& f : flags) out << esc(f.is_string() ? f.get<std::string>() : f.dump()) << "\n";
    out << "</pre>\n";
  }
}

}  // namespace

std::string render_model_profile_html(const json& j) {
  const bool tuning = j.is_object() && j.contains("profile") && j["profile"].is_object();
  const json& profile = tuning ? j["profile"] : j;
  std::ostringstream out;
  const std::string title = std::string(tuning ? "ktune model tune: " : "ktune model profile: ") + text_at(profile, "model") +
                            " for " + text_at(profile, "target");
  out << "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>" << esc(title) << "</title><style>"
      << report_stylesheet() << kExtraStyle << "</style></head><body>\n<header><h1>" << esc(title) << "</h1>\n"
      << "<table class=\"facts\">\n";
  fact(out, "model", text_at(profile, "model"));
  fact(out, "target", text_at(profile, "target"));
  fact(out, "device", text_at(profile, "device"));
  fact(out, "function", text_at(profile, "function"));
  fact(out, "whole model, IREE default build (us)", us(number_at(profile, "model_median_s")));
  fact(out, "dispatches", std::to_string(array_at(profile, "dispatches").size()));
  fact(out, tuning ? "tuned in (s)" : "profiled in (s)", fixed(number_at(tuning ? j : profile, "wall_seconds"), "%.1f"));
  out << "</table></header>\n";
  profile_section(out, profile);
  if (tuning) tuning_sections(out, j);
  out << "</body></html>\n";
  return out.str();
}

}  // namespace ktune::report
