// YAML spec files -> TuningProblem. Every diagnostic names file, line and column.

#include <yaml-cpp/yaml.h>

#include <cmath>
#include <fstream>
#include <set>
#include <sstream>

#include "ktune/core/source_error.h"
#include "ktune/spec/problem.h"

namespace ktune::spec {
namespace {

class Loader {
 public:
  Loader(std::string file, std::filesystem::path base_dir) : file_(std::move(file)), base_dir_(std::move(base_dir)) {}

  [[noreturn]] void fail(const YAML::Node& node, const std::string& message) const {
    const YAML::Mark mark = node.Mark();
    throw SourceError(file_, mark.line >= 0 ? mark.line + 1 : 0, mark.column >= 0 ? mark.column + 1 : 0, message);
  }
  int line_of(const YAML::Node& node) const { return node.Mark().line + 1; }

  void expect_map(const YAML::Node& node, const std::string& what) const {
    if (!node.IsMap()) fail(node, what + " must be a mapping (key: value)");
  }
  void expect_keys(const YAML::Node& node, const std::string& what, std::initializer_list<const char*> allowed) const {
    expect_map(node, what);
    for (const auto& item : node) {
      const std::string key = item.first.as<std::string>();
      bool ok = false;
      for (const char* a : allowed) ok = ok || key == a;
      if (!ok) {
        std::string list;
        for (const char* a : allowed) list += std::string(list.empty() ? "" : ", ") + a;
        fail(item.first, "unknown key '" + key + "' in " + what + " (expected one of: " + list + ")");
      }
    }
  }
  std::string scalar(const YAML::Node& node, const std::string& what) const {
    if (!node.IsScalar()) fail(node, what + " must be a scalar");
    return node.Scalar();
  }
  std::string string_of(const YAML::Node& node, const std::string& what) const {
    std::string s = scalar(node, what);
    if (s.empty()) fail(node, what + " must not be empty");
    return s;
  }
  bool bool_of(const YAML::Node& node, const std::string& what) const {
    std::string s = scalar(node, what);
    if (s == "true" || s == "yes" || s == "on") return true;
    if (s == "false" || s == "no" || s == "off") return false;
    fail(node, what + " must be true or false, got '" + s + "'");
  }
  double double_of(const YAML::Node& node, const std::string& what) const {
    Value v = Value::parse_literal(scalar(node, what));
    if (!v.is_numeric()) fail(node, what + " must be a number, got '" + node.Scalar() + "'");
    return v.as_double();
  }
  std::int64_t int_of(const YAML::Node& node, const std::string& what) const {
    Value v = Value::parse_literal(scalar(node, what));
    if (!v.is_int()) fail(node, what + " must be an integer, got '" + node.Scalar() + "'");
    return v.as_int();
  }
  Value value_of(const YAML::Node& node, const std::string& what) const {
    std::string s = scalar(node, what);
    // A quoted scalar is always a string, even when it looks like a number.
    if (node.Tag() == "!") return Value::string(s);
    return Value::parse_literal(s);
  }
  expr::Expr expr_of(const YAML::Node& node, const std::string& what) const {
    const std::string text = scalar(node, what);
    try {
      return expr::Expr::parse(text);
    } catch (const expr::ExprError& e) {
      const YAML::Mark mark = node.Mark();
      // Point into the expression when it sits on one line of the file.
      int column = mark.column + 1 + static_cast<int>(e.position()) + (node.Tag() == "!" ? 1 : 0);
      throw SourceError(file_, mark.line + 1, column, what + ": " + e.what() + " in '" + text + "'");
    }
  }
  std::filesystem::path path_of(const YAML::Node& node, const std::string& what) const {
    std::filesystem::path p = string_of(node, what);
    if (p.is_relative()) p = base_dir_ / p;
    std::error_code ec;
    if (!std::filesystem::is_regular_file(p, ec)) fail(node, what + ": file not found: " + p.string());
    return std::filesystem::weakly_canonical(p);
  }
  std::vector<std::filesystem::path> sources_of(const YAML::Node& node, const std::string& what) const {
    std::vector<std::filesystem::path> out;
    if (node.IsSequence()) {
      if (node.size() == 0) fail(node, what + " must name at least one file");
      for (const auto& item : node) out.push_back(path_of(item, what));
    } else {
      out.push_back(path_of(node, what));
    }
    return out;
  }
  std::vector<std::string> strings_of(const YAML::Node& node, const std::string& what) const {
    std::vector<std::string> out;
    if (node.IsScalar()) {
      std::istringstream in(node.Scalar());
      for (std::string word; in >> word;) out.push_back(word);
      return out;
    }
    if (!node.IsSequence()) fail(node, what + " must be a list of strings");
    for (const auto& item : node) out.push_back(string_of(item, what));
    return out;
  }

