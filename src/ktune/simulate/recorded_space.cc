#include "ktune/simulate/recorded_space.h"

#include <fstream>
#include <set>
#include <sstream>

#include "ktune/db/status.h"
#include "ktune/expr/expr.h"

namespace ktune::simulate {
namespace {

using nlohmann::json;

[[noreturn]] void fail(const std::string& origin, const std::string& where, const std::string& what) {
  throw RecordingError((origin.empty() ? "" : origin + ": ") + where + ": " + what);
}

const json& member(const json& doc, const char* key, const std::string& origin, const std::string& where) {
  if (!doc.is_object() || !doc.contains(key)) fail(origin, where, std::string("lacks \"") + key + "\"");
  return doc.at(key);
}

std::string text_or(const json& doc, const char* key, const std::string& fallback = "") {
  return doc.contains(key) && doc.at(key).is_string() ? doc.at(key).get<std::string>() : fallback;
}

std::vector<space::Parameter> parse_parameters(const json& list, const std::string& origin) {
  if (!list.is_array() || list.empty()) fail(origin, "parameters", "must be a non-empty list");
  std::vector<space::Parameter> params;
  for (std::size_t i = 0; i < list.size(); ++i) {
    const std::string where = "parameters[" + std::to_string(i) + "]";
    space::Parameter p;
    p.name = member(list[i], "name", origin, where).get<std::string>();
    const json& values = member(list[i], "values", origin, where);
    if (!values.is_array() || values.empty()) fail(origin, where + ".values", "must be a non-empty list");
    for (const json& v : values) {
      try {
        p.values.push_back(value_from_json(v));
      } catch (const std::exception& e) {
        fail(origin, where + ".values", e.what());
      }
    }
    params.push_back(std::move(p));
  }
  return params;
}

RecordedResult parse_result(const json& r, const std::vector<space::Parameter>& params, const std::string& origin,
                            const std::string& where) {
  RecordedResult out;
  try {
    out.config = config_from_json(member(r, "config", origin, where));
  } catch (const RecordingError&) {
    throw;
  } catch (const std::exception& e) {
    fail(origin, where + ".config", e.what());
  }
  for (const auto& p : params) {
    if (!out.config.count(p.name)) fail(origin, where + ".config", "lacks parameter " + p.name);
  }
  out.status = member(r, "status", origin, where).get<std::string>();
  if (!db::status_from_string(out.status)) fail(origin, where + ".status", "unknown status \"" + out.status + "\"");
  if (r.contains("time_s") && r.at("time_s").is_number()) out.time_s = r.at("time_s").get<double>();
  if ((out.status == "ok") != out.time_s.has_value()) {
    fail(origin, where, out.status == "ok" ? "an ok result needs time_s" : "time_s given for a failed result");
  }
  if (out.time_s && !(*out.time_s > 0)) fail(origin, where + ".time_s", "must be positive");
  out.compile_s = r.value("compile_s", 0.0);
  out.measure_s = r.value("measure_s", 0.0);
  if (out.compile_s < 0 || out.measure_s < 0) fail(origin, where, "compile_s and measure_s must not be negative");
  return out;
}

}  // namespace

RecordedSpace recorded_space_from_json(const json& doc, const std::string& origin) {
  if (text_or(doc, "format") != "ktune-recorded-space") fail(origin, "format", "not \"ktune-recorded-space\"");
  if (doc.value("version", 0) != 1) fail(origin, "version", "only version 1 is known");
  RecordedSpace s;
  s.name = member(doc, "name", origin, "the document").get<std::string>();
  s.source = text_or(doc, "source");
  s.device = text_or(doc, "device");
  s.chip = text_or(doc, "chip");
  s.recorded_at = text_or(doc, "recorded_at");
  s.commit = text_or(doc, "commit");
  s.parameters = parse_parameters(member(doc, "parameters", origin, "the document"), origin);
  for (const json& c : doc.value("constraints", json::array())) s.constraints.push_back(c.get<std::string>());
  if (doc.contains("constants")) s.constants = config_from_json(doc.at("constants"));
  const std::string membership = text_or(doc, "membership", "constraints");
  if (membership != "constraints" && membership != "recorded") {
    fail(origin, "membership", "must be \"constraints\" or \"recorded\"");
  }
  s.membership = membership == "recorded" ? RecordedSpace::Membership::Recorded : RecordedSpace::Membership::Constraints;
  const json& results = member(doc, "results", origin, "the document");
  if (!results.is_array()) fail(origin, "results", "must be a list");
  for (std::size_t i = 0; i < results.size(); ++i) {
    s.results.push_back(parse_result(results[i], s.parameters, origin, "results[" + std::to_string(i) + "]"));
  }
  return s;
}

json to_json(const RecordedSpace& s) {
  json params = json::array();
  for (const auto& p : s.parameters) {
    json values = json::array();
    for (const auto& v : p.values) values.push_back(value_to_json(v));
    params.push_back({{"name", p.name}, {"values", values}});
  }
  json results = json::array();
  for (const auto& r : s.results) {
    json j = {{"config", config_to_json(r.config)}, {"status", r.status}};
    if (r.time_s) j["time_s"] = *r.time_s;
    j["compile_s"] = r.compile_s;
    j["measure_s"] = r.measure_s;
    results.push_back(std::move(j));
  }
  return {{"format", "ktune-recorded-space"}, {"version", 1}, {"name", s.name}, {"source", s.source},
          {"device", s.device}, {"chip", s.chip}, {"recorded_at", s.recorded_at}, {"commit", s.commit},
          {"parameters", params}, {"constraints", s.constraints}, {"constants", config_to_json(s.constants)},
          {"membership", s.membership == RecordedSpace::Membership::Recorded ? "recorded" : "constraints"},
          {"results", results}};
}

RecordedSpace load_recorded_space(const std::filesystem::path& path) {
  std::ifstream in(path);
  if (!in) throw RecordingError(path.string() + ": cannot be read");
  json doc;
  try {
    doc = json::parse(in);
  } catch (const json::parse_error& e) {
    throw RecordingError(path.string() + ": not JSON: " + e.what());
  }
  try {
    return recorded_space_from_json(doc, path.string());
  } catch (const json::exception& e) {  // a member of the wrong type
    throw RecordingError(path.string() + ": " + e.what());
  }
}

void save_recorded_space(const RecordedSpace& space, const std::filesystem::path& path) {
  std::ofstream out(path);
  // One result per line: compact, and a diff of two recordings reads line by line.
  json doc = to_json(space);
  json results = doc["results"];
  doc.erase("results");
  std::string head = doc.dump(1);
  head.pop_back();  // the closing brace
  while (!head.empty() && (head.back() == '\n' || head.back() == ' ')) head.pop_back();
  out << head << ",\n \"results\": [";
  for (std::size_t i = 0; i < results.size(); ++i) out << (i ? ",\n  " : "\n  ") << results[i].dump();
  out << "\n ]\n}\n";
  if (!out) throw RecordingError(path.string() + ": cannot be written");
}

}  // namespace ktune::simulate

