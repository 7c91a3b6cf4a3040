#include <gtest/gtest.h>

#include <vector>

#include "ktune/core/config.h"
#include "ktune/core/element_type.h"
#include "ktune/core/sha256.h"
#include "ktune/core/source_error.h"
#include "ktune/core/value.h"

namespace ktune {
namespace {

TEST(Sha256, KnownVectors) {
  EXPECT_EQ(sha256_hex(""), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  EXPECT_EQ(sha256_hex("abc"), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  EXPECT_EQ(sha256_hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"),
            "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
  std::string million(1000000, 'a');
  EXPECT_EQ(sha256_hex(million), "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
}

TEST(Value, LiteralsAndText) {
  EXPECT_EQ(Value::parse_literal("64"), Value::integer(64));
  EXPECT_EQ(Value::parse_literal("-3"), Value::integer(-3));
  EXPECT_EQ(Value::parse_literal("0.5"), Value::real(0.5));
  EXPECT_EQ(Value::parse_literal("true"), Value::boolean(true));
  EXPECT_EQ(Value::parse_literal("row"), Value::string("row"));
  EXPECT_EQ(Value::real(2.0).to_string(), "2.0");
  EXPECT_EQ(Value::parse_literal(Value::real(0.1).to_string()), Value::real(0.1));
  EXPECT_EQ(Value::real(4.0).as_int(), 4);
  EXPECT_THROW((void)Value::real(4.5).as_int(), ValueTypeError);
  EXPECT_THROW((void)Value::string("x").as_double(), ValueTypeError);
  EXPECT_LT(Value::integer(2), Value::real(2.5));
}

TEST(Config, KeyRoundTrip) {
  Config c{{"BN", Value::integer(128)}, {"BM", Value::integer(64)}, {"layout", Value::string("row")},
           {"alpha", Value::real(0.5)}, {"vec", Value::boolean(true)}};
  EXPECT_EQ(config_key(c), "BM=64,BN=128,alpha=0.5,layout=row,vec=true");
  EXPECT_EQ(config_from_key(config_key(c)), c);
  EXPECT_EQ(config_from_json(config_to_json(c)), c);
  EXPECT_THROW(config_from_key("a=1,oops"), std::invalid_argument);
}

TEST(ElementType, RoundTripsAndNames) {
  EXPECT_EQ(parse_element_type("float"), ElementType::F32);
  EXPECT_EQ(parse_element_type("bf16"), ElementType::BF16);
  EXPECT_FALSE(parse_element_type("complex").has_value());
  std::vector<unsigned char> buf(64);
  for (ElementType t : {ElementType::F16, ElementType::BF16, ElementType::F32, ElementType::F64,
                        ElementType::I8, ElementType::I32, ElementType::U64}) {
    store_element(buf.data(), 3, t, 1.5 * (is_floating(t) ? 1 : 2));
    EXPECT_EQ(load_element(buf.data(), 3, t), is_floating(t) ? 1.5 : 3.0) << element_type_name(t);
  }
  store_element(buf.data(), 0, ElementType::F16, 65504.0);
  EXPECT_EQ(load_element(buf.data(), 0, ElementType::F16), 65504.0);
  store_element(buf.data(), 0, ElementType::BF16, 1.0 / 3.0);
  EXPECT_NEAR(load_element(buf.data(), 0, ElementType::BF16), 1.0 / 3.0, 1e-2);
}

TEST(SourceError, FormatsLocation) {
  SourceError e("spec.yaml", 12, 5, "unknown key 'x'");
  EXPECT_STREQ(e.what(), "spec.yaml:12:5: unknown key 'x'");
}

}  // namespace
}  // namespace ktune
