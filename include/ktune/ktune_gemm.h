/* ktune_gemm.h: run ktune's tuned GEMMs inside an application (C ABI of libktune_gemm.so).
 *
 * `ktune tune gemm` measures cuBLASLt's algorithms and ktune's generated kernels for a GEMM,
 * verifies them and records the pick; `ktune export --gemm-picks picks.json` writes the picks.
 * This library turns one pick into a plan and enqueues it on the application's buffers and
 * stream, in the device's primary context (the CUDA runtime's, so PyTorch tensors and streams
 * work as they are). It loads libcuda, cuBLASLt and NVRTC with dlopen and links nothing of
 * ktune's dependencies dynamically, so it runs where the application runs (ktune.torch loads it
 * with ctypes). Thread-safe.
 *
 *   char err[512];
 *   ktune_gemm_executor* ex = ktune_gemm_create(0, err, sizeof err);
 *   int plan = ktune_gemm_add_plan(ex, pick_json, err, sizeof err);  // one element of "picks"
 *   int rc = ktune_gemm_run(ex, plan, a, b, NULL, d, NULL, stream);  // 0: enqueued
 *
 * Buffers are device addresses laid out as the pick's problem says (row-major A M x K and B K x N
 * in its layout, D M x N; C only when beta != 0; bias only when the problem has one). */
#ifndef KTUNE_GEMM_H
#define KTUNE_GEMM_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

#define KTUNE_GEMM_ABI_VERSION 1

#if defined(__GNUC__)
#define KTUNE_GEMM_API __attribute__((visibility("default")))
#else
#define KTUNE_GEMM_API
#endif

typedef struct ktune_gemm_executor ktune_gemm_executor;

/* KTUNE_GEMM_ABI_VERSION of the loaded library. */
KTUNE_GEMM_API int ktune_gemm_abi_version(void);

/* An executor for CUDA device `ordinal`; NULL with the reason in `error` (NUL-terminated,
 * truncated to error_size) when there is no usable driver or no such device. */
KTUNE_GEMM_API ktune_gemm_executor* ktune_gemm_create(int ordinal, char* error, size_t error_size);

/* Frees plans and scratch memory (waits for the streams it used) and releases the context. */
KTUNE_GEMM_API void ktune_gemm_destroy(ktune_gemm_executor* executor);

/* A plan from one pick (JSON text: {"problem": ..., "config": ..., "device": {"name"}}, an element
 * of the "picks" array `ktune export --gemm-picks` writes). Returns the plan id (>= 0), or -1 with
 * the reason in `error`: the pick was measured on another device, cuBLASLt or NVRTC is missing,
 * the configuration does not run here. Compiling a generated kernel takes up to a second unless
 * ktune's compile cache has it. Not inside a CUDA stream capture: it loads modules, allocates device
 * memory and, for a kernel in thread-block clusters, runs a probe of where the GPU puts them on the
 * legacy default stream once per executor (ktune_gemm_run is the call a graph may capture). */
KTUNE_GEMM_API int ktune_gemm_add_plan(ktune_gemm_executor* executor, const char* pick_json, char* error, size_t error_size);

/* Enqueues plan `plan` on `stream` (a CUstream / cudaStream_t; NULL: the legacy default stream).
 * Returns 0 when enqueued, 1 when an operand is not 16-byte aligned (nothing enqueued: run the
 * default GEMM instead), -1 on an error (ktune_gemm_last_error() says which). */
KTUNE_GEMM_API int ktune_gemm_run(ktune_gemm_executor* executor, int plan, const void* a, const void* b, const void* c, void* d,
                   const void* bias, void* stream);

/* The calling thread's last error message ("" when none). */
KTUNE_GEMM_API const char* ktune_gemm_last_error(void);

/* The plan as JSON text ({"problem_name", "family", "config", "workspace_bytes", ...}) into `out`;
 * returns the full length (like snprintf), or -1 for an unknown plan. */
KTUNE_GEMM_API int ktune_gemm_describe(ktune_gemm_executor* executor, int plan, char* out, size_t size);

#ifdef __cplusplus
}
#endif

#endif /* KTUNE_GEMM_H */
