#include "ktune/analysis/ptxas_info.h"

#include <cxxabi.h>

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cstdlib>
#include <memory>
#include <utility>

namespace ktune::analysis {
namespace {

std::string_view trim(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  return s;
}

bool starts_with_word(std::string_view s, std::string_view word) {
  return s.substr(0, word.size()) == word;
}

std::optional<std::int64_t> parse_int(std::string_view s) {
  std::int64_t value = 0;
  auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), value);
  if (ec != std::errc() || end != s.data() + s.size()) return std::nullopt;
  return value;
}

// "1.234" -> 1.234 without locale surprises.
std::optional<double> parse_double(std::string_view s) {
  std::string text(s);
  char* end = nullptr;
  double value = std::strtod(text.c_str(), &end);
  if (end == text.c_str()) return std::nullopt;
  return value;
}

// One comma-separated item of a ptxas usage line: "8448 bytes smem", "used 1 barriers",
// "4+0 bytes lmem" (old ptxas printed user+system parts; we keep the sum).
struct Item {
  std::int64_t value = 0;
  std::string what;  // "bytes smem", "registers", "bytes cmem[0]", ...
};

std::optional<Item> parse_item(std::string_view text) {
  text = trim(text);
  if (starts_with_word(text, "Used ")) text.remove_prefix(5);
  if (starts_with_word(text, "used ")) text.remove_prefix(5);
  std::size_t space = text.find(' ');
  if (space == std::string_view::npos) return std::nullopt;
  std::string_view number = text.substr(0, space);
  Item item;
  std::size_t plus = number.find('+');
  if (plus != std::string_view::npos) {
    auto a = parse_int(number.substr(0, plus));
    auto b = parse_int(number.substr(plus + 1));
    if (!a || !b) return std::nullopt;
    item.value = *a + *b;
  } else {
    auto a = parse_int(number);
    if (!a) return std::nullopt;
    item.value = *a;
  }
  item.what = std::string(trim(text.substr(space + 1)));
  if (item.what.empty()) return std::nullopt;
  return item;
}

std::vector<Item> parse_items(std::string_view text, bool* all_parsed) {
  std::vector<Item> items;
  *all_parsed = true;
  std::size_t start = 0;
  while (start <= text.size()) {
    std::size_t comma = text.find(',', start);
    std::string_view piece = text.substr(start, comma == std::string_view::npos ? std::string_view::npos : comma - start);
    if (auto item = parse_item(piece)) {
      items.push_back(std::move(*item));
    } else if (!trim(piece).empty()) {
      *all_parsed = false;
    }
    if (comma == std::string_view::npos) break;
    start = comma + 1;
  }
  return items;
}

// "bytes cmem[3]" -> 3
std::optional<int> constant_bank(const std::string& what) {
  constexpr std::string_view prefix = "bytes cmem[";
  if (!starts_with_word(what, prefix) || what.back() != ']') return std::nullopt;
  auto bank = parse_int(std::string_view(what).substr(prefix.size(), what.size() - prefix.size() - 1));
  if (!bank) return std::nullopt;
  return static_cast<int>(*bank);
}

// Text between the first pair of single quotes after `from`.
std::optional<std::string> quoted(std::string_view text, std::size_t from = 0) {
  std::size_t open = text.find('\'', from);
  if (open == std::string_view::npos) return std::nullopt;
  std::size_t close = text.find('\'', open + 1);
  if (close == std::string_view::npos) return std::nullopt;
  return std::string(text.substr(open + 1, close - open - 1));
}

