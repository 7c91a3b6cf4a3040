#include "ktune/iree/compile_model.h"

#include <algorithm>
#include <fstream>
#include <regex>
#include <sstream>

#include "ktune/device/subprocess.h"
#include "ktune/iree/run_compiler.h"

namespace ktune::iree {
namespace fs = std::filesystem;
namespace {

std::string read_file(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

// "..._dispatch_12..." -> 12, so that dispatch_10 sorts after dispatch_9.
long dispatch_number(const std::string& name) {
  static const std::regex number(R"(_dispatch_(\d+))");
  std::smatch m;
  return std::regex_search(name, m, number) ? std::stol(m[1].str()) : -1;
}

std::string quote_command(const std::vector<std::string>& argv) {
  std::string s;
  for (const std::string& a : argv) {
    if (!s.empty()) s += ' ';
    const bool plain = a.find_first_of(" \t\"'$\\") == std::string::npos && !a.empty();
    s += plain ? a : "'" + a + "'";
  }
  return s;
}

// The last lines of the tool's output: iree-compile prints the error with the model's location.
std::string tail(const std::string& text, std::size_t max_chars = 4000) {
  return text.size() <= max_chars ? text : "..." + text.substr(text.size() - max_chars);
}

}  // namespace

std::vector<std::string> Target::compile_flags() const {
  if (device == "cuda") return {"--iree-hal-target-device=cuda", "--iree-cuda-target=" + chip};
  if (device == "cpu")
    return {"--iree-hal-target-device=local", "--iree-hal-local-target-device-backends=llvm-cpu", "--iree-llvmcpu-target-cpu=" + chip};
  return {"--iree-hal-target-device=hip", "--iree-rocm-target=" + chip};
}

Target parse_target(const std::string& text) {
  const auto colon = text.find(':');
  if (colon == std::string::npos)
    throw IreeError("target '" + text + "': expected DEVICE:CHIP, e.g. cuda:sm_80, hip:gfx942 or cpu:host");
  Target t{text.substr(0, colon), text.substr(colon + 1)};
  if (t.device == "rocm") t.device = "hip";
  static const std::regex sm(R"(sm_\d+a?)"), gfx(R"(gfx[0-9a-f]+)");
  if (t.device == "cuda") {
    if (!std::regex_match(t.chip, sm)) throw IreeError("target '" + text + "': a CUDA chip is sm_NN (e.g. sm_80)");
  } else if (t.device == "hip") {
    if (!std::regex_match(t.chip, gfx)) throw IreeError("target '" + text + "': an AMD chip is gfxNNN (e.g. gfx942)");
  } else if (t.device == "cpu") {
    if (t.chip.empty() || t.chip.find_first_of(" =") != std::string::npos)
      throw IreeError("target '" + text + "': a CPU is named as LLVM names it (host, generic, znver4 ...)");
  } else {
    throw IreeError("target '" + text + "': unknown device '" + t.device + "' (cuda, hip or cpu)");
  }
  return t;
}

CompiledModel compile_model(const IreeTools& tools, const fs::path& model, const Target& target, const fs::path& out_dir,
                            const CompileOptions& options) {
  std::error_code ec;
  if (!fs::is_regular_file(model, ec)) throw IreeError(model.string() + ": no such file");
  CompiledModel c;
  c.model = fs::absolute(model);
  c.target = target;
  c.vmfb = out_dir / "model.vmfb";
  c.dump_dir = out_dir / "dump";
  fs::remove_all(c.dump_dir, ec);
  fs::create_directories(c.dump_dir);
  c.command = {tools.compile.string(), c.model.string(), "-o", c.vmfb.string(),
               "--iree-hal-dump-executable-files-to=" + c.dump_dir.string()};
  for (const std::string& f : target.compile_flags()) c.command.push_back(f);
  if (!options.link_executables) c.command.push_back("--iree-hal-link-executables=false");
  for (const std::string& f : options.extra_flags) c.command.push_back(f);
  const CompilerRun run = run_iree_compile(c.command, options.timeout_seconds);
  const device::SubprocessResult& r = run.result;
  c.command = run.command;
  c.retried_single_threaded = run.retried_single_threaded;
  c.seconds = run.seconds;
  if (!r.succeeded())
    throw IreeError(model.string() + ": iree-compile for " + target.text() + " " + r.describe() + "\ncommand: " +
                    quote_command(c.command) + "\n" + tail(r.output));

  std::vector<fs::path> configured;
  for (const auto& entry : fs::directory_iterator(c.dump_dir))
    if (entry.path().filename().string().rfind("configured_", 0) == 0 && entry.path().extension() == ".mlir")
      configured.push_back(entry.path());
  for (const fs::path& path : configured) {
    DumpedDispatch d;
    d.configured = path;
    d.config = parse_configured_dispatch(read_file(path), path.string());
    d.name = d.config.executable;
    // The benchmark source is named after the module and the executable, ending _benchmark.mlir.
    for (const auto& entry : fs::directory_iterator(c.dump_dir)) {
      const std::string f = entry.path().filename().string();
      if (f.find("_" + d.name + "_") == std::string::npos) continue;
      const std::string ext = entry.path().extension().string();
      if (f.size() > 15 && f.compare(f.size() - 15, 15, "_benchmark.mlir") == 0) d.benchmark = entry.path();
      else if (ext == ".hsaco" || ext == ".ptx") d.object = entry.path();
      else if (ext == ".rocmasm") d.assembly = entry.path();
    }
    c.dispatches.push_back(std::move(d));
  }
  std::sort(c.dispatches.begin(), c.dispatches.end(), [](const DumpedDispatch& a, const DumpedDispatch& b) {
    const long x = dispatch_number(a.name), y = dispatch_number(b.name);
    return x != y ? x < y : a.name < b.name;
  });
  return c;
}

const DumpedDispatch& find_dispatch(const CompiledModel& model, const std::string& name) {
  std::string known;
  for (const DumpedDispatch& d : model.dispatches) {
    if (d.name == name) return d;
    known += (known.empty() ? "" : ", ") + d.name;
  }
  throw IreeError(model.model.string() + " has no dispatch '" + name + "' (it has " + known + ")");
}

}  // namespace ktune::iree
