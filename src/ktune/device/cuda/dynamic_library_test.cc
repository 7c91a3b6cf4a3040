#include "ktune/device/cuda/dynamic_library.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>

namespace ktune {
namespace {

TEST(DynamicLibrary, OpensAndResolvesFunctions) {
  DynamicLibrary libm = DynamicLibrary::open("libm.so.6");
  EXPECT_EQ(libm.name(), "libm.so.6");
  EXPECT_NE(libm.path().find("libm"), std::string::npos) << libm.path();
  auto* cosine = libm.function<double(double)>({"no_such_symbol", "cos"});
  ASSERT_NE(cosine, nullptr);
  EXPECT_DOUBLE_EQ(cosine(0.0), 1.0);
  EXPECT_EQ(libm.symbol("no_such_symbol"), nullptr);
  EXPECT_EQ((libm.function<double(double)>({"no_such_symbol"})), nullptr);
}

TEST(DynamicLibrary, MissingSymbolNamesEveryCandidate) {
  DynamicLibrary libm = DynamicLibrary::open("libm.so.6");
  try {
    libm.require_function<void()>({"cuInit_v9", "cuInit"});
    FAIL() << "expected DynamicLibraryError";
  } catch (const DynamicLibraryError& e) {
    std::string what = e.what();
    EXPECT_NE(what.find("cuInit_v9, cuInit"), std::string::npos) << what;
    EXPECT_NE(what.find("libm"), std::string::npos) << what;
  }
}

TEST(DynamicLibrary, OpenFailureCarriesDlerror) {
  try {
    DynamicLibrary::open("/nonexistent/libnothing.so");
    FAIL() << "expected DynamicLibraryError";
  } catch (const DynamicLibraryError& e) {
    std::string what = e.what();
    EXPECT_NE(what.find("cannot load /nonexistent/libnothing.so"), std::string::npos) << what;
    EXPECT_NE(what.find("No such file"), std::string::npos) << what;
  }
}

TEST(DynamicLibrary, OpenFirstReportsEveryAttempt) {
  Loaded<DynamicLibrary> none = DynamicLibrary::open_first({"libnothing1.so", "/nonexistent/libnothing2.so"});
  EXPECT_FALSE(none);
  EXPECT_NE(none.error.find("tried 2 location(s)"), std::string::npos) << none.error;
  EXPECT_NE(none.error.find("libnothing1.so"), std::string::npos);
  EXPECT_NE(none.error.find("libnothing2.so"), std::string::npos);

  Loaded<DynamicLibrary> found = DynamicLibrary::open_first({"libnothing1.so", "libm.so.6"});
  ASSERT_TRUE(found) << found.error;
  EXPECT_EQ(found->name(), "libm.so.6");

  EXPECT_FALSE(DynamicLibrary::open_first({}));
}

TEST(DynamicLibrary, MoveKeepsTheHandle) {
  DynamicLibrary a = DynamicLibrary::open("libm.so.6");
  DynamicLibrary b = std::move(a);
  EXPECT_NE(b.symbol("cos"), nullptr);
  a = std::move(b);
  EXPECT_NE(a.symbol("cos"), nullptr);
}

TEST(DynamicLibrary, Candidates) {
  unsetenv("KTUNE_TEST_LIBRARY");
  EXPECT_EQ(library_candidates("KTUNE_TEST_LIBRARY", {"liba.so"}, {"/opt/x", ""}),
            (std::vector<std::string>{"liba.so", "/opt/x/liba.so"}));
  setenv("KTUNE_TEST_LIBRARY", "/custom/liba.so.1", 1);
  EXPECT_EQ(library_candidates("KTUNE_TEST_LIBRARY", {"liba.so"}, {}),
            (std::vector<std::string>{"/custom/liba.so.1", "liba.so"}));
  setenv("KTUNE_TEST_LIBRARY", "/tmp", 1);
  EXPECT_EQ(library_candidates("KTUNE_TEST_LIBRARY", {"liba.so"}, {}),
            (std::vector<std::string>{"/tmp/liba.so", "liba.so"}));
  unsetenv("KTUNE_TEST_LIBRARY");
}

}  // namespace
}  // namespace ktune
