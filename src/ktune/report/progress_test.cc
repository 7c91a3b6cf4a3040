#include <gtest/gtest.h>

#include <cstdio>
#include <string>

#include "ktune/report/progress.h"

namespace ktune::report {
namespace {

std::string capture(ProgressStyle style, const ProgressUpdate& u, bool finish) {
  std::FILE* f = std::tmpfile();
  {
    Progress p(style, f);
    if (finish) p.finish(u);
    else p.update(u);
  }
  std::rewind(f);
  std::string out;
  char buf[512];
  while (std::fgets(buf, sizeof buf, f)) out += buf;
  std::fclose(f);
  return out;
}

TEST(Progress, AutoOnAFileIsJsonLines) {
  ProgressUpdate u;
  u.done = 3;
  u.total = 10;
  u.ok = 2;
  u.failed = 1;
  u.best_seconds = 0.002;
  u.best_config = "B=4";
  std::string line = capture(ProgressStyle::Auto, u, false);
  auto j = nlohmann::json::parse(line);
  EXPECT_EQ(j["event"], "progress");
  EXPECT_EQ(j["done"], 3);
  EXPECT_EQ(j["total"], 10);
  EXPECT_EQ(j["best_config"], "B=4");
  EXPECT_EQ(nlohmann::json::parse(capture(ProgressStyle::Json, u, true))["event"], "finished");
}

TEST(Progress, BarShowsCountsBestAndEta) {
  ProgressUpdate u;
  u.done = 5;
  u.total = 10;
  u.ok = 5;
  u.best_seconds = 0.0015;
  std::string bar = capture(ProgressStyle::Bar, u, true);
  EXPECT_NE(bar.find("5/10"), std::string::npos) << bar;
  EXPECT_NE(bar.find("best 1.500 ms"), std::string::npos) << bar;
  EXPECT_NE(bar.find("ETA done"), std::string::npos) << bar;
  EXPECT_EQ(capture(ProgressStyle::None, u, true), "");
}

TEST(Progress, Formats) {
  EXPECT_EQ(Progress::format_duration(5.25), "5.2 s");
  EXPECT_EQ(Progress::format_duration(125), "2m05s");
  EXPECT_EQ(Progress::format_duration(7300), "2h01m");
  EXPECT_EQ(Progress::format_time(2.5e-6), "2.50 us");
  EXPECT_EQ(Progress::format_time(0.0125), "12.500 ms");
  EXPECT_THROW(parse_progress_style("fancy"), std::invalid_argument);
}

}  // namespace
}  // namespace ktune::report