  TuningProblem load(const YAML::Node& root, const Config& size_overrides) {
    if (!root.IsDefined() || root.IsNull()) throw SourceError(file_, 1, 1, "the spec file is empty");
    expect_keys(root, "the spec", {"name", "kernel", "sizes", "parameters", "constraints", "launch", "arguments",
                                   "reference", "metrics", "measure", "tune"});
    TuningProblem p;
    p.spec_path = file_;
    if (root["name"]) p.name = string_of(root["name"], "name");
    if (!root["kernel"]) fail(root, "missing required key 'kernel'");
    load_kernel(root["kernel"], p);
    if (p.name.empty()) p.name = p.entry;
    if (root["sizes"]) load_sizes(root["sizes"], p);
    apply_overrides(root, size_overrides, p);
    if (root["parameters"]) load_parameters(root["parameters"], p);
    if (root["constraints"]) load_constraints(root["constraints"], p);
    if (root["launch"]) load_launch(root["launch"], p);
    if (p.language != Language::Cpp && !p.launch) fail(root, "kernels in " + std::string(language_name(p.language)) + " need a 'launch' section (grid and block)");
    if (p.language == Language::Cpp && p.launch) fail(root["launch"], "'launch' applies to GPU languages only (kernel.language is cpp)");
    if (!root["arguments"]) fail(root, "missing required key 'arguments'");
    load_arguments(root["arguments"], p);
    if (root["reference"]) load_reference(root["reference"], p);
    if (root["metrics"]) load_metrics(root["metrics"], p);
    if (root["measure"]) load_measure(root["measure"], p);
    if (root["tune"]) load_tune(root["tune"], p);
    check_names(root, p);
    return p;
  }

 private:
  void load_kernel(const YAML::Node& k, TuningProblem& p) {
    expect_keys(k, "'kernel'", {"language", "source", "sources", "entry", "flags", "size_defines"});
    std::string lang = k["language"] ? string_of(k["language"], "kernel.language") : "cpp";
    if (lang == "cpp" || lang == "c++") p.language = Language::Cpp;
    else if (lang == "cuda") p.language = Language::Cuda;
    else if (lang == "hip") p.language = Language::Hip;
    else fail(k["language"], "kernel.language must be cpp, cuda or hip, got '" + lang + "'");
    if (k["source"] && k["sources"]) fail(k, "give either kernel.source or kernel.sources, not both");
    if (k["source"]) p.sources = sources_of(k["source"], "kernel.source");
    else if (k["sources"]) p.sources = sources_of(k["sources"], "kernel.sources");
    else fail(k, "missing required key 'kernel.source'");
    if (!k["entry"]) fail(k, "missing required key 'kernel.entry'");
    p.entry = identifier_of(k["entry"], "kernel.entry");
    if (k["flags"]) p.flags = strings_of(k["flags"], "kernel.flags");
    if (k["size_defines"] && bool_of(k["size_defines"], "kernel.size_defines")) size_defines_ = true;
  }

  std::string identifier_of(const YAML::Node& node, const std::string& what) const {
    std::string s = string_of(node, what);
    bool ok = !std::isdigit(static_cast<unsigned char>(s[0]));
    for (char c : s) ok = ok && (std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == ':');
    if (!ok) fail(node, what + " must be an identifier, got '" + s + "'");
    return s;
  }

  void check_new_name(const YAML::Node& node, const std::string& name, const std::string& what) {
    bool ok = !name.empty() && !std::isdigit(static_cast<unsigned char>(name[0]));
    for (char c : name) ok = ok && (std::isalnum(static_cast<unsigned char>(c)) || c == '_');
    if (!ok) fail(node, what + " name '" + name + "' is not an identifier ([A-Za-z_][A-Za-z0-9_]*)");
    if (!names_.insert(name).second) fail(node, "'" + name + "' is defined twice (names of sizes and parameters must be unique)");
  }

