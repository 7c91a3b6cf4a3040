#pragma once
// Kernels that check a candidate's run on the device, so that only a summary crosses PCIe:
// output against reference (verify::compare's rules), buffer against buffer (an input against
// its pristine copy), and guard bands against their canary. Compiled once with NVRTC per
// architecture and cached on disk beside the blocking kernel.

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>

#include "ktune/core/element_type.h"
#include "ktune/device/cuda/cuda_context.h"
#include "ktune/verify/compare.h"
#include "ktune/verify/tolerance.h"

namespace ktune::device::cuda {

// The CUDA C++ source of the check kernels (exposed for tests).
const char* check_kernels_source();

// The CUBIN for `source` on `arch`, from `cache_dir` or compiled with NVRTC and stored there.
// Throws DeviceError when NVRTC fails.
std::string cached_cubin(const ktune::cuda::NvrtcCompiler& nvrtc, const std::filesystem::path& cache_dir,
                         const std::string& source, const std::string& program_name, const std::string& arch,
                         const std::string& suffix);

// What the compare kernel sums up. rel_l2 from plain double sums of squares; `decided` is
// false when those sums left the double range (then the host scan must decide).
struct DeviceComparison {
  verify::Comparison comparison;
  bool decided = true;
};

struct MaskedCount {
  std::size_t count = 0;
  std::optional<std::size_t> first;  // lowest index counted
};

class CheckKernels {
 public:
  // Throws DeviceError when the kernels cannot be compiled or loaded.
  CheckKernels(std::shared_ptr<CudaDeviceContext> context, const ktune::cuda::NvrtcCompiler& nvrtc,
               const std::filesystem::path& cache_dir);
  ~CheckKernels();
  CheckKernels(const CheckKernels&) = delete;
  CheckKernels& operator=(const CheckKernels&) = delete;

  // verify::compare over n elements at out and ref (same type) without the first-mismatch
  // details (a failing comparison should be repeated on the host for them).
  DeviceComparison compare(ktune::cuda::CUdeviceptr out, ktune::cuda::CUdeviceptr ref, std::size_t n, ElementType type,
                           const verify::Tolerance& tolerance);
  // Index of the first differing 32-bit word among `words` words, if any.
  std::optional<std::size_t> first_different_word(ktune::cuda::CUdeviceptr a, ktune::cuda::CUdeviceptr b,
                                                  std::size_t words);
  // Number of 32-bit words among `words` at p that differ from `pattern`.
  std::size_t count_not_equal(ktune::cuda::CUdeviceptr p, std::size_t words, std::uint32_t pattern);
  // Elements (of 2 or 4 bytes) among n at p with every bit of `mask` set: with a float's
  // exponent bits, the NaNs, infinities and poison patterns of an output.
  MaskedCount count_masked(ktune::cuda::CUdeviceptr p, std::size_t n, int element_bytes, std::uint32_t mask);
  // out[i] = p[indices[i]] for n elements of 2 or 4 bytes; indices are int64 on the device.
  void gather(ktune::cuda::CUdeviceptr p, int element_bytes, ktune::cuda::CUdeviceptr indices, std::size_t n,
              ktune::cuda::CUdeviceptr out);

 private:
  void launch(ktune::cuda::CUfunction f, std::size_t work_items, void** params, const char* what);
  void read_result(void* host, std::size_t bytes);
  std::shared_ptr<CudaDeviceContext> context_;
  ktune::cuda::CUmodule module_ = nullptr;
  ktune::cuda::CUfunction compare_[12] = {};
  ktune::cuda::CUfunction first_diff_ = nullptr;
  ktune::cuda::CUfunction count_ne_ = nullptr;
  ktune::cuda::CUfunction count_masked_[2] = {};  // 16-bit, 32-bit elements
  ktune::cuda::CUfunction gather_[2] = {};
  ktune::cuda::CUdeviceptr result_ = 0;  // 128 bytes of results, zeroed before each check
  int blocks_limit_ = 1024;
};

}  // namespace ktune::device::cuda
