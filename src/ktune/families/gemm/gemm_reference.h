#pragma once
// Inputs and the fp64 reference of a GEMM, and the check of a GPU result against it.
//
// Inputs are random, never zero: each element is a random sign times a magnitude uniform in
// [1/16, 1), rounded to the input storage (timing on zeros flatters kernels, and zero-mean
// data keeps the error model in gemm_numeric.h honest). The same seed gives the same bytes on
// every machine (std::mt19937_64 per 2^20-element chunk, ktune's own mapping to [0, 1)).
//
// The reference is exact in fp64 for the stored inputs. Two modes:
//   full     every output element; blocked and multithreaded, used when batch*M*N*K <= 2^31
//            and batch*M*N <= 2^22 (about a second for 1000^3 on a few cores);
//   sampled  a random subset of output elements, each a fp64 dot product, plus the corners
//            and the last row and column of every batch (edges are where tiling bugs live).
//            The whole output is still scanned for unwritten (poisoned) and non-finite values,
//            so a skipped tile is caught even where no sample falls.

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "ktune/families/gemm/gemm_numeric.h"
#include "ktune/families/gemm/gemm_problem.h"

namespace ktune::gemm {

// An allocator whose resize() leaves new elements uninitialized (default-initialized): the
// operands are written right after on every core, which then also touches their pages first;
// zeroing 2 x 128 MB on one thread before that (8192^2 bf16) cost ~0.2 s of every cold session.
template <typename T>
struct DefaultInitAllocator : std::allocator<T> {
  template <typename U>
  struct rebind {
    using other = DefaultInitAllocator<U>;
  };
  using std::allocator<T>::allocator;
  template <typename U>
  void construct(U* p) noexcept(std::is_nothrow_default_constructible_v<U>) {
    ::new (static_cast<void*>(p)) U;
  }
  template <typename U, typename... Args>
  void construct(U* p, Args&&... args) {
    ::new (static_cast<void*>(p)) U(std::forward<Args>(args)...);
  }
};
using HostBytes = std::vector<std::byte, DefaultInitAllocator<std::byte>>;

struct GemmOperands {
  HostBytes a, b;  // input storage, batch * M * K and batch * K * N elements
  HostBytes c;     // output storage, batch * M * N; empty when beta == 0
  HostBytes bias;  // bias storage, N elements; empty without bias
  std::uint64_t seed = 0;
};

// Throws GemmError when the problem is invalid; std::bad_alloc when the host cannot hold it.
GemmOperands make_operands(const GemmProblem& problem, std::uint64_t seed, int threads = 0);

enum class ReferenceMode { Auto, Full, Sampled };
std::string_view reference_mode_name(ReferenceMode mode);  // "auto", "full", "sampled"
std::optional<ReferenceMode> parse_reference_mode(std::string_view name);

struct ReferenceOptions {
  ReferenceMode mode = ReferenceMode::Auto;
  // Sampled mode: random elements in addition to the edges; 0 -> clamp(2^28 / K, 4096, 65536).
  std::size_t samples = 0;
  std::uint64_t seed = 0x5eed;  // which elements are sampled
  int threads = 0;              // 0 -> hardware concurrency
};

struct ReferenceElement {
  std::int64_t index = 0;  // into D (batch * M * N, row-major per batch)
  double value = 0;        // act(pre)
  double pre = 0;          // alpha * sum + beta * C + bias
  double abs_products = 0; // S = |alpha| * sum |A B|
  double abs_addends = 0;  // E = |beta C| + |bias|
};

struct GemmReference {
  ReferenceMode mode = ReferenceMode::Full;  // Full or Sampled, never Auto
  std::vector<ReferenceElement> elements;    // Full: every element in index order
  double seconds = 0;                        // time it took
};

// Whether Auto picks the full reference for this problem.
bool full_reference_fits(const GemmProblem& problem);

// The reference of D. Throws GemmError when the operands do not match the problem.
GemmReference compute_reference(const GemmProblem& problem, const GemmOperands& operands,
                                const ReferenceOptions& options = {});

// The exact element (bi, i, j) (exposed for tests and for spot checks).
ReferenceElement reference_element(const GemmProblem& problem, const GemmOperands& operands, std::int64_t bi,
                                   std::int64_t i, std::int64_t j);

struct GemmCheck {
  bool pass = false;
  std::string mode;             // "full" or "sampled"
  std::size_t scanned = 0;      // elements scanned for poison / non-finite values (all of D)
  bool on_device = false;       // scanned and sampled on the GPU, only the samples copied back
  std::size_t checked = 0;      // elements compared with the reference
  std::size_t mismatches = 0;   // compared elements outside their bound
  std::size_t unwritten = 0;    // elements still holding the poison pattern (anywhere in D)
  std::size_t non_finite = 0;   // NaN or infinity written by the kernel (anywhere in D)
  double max_abs_error = 0;     // over compared finite elements
  double max_error_ratio = 0;   // max |out - ref| / bound: < 1 passes; how much slack is left
  double max_rel_l2 = 0;        // ||out - ref|| / ||ref|| over the compared elements
  struct Mismatch {
    std::int64_t batch = 0, row = 0, col = 0;
    double expected = 0, actual = 0, bound = 0;
    bool unwritten = false;
  };
  std::optional<Mismatch> first;  // first failing element (compared or scanned)

  std::string summary() const;     // "pass: ..." / "FAIL: ..." in one line
  nlohmann::json to_json() const;  // non-finite numbers as strings
};

struct CheckOptions {
  // r when the candidate reduces r split-K partial sums in the output type (see ErrorModel).
  int split_partials = 0;
};

// Compares `d` (the kernel's D, output storage) with the reference. The output must have been
// poisoned before the run (verify::poison) for unwritten elements to be told apart. Throws
// GemmError when `d` has the wrong size.
GemmCheck check_output(const GemmProblem& problem, const GemmReference& reference, std::span<const std::byte> d,
                       const CheckOptions& options = {});

// The check when D was scanned on the device and found clean (no element with all exponent
// bits set: no poison, NaN or infinity anywhere), and only the reference's elements were copied
// back: `values` holds them in the reference's order, in output storage.
GemmCheck check_sampled_values(const GemmProblem& problem, const GemmReference& reference,
                               std::span<const std::byte> values, const CheckOptions& options = {});

// Fills `d` (output storage) with the poison pattern of verify/poison.h; fp8 outputs get 0x7F
// (NaN) everywhere.
void poison_output(const GemmProblem& problem, std::span<std::byte> d);

}  // namespace ktune::gemm