  void load_sizes(const YAML::Node& s, TuningProblem& p) {
    expect_map(s, "'sizes'");
    for (const auto& item : s) {
      const std::string name = item.first.as<std::string>();
      check_new_name(item.first, name, "size");
      Value v = value_of(item.second, "size '" + name + "'");
      if (!v.is_numeric() && !v.is_bool()) fail(item.second, "size '" + name + "' must be a number or bool, got '" + v.to_string() + "'");
      // An infinite or NaN size only surfaces later, as buffers nobody can allocate.
      if (v.is_numeric() && !std::isfinite(v.as_double())) fail(item.second, "size '" + name + "' must be finite, got '" + v.to_string() + "'");
      p.sizes[name] = v;
      size_lines_[name] = line_of(item.first);
    }
    if (size_defines_)
      for (const auto& [name, value] : p.sizes) p.defines_from_sizes.push_back(name);
  }

  void apply_overrides(const YAML::Node& root, const Config& overrides, TuningProblem& p) {
    for (const auto& [name, value] : overrides) {
      auto it = p.sizes.find(name);
      if (it == p.sizes.end()) {
        std::string known;
        for (const auto& [n, v] : p.sizes) known += (known.empty() ? "" : ", ") + n;
        throw SourceError(file_, root["sizes"] ? line_of(root["sizes"]) : 0, 0,
                          "--size " + name + ": no such size in the spec (sizes: " + (known.empty() ? "none" : known) + ")");
      }
      if (!value.is_numeric() && !value.is_bool()) throw SourceError(file_, size_lines_[name], 0, "--size " + name + " must be a number");
      if (value.is_numeric() && !std::isfinite(value.as_double()))
        throw SourceError(file_, size_lines_[name], 0, "--size " + name + " must be finite, got '" + value.to_string() + "'");
      it->second = value;
    }
  }

  std::vector<Value> values_of(const YAML::Node& node, const std::string& name) const {
    const std::string what = "parameter '" + name + "'";
    std::vector<Value> values;
    if (node.IsSequence()) {
      for (const auto& v : node) values.push_back(value_of(v, what + " value"));
    } else if (node.IsScalar()) {
      values.push_back(value_of(node, what + " value"));
    } else if (node.IsMap()) {
      expect_keys(node, what, {"values", "range", "pow2"});
      if (node.size() != 1) fail(node, what + " takes exactly one of values, range, pow2");
      if (node["values"]) return values_of(node["values"], name);
      if (node["range"]) {
        const YAML::Node& r = node["range"];
        if (!r.IsSequence() || r.size() < 2 || r.size() > 3) fail(r, what + ": range is [first, last] or [first, last, step] (inclusive)");
        std::int64_t lo = int_of(r[0], what + " range start"), hi = int_of(r[1], what + " range end");
        std::int64_t step = r.size() == 3 ? int_of(r[2], what + " range step") : 1;
        if (step <= 0) fail(r, what + ": range step must be positive");
        if (hi < lo) fail(r, what + ": range end " + std::to_string(hi) + " is below its start " + std::to_string(lo));
        if ((hi - lo) / step >= 1'000'000) fail(r, what + ": range has over a million values");
        for (std::int64_t v = lo; v <= hi; v += step) values.push_back(Value::integer(v));
      } else {
        const YAML::Node& r = node["pow2"];
        if (!r.IsSequence() || r.size() != 2) fail(r, what + ": pow2 is [smallest, largest], both powers of two");
        std::int64_t lo = int_of(r[0], what + " pow2 start"), hi = int_of(r[1], what + " pow2 end");
        auto is_pow2 = [](std::int64_t v) { return v > 0 && (v & (v - 1)) == 0; };
        if (!is_pow2(lo)) fail(r[0], what + ": " + std::to_string(lo) + " is not a power of two");
        if (!is_pow2(hi)) fail(r[1], what + ": " + std::to_string(hi) + " is not a power of two");
        if (hi < lo) fail(r, what + ": pow2 end is below its start");
        for (std::int64_t v = lo; v <= hi; v *= 2) values.push_back(Value::integer(v));
      }
    } else {
      fail(node, what + " must be a list of values, or a mapping with values/range/pow2");
    }
    if (values.empty()) fail(node, what + " has no values");
    for (std::size_t i = 0; i < values.size(); ++i)
      for (std::size_t j = 0; j < i; ++j)
        if (values[i] == values[j]) fail(node, what + " lists the value " + values[i].to_string() + " twice");
    return values;
  }

