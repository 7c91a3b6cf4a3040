#pragma once
// Tests' access to testdata/: configured dispatches that iree-compile 3.13.0 dumped
// (--iree-hal-dump-executable-files-to) for the 2048x10240x1280 f16 matmul, for sm_80 and gfx942.

#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>

namespace ktune::iree::testing {

// $KTUNE_SOURCE_DIR, when set, names the source tree instead of the one the test was built in
// (a test binary carried to a GPU machine reads that machine's checkout).
inline std::string read_testdata(const std::string& name) {
  const char* moved = std::getenv("KTUNE_SOURCE_DIR");
  std::ifstream in(std::string(moved && *moved ? moved : KTUNE_SOURCE_DIR) + "/src/ktune/iree/testdata/" + name);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

}  // namespace ktune::iree::testing
