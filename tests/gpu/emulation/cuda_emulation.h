#pragma once
// Runs CUDA C++ kernels on the CPU, one fiber per CUDA thread, so that the examples' index
// arithmetic, barriers, warp shuffles and cross-block protocols can be checked on machines
// without a GPU (cuda_examples_emulated_test). Blocks run one after another; inside a block
// the threads run cooperatively and switch only at __syncthreads() and warp shuffles, in an
// order shuffled at every barrier so that a missing barrier shows up as a wrong result.
//
// Not a simulator: no memory model, no timing, no divergence rules beyond "every live thread
// of the block (or warp) must reach the same barrier". A deadlock (threads waiting at
// different barriers) aborts with a message. Supported: the subset the examples use.

#include <ucontext.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <random>
#include <vector>

namespace cuda_emu {

struct uint3 {
  unsigned x = 0, y = 0, z = 0;
};
using dim3 = uint3;

struct alignas(8) float2_t {
  float x, y;
};
struct alignas(16) float4_t {
  float x, y, z, w;
};

// Dynamic shared memory (extern __shared__ arrays alias it). 228 KiB: the most any GPU has.
alignas(16) inline unsigned char dynamic_shared[228 * 1024];

class Block {
 public:
  enum class State { Runnable, AtBlockBarrier, AtWarpBarrier, Done };
  struct Fiber {
    ucontext_t context;
    uint3 thread_idx;
    int warp = 0;
    int lane = 0;
    State state = State::Runnable;
  };

  static Block*& current() {
    static Block* block = nullptr;
    return block;
  }
  Fiber& self() { return fibers_[running_]; }

  uint3 grid_dim, block_dim, block_idx;
  float warp_exchange[32][32];  // [warp][lane], for shuffles

  // Yields to the scheduler until every live thread of the block (or of this thread's warp)
  // has arrived.
  void block_barrier() { wait(State::AtBlockBarrier); }
  void warp_barrier() { wait(State::AtWarpBarrier); }

  template <class Kernel>
  static void launch(uint3 grid, uint3 block, Kernel&& kernel, std::uint64_t seed = 1) {
    const std::size_t threads = std::size_t{block.x} * block.y * block.z;
    if (threads == 0 || threads > 1024 || grid.x == 0 || grid.y == 0 || grid.z == 0) {
      std::fprintf(stderr, "cuda_emu: invalid launch: grid %u x %u x %u, block %u x %u x %u\n", grid.x, grid.y,
                   grid.z, block.x, block.y, block.z);
      std::abort();
    }
    Block b(grid, block, seed);
    Block* previous = current();
    current() = &b;
    for (unsigned z = 0; z < grid.z; ++z)
      for (unsigned y = 0; y < grid.y; ++y)
        for (unsigned x = 0; x < grid.x; ++x) b.run_block({x, y, z}, kernel);
    current() = previous;
  }

 private:
  static constexpr std::size_t kStackBytes = 256 * 1024;

  Block(uint3 grid, uint3 block, std::uint64_t seed) : grid_dim(grid), block_dim(block), rng_(seed) {
    const std::size_t threads = std::size_t{block.x} * block.y * block.z;
    fibers_.resize(threads);
    stacks_.resize(threads);
    for (auto& s : stacks_) s = std::make_unique<unsigned char[]>(kStackBytes);
    order_.resize(threads);
    for (std::size_t i = 0; i < threads; ++i) order_[i] = i;
  }

  template <class Kernel>
  static void entry(unsigned low, unsigned high) {
    Kernel* kernel = reinterpret_cast<Kernel*>((std::uintptr_t{high} << 32) | std::uintptr_t{low});
    Block* b = current();
    (*kernel)();
    b->self().state = State::Done;
    swapcontext(&b->self().context, &b->scheduler_);
  }