  void load_parameters(const YAML::Node& params, TuningProblem& p) {
    expect_map(params, "'parameters'");
    for (const auto& item : params) {
      const std::string name = item.first.as<std::string>();
      check_new_name(item.first, name, "parameter");
      p.parameters.push_back(space::Parameter{name, values_of(item.second, name), line_of(item.first)});
    }
  }

  void load_constraints(const YAML::Node& cs, TuningProblem& p) {
    if (!cs.IsSequence()) fail(cs, "'constraints' must be a list of expressions");
    for (const auto& c : cs) {
      space::Constraint constraint;
      constraint.expr = expr_of(c, "constraint");
      constraint.line = line_of(c);
      constraint_nodes_.push_back(c);
      p.constraints.push_back(std::move(constraint));
    }
  }

  std::array<expr::Expr, 3> dims_of(const YAML::Node& node, const std::string& what) {
    std::array<expr::Expr, 3> dims{expr::Expr::parse("1"), expr::Expr::parse("1"), expr::Expr::parse("1")};
    if (node.IsScalar()) {
      dims[0] = expr_of(node, what);
    } else if (node.IsSequence()) {
      if (node.size() < 1 || node.size() > 3) fail(node, what + " takes 1 to 3 expressions (x, y, z)");
      for (std::size_t i = 0; i < node.size(); ++i) {
        dims[i] = expr_of(node[i], what + "[" + std::to_string(i) + "]");
        expr_nodes_.push_back({node[i], dims[i]});
      }
      return dims;
    } else {
      fail(node, what + " must be an expression or a list [x, y, z]");
    }
    expr_nodes_.push_back({node, dims[0]});
    return dims;
  }

  void load_launch(const YAML::Node& l, TuningProblem& p) {
    expect_keys(l, "'launch'", {"grid", "block", "shared_memory"});
    LaunchSpec launch;
    launch.line = line_of(l);
    if (!l["grid"]) fail(l, "missing required key 'launch.grid'");
    if (!l["block"]) fail(l, "missing required key 'launch.block'");
    launch.grid = dims_of(l["grid"], "launch.grid");
    launch.block = dims_of(l["block"], "launch.block");
    if (l["shared_memory"]) {
      launch.shared_memory = expr_of(l["shared_memory"], "launch.shared_memory");
      expr_nodes_.push_back({l["shared_memory"], launch.shared_memory});
    }
    p.launch = std::move(launch);
  }

  verify::Init init_of(const YAML::Node& node, const std::string& what) const {
    verify::Init init;
    if (node.IsScalar()) {
      const std::string kind = node.Scalar();
      if (kind == "random") init.kind = verify::InitKind::Random;
      else if (kind == "sequence") init.kind = verify::InitKind::Sequence;
      else if (kind == "zeros") init.kind = verify::InitKind::Zeros;
      else fail(node, what + " must be random, sequence, zeros, or a mapping {random: ...}, {sequence: ...}, {constant: v}, {file: path}");
      return init;
    }
    expect_keys(node, what, {"random", "sequence", "constant", "file"});
    if (node.size() != 1) fail(node, what + " takes exactly one of random, sequence, constant, file");
    if (const YAML::Node r = node["random"]) {
      init.kind = verify::InitKind::Random;
      if (!r.IsNull()) {
        expect_keys(r, what + ".random", {"seed", "lo", "hi"});
        if (r["seed"]) init.seed = static_cast<std::uint64_t>(int_of(r["seed"], what + ".random.seed"));
        if (r["lo"]) init.lo = double_of(r["lo"], what + ".random.lo");
        if (r["hi"]) init.hi = double_of(r["hi"], what + ".random.hi");
        if (!(init.lo < init.hi)) fail(r, what + ".random: lo must be below hi");
      }
    } else if (const YAML::Node s = node["sequence"]) {
      init.kind = verify::InitKind::Sequence;
      if (!s.IsNull()) {
        expect_keys(s, what + ".sequence", {"start", "step"});
        if (s["start"]) init.start = double_of(s["start"], what + ".sequence.start");
        if (s["step"]) init.step = double_of(s["step"], what + ".sequence.step");
      }
    } else if (const YAML::Node c = node["constant"]) {
      init.kind = verify::InitKind::Constant;
      init.value = double_of(c, what + ".constant");
    } else {
      init.kind = verify::InitKind::File;
      init.file = path_of(node["file"], what + ".file").string();
    }
    return init;
  }

