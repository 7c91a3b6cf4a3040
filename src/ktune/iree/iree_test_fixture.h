#pragma once
// The fixture of the tests that run the real IREE: the .venv of scripts/install-deps.sh, found
// as build/ktune would find it, and a scratch directory. CI installs IREE, so there a missing
// IREE fails instead of skipping.

#include <gtest/gtest.h>

#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <string>

#include "ktune/iree/iree_tools.h"

namespace ktune::iree::testing {

inline const std::filesystem::path kSource = KTUNE_SOURCE_DIR;

class RealIree : public ::testing::Test {
 protected:
  void SetUp() override {
    IreeLookup lookup = find_iree_tools({}, kSource / "build" / "ktune");
    if (!lookup.tools) {
      const char* ci = std::getenv("CI");
      if (ci && std::string(ci) == "true") FAIL() << lookup.reason;
      GTEST_SKIP() << lookup.reason;
    }
    tools_ = *lookup.tools;
    out_ = std::filesystem::temp_directory_path() / ("ktune_iree_test_" + std::to_string(::getpid()));
    std::filesystem::create_directories(out_);
  }
  void TearDown() override {
    std::error_code ec;
    if (!out_.empty()) std::filesystem::remove_all(out_, ec);
  }
  IreeTools tools_;
  std::filesystem::path out_;
};

}  // namespace ktune::iree::testing
