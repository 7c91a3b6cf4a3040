#include "ktune/amdgpu/msgpack.h"

#include <gtest/gtest.h>

#include <cmath>
#include <string>

namespace ktune::amdgpu {
namespace {

std::string bytes(std::initializer_list<int> values) {
  std::string out;
  for (int v : values) out.push_back(static_cast<char>(v));
  return out;
}

std::string error_of(const std::string& input) {
  try {
    parse_msgpack(input);
  } catch (const MsgpackError& e) {
    return e.what();
  }
  return "no error";
}

TEST(Msgpack, ScalarsOfEveryWidth) {
  EXPECT_EQ(parse_msgpack(bytes({0x05})), MsgpackValue{std::uint64_t{5}});
  EXPECT_EQ(parse_msgpack(bytes({0xff})), MsgpackValue{std::int64_t{-1}});
  EXPECT_EQ(parse_msgpack(bytes({0xcc, 0xfe})), MsgpackValue{std::uint64_t{254}});
  EXPECT_EQ(parse_msgpack(bytes({0xcd, 0x01, 0x00})), MsgpackValue{std::uint64_t{256}});
  EXPECT_EQ(parse_msgpack(bytes({0xce, 0x00, 0x01, 0x00, 0x00})), MsgpackValue{std::uint64_t{65536}});
  EXPECT_EQ(parse_msgpack(bytes({0xcf, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff})),
            MsgpackValue{std::uint64_t{0xffffffffffffffffull}});
  EXPECT_EQ(parse_msgpack(bytes({0xd0, 0x80})), MsgpackValue{std::int64_t{-128}});
  EXPECT_EQ(parse_msgpack(bytes({0xd1, 0xff, 0x00})), MsgpackValue{std::int64_t{-256}});
  EXPECT_EQ(parse_msgpack(bytes({0xd2, 0xff, 0xff, 0xff, 0xfe})), MsgpackValue{std::int64_t{-2}});
  EXPECT_EQ(parse_msgpack(bytes({0xd3, 0x80, 0, 0, 0, 0, 0, 0, 0})), MsgpackValue{INT64_MIN});
  EXPECT_EQ(parse_msgpack(bytes({0xc0})), MsgpackValue{nullptr});
  EXPECT_EQ(parse_msgpack(bytes({0xc3})), MsgpackValue{true});
  EXPECT_EQ(parse_msgpack(bytes({0xc2})), MsgpackValue{false});
  EXPECT_EQ(parse_msgpack(bytes({0xca, 0x3f, 0xc0, 0x00, 0x00})), MsgpackValue{1.5});
  EXPECT_EQ(parse_msgpack(bytes({0xcb, 0x40, 0x09, 0x21, 0xfb, 0x54, 0x44, 0x2d, 0x18})), MsgpackValue{3.141592653589793});
  EXPECT_EQ(parse_msgpack(bytes({0xa3, 'a', 'b', 'c'})), MsgpackValue{std::string("abc")});
  EXPECT_EQ(parse_msgpack(bytes({0xd9, 0x02, 'h', 'i'})), MsgpackValue{std::string("hi")});
  EXPECT_EQ(parse_msgpack(bytes({0xda, 0x00, 0x01, 'x'})), MsgpackValue{std::string("x")});
  EXPECT_EQ(parse_msgpack(bytes({0xc4, 0x02, 0x00, 0x01})), MsgpackValue{MsgpackBinary{std::string("\0\1", 2)}});
  EXPECT_EQ(parse_msgpack(bytes({0xd4, 0x07, 0x2a})), (MsgpackValue{MsgpackExtension{7, "*"}}));
}

TEST(Msgpack, MapsAndArraysKeepOrderAndNest) {
  // {"b": [1, true], "a": {"x": -3}}
  const std::string doc = bytes({0x82, 0xa1, 'b', 0x92, 0x01, 0xc3, 0xa1, 'a', 0x81, 0xa1, 'x', 0xfd});
  MsgpackValue v = parse_msgpack(doc);
  ASSERT_TRUE(v.is_map());
  ASSERT_EQ(v.as_map()->size(), 2u);
  EXPECT_EQ(*v.as_map()->front().first.as_string(), "b");
  const MsgpackValue* b = v.find("b");
  ASSERT_NE(b, nullptr);
  ASSERT_EQ(b->as_array()->size(), 2u);
  std::int64_t x = 0;
  ASSERT_TRUE(v.find("a")->find("x")->to_int64(x));
  EXPECT_EQ(x, -3);
  EXPECT_EQ(v.find("missing"), nullptr);
  EXPECT_EQ(encode_msgpack(v), doc);
  EXPECT_EQ(to_debug_string(v), "b:\n  - 1\n  - true\na:\n  x: -3\n");
}

TEST(Msgpack, EncodeRoundTripsLargeContainers) {
  MsgpackArray items;
  for (int i = 0; i < 70000; ++i) items.push_back(MsgpackValue{std::uint64_t(i)});
  MsgpackMap map;
  map.emplace_back(MsgpackValue{std::string(300, 'k')}, MsgpackValue{std::move(items)});
  map.emplace_back(MsgpackValue{std::string("neg")}, MsgpackValue{std::int64_t{-1000000}});
  map.emplace_back(MsgpackValue{std::string("f")}, MsgpackValue{0.25});
  // Found by fuzzing: an empty bin must still carry its length byte.
  map.emplace_back(MsgpackValue{std::string("bin")}, MsgpackValue{MsgpackBinary{""}});
  map.emplace_back(MsgpackValue{std::string("ext")}, MsgpackValue{MsgpackExtension{-3, std::string(70000, 'e')}});
  const MsgpackValue v{std::move(map)};
  EXPECT_EQ(parse_msgpack(encode_msgpack(v)), v);
}

TEST(Msgpack, UintAboveInt64DoesNotConvert) {
  std::int64_t out = 0;
  EXPECT_FALSE(parse_msgpack(bytes({0xcf, 0x80, 0, 0, 0, 0, 0, 0, 0})).to_int64(out));
  EXPECT_FALSE(MsgpackValue{std::string("1")}.to_int64(out));
}

TEST(Msgpack, MalformedInputGivesOffsetAndReason) {
  EXPECT_EQ(error_of(""), "MessagePack byte 0: empty input, expected a MessagePack value");
  EXPECT_EQ(error_of(bytes({0xc1})), "MessagePack byte 0: byte 0xc1 is not a MessagePack type (reserved)");
  EXPECT_EQ(error_of(bytes({0xa5, 'a'})), "MessagePack byte 1: string of 5 bytes but only 1 left");
  EXPECT_EQ(error_of(bytes({0xcd, 0x01})), "MessagePack byte 1: truncated uint16: needs 2 bytes, 1 left");
  EXPECT_EQ(error_of(bytes({0x01, 0x02})), "MessagePack byte 1: 1 trailing bytes after the MessagePack value");
  // A forged count must fail before anything is reserved for it.
  EXPECT_EQ(error_of(bytes({0xdd, 0xff, 0xff, 0xff, 0xff, 0x01})),
            "MessagePack byte 0: array announces 4294967295 entries but only 1 bytes are left");
  EXPECT_EQ(error_of(bytes({0xdf, 0x00, 0x00, 0x00, 0x02, 0x01, 0x01, 0x01})),
            "MessagePack byte 0: map announces 2 entries but only 3 bytes are left");
  EXPECT_EQ(error_of(bytes({0xdb, 0xff, 0xff, 0xff, 0xff})),
            "MessagePack byte 5: str32 of 4294967295 bytes but only 0 left");
  EXPECT_EQ(error_of(bytes({0x81, 0xa1, 'k'})), "MessagePack byte 3: truncated value: needs 1 bytes, 0 left");
}

TEST(Msgpack, NestingIsBounded) {
  std::string deep(100, static_cast<char>(0x91));
  deep.push_back(0x00);
  EXPECT_NE(error_of(deep).find("nesting deeper than 64 levels"), std::string::npos);
  std::string ok(64, static_cast<char>(0x91));
  ok.push_back(0x00);
  EXPECT_NO_THROW(parse_msgpack(ok));
  MsgpackLimits limits;
  limits.max_elements = 3;
  EXPECT_THROW(parse_msgpack(bytes({0x93, 0x01, 0x02, 0x03}), limits), MsgpackError);
}

}  // namespace
}  // namespace ktune::amdgpu