  template <class Kernel>
  void run_block(uint3 block_index, Kernel& kernel) {
    block_idx = block_index;
    const auto address = reinterpret_cast<std::uintptr_t>(&kernel);
    for (std::size_t i = 0; i < fibers_.size(); ++i) {
      Fiber& f = fibers_[i];
      f.thread_idx = {static_cast<unsigned>(i % block_dim.x), static_cast<unsigned>(i / block_dim.x % block_dim.y),
                      static_cast<unsigned>(i / (std::size_t{block_dim.x} * block_dim.y))};
      f.warp = static_cast<int>(i / 32);
      f.lane = static_cast<int>(i % 32);
      f.state = State::Runnable;
      getcontext(&f.context);
      f.context.uc_stack.ss_sp = stacks_[i].get();
      f.context.uc_stack.ss_size = kStackBytes;
      f.context.uc_link = nullptr;
      makecontext(&f.context, reinterpret_cast<void (*)()>(&entry<Kernel>), 2, static_cast<unsigned>(address & 0xffffffffu),
                  static_cast<unsigned>(address >> 32));
    }
    for (;;) {
      bool ran = false;
      std::shuffle(order_.begin(), order_.end(), rng_);
      for (std::size_t i : order_) {
        if (fibers_[i].state != State::Runnable) continue;
        running_ = i;
        ran = true;
        swapcontext(&scheduler_, &fibers_[i].context);
      }
      if (ran) continue;
      if (release()) continue;
      break;
    }
    for (const auto& f : fibers_)
      if (f.state != State::Done) {
        std::fprintf(stderr, "cuda_emu: deadlock in block (%u, %u, %u): threads wait at different barriers\n",
                     block_idx.x, block_idx.y, block_idx.z);
        std::abort();
      }
  }

  void wait(State state) {
    Fiber& f = self();
    f.state = state;
    swapcontext(&f.context, &scheduler_);
  }

  // Releases a barrier that every live thread of its scope has reached. False when none can be.
  bool release() {
    bool block_ready = true;
    bool any_waiting = false;
    for (const auto& f : fibers_) {
      if (f.state == State::Done) continue;
      any_waiting = true;
      if (f.state != State::AtBlockBarrier) block_ready = false;
    }
    if (!any_waiting) return false;
    if (block_ready) {
      for (auto& f : fibers_)
        if (f.state == State::AtBlockBarrier) f.state = State::Runnable;
      return true;
    }
    bool released = false;
    for (std::size_t w = 0; w * 32 < fibers_.size(); ++w) {
      bool ready = false;
      bool blocked = false;
      for (std::size_t i = w * 32; i < std::min(fibers_.size(), w * 32 + 32); ++i) {
        if (fibers_[i].state == State::AtWarpBarrier) ready = true;
        else if (fibers_[i].state != State::Done) blocked = true;
      }
      if (ready && !blocked) {
        for (std::size_t i = w * 32; i < std::min(fibers_.size(), w * 32 + 32); ++i)
          if (fibers_[i].state == State::AtWarpBarrier) fibers_[i].state = State::Runnable;
        released = true;
      }
    }
    return released;
  }

  std::vector<Fiber> fibers_;
  std::vector<std::unique_ptr<unsigned char[]>> stacks_;
  std::vector<std::size_t> order_;
  std::size_t running_ = 0;
  ucontext_t scheduler_;
  std::mt19937_64 rng_;
};

inline void syncthreads() { Block::current()->block_barrier(); }

inline float shfl_down(unsigned mask, float value, unsigned offset) {
  (void)mask;
  Block& b = *Block::current();
  auto& f = b.self();
  b.warp_exchange[f.warp][f.lane] = value;
  b.warp_barrier();
  const unsigned source = static_cast<unsigned>(f.lane) + offset;
  const float result = source < 32 ? b.warp_exchange[f.warp][source] : value;
  b.warp_barrier();  // nobody overwrites the exchange before everyone has read it
  return result;
}

}  // namespace cuda_emu

// The CUDA spellings the examples use.
#define __global__
#define __device__
#define __host__
#define __forceinline__ inline
#define __launch_bounds__(...)
#define __align__(n) __attribute__((aligned(n)))
// One block runs at a time, and all its fibers run on one OS thread: thread_local storage is
// shared by the block, and `extern __shared__ T name[]` names a global that the emulated
// launch wrapper defines on top of cuda_emu::dynamic_shared.
#define __shared__ thread_local
#define threadIdx (::cuda_emu::Block::current()->self().thread_idx)
#define blockIdx (::cuda_emu::Block::current()->block_idx)
#define blockDim (::cuda_emu::Block::current()->block_dim)
#define gridDim (::cuda_emu::Block::current()->grid_dim)
using float2 = cuda_emu::float2_t;
using float4 = cuda_emu::float4_t;
inline void __syncthreads() { cuda_emu::syncthreads(); }
inline void __threadfence() {}
inline void __trap() { std::abort(); }
inline float __shfl_down_sync(unsigned mask, float value, unsigned offset) { return cuda_emu::shfl_down(mask, value, offset); }
template <class T>
inline T __ldcg(const T* p) { return *p; }
inline unsigned atomicAdd(unsigned* p, unsigned v) {
  const unsigned old = *p;
  *p = old + v;
  return old;
}
inline float atomicAdd(float* p, float v) {
  const float old = *p;
  *p = old + v;
  return old;
}
