#include "ktune/device/registry.h"

#include <functional>

#include "ktune/device/cpu/cpu_backend.h"
#include "ktune/device/cuda/cuda_backend.h"
#include "ktune/device/hip/hip_backend.h"

namespace ktune::device {
namespace {

struct Entry {
  std::string_view name;
  std::function<std::unique_ptr<Backend>()> make;
};

// A new backend adds one line here and its sources to CMakeLists.txt.
const std::vector<Entry>& entries() {
  static const std::vector<Entry> list = {
      {"cpu", [] { return std::make_unique<cpu::CpuBackend>(); }},
      {"cuda", [] { return std::make_unique<cuda::CudaBackend>(); }},
      {"hip", [] { return std::make_unique<hip::HipBackend>(); }},
  };
  return list;
}

}  // namespace

std::vector<std::string> backend_names() {
  std::vector<std::string> names;
  for (const auto& e : entries()) names.emplace_back(e.name);
  return names;
}

std::vector<std::unique_ptr<Backend>> all_backends() {
  std::vector<std::unique_ptr<Backend>> backends;
  for (const auto& e : entries()) backends.push_back(e.make());
  return backends;
}

std::unique_ptr<Backend> make_backend(std::string_view name) {
  std::string known;
  for (const auto& e : entries()) {
    if (e.name == name) return e.make();
    known += (known.empty() ? "" : ", ") + std::string(e.name);
  }
  throw DeviceError("unknown backend '" + std::string(name) + "' (known: " + known + ")");
}

}  // namespace ktune::device