  void load_arguments(const YAML::Node& args, TuningProblem& p) {
    if (!args.IsSequence() || args.size() == 0) fail(args, "'arguments' must be a non-empty list, in the kernel's parameter order");
    std::set<std::string> arg_names;
    std::uint64_t seed = 1;
    for (const auto& a : args) {
      expect_keys(a, "an argument", {"name", "type", "length", "value", "init", "output", "scratch"});
      Argument arg;
      arg.line = line_of(a);
      if (!a["name"]) fail(a, "argument needs a 'name'");
      arg.name = identifier_of(a["name"], "argument name");
      if (!arg_names.insert(arg.name).second) fail(a["name"], "argument '" + arg.name + "' is listed twice");
      const std::string what = "argument '" + arg.name + "'";
      if (!a["type"]) fail(a, what + " needs a 'type' (e.g. float32, int32)");
      const std::string type = string_of(a["type"], what + " type");
      auto parsed = parse_element_type(type);
      if (!parsed) fail(a["type"], what + ": unknown type '" + type + "' (float16, bfloat16, float32, float64, int8..int64, uint8..uint64)");
      arg.type = *parsed;
      if (a["length"] && a["value"]) fail(a, what + " has both 'length' (an array) and 'value' (a scalar)");
      if (!a["length"] && !a["value"]) fail(a, what + " needs 'length' (an array) or 'value' (a scalar)");
      if (a["value"]) {
        arg.is_array = false;
        arg.value = expr_of(a["value"], what + " value");
        expr_nodes_.push_back({a["value"], arg.value});
        if (a["init"]) fail(a["init"], what + " is a scalar: 'init' applies to arrays only");
        if (a["output"]) fail(a["output"], what + " is a scalar: only arrays can be outputs");
        if (a["scratch"]) fail(a["scratch"], what + " is a scalar: only arrays can be scratch");
      } else {
        arg.length = expr_of(a["length"], what + " length");
        expr_nodes_.push_back({a["length"], arg.length});
        arg.output = a["output"] && bool_of(a["output"], what + " output");
        arg.scratch = a["scratch"] && bool_of(a["scratch"], what + " scratch");
        if (arg.output && arg.scratch)
          fail(a["scratch"], what + " is both an output and scratch: scratch is never compared with the reference");
        if (a["init"]) {
          arg.init = init_of(a["init"], what + " init");
          arg.init_explicit = true;
        } else {
          arg.init.kind = arg.output ? verify::InitKind::Zeros : verify::InitKind::Random;
          arg.init.lo = -1;
          arg.init.hi = 1;
        }
        // Distinct default seeds so that two random inputs never hold the same data.
        const YAML::Node init_node = a["init"];
        const bool explicit_seed = init_node && init_node.IsMap() && init_node["random"] &&
                                   init_node["random"].IsMap() && init_node["random"]["seed"];
        if (arg.init.kind == verify::InitKind::Random && !explicit_seed) arg.init.seed = seed;
        ++seed;
      }
      p.arguments.push_back(std::move(arg));
    }
    bool any_output = false;
    for (const auto& arg : p.arguments) any_output = any_output || arg.output;
    if (!any_output) fail(args, "no argument is marked 'output: true': ktune needs an output to verify");
  }

