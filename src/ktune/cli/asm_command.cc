// ktune asm: the hand-tuning workflow for AMD kernels without ROCm.
//   ktune asm dump SPEC|FILE.hip|FILE.cl --target gfx942 [--config K=V ...] -o DIR   (.s and .hsaco)
//   ktune asm reassemble EDITED.s [--target gfx942] -o OUT.hsaco                  (clang -x assembler + ld.lld)
//   ktune asm diff A.hsaco B.hsaco [--side-by-side]                                (llvm-objdump of both)

#include <cstdio>
#include <filesystem>
#include <iostream>
#include <fstream>
#include <regex>

#include "ktune/amdgpu/code_object.h"
#include "ktune/amdgpu/process.h"
#include "ktune/amdgpu/toolchain.h"
#include "ktune/analysis/occupancy_amdgpu.h"
#include "ktune/amdgpu/asm_diff.h"
#include "ktune/cli/common.h"
#include "ktune/core/read_file.h"
#include "ktune/device/device.h"
#include "ktune/spec/problem.h"
#include "ktune/tuner/instantiate.h"

namespace ktune::cli {
namespace fs = std::filesystem;
namespace {

struct AsmFailure : std::runtime_error {
  AsmFailure(int exit_code, const std::string& message) : std::runtime_error(message), code(exit_code) {}
  int code;
};

struct AsmArgs {
  std::string input;
  std::string target;
  std::vector<std::string> config;
  std::vector<std::string> sizes;
  std::string output;
  int llvm = 0;
  std::string a, b;
  bool side_by_side = false;
  int context = 3;
};

void require_file(const std::string& path) {
  std::error_code ec;
  if (!fs::exists(path, ec)) throw AsmFailure(kExitUsage, path + ": no such file");
  if (fs::is_directory(path, ec)) throw AsmFailure(kExitUsage, path + ": is a directory, not a file");
}

std::string checked_processor(const std::string& target) {
  const std::string processor = analysis::amdgpu_processor_name(target);
  if (processor.empty())
    throw AsmFailure(kExitUsage, "--target '" + target + "' is not an AMD GPU (gfx942, gfx90a, gfx950, gfx942:sramecc+:xnack-, ...)");
  return processor;
}

amdgpu::Toolchain toolchain_for(const std::string& target, int llvm) {
  std::string why_not;
  auto t = amdgpu::Toolchain::find(target, llvm > 0 ? std::optional<int>(llvm) : std::nullopt, &why_not);
  if (!t) throw AsmFailure(kExitUnavailable, "no LLVM here targets " + target + ": " + why_not);
  return *t;
}

// ---- dump -----------------------------------------------------------------------------------

int run_dump(const GlobalOptions& global, const AsmArgs& args) {
  require_file(args.input);
  if (args.output.empty()) throw AsmFailure(kExitUsage, "asm dump needs -o DIR");
  const std::string target = args.target.empty() ? "gfx942" : args.target;
  checked_processor(target);
  amdgpu::CompileRequest request;
  request.arch = target;
  request.output_dir = args.output;
  const fs::path input(args.input);
  const std::string ext = input.extension().string();
  if (ext == ".yaml" || ext == ".yml") {
    const spec::TuningProblem problem = spec::load_spec(input, parse_assignments(args.sizes, "--size"));
    if (problem.language != spec::Language::Hip)
      throw AsmFailure(kExitUsage, args.input + " is a " + std::string(spec::language_name(problem.language)) +
                                       " kernel; asm dump compiles HIP (language: hip) or a .hip/.cl file");
    const Config config = parse_assignments(args.config, "--config");
    for (const auto& p : problem.parameters)
      if (!config.count(p.name)) throw AsmFailure(kExitUsage, "--config must give every parameter; missing " + p.name);
    const device::CompileRequest generic = tuner::compile_request(problem, config, target);
    for (const auto& [name, value] : generic.defines)
      request.defines.emplace_back(name, value.is_bool() ? (value.as_bool() ? "1" : "0") : value.to_string());
    const auto text = read_file(problem.sources.front());
    if (!text) throw AsmFailure(kExitError, "cannot read " + problem.sources.front().string());
    request.source = *text;
    request.options = problem.flags;
    for (const auto& s : problem.sources) request.include_paths.push_back(s.parent_path().string());
    request.name = problem.entry;
  } else if (ext == ".hip" || ext == ".cl") {
    const auto text = read_file(input);
    if (!text) throw AsmFailure(kExitError, "cannot read " + args.input);
    request.source = *text;
    request.language = ext == ".cl" ? amdgpu::SourceLanguage::OpenCl : amdgpu::SourceLanguage::Hip;
    for (const auto& item : args.config) {
      const auto eq = item.find('=');
      if (eq == 0) throw AsmFailure(kExitUsage, "--config expects NAME=VALUE or NAME, got '" + item + "'");
      request.defines.emplace_back(item.substr(0, eq), eq == std::string::npos ? "" : item.substr(eq + 1));
    }
    request.include_paths.push_back(fs::absolute(input).parent_path().string());
    request.name = input.stem().string();
  } else {
    throw AsmFailure(kExitUsage, args.input + ": asm dump takes a spec (.yaml), a .hip or a .cl file");
  }
  const amdgpu::Toolchain toolchain = toolchain_for(target, args.llvm);
  const amdgpu::CompileResult out = toolchain.compile(request);
  if (!out.ok) {
    std::cerr << out.log;
    throw AsmFailure(kExitBadInput, "compiling " + args.input + " for " + target + " failed: " + out.error);
  }
  nlohmann::json j = {{"assembly", out.asm_path},  {"code_object", out.code_object_path}, {"source", out.source_path},
                      {"target", target},          {"llvm", toolchain.version_string()},  {"commands", out.commands}};
  if (global.json) {
    print_json(j);
  } else {
    std::printf("wrote %s\n      %s\n(clang %s, %s)\n", out.asm_path.c_str(), out.code_object_path.c_str(),
                toolchain.version_string().c_str(), target.c_str());
    std::printf("edit the .s, then: ktune asm reassemble %s -o edited.hsaco\n", out.asm_path.c_str());
  }
  return kExitOk;
}

// ---- reassemble -------------------------------------------------------------------------------

// IREE's dumped assembly (.rocmasm) names its target as its own LLVM spells the triple,
// `.amdgcn_target "amdgpu9.42-amd-amdhsa-unknown-gfx942"`, which a stock assembler refuses
// ("does not match the specified target id"). The same processor and features in the standard
// target id are what the code object declares (e_flags), so the directive is rewritten to it.
// Returns the text unchanged when there is no such directive.
std::string with_standard_target_id(const std::string& text) {
  static const std::regex kIreeTarget(R"re((\.amdgcn_target\s+")amdgpu[0-9.]+-amd-amdhsa-[a-z]*-(gfx[0-9a-f]+[^"]*)")re");
  return std::regex_replace(text, kIreeTarget, "$1amdgcn-amd-amdhsa--$2\"", std::regex_constants::format_first_only);
}

int run_reassemble(const GlobalOptions& global, const AsmArgs& args) {
  require_file(args.input);
  if (args.output.empty()) throw AsmFailure(kExitUsage, "asm reassemble needs -o OUT.hsaco");
  const auto original = read_file(args.input);
  if (!original) throw AsmFailure(kExitError, "cannot read " + args.input);
  const std::optional<std::string> text = with_standard_target_id(*original);
  // What the assembler reads: the input itself, or a copy beside the output whose target
  // directive was rewritten (IREE's spelling).
  std::string assembled = args.input;
  if (*text != *original) {
    assembled = fs::absolute(args.output).string() + ".s";
    std::ofstream(assembled) << *text;
  }
  // The assembly names its target (with features); the assembler refuses a different -mcpu, so
  // the .s decides and --target only has to agree with it.
  static const std::regex kTarget(R"re(\.amdgcn_target\s+"amdgcn-amd-amdhsa--([^"]+)")re");
  std::smatch m;
  std::string target;
  if (std::regex_search(*text, m, kTarget)) target = m[1].str();
  if (target.empty()) {
    if (args.target.empty())
      throw AsmFailure(kExitBadInput, args.input + ": no .amdgcn_target directive; give --target (e.g. gfx942)");
    target = args.target;
  } else if (!args.target.empty() && checked_processor(args.target) != analysis::amdgpu_processor_name(target)) {
    throw AsmFailure(kExitUsage, args.input + " is assembly for " + target + ", not for --target " + args.target);
  } else if (!args.target.empty() && args.target.find(':') != std::string::npos && args.target != target) {
    throw AsmFailure(kExitUsage, args.input + " declares target features " + target + ", --target says " + args.target);
  }
  checked_processor(target);
  // Same LLVM as the one that wrote it when that is installed: the encoding is then identical.
  int llvm = args.llvm;
  static const std::regex kIdent(R"re(\.ident\s+"[^"]*clang version (\d+)\.)re");
  if (llvm == 0 && std::regex_search(*text, m, kIdent)) {
    const int wrote = std::stoi(m[1].str());
    if (amdgpu::Toolchain::find(target, wrote)) llvm = wrote;
  }
  const amdgpu::Toolchain toolchain = toolchain_for(target, llvm);
  const fs::path out_path = fs::absolute(args.output);
  const std::string object = out_path.string() + ".o";
  const std::vector<std::vector<std::string>> steps = {
      {toolchain.clang(), "-x", "assembler", "--target=amdgcn-amd-amdhsa", "-mcpu=" + target, "-c", "-o", object,
       assembled},
      {toolchain.lld(), "-shared", "--no-undefined", "-o", out_path.string(), object}};
  std::vector<std::string> commands;
  for (std::size_t i = 0; i < steps.size(); ++i) {
    commands.push_back(amdgpu::command_line(steps[i]));
    const amdgpu::ToolRun run = amdgpu::run_tool(steps[i], 300);
    if (!run.succeeded()) {
      std::error_code ec;
      fs::remove(object, ec);
      // The assembler's messages name the rewritten copy; its lines are the input's.
      std::string output = run.output;
      if (assembled != args.input) {
        fs::remove(assembled, ec);
        for (std::size_t at = output.find(assembled); at != std::string::npos; at = output.find(assembled, at))
          output.replace(at, assembled.size(), args.input);
      }
      std::cerr << output;
      throw AsmFailure(i == 0 ? kExitBadInput : kExitError,
                       std::string(i == 0 ? "assembling " : "linking ") + args.input + " " + run.describe());
    }
  }
  std::error_code ec;
  fs::remove(object, ec);
  if (assembled != args.input) fs::remove(assembled, ec);
  if (global.json) {
    print_json({{"code_object", out_path.string()}, {"target", target}, {"llvm", toolchain.version_string()},
                {"commands", commands}});
  } else {
    std::printf("wrote %s (%s, clang %s)\n", out_path.c_str(), target.c_str(), toolchain.version_string().c_str());
  }
  return kExitOk;
}

// ---- diff ---------------------------------------------------------------------------------

struct Disassembly {
  std::string target;
  std::string tool;
  std::string text;
};

Disassembly disassemble(const std::string& path, int llvm) {
  require_file(path);
  amdgpu::CodeObject co;
  try {
    co = amdgpu::read_code_object(path);
  } catch (const std::exception& e) {
    throw AsmFailure(kExitBadInput, e.what());
  }
  if (co.elf.processor.empty())
    throw AsmFailure(kExitBadInput, path + ": e_flags name no processor ktune knows (mach " + std::to_string(co.elf.mach) + ")");
  const amdgpu::Toolchain toolchain = toolchain_for(co.elf.processor, llvm);
  std::string error;
  auto text = toolchain.disassemble(path, co.elf.processor, &error);
  if (!text) throw AsmFailure(kExitError, path + ": " + error);
  return {co.elf.target_id, toolchain.objdump(), *text};
}

int run_diff(const GlobalOptions& global, const AsmArgs& args) {
  const Disassembly a = disassemble(args.a, args.llvm);
  const Disassembly b = disassemble(args.b, args.llvm);
  const std::vector<amdgpu::AsmLine> a_lines = amdgpu::normalize_objdump(a.text);
  const std::vector<amdgpu::AsmLine> b_lines = amdgpu::normalize_objdump(b.text);
  const std::vector<amdgpu::AsmChange> changes = amdgpu::diff_lines(a_lines, b_lines);
  int changed = 0, added = 0, removed = 0;
  for (const auto& c : changes) {
    if (c.kind == amdgpu::AsmChange::Kind::Changed) ++changed;
    else if (c.kind == amdgpu::AsmChange::Kind::Added) ++added;
    else ++removed;
  }
  if (global.json) {
    print_json({{"a", args.a},
                {"b", args.b},
                {"a_target", a.target},
                {"b_target", b.target},
                {"disassembler", a.tool},
                {"a_lines", a_lines.size()},
                {"b_lines", b_lines.size()},
                {"changed", changed},
                {"added", added},
                {"removed", removed},
                {"changes", amdgpu::changes_to_json(a_lines, b_lines, changes)}});
  } else {
    if (a.target != b.target) std::printf("note: targets differ: %s vs %s\n", a.target.c_str(), b.target.c_str());
    if (changes.empty()) {
      std::printf("no differences in the instructions (%zu lines, %s)\n", a_lines.size(), a.tool.c_str());
    } else {
      std::fputs((args.side_by_side ? amdgpu::format_side_by_side(a_lines, b_lines, changes, 60, args.context)
                                    : amdgpu::format_unified(a_lines, b_lines, changes, args.a, args.b, args.context))
                     .c_str(),
                 stdout);
      std::printf("%d changed, %d added, %d removed\n", changed, added, removed);
    }
  }
  return kExitOk;
}

int guarded(const std::function<int()>& body, const char* what) {
  try {
    return body();
  } catch (const AsmFailure& e) {
    std::cerr << "ktune asm " << what << ": " << e.what() << "\n";
    return e.code;
  }
}

}  // namespace

void add_asm_command(CLI::App& app, GlobalOptions& global, Handler& handler) {
  auto args = std::make_shared<AsmArgs>();
  CLI::App* cmd = app.add_subcommand("asm", "AMD GPU assembly: dump a kernel to .s/.hsaco, reassemble an edited .s, "
                                            "diff two code objects (needs clang/lld/llvm 19+, no ROCm)");
  cmd->require_subcommand(1);

  CLI::App* dump = cmd->add_subcommand("dump", "Compile a HIP spec configuration or a .hip/.cl file to .s and .hsaco");
  dump->add_option("input", args->input, "Spec (.yaml, language hip), .hip or .cl file")->required();
  dump->add_option("--target", args->target, "Processor or target id (default gfx942)");
  dump->add_option("--config", args->config, "Parameter NAME=VALUE (spec: every parameter; file: -D defines)");
  dump->add_option("--size", args->sizes, "Spec: override a problem size NAME=VALUE");
  dump->add_option("-o,--output", args->output, "Output directory")->required();
  dump->add_option("--llvm", args->llvm, "Use this LLVM major version (default: the newest that targets the processor)");
  dump->callback([&global, &handler, args] {
    handler = [&global, args] { return guarded([&] { return run_dump(global, *args); }, "dump"); };
  });

  CLI::App* re = cmd->add_subcommand("reassemble", "Assemble and link an (edited) .s into a code object");
  re->add_option("input", args->input, "AMDGPU assembly (.s)")->required();
  re->add_option("--target", args->target, "Processor or target id; must agree with the .s's .amdgcn_target");
  re->add_option("-o,--output", args->output, "Code object to write (.hsaco)")->required();
  re->add_option("--llvm", args->llvm, "Use this LLVM major version (default: the one named in the .s, if installed)");
  re->callback([&global, &handler, args] {
    handler = [&global, args] { return guarded([&] { return run_reassemble(global, *args); }, "reassemble"); };
  });

  CLI::App* diff = cmd->add_subcommand("diff", "Instruction-level diff of two AMD code objects (llvm-objdump)");
  diff->add_option("a", args->a, "First code object")->required();
  diff->add_option("b", args->b, "Second code object")->required();
  diff->add_flag("--side-by-side", args->side_by_side, "Two columns instead of a unified diff");
  diff->add_option("--context", args->context, "Unchanged lines shown around each change (default 3)")
      ->check(CLI::NonNegativeNumber);
  diff->add_option("--llvm", args->llvm, "Use this LLVM major version's llvm-objdump");
  diff->callback([&global, &handler, args] {
    handler = [&global, args] { return guarded([&] { return run_diff(global, *args); }, "diff"); };
  });
  for (CLI::App* sub : cmd->get_subcommands({})) sub->fallthrough();
}

}  // namespace ktune::cli
