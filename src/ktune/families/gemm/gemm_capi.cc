// libktune_gemm: the C ABI of GemmExecutor (include/ktune/ktune_gemm.h). Every entry point
// catches what the C++ side throws: no exception crosses into C or Python.
#include "ktune/ktune_gemm.h"

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <string>

#include "ktune/families/gemm/gemm_executor.h"

struct ktune_gemm_executor {
  ktune::gemm::GemmExecutor impl;
  explicit ktune_gemm_executor(int ordinal) : impl(ordinal) {}
};

namespace {

thread_local std::string last_error;

void fill(const std::string& text, char* out, std::size_t size) {
  if (!out || size == 0) return;
  const std::size_t n = std::min(text.size(), size - 1);
  std::memcpy(out, text.data(), n);
  out[n] = '\0';
}

int fail(const std::string& message, char* error, std::size_t error_size) {
  last_error = message;
  fill(message, error, error_size);
  return -1;
}

}  // namespace

extern "C" {

int ktune_gemm_abi_version(void) { return KTUNE_GEMM_ABI_VERSION; }

ktune_gemm_executor* ktune_gemm_create(int ordinal, char* error, size_t error_size) {
  try {
    return new ktune_gemm_executor(ordinal);
  } catch (const std::exception& e) {
    fail(e.what(), error, error_size);
  } catch (...) {
    fail("unknown error", error, error_size);
  }
  return nullptr;
}

void ktune_gemm_destroy(ktune_gemm_executor* executor) { delete executor; }

int ktune_gemm_add_plan(ktune_gemm_executor* executor, const char* pick_json, char* error, size_t error_size) {
  if (!executor || !pick_json) return fail("ktune_gemm_add_plan: null executor or pick", error, error_size);
  try {
    return executor->impl.add_plan(nlohmann::json::parse(pick_json));
  } catch (const nlohmann::json::exception& e) {
    return fail(std::string("the pick is not valid JSON of a GEMM pick: ") + e.what(), error, error_size);
  } catch (const std::exception& e) {
    return fail(e.what(), error, error_size);
  }
}

int ktune_gemm_run(ktune_gemm_executor* executor, int plan, const void* a, const void* b, const void* c, void* d,
                   const void* bias, void* stream) {
  if (!executor) return fail("ktune_gemm_run: null executor", nullptr, 0);
  try {
    const ktune::gemm::RunResult r =
        executor->impl.run(plan, {a, b, c, d, bias}, static_cast<ktune::cuda::CUstream>(stream));
    return r == ktune::gemm::RunResult::Enqueued ? 0 : 1;
  } catch (const std::exception& e) {
    return fail(e.what(), nullptr, 0);
  }
}

const char* ktune_gemm_last_error(void) { return last_error.c_str(); }

int ktune_gemm_describe(ktune_gemm_executor* executor, int plan, char* out, size_t size) {
  if (!executor) return fail("ktune_gemm_describe: null executor", nullptr, 0);
  try {
    const std::string text = executor->impl.describe(plan).dump();
    fill(text, out, size);
    return static_cast<int>(text.size());
  } catch (const std::exception& e) {
    return fail(e.what(), nullptr, 0);
  }
}

}  // extern "C"
