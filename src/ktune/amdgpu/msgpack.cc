#include "ktune/amdgpu/msgpack.h"

#include <bit>
#include <cinttypes>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>

namespace ktune::amdgpu {
namespace {

class Reader {
 public:
  Reader(std::string_view bytes, const MsgpackLimits& limits) : bytes_(bytes), limits_(limits) {}

  MsgpackValue read_document() {
    if (bytes_.empty()) throw MsgpackError(0, "empty input, expected a MessagePack value");
    MsgpackValue value = read(0);
    if (pos_ != bytes_.size()) {
      throw MsgpackError(pos_, std::to_string(bytes_.size() - pos_) + " trailing bytes after the MessagePack value");
    }
    return value;
  }

 private:
  [[noreturn]] void fail(std::size_t at, const std::string& message) const { throw MsgpackError(at, message); }

  std::size_t remaining() const { return bytes_.size() - pos_; }

  void need(std::size_t n, const char* what) const {
    if (remaining() < n) {
      fail(pos_, std::string("truncated ") + what + ": needs " + std::to_string(n) + " bytes, " +
                     std::to_string(remaining()) + " left");
    }
  }

  std::uint64_t big_endian(std::size_t n, const char* what) {
    need(n, what);
    std::uint64_t v = 0;
    for (std::size_t i = 0; i < n; ++i) v = (v << 8) | static_cast<unsigned char>(bytes_[pos_ + i]);
    pos_ += n;
    return v;
  }

  std::string take(std::uint64_t n, const char* what) {
    if (n > remaining()) {
      fail(pos_, std::string(what) + " of " + std::to_string(n) + " bytes but only " + std::to_string(remaining()) +
                     " left");
    }
    std::string out(bytes_.substr(pos_, static_cast<std::size_t>(n)));
    pos_ += static_cast<std::size_t>(n);
    return out;
  }

  void count_element(std::size_t at) {
    if (++elements_ > limits_.max_elements) {
      fail(at, "more than " + std::to_string(limits_.max_elements) + " values in one document");
    }
  }

  // A container announcing n children must have at least n (array) or 2n (map) bytes left:
  // every value takes one byte at least. Checking first keeps a forged count from reserving
  // gigabytes.
  void check_count(std::uint64_t n, std::uint64_t bytes_per_entry, std::size_t at, const char* what) {
    if (n > remaining() / bytes_per_entry) {
      fail(at, std::string(what) + " announces " + std::to_string(n) + " entries but only " +
                   std::to_string(remaining()) + " bytes are left");
    }
  }

  MsgpackValue read_array(std::uint64_t n, int depth, std::size_t at) {
    check_count(n, 1, at, "array");
    MsgpackArray items;
    items.reserve(static_cast<std::size_t>(n));
    for (std::uint64_t i = 0; i < n; ++i) items.push_back(read(depth + 1));
    return MsgpackValue{std::move(items)};
  }

  MsgpackValue read_map(std::uint64_t n, int depth, std::size_t at) {
    check_count(n, 2, at, "map");
    MsgpackMap entries;
    entries.reserve(static_cast<std::size_t>(n));
    for (std::uint64_t i = 0; i < n; ++i) {
      MsgpackValue key = read(depth + 1);
      MsgpackValue value = read(depth + 1);
      entries.emplace_back(std::move(key), std::move(value));
    }
    return MsgpackValue{std::move(entries)};
  }

  MsgpackValue read_ext(std::uint64_t n) {
    need(1, "extension type");
    const auto type = static_cast<std::int8_t>(static_cast<unsigned char>(bytes_[pos_]));
    ++pos_;
    return MsgpackValue{MsgpackExtension{type, take(n, "extension")}};
  }

