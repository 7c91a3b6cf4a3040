#include "ktune/iree/model_signature.h"

#include <map>
#include <regex>

#include "ktune/device/subprocess.h"
#include "ktune/iree/compile_model.h"

namespace ktune::iree {

std::size_t TensorType::element_count() const {
  std::size_t n = 1;
  for (std::int64_t d : shape) n *= static_cast<std::size_t>(d);
  return n;
}

namespace {

device::SubprocessOptions tool_options(double timeout_seconds) {
  device::SubprocessOptions o;
  o.timeout_seconds = timeout_seconds;
  return o;
}

ElementType mlir_element_type(const std::string& t, const std::string& context) {
  static const std::map<std::string, ElementType> known = {
      {"f16", ElementType::F16}, {"bf16", ElementType::BF16}, {"f32", ElementType::F32}, {"f64", ElementType::F64},
      {"i8", ElementType::I8},   {"i16", ElementType::I16},   {"i32", ElementType::I32}, {"i64", ElementType::I64},
      {"si8", ElementType::I8},  {"ui8", ElementType::U8},    {"si32", ElementType::I32}, {"si64", ElementType::I64}};
  const auto it = known.find(t);
  if (it == known.end()) throw IreeError(context + ": element type '" + t + "' is not one ktune can make inputs for");
  return it->second;
}

// Splits "%a: tensor<2x3xf16>, %b: tensor<4xf32>" at the commas between arguments.
std::vector<std::string> split_arguments(const std::string& list) {
  std::vector<std::string> out;
  int depth = 0;
  std::string current;
  for (char c : list) {
    if (c == '<' || c == '(' || c == '[' || c == '{') ++depth;
    if (c == '>' || c == ')' || c == ']' || c == '}') --depth;
    if (c == ',' && depth == 0) {
      out.push_back(current);
      current.clear();
      continue;
    }
    current += c;
  }
  if (current.find_first_not_of(" ") != std::string::npos) out.push_back(current);
  return out;
}

std::vector<TensorType> parse_list(const std::string& list, const std::string& function) {
  std::vector<TensorType> out;
  for (std::string arg : split_arguments(list)) {
    const auto colon = arg.find(':');
    std::string type = colon == std::string::npos ? arg : arg.substr(colon + 1);
    type.erase(0, type.find_first_not_of(' '));
    type.erase(type.find_last_not_of(' ') + 1);
    try {
      out.push_back(parse_tensor_type(type));
    } catch (const IreeError& e) {
      throw IreeError("function @" + function + ": " + e.what());
    }
  }
  return out;
}

}  // namespace

TensorType parse_tensor_type(const std::string& text) {
  static const std::regex form(R"(^tensor<((?:[0-9?]+x)*)([a-z0-9]+)>$)");
  std::smatch m;
  if (!std::regex_match(text, m, form))
    throw IreeError("'" + text + "' is not a ranked tensor type ktune can make inputs for (give the inputs yourself)");
  TensorType t;
  t.text = text;
  const std::string dims = m[1].str();
  std::size_t start = 0;
  while (start < dims.size()) {
    const std::size_t x = dims.find('x', start);
    const std::string d = dims.substr(start, x - start);
    if (d == "?") throw IreeError("'" + text + "' has a dynamic dimension: ktune needs static shapes to make inputs");
    t.shape.push_back(std::stoll(d));
    start = x + 1;
  }
  t.type = mlir_element_type(m[2].str(), "'" + text + "'");
  return t;
}

std::vector<FunctionSignature> parse_module_signatures(const std::string& dump) {
  static const std::regex declaration(R"(iree\.abi\.declaration:\s*(?:sync |async )?func @([^\s(]+)\((.*)\)\s*->\s*\((.*)\))");
  std::vector<FunctionSignature> out;
  for (auto it = std::sregex_iterator(dump.begin(), dump.end(), declaration); it != std::sregex_iterator(); ++it) {
    FunctionSignature f;
    f.name = (*it)[1].str();
    f.inputs = parse_list((*it)[2].str(), f.name);
    f.outputs = parse_list((*it)[3].str(), f.name);
    out.push_back(std::move(f));
  }
  return out;
}

std::vector<FunctionSignature> module_signatures(const IreeTools& tools, const std::filesystem::path& vmfb) {
  const std::filesystem::path dump_tool = tools.dir / "iree-dump-module";
  const device::SubprocessResult r = device::run_subprocess({dump_tool.string(), vmfb.string()}, tool_options(120));
  if (!r.succeeded())
    throw IreeError(vmfb.string() + ": iree-dump-module " + r.describe() + ":\n" + r.output.substr(0, 2000));
  return parse_module_signatures(r.output);
}

FunctionSignature select_function(const std::vector<FunctionSignature>& functions, const std::string& name,
                                  const std::filesystem::path& model) {
  std::string names;
  for (const auto& f : functions) {
    if (f.name == name) return f;
    names += (names.empty() ? "" : ", ") + f.name;
  }
  if (name.empty() && functions.size() == 1) return functions.front();
  if (functions.empty()) throw IreeError(model.string() + ": the compiled module exports no function with tensor arguments");
  throw IreeError(model.string() + ": " + (name.empty() ? "it exports several functions" : "no function @" + name) +
                  "; choose one with --function (exported: " + names + ")");
}

}  // namespace ktune::iree
