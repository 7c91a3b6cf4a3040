// Uses the installed libktune_gemm.so through its C header, as an application would: prints the
// ABI version, then whether an executor for device 0 can be made (and why not). Exit 1 only
// when the library answers inconsistently.
#include <ktune/ktune_gemm.h>

#include <cstdio>
#include <cstring>

int main() {
  std::printf("ktune_gemm ABI %d\n", ktune_gemm_abi_version());
  if (ktune_gemm_abi_version() != KTUNE_GEMM_ABI_VERSION) return 1;
  char error[1024] = "unset";
  ktune_gemm_executor* executor = ktune_gemm_create(0, error, sizeof error);
  if (!executor) {
    std::printf("no executor: %s\n", error);
    // The reason is also the thread's last error, and every call on a null executor fails cleanly.
    if (std::strcmp(error, ktune_gemm_last_error()) != 0) return 1;
    return ktune_gemm_add_plan(nullptr, "{}", error, sizeof error) == -1 ? 0 : 1;
  }
  std::printf("device 0: ready\n");
  ktune_gemm_destroy(executor);
  return 0;
}