// "void tile<64, 64>(__half const*, float*)" -> "tile<64,64>" (return type, parameters and
// spaces removed) so lookups can use the template-id a user wrote.
std::string callable_name(const std::string& demangled) {
  std::string s = demangled;
  // Parameters start at the '(' that closes the name: the last top-level '(' group.
  int depth = 0;
  std::size_t paren = std::string::npos;
  for (std::size_t i = 0; i < s.size(); ++i) {
    char c = s[i];
    if (c == '<') ++depth;
    if (c == '>') --depth;
    if (c == '(' && depth == 0) {
      paren = i;
      break;
    }
  }
  if (paren != std::string::npos) s.resize(paren);
  // Drop a leading return type ("void ") that template kernels carry.
  depth = 0;
  std::size_t name_start = 0;
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '<') ++depth;
    if (s[i] == '>') --depth;
    if (s[i] == ' ' && depth == 0) name_start = i + 1;
  }
  s = s.substr(name_start);
  std::erase_if(s, [](char c) { return std::isspace(static_cast<unsigned char>(c)); });
  return s;
}

std::string without_spaces(std::string_view s) {
  std::string out;
  for (char c : s) {
    if (!std::isspace(static_cast<unsigned char>(c))) out += c;
  }
  return out;
}

std::string base_name(const std::string& callable) {
  std::size_t angle = callable.find('<');
  std::string s = callable.substr(0, angle);
  return s;
}

std::string unqualified(const std::string& name) {
  std::size_t colons = name.rfind("::");
  return colons == std::string::npos ? name : name.substr(colons + 2);
}

class Parser {
 public:
  PtxasReport run(std::string_view log) {
    std::size_t start = 0;
    while (start < log.size()) {
      std::size_t end = log.find('\n', start);
      if (end == std::string_view::npos) end = log.size();
      line(log.substr(start, end - start));
      start = end + 1;
    }
    attach_warnings();
    return std::move(report_);
  }

 private:
  void line(std::string_view raw) {
    std::string_view text = trim(raw);
    const bool properties_expected = std::exchange(expect_properties_, false);
    if (!starts_with_word(text, "ptxas")) {
      // Old ptxas versions printed the properties line without the "ptxas ." prefix.
      if (properties_expected && text.find("bytes stack frame") != std::string_view::npos) continuation(text, raw);
      return;
    }
    std::string_view rest = trim(text.substr(5));
    if (!rest.empty() && rest.front() == '.') {
      continuation(trim(rest.substr(1)), raw);
      return;
    }
    std::size_t colon = rest.find(':');
    if (colon == std::string_view::npos) {
      unparsed(raw);
      return;
    }
    std::string_view kind = trim(rest.substr(0, colon));
    std::string_view message = trim(rest.substr(colon + 1));
    if (kind == "info") {
      info(message, raw);
    } else if (kind == "warning") {
      report_.warnings.emplace_back(message);
    } else if (kind == "error" || kind == "fatal") {
      report_.errors.emplace_back(message);
    } else {
      unparsed(raw);
    }
  }

  void info(std::string_view message, std::string_view raw) {
    if (starts_with_word(message, "Compiling entry function")) {
      auto name = quoted(message);
      if (!name) return unparsed(raw);
      current_kernel_ = kernel_index(*name);
      std::size_t for_pos = message.find(" for ", message.find('\'', message.find('\'') + 1));
      if (for_pos != std::string_view::npos) {
        if (auto arch = quoted(message, for_pos)) report_.kernels[*current_kernel_].arch = *arch;
      }
      return;
    }
    if (starts_with_word(message, "Function properties for")) {
      std::string name(trim(message.substr(std::string_view("Function properties for").size())));
      if (name.empty()) return unparsed(raw);
      properties_target_ = name;
      expect_properties_ = true;
      return;
    }
    if (starts_with_word(message, "Used ")) {
      if (!current_kernel_) return unparsed(raw);
      bool all_parsed = false;
      std::vector<Item> items = parse_items(message, &all_parsed);
      if (!all_parsed) unparsed(raw);
      apply_usage(report_.kernels[*current_kernel_], items);
      return;
    }
    if (starts_with_word(message, "Compile time")) {
      std::size_t equals = message.find('=');
      if (!current_kernel_ || equals == std::string_view::npos) return unparsed(raw);
      std::string_view value = trim(message.substr(equals + 1));
      double scale = 1.0;
      if (value.ends_with(" ms")) {
        value.remove_suffix(3);
      } else if (value.ends_with(" s")) {
        value.remove_suffix(2);
        scale = 1000.0;
      }
      if (auto ms = parse_double(value)) report_.kernels[*current_kernel_].compile_time_ms = *ms * scale;
      return;
    }
    if (starts_with_word(message, "Overriding maximum register limit")) {
      // "... limit 256 for 'spill' with  32 of maxrregcount option"
      auto name = quoted(message);
      std::size_t with = message.find(" with ");
      if (!name || with == std::string_view::npos) return unparsed(raw);
      std::string_view after = trim(message.substr(with + 6));
      std::size_t space = after.find(' ');
      auto limit = parse_int(after.substr(0, space));
      if (!limit) return unparsed(raw);
      report_.kernels[kernel_index(*name)].max_registers_override = static_cast<int>(*limit);
      return;
    }
    if (!message.empty() && std::isdigit(static_cast<unsigned char>(message.front()))) {
      // Module-level totals: "4096 bytes gmem, 1024 bytes cmem[3]".
      bool all_parsed = false;
      for (const Item& item : parse_items(message, &all_parsed)) {
        if (item.what == "bytes gmem") {
          report_.global_bytes += item.value;
        } else if (auto bank = constant_bank(item.what)) {
          report_.module_constant_bytes[*bank] += item.value;
        } else {
          all_parsed = false;
        }
      }
      if (!all_parsed) unparsed(raw);
      return;
    }
    unparsed(raw);
  }

