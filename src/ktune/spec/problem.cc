#include "ktune/spec/problem.h"

#include <fstream>
#include <sstream>

#include "ktune/core/sha256.h"
#include "ktune/core/source_error.h"

namespace ktune::spec {

std::string_view language_name(Language language) {
  switch (language) {
    case Language::Cpp: return "cpp";
    case Language::Cuda: return "cuda";
    case Language::Hip: return "hip";
  }
  return "?";
}

namespace {

std::string read_file(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error("cannot read " + path.string());
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}


}  // namespace

std::string TuningProblem::kernel_hash() const {
  Sha256 h;
  h.update(language_name(language)).update("\n").update(entry).update("\n");
  for (const auto& flag : flags) h.update(flag).update("\n");
  for (const auto& size : defines_from_sizes) h.update("size-define:").update(size).update("\n");
  for (const auto& src : sources) {
    std::string text = read_file(src);
    h.update(std::to_string(text.size())).update(":").update(text);
  }
  return h.hex_digest();
}

nlohmann::json TuningProblem::to_json() const {
  nlohmann::json j;
  j["name"] = this->name;
  j["language"] = language_name(language);
  j["entry"] = entry;
  j["sizes"] = config_to_json(sizes);
  nlohmann::json params = nlohmann::json::object();
  for (const auto& p : parameters) {
    nlohmann::json values = nlohmann::json::array();
    for (const auto& v : p.values) values.push_back(value_to_json(v));
    params[p.name] = values;
  }
  j["parameters"] = params;
  nlohmann::json constraint_texts = nlohmann::json::array();
  for (const auto& c : constraints) constraint_texts.push_back(c.expr.text());
  j["constraints"] = constraint_texts;
  nlohmann::json args = nlohmann::json::array();
  for (const auto& a : arguments) {
    nlohmann::json arg = {{"name", a.name}, {"type", element_type_name(a.type)}};
    if (a.is_array) {
      arg["length"] = a.length.text();
      arg["output"] = a.output;
      arg["init"] = verify::init_to_json(a.init);
      // Only when set, so that the problem hash of specs without it stays what it was.
      if (a.scratch) arg["scratch"] = true;
      if (a.output && a.init_explicit) arg["init_explicit"] = true;
    } else {
      arg["value"] = a.value.text();
    }
    args.push_back(arg);
  }
  j["arguments"] = args;
  if (launch) {
    auto dims = [](const std::array<expr::Expr, 3>& d) {
      return nlohmann::json::array({d[0].text(), d[1].text(), d[2].text()});
    };
    j["launch"] = {{"grid", dims(launch->grid)}, {"block", dims(launch->block)},
                   {"shared_memory", launch->shared_memory.empty() ? "0" : launch->shared_memory.text()}};
  }
  switch (reference.kind) {
    case ReferenceSpec::Kind::None: j["reference"] = nullptr; break;
    case ReferenceSpec::Kind::Kernel: {
      nlohmann::json ref = {{"entry", reference.entry}};
      for (const auto& s : reference.sources) ref["sources"].push_back(s.filename().string());
      j["reference"] = {{"kernel", ref}};
      break;
    }
    case ReferenceSpec::Kind::Config: j["reference"] = {{"config", config_to_json(reference.config)}}; break;
  }
  if (reference.kind != ReferenceSpec::Kind::None) {
    j["reference"]["atol"] = reference.tolerance.atol;
    j["reference"]["rtol"] = reference.tolerance.rtol;
    if (reference.tolerance.max_rel_l2) j["reference"]["max_rel_l2"] = *reference.tolerance.max_rel_l2;
  }
  if (!flops.empty()) j["metrics"]["flops"] = flops.text();
  if (!bytes.empty()) j["metrics"]["bytes"] = bytes.text();
  return j;
}

std::string TuningProblem::problem_hash() const {
  nlohmann::json j = to_json();
  // The search space does not change what is computed; results of a widened space stay valid.
  j.erase("parameters");
  j.erase("constraints");
  if (reference.kind == ReferenceSpec::Kind::Kernel) {
    Sha256 h;
    for (const auto& src : reference.sources) h.update(read_file(src));
    j["reference"]["kernel"]["hash"] = h.hex_digest();
  }
  return sha256_hex(j.dump());
}

Config TuningProblem::environment(const Config& config) const {
  Config env = sizes;
  for (const auto& [key, value] : config) env[key] = value;
  return env;
}

space::SearchSpace TuningProblem::make_space() const {
  return space::SearchSpace(parameters, constraints, sizes);
}

Value evaluate(const TuningProblem& problem, const expr::Expr& e, const Config& config, int line,
               const std::string& what) {
  try {
    return e.evaluate(problem.environment(config));
  } catch (const std::exception& ex) {
    throw SourceError(problem.spec_path.string(), line, 0,
                      what + " '" + e.text() + "' failed for " + config_key(config) + ": " + ex.what());
  }
}

std::int64_t evaluate_int(const TuningProblem& problem, const expr::Expr& e, const Config& config, int line,
                          const std::string& what) {
  Value v = evaluate(problem, e, config, line, what);
  try {
    return v.as_int();
  } catch (const std::exception&) {
    throw SourceError(problem.spec_path.string(), line, 0,
                      what + " '" + e.text() + "' is " + v.to_string() + " for " + config_key(config) +
                          ", not an integer");
  }
}

}  // namespace ktune::spec
