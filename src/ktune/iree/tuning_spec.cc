#include "ktune/iree/tuning_spec.h"

#include <regex>
#include <sstream>

#include <fstream>

#include "ktune/core/read_file.h"
#include "ktune/iree/compile_model.h"
#include "ktune/iree/matmul_candidates.h"
#include "ktune/iree/substitution.h"

namespace ktune::iree {
namespace {

std::string dims_text(const std::vector<std::int64_t>& dims) {
  std::string s = "[";
  for (std::size_t i = 0; i < dims.size(); ++i) s += (i ? ", " : "") + std::to_string(dims[i]);
  return s + "]";
}

// The line of the configured source that carries the root op's lowering_config.
std::string root_line(const ConfiguredDispatch& d, const std::string& text) {
  std::istringstream in(text);
  std::string line;
  for (int n = 1; std::getline(in, line); ++n)
    if (n == d.lowering_configs.front().line) return line;
  return {};
}

// "[...]" after `key = ` on `line`, brackets balanced (affine maps hold "->").
std::string bracketed_after(const std::string& line, const std::string& key) {
  const std::size_t at = line.find(key);
  if (at == std::string::npos) return {};
  const std::size_t open = line.find('[', at);
  if (open == std::string::npos) return {};
  int depth = 0;
  for (std::size_t i = open; i < line.size(); ++i) {
    if (line[i] == '[' || line[i] == '(') ++depth;
    if (line[i] == ']' || line[i] == ')') --depth;
    if (depth == 0) return line.substr(open, i + 1 - open);
  }
  return {};
}

// Element types of the tensors in `ins(... : T1, T2)` or `outs(... : T)`.
std::vector<std::string> element_types(const std::string& line, const std::string& clause) {
  std::vector<std::string> types;
  const std::size_t at = line.find(clause + "(");
  if (at == std::string::npos) return types;
  const std::size_t close = line.find(')', at);
  const std::string part = line.substr(at, close == std::string::npos ? std::string::npos : close - at);
  static const std::regex tensor(R"(tensor<(?:[0-9?]+x)*([a-z][a-z0-9]*)>)");
  for (std::sregex_iterator it(part.begin(), part.end(), tensor), end; it != end; ++it) types.push_back((*it)[1].str());
  return types;
}

}  // namespace

ContractionMatch contraction_match(const ConfiguredDispatch& d, const std::string& configured_text) {
  const std::string who = "dispatch " + d.executable;
  if (d.lowering_configs.empty()) throw IreeError(who + ": no root op with a lowering_config");
  const LoweringConfig& root = d.lowering_configs.front();
  const auto loops = d.contraction();
  if (!loops)
    throw IreeError(who + ": the root op (" + root.op + " at line " + std::to_string(root.line) + " of " + d.file +
                    ") is not a matmul-like contraction (one M, one N and one K loop, any batch loops)");
  if (!loops->is_static()) throw IreeError(who + ": the contraction has dynamic sizes; a matcher needs static ones");
  const std::string line = root_line(d, configured_text);
  ContractionMatch m;
  m.indexing_maps = bracketed_after(line, "indexing_maps");
  const auto ins = element_types(line, "ins"), outs = element_types(line, "outs");
  if (m.indexing_maps.empty() || ins.size() != 2 || outs.size() != 1)
    throw IreeError(who + ": cannot read the root op's indexing maps and operand types from line " +
                    std::to_string(root.line) + " of " + d.file);
  m.lhs_type = ins[0], m.rhs_type = ins[1], m.output_type = outs[0];
  const auto size = [&](int loop) { return loops->sizes[static_cast<std::size_t>(loop)]; };
  // transform.iree.match.contraction gives the batch sizes in loop order, as they are here.
  for (int b : loops->batch) m.batch.push_back(size(b));
  m.m = {size(loops->m)}, m.n = {size(loops->n)}, m.k = {size(loops->k)};
  return m;
}

std::string compilation_info_of(const ConfiguredDispatch& d) {
  if (d.lowering_configs.empty() || !d.translation)
    throw IreeError("dispatch " + d.executable + ": no lowering_config or translation_info to apply");
  return "#iree_codegen.compilation_info<lowering_config = " + d.lowering_configs.front().text +
         ", translation_info = " + d.translation->text + ">";
}

std::string emit_tuning_spec(const std::vector<SpecEntry>& entries) {
  std::ostringstream s;
  s << "// A tuning spec written by ktune: apply with\n"
       "//   iree-compile ... --iree-codegen-tuning-spec-path=<this file>\n"
       "module attributes {transform.with_named_sequence, iree_codegen.tuning_spec_with_default_entrypoint} {\n"
       "  transform.named_sequence @apply_op_config(%op: !transform.any_op {transform.readonly}, "
       "%config: !transform.any_param {transform.readonly}) {\n"
       "    transform.annotate %op \"compilation_info\" = %config : !transform.any_op, !transform.any_param\n"
       "    transform.yield\n"
       "  }\n";
  for (const SpecEntry& e : entries) {
    const ContractionMatch& m = e.match;
    s << "\n  transform.named_sequence @match_" << e.dispatch
      << "(%op: !transform.any_op {transform.readonly}) -> (!transform.any_op, !transform.any_param) {\n"
      << "    %batch, %m, %n, %k = transform.iree.match.contraction %op, lhs_type = " << m.lhs_type
      << ", rhs_type = " << m.rhs_type << ", output_type = " << m.output_type << ",\n"
      << "      indexing_maps = " << m.indexing_maps << " : !transform.any_op -> !transform.param<i64>\n"
      << "    transform.iree.match.dims_equal %batch, " << dims_text(m.batch) << " : !transform.param<i64>\n"
      << "    transform.iree.match.dims_equal %m, " << dims_text(m.m) << " : !transform.param<i64>\n"
      << "    transform.iree.match.dims_equal %n, " << dims_text(m.n) << " : !transform.param<i64>\n"
      << "    transform.iree.match.dims_equal %k, " << dims_text(m.k) << " : !transform.param<i64>\n"
      << "    %config = transform.param.constant " << e.compilation_info << " -> !transform.any_param\n"
      << "    transform.yield %op, %config : !transform.any_op, !transform.any_param\n"
      << "  }\n";
  }
  s << "\n  transform.named_sequence @__kernel_config(%variant_op: !transform.any_op {transform.consumed}) -> "
       "!transform.any_op attributes {iree_codegen.tuning_spec_entrypoint} {\n"
       "    %res = transform.foreach_match in %variant_op\n";
  for (std::size_t i = 0; i < entries.size(); ++i)
    s << "        @match_" << entries[i].dispatch << " -> @apply_op_config" << (i + 1 < entries.size() ? ",\n" : "\n");
  s << "      : (!transform.any_op) -> !transform.any_op\n"
       "    transform.yield %res : !transform.any_op\n"
       "  }\n"
       "}\n";
  return s.str();
}

SpecChoice parse_spec_choice(const std::string& text) {
  const std::size_t eq = text.find('=');
  if (eq == std::string::npos || eq == 0 || eq + 1 == text.size())
    throw IreeError("choice '" + text + "': expected DISPATCH=CANDIDATE (an index or key of `ktune model candidates`)");
  return {text.substr(0, eq), text.substr(eq + 1)};
}

bool WrittenSpec::verified() const {
  return !checks.empty() && std::all_of(checks.begin(), checks.end(), [](const SpecCheck& c) { return c.applied; });
}

namespace {

const MatmulCandidate& find_candidate(const std::vector<MatmulCandidate>& candidates, const SpecChoice& choice) {
  for (const MatmulCandidate& c : candidates)
    if (c.knobs.key() == choice.candidate) return c;
  if (!choice.candidate.empty() && std::all_of(choice.candidate.begin(), choice.candidate.end(), ::isdigit)) {
    const std::size_t index = std::stoul(choice.candidate);
    if (index < candidates.size()) return candidates[index];
  }
  throw IreeError("dispatch " + choice.dispatch + " has no candidate '" + choice.candidate + "' (" +
                  std::to_string(candidates.size()) + " candidates: an index below that, or a key as `ktune model "
                  "candidates --json` lists it)");
}

// The knobs a configuration sets, comparable whatever order IREE prints its attributes in.
std::string configuration_signature(const ConfiguredDispatch& d) {
  if (d.lowering_configs.empty()) return "no lowering_config";
  const LoweringConfig& c = d.lowering_configs.front();
  std::string s;
  for (const char* key : {"workgroup", "reduction", "subgroup"})
    if (auto t = c.tiles(key)) s += std::string(key) + "=" + dims_text(*t) + " ";
  s += "mma=" + c.mma_kind().value_or("-");
  if (d.translation) {
    s += " workgroup_size=" + dims_text(d.translation->workgroup_size);
    for (const AttributeEntry& e : d.translation->pipeline_options)
      if (e.key == "prefetch_num_stages") s += " prefetch=" + e.value;
  }
  return s;
}

}  // namespace

WrittenSpec write_tuning_spec(const IreeTools& tools, const CompiledModel& model, const std::vector<SpecChoice>& choices,
                              const std::filesystem::path& spec_path, const std::filesystem::path& out_dir) {
  if (model.target.device != "hip")
    throw IreeError("a tuning spec is the AMD answer: target '" + model.target.text() +
                    "' is not hip:gfx* (CUDA 3.13 ignores tuning specs; its answer is a substitution set)");
  if (choices.empty()) throw IreeError("no DISPATCH=CANDIDATE to write a spec for");
  WrittenSpec out;
  out.path = spec_path;
  std::vector<SpecEntry> entries;
  std::vector<std::string> wanted;
  for (const SpecChoice& choice : choices) {
    const DumpedDispatch& d = find_dispatch(model, choice.dispatch);
    const std::optional<std::string> text = read_file(d.configured);
    if (!text) throw IreeError("cannot read " + d.configured.string());
    CandidateSpaceSummary summary;
    const std::vector<MatmulCandidate> candidates = matmul_candidates(d.config, {}, &summary);
    if (candidates.empty()) throw IreeError("dispatch " + d.name + " has no candidates: " + summary.unsupported);
    const MatmulCandidate& candidate = find_candidate(candidates, choice);
    const std::string rewritten = apply_candidate(*text, d.config, candidate);
    const ConfiguredDispatch applied = parse_configured_dispatch(rewritten, d.configured.string() + " (candidate)");
    entries.push_back({d.name, contraction_match(d.config, *text), compilation_info_of(applied)});
    wanted.push_back(configuration_signature(applied));
    out.checks.push_back({d.name, candidate.knobs.key(), entries.back().compilation_info, "", false});
  }
  out.text = emit_tuning_spec(entries);
  std::filesystem::create_directories(std::filesystem::absolute(spec_path).parent_path());
  std::ofstream(spec_path) << out.text;
  if (!std::filesystem::is_regular_file(spec_path)) throw IreeError("cannot write " + spec_path.string());
  CompileOptions options;
  options.extra_flags = {"--iree-codegen-tuning-spec-path=" + std::filesystem::absolute(spec_path).string()};
  out.build = compile_model(tools, model.model, model.target, out_dir, options);
  for (std::size_t i = 0; i < out.checks.size(); ++i) {
    const DumpedDispatch& d = find_dispatch(out.build, out.checks[i].dispatch);
    out.checks[i].got = compilation_info_of(d.config);
    out.checks[i].applied = configuration_signature(d.config) == wanted[i];
  }
  return out;
}

nlohmann::json to_json(const WrittenSpec& spec) {
  nlohmann::json checks = nlohmann::json::array();
  for (const SpecCheck& c : spec.checks)
    checks.push_back({{"dispatch", c.dispatch}, {"candidate", c.candidate_key}, {"applied", c.applied},
                      {"wanted", c.wanted}, {"got", c.got}});
  return {{"spec", spec.path.string()},
          {"flag", "--iree-codegen-tuning-spec-path=" + std::filesystem::absolute(spec.path).string()},
          {"compile_command", spec.build.command},
          {"checks", checks},
          {"verified", spec.verified()}};
}

}  // namespace ktune::iree
