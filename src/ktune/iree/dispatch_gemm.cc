#include "ktune/iree/dispatch_gemm.h"

#include "ktune/core/read_file.h"

#include <map>
#include <optional>
#include <regex>
#include <set>
#include <sstream>

namespace ktune::iree {

std::string role_name(GemmRole role) {
  switch (role) {
    case GemmRole::A: return "a";
    case GemmRole::B: return "b";
    case GemmRole::Bias: return "bias";
    case GemmRole::C: return "c";
    case GemmRole::D: return "d";
  }
  return "?";
}

nlohmann::json DispatchGemm::to_json() const {
  nlohmann::json ops = nlohmann::json::array();
  for (const GemmOperand& o : operands) {
    nlohmann::json j = {{"role", role_name(o.role)}, {"binding", o.binding}, {"offset_bytes", o.offset_bytes}};
    if (o.offset_constant >= 0) j["offset_constant"] = o.offset_constant;
    ops.push_back(j);
  }
  return {{"problem", problem.to_json()}, {"binding_count", binding_count}, {"constant_count", constant_count},
          {"operands", ops}, {"describe", describe()}};
}

std::string DispatchGemm::describe() const {
  const gemm::GemmProblem& p = problem;
  std::string s = (p.batch > 1 ? std::to_string(p.batch) + "x" : "") + std::to_string(p.m) + "x" + std::to_string(p.n) + "x" +
                  std::to_string(p.k) + " " + p.layout() + " " + std::string(gemm::precision_name(p.precision)) + "->" +
                  std::string(gemm::storage_name(p.out));
  if (p.bias) s += " +bias";
  if (p.reads_c()) s += " +c";
  if (p.activation != gemm::Activation::None) s += " " + std::string(gemm::activation_name(p.activation));
  return s;
}

namespace {

// Thrown inside the recognizer; becomes DispatchGemmResult::unsupported.
struct Unsupported {
  std::string why;
};

[[noreturn]] void refuse(std::string why) { throw Unsupported{std::move(why)}; }

using Map = std::vector<int>;  // result dims of an affine_map: (d0, d2) -> {0, 2}

std::vector<Map> parse_maps(const std::string& text) {
  std::vector<Map> maps;
  static const std::regex map_re(R"(affine_map<\(([^)]*)\)\s*->\s*\(([^)]*)\)>)");
  for (auto it = std::sregex_iterator(text.begin(), text.end(), map_re); it != std::sregex_iterator(); ++it) {
    Map m;
    std::stringstream results((*it)[2].str());
    std::string item;
    while (std::getline(results, item, ',')) {
      std::smatch d;
      if (!std::regex_search(item, d, std::regex(R"(^\s*d(\d+)\s*$)"))) refuse("indexing map result '" + item + "' is not a loop dimension");
      m.push_back(std::stoi(d[1].str()));
    }
    maps.push_back(m);
  }
  return maps;
}

std::vector<std::string> ssa_names(const std::string& text) {
  std::vector<std::string> names;
  static const std::regex name_re(R"(%[\w]+)");
  for (auto it = std::sregex_iterator(text.begin(), text.end(), name_re); it != std::sregex_iterator(); ++it) names.push_back(it->str());
  return names;
}

struct BodyOp {
  std::string result, op, type;  // op: "extf", "addf", ...; type: the result type
  std::vector<std::string> operands;
};

struct Generic {
  std::string result;
  std::vector<Map> maps;
  std::vector<std::string> iterators, ins;
  std::string out;
  std::vector<std::string> args;  // block arguments, ins then out
  std::vector<BodyOp> body;
  std::string yield;
  int line = 0;
};

// The function body as the recognizer needs it: where tensors come from and what the generics do.
// One hal.interface.binding.subspan: a tensor's place in a binding.
struct Subspan {
  int binding = 0;
  std::int64_t offset_bytes = 0;
  int offset_constant = -1;  // the push constant holding the offset, when it is one
  std::vector<std::int64_t> shape;
  std::string element_type;
};

struct Body {
  std::map<std::string, Subspan> subspans;  // %memref -> where
  std::map<std::string, Subspan> loaded;    // %tensor -> where (iree_codegen.load_from_buffer)
  std::map<std::string, double> constants;
  std::map<std::string, int> push_constants;  // %value -> push constant ordinal (through casts)
  std::set<std::string> zero_constants, zero_filled;
  std::vector<Generic> generics;
  std::string stored;  // the tensor stored to the output binding
  std::optional<Subspan> stored_at;
};

// "memref<8x512x512xf16, strided<[262144, 512, 1], offset: ?>, ...>": shape and type; a
// layout that is not dense row-major is refused.
Subspan parse_subspan(const std::string& line, const Body& body, int line_no) {
  static const std::regex binding_re(R"(binding\((\d+)\))");
  static const std::regex offset_re(R"(offset\((%[\w]+)\))");
  static const std::regex memref_re(R"(: memref<([0-9x?]*)x(\w+)(, strided<\[([0-9, ]*)\][^>]*>)?)");
  std::smatch m;
  Subspan s;
  const std::string where = "line " + std::to_string(line_no) + ": ";
  if (!std::regex_search(line, m, binding_re)) refuse(where + "a subspan without a binding");
  s.binding = std::stoi(m[1].str());
  if (std::regex_search(line, m, offset_re)) {
    const auto c = body.constants.find(m[1].str());
    const auto pc = body.push_constants.find(m[1].str());
    if (pc != body.push_constants.end()) s.offset_constant = pc->second;
    else if (c == body.constants.end()) refuse(where + "a binding offset that is neither a constant nor a push constant");
    else s.offset_bytes = static_cast<std::int64_t>(c->second);
  }
  if (!std::regex_search(line, m, memref_re)) refuse(where + "a binding that is not a statically shaped memref");
  for (const std::string& d : split_top_level(m[1].str(), 'x')) {
    if (d == "?") refuse("dynamic shapes");
    s.shape.push_back(std::stoll(d));
  }
  s.element_type = m[2].str();
  if (m[3].matched) {
    std::vector<std::int64_t> strides;
    for (const std::string& x : split_top_level(m[4].str())) strides.push_back(std::stoll(x));
    std::int64_t expect = 1;
    for (std::size_t i = strides.size(); i-- > 0;) {
      if (i >= s.shape.size() || strides[i] != expect) refuse(where + "a binding that is not dense row-major");
      expect *= s.shape[i];
    }
  }
  return s;
}

BodyOp parse_body_op(const std::string& line, int line_no) {
  static const std::regex op_re(R"(^\s*(%[\w]+)\s*=\s*arith\.(\w+)\s+([^:]*):\s*(.*)$)");
  std::smatch m;
  if (!std::regex_search(line, m, op_re)) refuse("line " + std::to_string(line_no) + ": body op '" + line + "' is not an arith op");
  BodyOp op{m[1].str(), m[2].str(), "", ssa_names(m[3].str())};
  std::string type = m[4].str();
  const auto to = type.find(" to ");
  op.type = to == std::string::npos ? type : type.substr(to + 4);
  while (!op.type.empty() && std::isspace(static_cast<unsigned char>(op.type.back()))) op.type.pop_back();
  return op;
}

Body parse_body(const std::string& text) {
  Body b;
  static const std::regex subspan_re(R"(^\s*(%[\w]+) = hal\.interface\.binding\.subspan )");
  static const std::regex load_re(R"(^\s*(%[\w]+) = iree_codegen\.load_from_buffer (%[\w]+))");
  static const std::regex const_re(R"(^\s*(%[\w]+) = arith\.constant ([-+0-9.eE]+) : \w+\s*$)");
  static const std::regex fill_re(R"(^\s*(%[\w]+) = linalg\.fill ins\((%[\w]+) : [^)]*\) outs\()");
  static const std::regex generic_re(
      R"(^\s*(%[\w]+) = linalg\.generic \{indexing_maps = \[(.*?)\], iterator_types = \[(.*?)\]\} ins\((.*?) : .*?\) outs\((%[\w]+) :)");
  static const std::regex bb_re(R"(^\s*\^bb0\((.*)\):)");
  static const std::regex yield_re(R"(^\s*linalg\.yield (%[\w]+))");
  static const std::regex store_re(R"(^\s*iree_codegen\.store_to_buffer (%[\w]+), (%[\w]+))");
  static const std::regex push_re(R"(^\s*(%[\w]+) = hal\.interface\.constant\.load .*ordinal\((\d+)\) : i32\s*$)");
  static const std::regex cast_re(R"(^\s*(%[\w]+) = (arith\.index_castui|arith\.index_cast|util\.assume\.int) (%[\w]+)[\[ :])");
  static const std::regex ignored_re(R"(^\s*(%[\w]+ = tensor\.empty\(\)|%[\w]+ = arith\.constant |return$|\}|func\.func ))");
  std::istringstream in(text);
  std::string line;
  int line_no = 0;
  bool in_func = false;
  Generic* open = nullptr;
  std::smatch m;
  while (std::getline(in, line)) {
    ++line_no;
    if (!in_func) {
      in_func = line.find("func.func @") != std::string::npos;
      continue;
    }
    if (open) {
      if (std::regex_search(line, m, bb_re)) {
        open->args = ssa_names(m[1].str());
        // ssa_names also returns nothing for the types; the block args are exactly the %names.
      } else if (std::regex_search(line, m, yield_re)) {
        open->yield = m[1].str();
      } else if (line.find("} -> tensor<") != std::string::npos) {
        open = nullptr;
      } else {
        open->body.push_back(parse_body_op(line, line_no));
      }
      continue;
    }
    if (std::regex_search(line, m, push_re)) {
      b.push_constants[m[1].str()] = std::stoi(m[2].str());
    } else if (std::regex_search(line, m, cast_re) && b.push_constants.count(m[3].str())) {
      // index casts and range assumptions of a push constant carry its value unchanged
      b.push_constants[m[1].str()] = b.push_constants.at(m[3].str());
    } else if (std::regex_search(line, m, subspan_re)) {
      b.subspans[m[1].str()] = parse_subspan(line, b, line_no);
    } else if (std::regex_search(line, m, load_re)) {
      const auto it = b.subspans.find(m[2].str());
      if (it == b.subspans.end()) refuse("line " + std::to_string(line_no) + ": a load from something that is not a binding");
      b.loaded[m[1].str()] = it->second;
    } else if (std::regex_search(line, m, const_re)) {
      b.constants[m[1].str()] = std::stod(m[2].str());
      if (std::stod(m[2].str()) == 0.0) b.zero_constants.insert(m[1].str());
    } else if (std::regex_search(line, m, fill_re)) {
      if (b.zero_constants.count(m[2].str())) b.zero_filled.insert(m[1].str());
    } else if (std::regex_search(line, m, generic_re)) {
      Generic g;
      g.result = m[1].str();
      g.maps = parse_maps(m[2].str());
      for (const std::string& it : split_top_level(m[3].str())) g.iterators.push_back(it.find("reduction") != std::string::npos ? "reduction" : "parallel");
      g.ins = ssa_names(m[4].str());
      g.out = m[5].str();
      g.line = line_no;
      b.generics.push_back(std::move(g));
      open = &b.generics.back();
    } else if (std::regex_search(line, m, store_re)) {
      const auto it = b.subspans.find(m[2].str());
      if (it == b.subspans.end()) refuse("line " + std::to_string(line_no) + ": a store to something that is not a binding");
      if (b.stored_at) refuse("the dispatch stores more than one result");
      b.stored = m[1].str();
      b.stored_at = it->second;
    } else if (line.find("iree_codegen.dispatch_config") != std::string::npos) {
      break;
    } else if (!std::regex_search(line, ignored_re) && line.find_first_not_of(" \t") != std::string::npos) {
      std::string op = line.substr(line.find_first_not_of(" \t"));
      refuse("line " + std::to_string(line_no) + ": '" + op.substr(0, 80) + "' is not part of a GEMM the generated kernels compute");
    }
  }
  return b;
}

gemm::Precision precision_of(const std::string& type) {
  if (type == "f16") return gemm::Precision::F16;
  if (type == "bf16") return gemm::Precision::BF16;
  refuse("operands of type " + type + " (the generated kernels take f16 and bf16)");
}

gemm::Storage storage_of(const std::string& type) {
  const auto s = gemm::parse_storage(type);
  if (!s || *s == gemm::Storage::F8E4M3) refuse("an output of type " + type);
  return *s;
}

// The contraction: sizes, layout and precision; A and B must come straight from bindings.
void read_contraction(const Generic& g, const Body& body, const ConfiguredDispatch& d, DispatchGemm& out) {
  const std::size_t loops = g.iterators.size();
  if (loops != 3 && loops != 4) refuse("a contraction over " + std::to_string(loops) + " loops");
  for (std::size_t i = 0; i + 1 < loops; ++i)
    if (g.iterators[i] != "parallel") refuse("a reduction that is not the innermost loop");
  if (g.ins.size() != 2 || g.maps.size() != 3) refuse("a contraction of " + std::to_string(g.ins.size()) + " operands");
  if (!body.zero_filled.count(g.out)) refuse("a contraction that accumulates into an existing tensor");
  const bool batched = loops == 4;
  const int k = static_cast<int>(loops) - 1;
  const Map& out_map = g.maps[2];
  if (out_map.size() != loops - 1) refuse("a contraction whose result is not " + std::to_string(loops - 1) + "-D");
  const int dm = out_map[batched ? 1 : 0], dn = out_map[batched ? 2 : 1];
  if (batched && out_map[0] != 0) refuse("a batch dimension that is not the outermost");
  auto layout = [&](const Map& map, int outer, const char* name) -> bool {
    Map n = batched ? Map{0, outer, k} : Map{outer, k};
    Map t = batched ? Map{0, k, outer} : Map{k, outer};
    if (map == n) return false;
    if (map == t) return true;
    refuse(std::string("operand ") + name + " indexed in an order the generated kernels do not read");
  };
  gemm::GemmProblem& p = out.problem;
  p.a_transposed = layout(g.maps[0], dm, "A");
  p.b_transposed = !layout(g.maps[1], dn, "B");  // B 'n' is (k, n): K outer
  for (int i = 0; i < 2; ++i)
    if (!body.loaded.count(g.ins[i])) refuse("a contraction operand that is computed inside the dispatch");
  const Subspan& ba = body.loaded.at(g.ins[0]);
  const Subspan& bb = body.loaded.at(g.ins[1]);
  if (ba.element_type != bb.element_type) refuse("operands of two types (" + ba.element_type + ", " + bb.element_type + ")");
  p.precision = precision_of(ba.element_type);
  const std::size_t r = batched ? 1 : 0;
  if (ba.shape.size() != loops - 1 || bb.shape.size() != loops - 1) refuse("operand ranks that do not match the loops");
  p.batch = batched ? ba.shape[0] : 1;
  p.m = p.a_transposed ? ba.shape[r + 1] : ba.shape[r];
  p.k = p.a_transposed ? ba.shape[r] : ba.shape[r + 1];
  p.n = p.b_transposed ? bb.shape[r] : bb.shape[r + 1];
  const std::int64_t kb = p.b_transposed ? bb.shape[r + 1] : bb.shape[r];
  if (kb != p.k) refuse("operands that disagree on K");
  // The body: (extf a), (extf b), mulf, addf into the accumulator; nothing else.
  std::map<std::string, std::string> widened;  // %x -> the block argument it extends
  std::string product;
  for (const BodyOp& op : g.body) {
    if (op.op == "extf" && op.operands.size() == 1) widened[op.result] = op.operands[0];
    else if (op.op == "mulf" && op.operands.size() == 2) product = op.result;
    else if (op.op == "addf" && op.operands.size() == 2 && !product.empty() && g.args.size() == 3 &&
             (op.operands[0] == g.args[2] || op.operands[1] == g.args[2]) && op.result == g.yield) continue;
    else refuse("a contraction body with arith." + op.op);
  }
  if (product.empty() || g.yield.empty()) refuse("a contraction body that is not multiply-accumulate");
  out.operands.push_back({GemmRole::A, ba.binding, ba.offset_bytes});
  out.operands.push_back({GemmRole::B, bb.binding, bb.offset_bytes});
  (void)d;
}

// The fused consumer: + bias, + C, relu, cast; returns the tensor it produces.
void read_epilogue(const Generic& g, const Body& body, const std::string& root, DispatchGemm& out,
                   std::map<GemmRole, std::string>& types) {
  for (const auto& it : g.iterators)
    if (it != "parallel") refuse("an epilogue with a reduction");
  const std::size_t rank = g.iterators.size();
  Map identity;
  for (std::size_t i = 0; i < rank; ++i) identity.push_back(static_cast<int>(i));
  std::map<std::string, GemmRole> arg_role;  // block argument -> role of its input
  std::string chain;                         // the block argument carrying the contraction result
  for (std::size_t i = 0; i < g.ins.size(); ++i) {
    if (i >= g.maps.size() || i >= g.args.size()) refuse("an epilogue whose operands the dump does not show");
    if (g.ins[i] == root) {
      if (g.maps[i] != identity) refuse("an epilogue that reads the product transposed");
      chain = g.args[i];
      continue;
    }
    const auto loaded = body.loaded.find(g.ins[i]);
    if (loaded == body.loaded.end()) refuse("an epilogue operand computed inside the dispatch");
    GemmRole role;
    if (g.maps[i] == identity) role = GemmRole::C;
    else if (g.maps[i] == Map{static_cast<int>(rank) - 1}) role = GemmRole::Bias;
    else refuse("an epilogue operand broadcast in a way the generated kernels do not read");
    if (role == GemmRole::C && loaded->second.shape.size() != rank) refuse("a matrix operand of another rank");
    if (role == GemmRole::Bias && loaded->second.shape != std::vector<std::int64_t>{out.problem.n}) refuse("a bias that is not N long");
    out.operands.push_back({role, loaded->second.binding, loaded->second.offset_bytes});
    types[role] = loaded->second.element_type;
    arg_role[g.args[i]] = role;
  }
  if (chain.empty()) refuse("an epilogue that does not read the contraction");
  if (g.maps.size() != g.ins.size() + 1 || g.maps.back() != identity) refuse("an epilogue that writes the product transposed");
  std::map<std::string, GemmRole> widened;  // %x = extf of a bias/C argument
  bool relu = false, cast = false;
  for (const BodyOp& op : g.body) {
    const bool on_chain = !op.operands.empty() && op.operands[0] == chain;
    const bool chain_second = op.operands.size() == 2 && op.operands[1] == chain;
    if (op.op == "extf" && op.operands.size() == 1 && arg_role.count(op.operands[0])) {
      widened[op.result] = arg_role.at(op.operands[0]);
      continue;
    }
    if (op.op == "addf" && op.operands.size() == 2 && (on_chain || chain_second)) {
      if (relu) refuse("an addition after max(x, 0) (the generated kernels add first)");
      const std::string other = on_chain ? op.operands[1] : op.operands[0];
      GemmRole role;
      if (widened.count(other)) role = widened.at(other);
      else if (arg_role.count(other)) role = arg_role.at(other);
      else refuse("an addition of something that is neither the bias nor a matrix input");
      if (role == GemmRole::Bias) {
        if (out.problem.bias) refuse("two bias additions");
        out.problem.bias = true;
      } else {
        if (out.problem.beta != 0) refuse("two matrix additions");
        out.problem.beta = 1.0;
      }
    } else if (op.op == "maximumf" && op.operands.size() == 2 && (on_chain || chain_second) &&
               body.zero_constants.count(on_chain ? op.operands[1] : op.operands[0])) {
      if (relu) refuse("max(x, 0) twice");
      relu = true;
    } else if (op.op == "truncf" && on_chain) {
      if (cast) refuse("two casts");
      cast = true;
    } else {
      refuse("an epilogue with arith." + op.op);
    }
    chain = op.result;
  }
  if (chain != g.yield) refuse("an epilogue that yields something else than its chain of operations");
  if (relu) out.problem.activation = gemm::Activation::Relu;
}

DispatchGemm recognize(const ConfiguredDispatch& d, const std::string& text) {
  if (d.backend != "cuda") refuse("a " + d.backend + " dispatch (the generated kernels are CUDA)");
  const Body body = parse_body(text);
  if (body.generics.empty() || body.generics.size() > 2)
    refuse(std::to_string(body.generics.size()) + " linalg.generic ops (a contraction and at most one epilogue)");
  DispatchGemm out;
  read_contraction(body.generics[0], body, d, out);
  std::map<GemmRole, std::string> types;  // element types of bias and C
  std::string result = body.generics[0].result;
  if (body.generics.size() == 2) {
    read_epilogue(body.generics[1], body, result, out, types);
    result = body.generics[1].result;
  }
  if (body.stored != result || !body.stored_at) refuse("a dispatch that does not store its GEMM's result");
  const Subspan& at = *body.stored_at;
  out.operands.push_back({GemmRole::D, at.binding, at.offset_bytes, at.offset_constant});
  for (const auto& [name, s] : body.loaded)
    if (s.offset_constant >= 0) refuse("an operand at a push-constant offset (only the result may be)");
  out.problem.out = storage_of(at.element_type);
  const std::vector<std::int64_t> d_shape = out.problem.batch > 1 || body.generics[0].iterators.size() == 4
                                                ? std::vector<std::int64_t>{out.problem.batch, out.problem.m, out.problem.n}
                                                : std::vector<std::int64_t>{out.problem.m, out.problem.n};
  if (at.shape != d_shape) refuse("a result stored in another shape than the product's");
  for (const auto& [role, type] : types)
    if (storage_of(type) != out.problem.out)
      refuse("a " + role_name(role) + " of type " + type + " with an output of type " + std::string(gemm::storage_name(out.problem.out)));
  int highest = -1;
  for (const GemmOperand& o : out.operands) highest = std::max(highest, o.binding);
  out.binding_count = std::max(highest + 1, static_cast<int>(d.bindings.size()));
  // The layout's push constants: the entry takes them all, after the bindings.
  std::smatch m;
  if (std::regex_search(text, m, std::regex(R"(#hal\.pipeline\.layout<constants = (\d+))"))) out.constant_count = std::stoi(m[1].str());
  for (const auto& [name, ordinal] : body.push_constants)
    if (ordinal >= out.constant_count) refuse("push constant " + std::to_string(ordinal) + " beyond the layout's " + std::to_string(out.constant_count));
  try {
    gemm::validate(out.problem);
  } catch (const std::exception& e) {
    refuse(e.what());
  }
  return out;
}

}  // namespace

DispatchGemmResult recognize_dispatch_gemm(const ConfiguredDispatch& dispatch, const std::string& text) {
  DispatchGemmResult r;
  try {
    r.gemm = recognize(dispatch, text);
  } catch (const Unsupported& u) {
    r.unsupported = u.why;
  }
  return r;
}

DispatchGemmResult recognize_dispatch_gemm(const DumpedDispatch& dispatch) {
  return recognize_dispatch_gemm(dispatch.config, read_file(dispatch.configured).value_or(""));
}

}  // namespace ktune::iree