  void load_reference(const YAML::Node& r, TuningProblem& p) {
    expect_keys(r, "'reference'", {"kernel", "config", "atol", "rtol", "max_rel_l2"});
    ReferenceSpec& ref = p.reference;
    ref.line = line_of(r);
    if (r["kernel"] && r["config"]) fail(r, "give either reference.kernel or reference.config, not both");
    if (const YAML::Node k = r["kernel"]) {
      expect_keys(k, "reference.kernel", {"source", "sources", "entry"});
      ref.kind = ReferenceSpec::Kind::Kernel;
      if (k["source"]) ref.sources = sources_of(k["source"], "reference.kernel.source");
      else if (k["sources"]) ref.sources = sources_of(k["sources"], "reference.kernel.sources");
      else ref.sources = p.sources;
      if (!k["entry"]) fail(k, "missing required key 'reference.kernel.entry'");
      ref.entry = identifier_of(k["entry"], "reference.kernel.entry");
    } else if (const YAML::Node c = r["config"]) {
      expect_map(c, "reference.config");
      ref.kind = ReferenceSpec::Kind::Config;
      for (const auto& item : c) ref.config[item.first.as<std::string>()] = value_of(item.second, "reference.config value");
      reference_config_node_ = c;
    } else {
      fail(r, "reference needs 'kernel' (a reference kernel) or 'config' (a trusted configuration)");
    }
    if (r["atol"]) ref.tolerance.atol = double_of(r["atol"], "reference.atol");
    if (r["rtol"]) ref.tolerance.rtol = double_of(r["rtol"], "reference.rtol");
    if (r["max_rel_l2"]) ref.tolerance.max_rel_l2 = double_of(r["max_rel_l2"], "reference.max_rel_l2");
    if (ref.tolerance.atol < 0 || ref.tolerance.rtol < 0) fail(r, "reference tolerances must not be negative");
  }

  void load_metrics(const YAML::Node& m, TuningProblem& p) {
    expect_keys(m, "'metrics'", {"flops", "bytes"});
    if (m["flops"]) {
      p.flops = expr_of(m["flops"], "metrics.flops");
      expr_nodes_.push_back({m["flops"], p.flops});
    }
    if (m["bytes"]) {
      p.bytes = expr_of(m["bytes"], "metrics.bytes");
      expr_nodes_.push_back({m["bytes"], p.bytes});
    }
  }

  static nlohmann::json to_json(const YAML::Node& node) {
    if (node.IsMap()) {
      nlohmann::json j = nlohmann::json::object();
      for (const auto& item : node) j[item.first.as<std::string>()] = to_json(item.second);
      return j;
    }
    if (node.IsSequence()) {
      nlohmann::json j = nlohmann::json::array();
      for (const auto& item : node) j.push_back(to_json(item));
      return j;
    }
    if (node.IsNull()) return nullptr;
    return value_to_json(Value::parse_literal(node.Scalar()));
  }

  void load_measure(const YAML::Node& m, TuningProblem& p) {
    expect_map(m, "'measure'");
    try {
      p.policy = measure::policy_from_json(to_json(m), p.policy);
    } catch (const std::exception& e) {
      fail(m, std::string("measure: ") + e.what());
    }
  }

  void load_tune(const YAML::Node& t, TuningProblem& p) {
    expect_keys(t, "'tune'", {"strategy", "max_evaluations", "max_seconds", "seed", "strategy_params", "candidate_timeout"});
    if (t["strategy"]) p.tune.strategy = string_of(t["strategy"], "tune.strategy");
    if (t["max_evaluations"]) {
      std::int64_t n = int_of(t["max_evaluations"], "tune.max_evaluations");
      if (n <= 0) fail(t["max_evaluations"], "tune.max_evaluations must be positive");
      p.tune.max_evaluations = static_cast<std::uint64_t>(n);
    }
    if (t["max_seconds"]) {
      p.tune.max_seconds = double_of(t["max_seconds"], "tune.max_seconds");
      if (*p.tune.max_seconds <= 0) fail(t["max_seconds"], "tune.max_seconds must be positive");
    }
    if (t["seed"]) p.tune.seed = static_cast<std::uint64_t>(int_of(t["seed"], "tune.seed"));
    if (t["strategy_params"]) {
      expect_map(t["strategy_params"], "tune.strategy_params");
      p.tune.strategy_params = to_json(t["strategy_params"]);
    }
    if (t["candidate_timeout"]) p.tune.candidate_timeout_seconds = double_of(t["candidate_timeout"], "tune.candidate_timeout");
  }

