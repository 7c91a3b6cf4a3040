#include "ktune/iree/npy.h"

#include <fstream>
#include <regex>
#include <sstream>

namespace ktune::iree {

std::size_t NpyArray::element_count() const {
  std::size_t n = 1;
  for (std::int64_t d : shape) n *= static_cast<std::size_t>(d);
  return n;
}

std::string npy_descriptor(ElementType type) {
  switch (type) {
    case ElementType::F16: return "<f2";
    case ElementType::BF16: return "|V2";
    case ElementType::F32: return "<f4";
    case ElementType::F64: return "<f8";
    case ElementType::I8: return "|i1";
    case ElementType::U8: return "|u1";
    case ElementType::I16: return "<i2";
    case ElementType::U16: return "<u2";
    case ElementType::I32: return "<i4";
    case ElementType::U32: return "<u4";
    case ElementType::I64: return "<i8";
    case ElementType::U64: return "<u8";
  }
  return "<f4";
}

void write_npy(const std::filesystem::path& path, const NpyArray& a) {
  std::string shape = "(";
  for (std::int64_t d : a.shape) shape += std::to_string(d) + ", ";
  if (a.shape.size() > 1) shape.resize(shape.size() - 2);
  else if (a.shape.size() == 1) shape.resize(shape.size() - 1);
  shape += ")";
  std::string header = "{'descr': '" + npy_descriptor(a.type) + "', 'fortran_order': False, 'shape': " + shape + ", }";
  // Magic (6) + version (2) + length (2) + header + '\n', padded to a multiple of 64.
  const std::size_t unpadded = 10 + header.size() + 1;
  header.append((64 - unpadded % 64) % 64, ' ');
  header += '\n';
  std::ofstream out(path, std::ios::binary);
  if (!out) throw NpyError(path.string() + ": cannot be written");
  out.write("\x93NUMPY\x01\x00", 8);
  const auto len = static_cast<std::uint16_t>(header.size());
  const char len_bytes[2] = {static_cast<char>(len & 0xff), static_cast<char>(len >> 8)};
  out.write(len_bytes, 2);
  out << header;
  out.write(reinterpret_cast<const char*>(a.data.data()), static_cast<std::streamsize>(a.data.size()));
  if (!out) throw NpyError(path.string() + ": write failed");
}

NpyArray read_npy(const std::filesystem::path& path, ElementType void2_as) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw NpyError(path.string() + ": cannot be read");
  std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (bytes.size() < 10 || bytes.compare(0, 6, "\x93NUMPY") != 0) throw NpyError(path.string() + ": not a .npy file");
  const int major = static_cast<unsigned char>(bytes[6]);
  std::size_t header_len = 0, offset = 0;
  if (major == 1) {
    header_len = static_cast<unsigned char>(bytes[8]) | (static_cast<std::size_t>(static_cast<unsigned char>(bytes[9])) << 8);
    offset = 10;
  } else if (major == 2 || major == 3) {
    if (bytes.size() < 12) throw NpyError(path.string() + ": truncated header");
    for (int i = 3; i >= 0; --i) header_len = (header_len << 8) | static_cast<unsigned char>(bytes[8 + static_cast<std::size_t>(i)]);
    offset = 12;
  } else {
    throw NpyError(path.string() + ": unsupported .npy version " + std::to_string(major));
  }
  if (offset + header_len > bytes.size()) throw NpyError(path.string() + ": truncated header");
  const std::string header = bytes.substr(offset, header_len);
  std::smatch m;
  if (!std::regex_search(header, m, std::regex(R"('descr'\s*:\s*'([^']+)')")))
    throw NpyError(path.string() + ": header has no 'descr': " + header);
  const std::string descr = m[1].str();
  if (std::regex_search(header, std::regex(R"('fortran_order'\s*:\s*True)")))
    throw NpyError(path.string() + ": Fortran order is not supported");
  if (!std::regex_search(header, m, std::regex(R"('shape'\s*:\s*\(([^)]*)\))")))
    throw NpyError(path.string() + ": header has no 'shape': " + header);
  NpyArray a;
  std::stringstream dims(m[1].str());
  std::string dim;
  while (std::getline(dims, dim, ','))
    if (dim.find_first_not_of(" ") != std::string::npos) a.shape.push_back(std::stoll(dim));
  bool found = false;
  for (ElementType t : {ElementType::F16, ElementType::F32, ElementType::F64, ElementType::I8, ElementType::U8,
                        ElementType::I16, ElementType::U16, ElementType::I32, ElementType::U32, ElementType::I64,
                        ElementType::U64})
    if (npy_descriptor(t) == descr || (npy_descriptor(t).substr(1) == descr.substr(1) && descr[0] == '=')) {
      a.type = t;
      found = true;
    }
  if (!found && (descr == "|V2" || descr == "<V2")) a.type = void2_as, found = true;
  if (!found) throw NpyError(path.string() + ": unsupported dtype '" + descr + "'");
  const std::size_t data_bytes = a.element_count() * element_size(a.type);
  if (bytes.size() - offset - header_len < data_bytes)
    throw NpyError(path.string() + ": holds " + std::to_string(bytes.size() - offset - header_len) + " bytes of data, its shape needs " +
                   std::to_string(data_bytes));
  const auto* begin = reinterpret_cast<const std::byte*>(bytes.data() + offset + header_len);
  a.data.assign(begin, begin + data_bytes);
  return a;
}

NpyArray read_raw(const std::filesystem::path& path, ElementType type) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw NpyError(path.string() + ": cannot be read");
  const std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const std::size_t size = element_size(type);
  if (bytes.size() % size != 0)
    throw NpyError(path.string() + ": " + std::to_string(bytes.size()) + " bytes are not a whole number of " +
                   std::string(element_type_name(type)) + " elements");
  NpyArray a;
  a.type = type;
  a.shape = {static_cast<std::int64_t>(bytes.size() / size)};
  const auto* begin = reinterpret_cast<const std::byte*>(bytes.data());
  a.data.assign(begin, begin + bytes.size());
  return a;
}

}  // namespace ktune::iree
