#include "ktune/worker/frame.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <thread>

namespace ktune::worker {
namespace {

TEST(Frame, EncodesMagicAndBigEndianLength) {
  std::string f = encode_frame("{}");
  ASSERT_EQ(f.size(), 10u);
  EXPECT_EQ(f.substr(0, 4), "KTW1");
  EXPECT_EQ(f[4], 0);
  EXPECT_EQ(f[7], 2);
  EXPECT_EQ(f.substr(8), "{}");
  std::string big(300, 'a');
  f = encode_frame(big);
  EXPECT_EQ(static_cast<unsigned char>(f[6]), 1);
  EXPECT_EQ(static_cast<unsigned char>(f[7]), 44);
}

TEST(Frame, DecodesFramesSplitAnywhere) {
  std::string stream = encode_frame("first") + encode_frame("") + encode_frame(std::string(70000, 'z'));
  for (std::size_t piece : {1u, 3u, 7u, 8u, 4096u}) {
    FrameDecoder d;
    std::vector<std::string> got;
    for (std::size_t i = 0; i < stream.size(); i += piece) {
      d.feed(stream.data() + i, std::min(piece, stream.size() - i));
      while (auto f = d.next()) got.push_back(*f);
    }
    ASSERT_EQ(got.size(), 3u) << "piece " << piece;
    EXPECT_EQ(got[0], "first");
    EXPECT_EQ(got[1], "");
    EXPECT_EQ(got[2].size(), 70000u);
    EXPECT_EQ(d.buffered(), 0u);
  }
}

TEST(Frame, RejectsGarbageEarlyAndClearly) {
  FrameDecoder d;
  d.feed("he", 2);
  try {
    d.next();
    FAIL() << "garbage accepted";
  } catch (const ProtocolError& e) {
    EXPECT_NE(std::string(e.what()).find("not a ktune protocol frame: starts with 'he' (68 65)"), std::string::npos)
        << e.what();
  }
  FrameDecoder small(16);
  std::string header = encode_frame(std::string(17, 'a'));
  small.feed(header.data(), 8);
  EXPECT_THROW(small.next(), ProtocolError);
}

TEST(Frame, ReadsAndWritesThroughAPipe) {
  int fds[2];
  ASSERT_EQ(pipe(fds), 0);
  std::string big(1 << 20, 'q');
  std::thread writer([&] {
    write_all(fds[1], encode_frame("hello") + encode_frame(big));
    close(fds[1]);
  });
  FrameDecoder d;
  EXPECT_EQ(read_frame(fds[0], d).value(), "hello");
  EXPECT_EQ(read_frame(fds[0], d).value(), big);
  EXPECT_FALSE(read_frame(fds[0], d).has_value());  // clean end of file
  writer.join();
  close(fds[0]);

  ASSERT_EQ(pipe(fds), 0);
  std::string partial = encode_frame("truncated").substr(0, 11);
  write_all(fds[1], partial);
  close(fds[1]);
  FrameDecoder d2;
  EXPECT_THROW(read_frame(fds[0], d2), ProtocolError);
  close(fds[0]);
}

}  // namespace
}  // namespace ktune::worker
