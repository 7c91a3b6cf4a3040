#include "ktune/report/model_inspection_html.h"

#include <sstream>

#include "ktune/report/html_escape.h"

namespace ktune::report {
namespace {

std::string text_of(const nlohmann::json& v) {
  if (v.is_null()) return "-";
  if (v.is_string()) return v.get<std::string>();
  return v.dump();
}

// j[a][b]... as text, "-" when any step is missing.
std::string at(const nlohmann::json& j, std::initializer_list<const char*> path) {
  const nlohmann::json* v = &j;
  for (const char* key : path) {
    if (!v->is_object() || !v->contains(key)) return "-";
    v = &v->at(key);
  }
  return text_of(*v);
}

void row(std::ostringstream& out, const nlohmann::json& d) {
  const nlohmann::json& k = d.value("code_object", nlohmann::json::object());
  const nlohmann::json& r = k.value("resources", nlohmann::json::object());
  std::string occupancy = at(k, {"occupancy", "summary"});
  std::string findings;
  for (const auto& f : k.value("findings", nlohmann::json::array()))
    if (f.value("severity", std::string()) == "warning") findings += (findings.empty() ? "" : ", ") + f.value("check", std::string());
  const std::string check = d.contains("assembly_check") && d["assembly_check"].contains("agrees")
                                ? (d["assembly_check"]["agrees"].get<bool>() ? "equal" : "differs")
                                : "-";
  out << "<tr><td>" << escape_html(at(d, {"dispatch"})) << "</td><td>" << escape_html(at(d, {"root_op"})) << "</td><td>"
      << escape_html(at(d, {"mnk"})) << "</td><td>" << escape_html(at(d, {"pipeline"})) << "</td><td>"
      << escape_html(text_of(r.value("vgprs (total, incl. AGPRs)", nlohmann::json()))) << "</td><td>"
      << escape_html(text_of(r.value("agprs", nlohmann::json()))) << "</td><td>"
      << escape_html(text_of(r.value("sgprs", nlohmann::json()))) << "</td><td>"
      << escape_html(text_of(r.value("lds_bytes", nlohmann::json()))) << "</td><td>"
      << escape_html(text_of(r.value("scratch_bytes_per_lane", nlohmann::json()))) << "</td><td>" << escape_html(occupancy)
      << "</td><td class=\"" << check << "\">" << check << "</td><td>" << escape_html(findings.empty() ? "-" : findings)
      << "</td></tr>\n";
}

void details(std::ostringstream& out, const nlohmann::json& d) {
  const nlohmann::json& k = d.value("code_object", nlohmann::json::object());
  out << "<h3>" << escape_html(at(d, {"dispatch"})) << "</h3>\n<p>kernel <code>" << escape_html(at(d, {"kernel"}))
      << "</code>; lowering config <code>" << escape_html(at(d, {"lowering_config"})) << "</code></p>\n<ul>\n";
  for (const auto& h : k.value("hints", nlohmann::json::array())) out << "<li>" << escape_html(text_of(h)) << "</li>\n";
  for (const auto& f : k.value("findings", nlohmann::json::array()))
    out << "<li>[" << escape_html(text_of(f.value("severity", nlohmann::json()))) << "] "
        << escape_html(text_of(f.value("check", nlohmann::json()))) << ": " << escape_html(text_of(f.value("message", nlohmann::json())))
        << "</li>\n";
  for (const auto& m : d.value("assembly_check", nlohmann::json::object()).value("mismatches", nlohmann::json::array()))
    out << "<li class=\"differs\">" << escape_html(text_of(m.value("figure", nlohmann::json()))) << ": ktune "
        << escape_html(text_of(m.value("ktune", nlohmann::json()))) << ", IREE's assembly "
        << escape_html(text_of(m.value("assembly", nlohmann::json()))) << "</li>\n";
  out << "</ul>\n";
}

}  // namespace

std::string render_model_inspection_html(const nlohmann::json& inspection) {
  std::ostringstream out;
  const std::string title = "ktune model inspect: " + at(inspection, {"model"}) + " for " + at(inspection, {"target"});
  out << "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>" << escape_html(title) << "</title>\n"
      << "<style>body{font-family:sans-serif;margin:2em}table{border-collapse:collapse}td,th{border:1px solid #ccc;"
         "padding:2px 6px;text-align:left}th{background:#eee}.differs{color:#b00}.equal{color:#070}code{font-size:90%}"
         "</style></head><body>\n<h1>"
      << escape_html(title) << "</h1>\n<p>IREE " << escape_html(at(inspection, {"iree_version"})) << "; code object <code>"
      << escape_html(at(inspection, {"code_object"})) << "</code></p>\n"
      << "<table><tr><th>dispatch</th><th>root op</th><th>M x N x K</th><th>pipeline</th><th>VGPR</th><th>AGPR</th>"
         "<th>SGPR</th><th>LDS bytes</th><th>scratch</th><th>occupancy</th><th>vs IREE's asm</th><th>ISA warnings</th></tr>\n";
  for (const auto& d : inspection.value("dispatches", nlohmann::json::array())) row(out, d);
  out << "</table>\n";
  for (const auto& d : inspection.value("dispatches", nlohmann::json::array())) details(out, d);
  const auto notes = inspection.value("notes", nlohmann::json::array());
  if (!notes.empty()) {
    out << "<h2>Notes</h2><ul>\n";
    for (const auto& n : notes) out << "<li>" << escape_html(text_of(n)) << "</li>\n";
    out << "</ul>\n";
  }
  out << "</body></html>\n";
  return out.str();
}

}  // namespace ktune::report