  // "0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads" under "Function properties".
  void continuation(std::string_view message, std::string_view raw) {
    if (!properties_target_) return unparsed(raw);
    bool all_parsed = false;
    std::vector<Item> items = parse_items(message, &all_parsed);
    if (!all_parsed) unparsed(raw);
    const std::string& name = *properties_target_;
    if (auto it = kernel_by_name_.find(name); it != kernel_by_name_.end()) {
      apply_usage(report_.kernels[it->second], items);
      return;
    }
    DeviceFunctionUsage* function = nullptr;
    for (DeviceFunctionUsage& f : report_.device_functions) {
      if (f.name == name) function = &f;
    }
    if (!function) {
      report_.device_functions.push_back({name, demangle(name), 0, 0, 0});
      function = &report_.device_functions.back();
    }
    for (const Item& item : items) {
      if (item.what == "bytes stack frame") function->stack_frame_bytes = item.value;
      if (item.what == "bytes spill stores") function->spill_store_bytes = item.value;
      if (item.what == "bytes spill loads") function->spill_load_bytes = item.value;
    }
  }

  static void apply_usage(KernelResourceUsage& kernel, const std::vector<Item>& items) {
    for (const Item& item : items) {
      const std::string& what = item.what;
      if (what == "registers") {
        kernel.registers = static_cast<int>(item.value);
      } else if (what == "barriers") {
        kernel.barriers = static_cast<int>(item.value);
      } else if (what == "bytes smem") {
        kernel.shared_bytes = item.value;
      } else if (what == "bytes lmem") {
        kernel.local_bytes = item.value;
      } else if (what == "bytes stack frame") {
        kernel.stack_frame_bytes = item.value;
      } else if (what == "bytes spill stores") {
        kernel.spill_store_bytes = item.value;
      } else if (what == "bytes spill loads") {
        kernel.spill_load_bytes = item.value;
      } else if (what == "bytes cumulative stack size") {
        kernel.cumulative_stack_bytes = item.value;
      } else if (auto bank = constant_bank(what)) {
        kernel.constant_bytes[*bank] = item.value;
      } else {
        kernel.other[what] = item.value;
      }
    }
  }

  std::size_t kernel_index(const std::string& name) {
    if (auto it = kernel_by_name_.find(name); it != kernel_by_name_.end()) return it->second;
    KernelResourceUsage kernel;
    kernel.name = name;
    kernel.demangled_name = demangle(name);
    report_.kernels.push_back(std::move(kernel));
    kernel_by_name_[name] = report_.kernels.size() - 1;
    return report_.kernels.size() - 1;
  }