  MsgpackValue read(int depth) {
    const std::size_t at = pos_;
    if (depth > limits_.max_depth) fail(at, "nesting deeper than " + std::to_string(limits_.max_depth) + " levels");
    need(1, "value");
    count_element(at);
    const auto tag = static_cast<unsigned char>(bytes_[pos_++]);
    if (tag <= 0x7f) return MsgpackValue{std::uint64_t{tag}};
    if (tag >= 0xe0) return MsgpackValue{std::int64_t{static_cast<std::int8_t>(tag)}};
    if ((tag & 0xf0) == 0x80) return read_map(tag & 0x0f, depth, at);
    if ((tag & 0xf0) == 0x90) return read_array(tag & 0x0f, depth, at);
    if ((tag & 0xe0) == 0xa0) return MsgpackValue{take(tag & 0x1f, "string")};
    switch (tag) {
      case 0xc0: return MsgpackValue{nullptr};
      case 0xc2: return MsgpackValue{false};
      case 0xc3: return MsgpackValue{true};
      case 0xc4: return MsgpackValue{MsgpackBinary{take(big_endian(1, "bin8 length"), "bin8")}};
      case 0xc5: return MsgpackValue{MsgpackBinary{take(big_endian(2, "bin16 length"), "bin16")}};
      case 0xc6: return MsgpackValue{MsgpackBinary{take(big_endian(4, "bin32 length"), "bin32")}};
      case 0xc7: return read_ext(big_endian(1, "ext8 length"));
      case 0xc8: return read_ext(big_endian(2, "ext16 length"));
      case 0xc9: return read_ext(big_endian(4, "ext32 length"));
      case 0xca: {
        const auto bits = static_cast<std::uint32_t>(big_endian(4, "float32"));
        return MsgpackValue{static_cast<double>(std::bit_cast<float>(bits))};
      }
      case 0xcb: return MsgpackValue{std::bit_cast<double>(big_endian(8, "float64"))};
      case 0xcc: return MsgpackValue{big_endian(1, "uint8")};
      case 0xcd: return MsgpackValue{big_endian(2, "uint16")};
      case 0xce: return MsgpackValue{big_endian(4, "uint32")};
      case 0xcf: return MsgpackValue{big_endian(8, "uint64")};
      case 0xd0: return MsgpackValue{std::int64_t{static_cast<std::int8_t>(big_endian(1, "int8"))}};
      case 0xd1: return MsgpackValue{std::int64_t{static_cast<std::int16_t>(big_endian(2, "int16"))}};
      case 0xd2: return MsgpackValue{std::int64_t{static_cast<std::int32_t>(big_endian(4, "int32"))}};
      case 0xd3: return MsgpackValue{static_cast<std::int64_t>(big_endian(8, "int64"))};
      case 0xd4: return read_ext(1);
      case 0xd5: return read_ext(2);
      case 0xd6: return read_ext(4);
      case 0xd7: return read_ext(8);
      case 0xd8: return read_ext(16);
      case 0xd9: return MsgpackValue{take(big_endian(1, "str8 length"), "str8")};
      case 0xda: return MsgpackValue{take(big_endian(2, "str16 length"), "str16")};
      case 0xdb: return MsgpackValue{take(big_endian(4, "str32 length"), "str32")};
      case 0xdc: return read_array(big_endian(2, "array16 length"), depth, at);
      case 0xdd: return read_array(big_endian(4, "array32 length"), depth, at);
      case 0xde: return read_map(big_endian(2, "map16 length"), depth, at);
      case 0xdf: return read_map(big_endian(4, "map32 length"), depth, at);
      default: break;
    }
    char hex[8];
    std::snprintf(hex, sizeof hex, "0x%02x", tag);
    fail(at, std::string("byte ") + hex + " is not a MessagePack type (reserved)");
  }

