#pragma once
// Tests' access to testdata/: configured dispatches that iree-compile 3.13.0 dumped
// (--iree-hal-dump-executable-files-to) for the 2048x10240x1280 f16 matmul, for sm_80 and gfx942.

#include <fstream>
#include <sstream>
#include <string>

namespace ktune::iree::testing {

inline std::string read_testdata(const std::string& name) {
  std::ifstream in(std::string(KTUNE_SOURCE_DIR) + "/src/ktune/iree/testdata/" + name);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

}  // namespace ktune::iree::testing