  // Every name an expression uses must be a size or a parameter; checked here, where the
  // YAML node (and so the line) is still known.
  void check_names(const YAML::Node& root, TuningProblem& p) {
    auto check = [&](const YAML::Node& node, const expr::Expr& e) {
      for (const auto& name : e.names())
        if (!names_.count(name)) fail(node, "undefined name '" + name + "' in '" + e.text() + "' (not a size or parameter)");
    };
    for (const auto& [node, e] : expr_nodes_) check(node, e);
    for (std::size_t i = 0; i < p.constraints.size(); ++i) check(constraint_nodes_[i], p.constraints[i].expr);
    if (p.reference.kind == ReferenceSpec::Kind::Config) {
      for (const auto& [name, value] : p.reference.config) {
        bool found = false;
        for (const auto& param : p.parameters) found = found || param.name == name;
        if (!found) fail(reference_config_node_, "reference.config sets '" + name + "', which is not a parameter");
      }
      for (const auto& param : p.parameters)
        if (!p.reference.config.count(param.name)) fail(reference_config_node_, "reference.config does not set parameter '" + param.name + "'");
    }
    try {
      (void)p.make_space();
    } catch (const std::exception& e) {
      fail(root["constraints"] ? root["constraints"] : root, e.what());
    }
  }

  std::string file_;
  std::filesystem::path base_dir_;
  bool size_defines_ = false;
  std::set<std::string> names_;
  std::map<std::string, int> size_lines_;
  std::vector<std::pair<YAML::Node, expr::Expr>> expr_nodes_;
  std::vector<YAML::Node> constraint_nodes_;
  YAML::Node reference_config_node_;
};

}  // namespace

namespace {

// Specs are text: invalid UTF-8 is rejected up front, so every name and message derived from
// the file can be written as JSON (database, worker protocol, --json output).
void check_utf8(const std::string& text, const std::string& file_name) {
  int line = 1, column = 1;
  for (std::size_t i = 0; i < text.size();) {
    const auto c = static_cast<unsigned char>(text[i]);
    std::size_t n = c < 0x80 ? 1 : (c >> 5) == 0x6 ? 2 : (c >> 4) == 0xE ? 3 : (c >> 3) == 0x1E ? 4 : 0;
    bool ok = n > 0 && i + n <= text.size();
    for (std::size_t k = 1; ok && k < n; ++k) ok = (static_cast<unsigned char>(text[i + k]) & 0xC0) == 0x80;
    if (ok && n == 2) ok = c >= 0xC2;
    if (ok && n == 3) {
      const auto c1 = static_cast<unsigned char>(text[i + 1]);
      ok = !(c == 0xE0 && c1 < 0xA0) && !(c == 0xED && c1 >= 0xA0);
    }
    if (ok && n == 4) {
      const auto c1 = static_cast<unsigned char>(text[i + 1]);
      ok = c <= 0xF4 && !(c == 0xF0 && c1 < 0x90) && !(c == 0xF4 && c1 >= 0x90);
    }
    if (!ok) throw SourceError(file_name, line, column, "the file is not valid UTF-8 text");
    if (c == 0) throw SourceError(file_name, line, column, "the file contains a NUL byte");
    if (c == '\n') {
      ++line;
      column = 1;
    } else {
      ++column;
    }
    i += n;
  }
}

}  // namespace

TuningProblem parse_spec(const std::string& yaml_text, const std::string& file_name,
                         const std::filesystem::path& base_dir, const Config& size_overrides) {
  check_utf8(yaml_text, file_name);
  YAML::Node root;
  try {
    root = YAML::Load(yaml_text);
  } catch (const YAML::Exception& e) {
    throw SourceError(file_name, e.mark.line >= 0 ? e.mark.line + 1 : 0, e.mark.column >= 0 ? e.mark.column + 1 : 0,
                      "YAML syntax error: " + e.msg);
  }
  try {
    return Loader(file_name, base_dir).load(root, size_overrides);
  } catch (const YAML::Exception& e) {
    // Conversions of odd nodes (e.g. a mapping used as a key) surface here.
    throw SourceError(file_name, e.mark.line >= 0 ? e.mark.line + 1 : 0, e.mark.column >= 0 ? e.mark.column + 1 : 0, e.msg);
  }
}

TuningProblem load_spec(const std::filesystem::path& path, const Config& size_overrides) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw SourceError(path.string(), 0, 0, "cannot open spec file");
  std::ostringstream text;
  text << in.rdbuf();
  std::filesystem::path base = std::filesystem::absolute(path).parent_path();
  TuningProblem p = parse_spec(text.str(), path.string(), base, size_overrides);
  p.spec_path = std::filesystem::absolute(path);
  return p;
}

}  // namespace ktune::spec