namespace ktune::simulate {
namespace {

// The recorded value of a parameter, as it appears in the parameter's list (an int recorded as
// 2.0 is the list's 2), so that membership compares like with like.
std::optional<Value> listed_value(const space::Parameter& p, const Value& v) {
  for (const auto& listed : p.values) {
    if (listed == v) return listed;
    if (listed.is_numeric() && v.is_numeric() && listed.as_double() == v.as_double()) return listed;
  }
  return std::nullopt;
}

// Membership "recorded": one predicate per prefix of the parameters, so that the space's solver
// drops a partial configuration as soon as no recording starts with it.
std::vector<space::Constraint> recorded_membership(const RecordedSpace& s) {
  const std::size_t n = s.parameters.size();
  auto prefixes = std::make_shared<std::vector<std::set<std::vector<Value>>>>(n);
  for (std::size_t i = 0; i < s.results.size(); ++i) {
    std::vector<Value> tuple;
    for (const auto& p : s.parameters) {
      auto v = listed_value(p, s.results[i].config.at(p.name));
      if (!v) {
        throw RecordingError(s.name + ": results[" + std::to_string(i) + "]: " + p.name + "=" +
                             s.results[i].config.at(p.name).to_string() + " is not among its listed values");
      }
      tuple.push_back(*v);
      (*prefixes)[tuple.size() - 1].insert(tuple);
    }
  }
  std::vector<space::Constraint> out;
  for (std::size_t k = 0; k < n; ++k) {
    space::Constraint c;
    c.predicate.emplace();
    for (std::size_t j = 0; j <= k; ++j) c.predicate->params.push_back(s.parameters[j].name);
    c.predicate->text = "recorded (" + s.parameters[k].name + ")";
    c.predicate->holds = [prefixes, k](std::span<const Value> values) {
      return (*prefixes)[k].count(std::vector<Value>(values.begin(), values.end())) != 0;
    };
    out.push_back(std::move(c));
  }
  return out;
}

}  // namespace

space::SearchSpace build_space(const RecordedSpace& s) {
  std::vector<space::Constraint> constraints;
  if (s.membership == RecordedSpace::Membership::Recorded) {
    constraints = recorded_membership(s);
  } else {
    for (const auto& text : s.constraints) {
      try {
        constraints.emplace_back(expr::Expr::parse(text), 0);
      } catch (const std::exception& e) {
        throw RecordingError(s.name + ": constraint \"" + text + "\": " + e.what());
      }
    }
  }
  try {
    return space::SearchSpace(s.parameters, std::move(constraints), s.constants);
  } catch (const space::SpaceError& e) {
    throw RecordingError(s.name + ": " + e.what());
  }
}

std::map<std::string, const RecordedResult*> index_results(const RecordedSpace& s) {
  std::map<std::string, const RecordedResult*> index;
  for (const auto& r : s.results) {
    if (!index.emplace(config_key(r.config), &r).second) {
      throw RecordingError(s.name + ": configuration " + config_key(r.config) + " is recorded twice");
    }
  }
  return index;
}

SpaceStatistics statistics(const RecordedSpace& s) {
  SpaceStatistics stats;
  stats.name = s.name;
  stats.configurations = s.results.size();
  double cost = 0;
  for (const auto& r : s.results) {
    if (r.time_s) stats.objectives.push_back(*r.time_s);
    cost += r.cost_seconds();
    stats.outcomes.push_back({r.time_s, r.cost_seconds()});
  }
  stats.mean_evaluation_seconds = s.results.empty() ? 0 : cost / static_cast<double>(s.results.size());
  return stats;
}

}  // namespace ktune::simulate
