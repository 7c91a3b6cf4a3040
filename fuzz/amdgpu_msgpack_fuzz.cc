// Feeds arbitrary bytes to the MessagePack reader and, when they parse, to the AMDGPU
// metadata interpreter. MsgpackError / MetadataError are the expected failures. A document
// that parses must survive a round trip: encode(parse(x)) parses back to the same value.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <string>
#include <string_view>

#include "ktune/amdgpu/kernel_metadata.h"
#include "ktune/amdgpu/msgpack.h"

namespace {

[[noreturn]] void bug(const char* what, const std::string& detail) {
  std::fprintf(stderr, "amdgpu_msgpack_fuzz: %s: %s\n", what, detail.c_str());
  std::abort();
}

bool same(const ktune::amdgpu::MsgpackValue& a, const ktune::amdgpu::MsgpackValue& b) {
  // NaN payloads compare unequal to themselves; compare encodings instead of values.
  return ktune::amdgpu::encode_msgpack(a) == ktune::amdgpu::encode_msgpack(b);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace ktune::amdgpu;
  const std::string_view bytes(reinterpret_cast<const char*>(data), size);
  MsgpackValue value;
  try {
    value = parse_msgpack(bytes);
  } catch (const MsgpackError& e) {
    if (e.offset() > size) bug("error offset past the input", e.what());
    return 0;
  } catch (const std::exception& e) {
    bug("unexpected exception from parse_msgpack", e.what());
  }
  try {
    const MsgpackValue again = parse_msgpack(encode_msgpack(value));
    if (!same(again, value)) bug("round trip changed the value", to_debug_string(value));
  } catch (const std::exception& e) {
    bug("re-encoded document does not parse", e.what());
  }
  (void)to_debug_string(value);
  try {
    const CodeObjectMetadata md = metadata_from_msgpack(value);
    (void)to_json(md).dump();
  } catch (const MetadataError&) {
  } catch (const std::exception& e) {
    bug("unexpected exception from metadata_from_msgpack", e.what());
  }
  return 0;
}