  void attach_warnings() {
    for (const std::string& warning : report_.warnings) {
      for (KernelResourceUsage& kernel : report_.kernels) {
        if (warning.find("'" + kernel.name + "'") != std::string::npos) kernel.warnings.push_back(warning);
      }
    }
  }

  void unparsed(std::string_view raw) { report_.unparsed_lines.emplace_back(trim(raw)); }

  PtxasReport report_;
  std::map<std::string, std::size_t> kernel_by_name_;
  std::optional<std::size_t> current_kernel_;
  std::optional<std::string> properties_target_;
  bool expect_properties_ = false;
};

}  // namespace

PtxasReport parse_ptxas_log(std::string_view log) { return Parser().run(log); }

std::string demangle(const std::string& name) {
  if (!name.starts_with("_Z")) return name;
  int status = 0;
  std::unique_ptr<char, void (*)(void*)> text(abi::__cxa_demangle(name.c_str(), nullptr, nullptr, &status),
                                              std::free);
  if (status != 0 || !text) return name;
  return text.get();
}

const KernelResourceUsage* PtxasReport::find(std::string_view name) const {
  for (const KernelResourceUsage& k : kernels) {
    if (k.name == name || k.demangled_name == name) return &k;
  }
  const std::string wanted = without_spaces(name);
  const KernelResourceUsage* match = nullptr;
  int matches = 0;
  for (const KernelResourceUsage& k : kernels) {
    std::string callable = callable_name(k.demangled_name);
    if (callable == wanted || unqualified(callable) == wanted) return &k;  // template-id: exact
    std::string base = base_name(callable);
    if (base == wanted || unqualified(base) == wanted) {
      match = &k;
      ++matches;
    }
  }
  return matches == 1 ? match : nullptr;
}

nlohmann::json to_json(const KernelResourceUsage& k) {
  nlohmann::json constant = nlohmann::json::object();
  for (const auto& [bank, bytes] : k.constant_bytes) constant[std::to_string(bank)] = bytes;
  nlohmann::json j = {
      {"name", k.name},
      {"demangled_name", k.demangled_name},
      {"arch", k.arch},
      {"registers", k.registers},
      {"barriers", k.barriers},
      {"shared_bytes", k.shared_bytes},
      {"local_bytes", k.local_bytes},
      {"stack_frame_bytes", k.stack_frame_bytes},
      {"spill_store_bytes", k.spill_store_bytes},
      {"spill_load_bytes", k.spill_load_bytes},
      {"cumulative_stack_bytes", k.cumulative_stack_bytes},
      {"constant_bytes", constant},
      {"other", k.other},
      {"warnings", k.warnings},
  };
  j["max_registers_override"] = k.max_registers_override ? nlohmann::json(*k.max_registers_override) : nlohmann::json();
  j["compile_time_ms"] = k.compile_time_ms ? nlohmann::json(*k.compile_time_ms) : nlohmann::json();
  return j;
}

nlohmann::json to_json(const DeviceFunctionUsage& f) {
  return {{"name", f.name},
          {"demangled_name", f.demangled_name},
          {"stack_frame_bytes", f.stack_frame_bytes},
          {"spill_store_bytes", f.spill_store_bytes},
          {"spill_load_bytes", f.spill_load_bytes}};
}

nlohmann::json to_json(const PtxasReport& report) {
  nlohmann::json kernels = nlohmann::json::array();
  for (const auto& k : report.kernels) kernels.push_back(to_json(k));
  nlohmann::json functions = nlohmann::json::array();
  for (const auto& f : report.device_functions) functions.push_back(to_json(f));
  nlohmann::json constant = nlohmann::json::object();
  for (const auto& [bank, bytes] : report.module_constant_bytes) constant[std::to_string(bank)] = bytes;
  return {{"kernels", kernels},
          {"device_functions", functions},
          {"global_bytes", report.global_bytes},
          {"module_constant_bytes", constant},
          {"warnings", report.warnings},
          {"errors", report.errors},
          {"unparsed_lines", report.unparsed_lines}};
}

}  // namespace ktune::analysis