  std::string_view bytes_;
  MsgpackLimits limits_;
  std::size_t pos_ = 0;
  std::size_t elements_ = 0;
};

void put_big_endian(std::string& out, std::uint64_t v, int n) {
  for (int i = n - 1; i >= 0; --i) out.push_back(static_cast<char>((v >> (8 * i)) & 0xff));
}

void put_length(std::string& out, std::size_t n, unsigned char fix_tag, std::size_t fix_max, unsigned char tag8,
                unsigned char tag16, unsigned char tag32) {
  if (n <= fix_max) {
    out.push_back(static_cast<char>(fix_tag | n));
  } else if (tag8 != 0 && n <= 0xff) {
    out.push_back(static_cast<char>(tag8));
    put_big_endian(out, n, 1);
  } else if (n <= 0xffff) {
    out.push_back(static_cast<char>(tag16));
    put_big_endian(out, n, 2);
  } else {
    out.push_back(static_cast<char>(tag32));
    put_big_endian(out, n, 4);
  }
}

void encode(const MsgpackValue& v, std::string& out) {
  std::visit(
      [&](const auto& x) {
        using T = std::decay_t<decltype(x)>;
        if constexpr (std::is_same_v<T, std::nullptr_t>) {
          out.push_back(static_cast<char>(0xc0));
        } else if constexpr (std::is_same_v<T, bool>) {
          out.push_back(static_cast<char>(x ? 0xc3 : 0xc2));
        } else if constexpr (std::is_same_v<T, std::uint64_t>) {
          if (x <= 0x7f) {
            out.push_back(static_cast<char>(x));
          } else if (x <= 0xff) {
            out.push_back(static_cast<char>(0xcc));
            put_big_endian(out, x, 1);
          } else if (x <= 0xffff) {
            out.push_back(static_cast<char>(0xcd));
            put_big_endian(out, x, 2);
          } else if (x <= 0xffffffffu) {
            out.push_back(static_cast<char>(0xce));
            put_big_endian(out, x, 4);
          } else {
            out.push_back(static_cast<char>(0xcf));
            put_big_endian(out, x, 8);
          }
        } else if constexpr (std::is_same_v<T, std::int64_t>) {
          if (x >= -32 && x < 0) {
            out.push_back(static_cast<char>(static_cast<std::int8_t>(x)));
          } else {
            out.push_back(static_cast<char>(0xd3));
            put_big_endian(out, static_cast<std::uint64_t>(x), 8);
          }
        } else if constexpr (std::is_same_v<T, double>) {
          out.push_back(static_cast<char>(0xcb));
          put_big_endian(out, std::bit_cast<std::uint64_t>(x), 8);
        } else if constexpr (std::is_same_v<T, std::string>) {
          put_length(out, x.size(), 0xa0, 31, 0xd9, 0xda, 0xdb);
          out += x;
        } else if constexpr (std::is_same_v<T, MsgpackBinary>) {
          // bin has no fix form: bin8/bin16/bin32 always carry a length.
          const std::size_t n = x.bytes.size();
          const int width = n <= 0xff ? 1 : n <= 0xffff ? 2 : 4;
          out.push_back(static_cast<char>(width == 1 ? 0xc4 : width == 2 ? 0xc5 : 0xc6));
          put_big_endian(out, n, width);
          out += x.bytes;
        } else if constexpr (std::is_same_v<T, MsgpackArray>) {
          put_length(out, x.size(), 0x90, 15, 0, 0xdc, 0xdd);
          for (const auto& item : x) encode(item, out);
        } else if constexpr (std::is_same_v<T, MsgpackMap>) {
          put_length(out, x.size(), 0x80, 15, 0, 0xde, 0xdf);
          for (const auto& [key, value] : x) {
            encode(key, out);
            encode(value, out);
          }
        } else if constexpr (std::is_same_v<T, MsgpackExtension>) {
          const std::size_t n = x.bytes.size();
          const int width = n <= 0xff ? 1 : n <= 0xffff ? 2 : 4;
          out.push_back(static_cast<char>(width == 1 ? 0xc7 : width == 2 ? 0xc8 : 0xc9));
          put_big_endian(out, n, width);
          out.push_back(static_cast<char>(x.type));
          out += x.bytes;
        }
      },
      v.value);
}

void debug(const MsgpackValue& v, int indent, std::string& out) {
  const std::string pad(static_cast<std::size_t>(indent) * 2, ' ');
  if (const auto* map = v.as_map()) {
    if (map->empty()) out += "{}\n";
    else if (indent > 0) out += "\n";
    for (const auto& [key, value] : *map) {
      out += pad;
      if (const auto* s = key.as_string()) out += *s;
      else out += "<" + std::string(key.type_name()) + " key>";
      out += ":";
      if (!value.is_map() && !value.is_array()) out += " ";
      debug(value, indent + 1, out);
    }
    return;
  }
  if (const auto* array = v.as_array()) {
    if (array->empty()) out += "[]\n";
    else if (indent > 0) out += "\n";
    for (const auto& item : *array) {
      out += pad + "-";
      if (!item.is_map() && !item.is_array()) out += " ";
      debug(item, indent + 1, out);
    }
    return;
  }
  std::visit(
      [&](const auto& x) {
        using T = std::decay_t<decltype(x)>;
        if constexpr (std::is_same_v<T, std::nullptr_t>) out += "~";
        else if constexpr (std::is_same_v<T, bool>) out += x ? "true" : "false";
        else if constexpr (std::is_same_v<T, std::int64_t> || std::is_same_v<T, std::uint64_t>) out += std::to_string(x);
        else if constexpr (std::is_same_v<T, double>) {
          char buffer[40];
          std::snprintf(buffer, sizeof buffer, "%.17g", x);
          out += buffer;
        } else if constexpr (std::is_same_v<T, std::string>) {
          out += x;
        } else if constexpr (std::is_same_v<T, MsgpackBinary>) {
          out += "<" + std::to_string(x.bytes.size()) + " binary bytes>";
        } else if constexpr (std::is_same_v<T, MsgpackExtension>) {
          out += "<extension " + std::to_string(x.type) + ", " + std::to_string(x.bytes.size()) + " bytes>";
        }
      },
      v.value);
  out += "\n";
}

}  // namespace

MsgpackError::MsgpackError(std::size_t offset, const std::string& message)
    : std::runtime_error("MessagePack byte " + std::to_string(offset) + ": " + message), offset_(offset) {}

bool MsgpackValue::is_integer() const {
  return std::holds_alternative<std::int64_t>(value) || std::holds_alternative<std::uint64_t>(value);
}

bool MsgpackValue::to_int64(std::int64_t& out) const {
  if (const auto* s = std::get_if<std::int64_t>(&value)) {
    out = *s;
    return true;
  }
  if (const auto* u = std::get_if<std::uint64_t>(&value)) {
    if (*u > static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max())) return false;
    out = static_cast<std::int64_t>(*u);
    return true;
  }
  return false;
}

const MsgpackValue* MsgpackValue::find(std::string_view key) const {
  const auto* map = as_map();
  if (map == nullptr) return nullptr;
  for (const auto& [k, v] : *map) {
    if (const auto* s = k.as_string(); s != nullptr && *s == key) return &v;
  }
  return nullptr;
}

const char* MsgpackValue::type_name() const {
  switch (value.index()) {
    case 0: return "nil";
    case 1: return "bool";
    case 2: return "int";
    case 3: return "uint";
    case 4: return "float";
    case 5: return "string";
    case 6: return "binary";
    case 7: return "array";
    case 8: return "map";
    case 9: return "extension";
  }
  return "?";
}

MsgpackValue parse_msgpack(std::string_view bytes, const MsgpackLimits& limits) {
  return Reader(bytes, limits).read_document();
}

std::string encode_msgpack(const MsgpackValue& value) {
  std::string out;
  encode(value, out);
  return out;
}

std::string to_debug_string(const MsgpackValue& value) {
  std::string out;
  debug(value, 0, out);
  return out;
}

}  // namespace ktune::amdgpu
