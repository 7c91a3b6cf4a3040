// Fuzzes the spec loader: any bytes must give a TuningProblem or a SourceError naming a place,
// never a crash, a hang or another exception.

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

#include "ktune/core/source_error.h"
#include "ktune/spec/problem.h"

namespace {

const std::filesystem::path& base_dir() {
  static const std::filesystem::path dir = [] {
    auto d = std::filesystem::temp_directory_path() / "ktune_spec_fuzz";
    std::filesystem::create_directories(d);
    std::ofstream(d / "k.cpp") << "extern \"C\" void k(float* y, int n) {}\n";
    return d;
  }();
  return dir;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  try {
    ktune::spec::TuningProblem p = ktune::spec::parse_spec(text, "fuzz.yaml", base_dir());
    // A loaded problem must be usable: its space, hashes and description.
    ktune::space::SearchSpace space = p.make_space();
    if (space.size() > 0) (void)space.at(0);
    (void)p.problem_hash();
    (void)p.to_json().dump();
  } catch (const ktune::SourceError& e) {
    if (e.file() != "fuzz.yaml") std::abort();
  }
  return 0;
}
