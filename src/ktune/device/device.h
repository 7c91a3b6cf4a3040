#pragma once
// One interface for every place a kernel can run: discover devices, compile a candidate,
// load it, bind arguments, launch and time it. Backends: cpu/ (host compiler + dlopen),
// cuda/ and hip/ (vendor libraries loaded with dlopen, so ktune runs where they are absent).
//
// Process split: Compiler runs in the tuning process (a pool of threads compiles ahead);
// LoadedKernel lives only inside a worker process, so a crashing kernel takes down the
// worker, never the tuner.

#include <array>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "ktune/core/config.h"
#include "ktune/core/element_type.h"
#include "ktune/core/value.h"
#include "ktune/device/device_memory.h"

namespace ktune::device {

// Errors of the device layer itself (cannot load an artifact, wrong arguments, driver
// failures). Compile errors in user code are not errors of this kind: they are a
// CompileResult with ok == false.
class DeviceError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// The device's context in this process is unusable (a kernel faulted: illegal address,
// misaligned access, trap...; CUDA keeps such errors "sticky"). Everything loaded on that
// device in this process is lost: the worker should exit and be replaced.
class ContextPoisoned : public DeviceError {
 public:
  using DeviceError::DeviceError;
};

// One timed launch. valid == false: the sample must not be used (e.g. the GPU clock was
// throttled while it ran), but the kernel did run.
struct TimedRun {
  double seconds = 0;
  bool valid = true;
};

struct DeviceInfo {
  std::string backend;      // "cpu", "cuda", "hip"
  int ordinal = 0;          // index within the backend
  std::string name;         // human-readable ("AMD EPYC 7B13", "NVIDIA H200")
  std::string fingerprint;  // stable identity: same hardware + toolchain -> same string
  nlohmann::json properties = nlohmann::json::object();  // backend-specific facts
};

struct Availability {
  bool available = false;
  std::string reason;  // why not, e.g. "libcuda.so.1 not found: ..."; empty when available
};

struct ArgumentSignature {
  std::string name;
  ElementType type = ElementType::F32;
  bool is_array = false;
  bool is_output = false;
};

struct CompileRequest {
  std::string entry;                           // kernel function name
  std::vector<std::filesystem::path> sources;  // user sources; relative paths resolve against the cwd
  Config defines;                              // become -DNAME=VALUE (tunable parameters, sizes)
  std::vector<std::string> user_flags;         // appended after ktune's own flags
  std::vector<ArgumentSignature> signature;    // for the launch shim
  std::string target;                          // GPU arch (e.g. "sm_90a"); "" for CPU
};

struct CompileResult {
  bool ok = false;
  std::filesystem::path artifact;  // shared object / cubin / hsaco in the compile cache
  std::string log;                 // compiler diagnostics (trimmed), or why it failed
  double seconds = 0;              // wall time of this compile (about 0 on a cache hit)
  bool cache_hit = false;
  std::string cache_key;                                  // sha256 hex naming the artifact
  nlohmann::json resources = nlohmann::json::object();  // registers, smem, spills... (backend-specific)
};

class Compiler {
 public:
  virtual ~Compiler() = default;
  // Thread-safe. Compile errors, timeouts and unreadable sources are results (ok == false),
  // never exceptions.
  virtual CompileResult compile(const CompileRequest& request) = 0;
};

struct LaunchGeometry {
  std::array<std::int64_t, 3> grid{1, 1, 1};
  std::array<std::int64_t, 3> block{1, 1, 1};
  std::int64_t shared_bytes = 0;  // dynamic shared memory / LDS
};

struct HostArgument {
  std::string name;
  ElementType type = ElementType::F32;
  bool is_array = false;
  bool is_output = false;
  std::vector<std::byte> data;  // arrays: the elements; scalars: exactly one element

  std::size_t element_count() const { return data.size() / element_size(type); }
};

// A scalar argument holding `value` converted to `type` (integers exactly, floats rounded
// like store_element). Throws DeviceError if the value does not fit the type.
HostArgument scalar_argument(std::string name, ElementType type, const Value& value);
// A zero-filled array argument of `count` elements.
HostArgument array_argument(std::string name, ElementType type, std::size_t count, bool is_output = false);

// An argument bound from device-resident buffers (DeviceMemory): arrays by their buffer, and
// for cache mode "rotate" the copy sets that timed runs cycle through; scalars by value.
struct BufferArgument {
  std::string name;
  ElementType type = ElementType::F32;
  bool is_array = false;
  bool is_output = false;
  DeviceBuffer* buffer = nullptr;           // arrays (null for an empty array)
  std::vector<DeviceBuffer*> rotation;      // arrays: sets 1..N-1 for timed runs (may be empty)
  std::vector<std::byte> value;             // scalars: exactly one element
};

// A compiled kernel loaded on a device with its arguments bound. Lives inside a worker.
// Not thread-safe: one thread drives one LoadedKernel.
class LoadedKernel {
 public:
  virtual ~LoadedKernel() = default;
  // GPU: allocate and upload. CPU: keep pointers into args, which must stay alive and
  // unresized until the next bind() or destruction. Throws DeviceError when the arguments
  // do not match the signature the kernel was compiled for.
  virtual void bind(std::vector<HostArgument>& args) = 0;
  // Refreshes the device copy of the bound argument with the same name from `arg`
  // (e.g. after poisoning an output on the host).
  virtual void upload(const HostArgument& arg) = 0;
  virtual void run() = 0;  // one launch, synchronous; throws DeviceError if the kernel reports failure
  // Seconds taken by one launch. cold: flush caches first (not timed).
  virtual double run_timed(bool cold) = 0;
  // run_timed plus whether the sample can be trusted; backends that can tell override it.
  virtual TimedRun run_timed_sample(bool cold) { return {run_timed(cold), true}; }
  // What a cold run's flush leaves in the cache (measure::L2Flush): false, the flush buffer
  // written (dirty lines the kernel writes back as it evicts them); true, then read too (clean
  // lines only). The CUDA and CPU backends do both; a backend that cannot (HIP) says so through
  // Backend::supports_clean_flush, which the tuner checks before any kernel is loaded.
  virtual void set_clean_flush(bool clean) { (void)clean; }
  // Copies the device copy of the bound argument with the same name into `arg`.
  virtual void download(HostArgument& arg) = 0;
  // Cache mode "rotate": keeps N copy sets of every bound non-output array (the bound buffers
  // are set 0), N >= 2 and N * (their total bytes) >= min_total_bytes, so that each timed run
  // (run_timed / run_timed_sample) reads the next set and finds its inputs out of cache without
  // a flush. run(), upload() and download() keep using set 0; upload() of an input refreshes
  // every set. Call after bind(); bind() drops the copies. Returns N, or 1 when rotation is not
  // possible (no input arrays, the copies would exceed the backend's memory cap, or the
  // backend does not rotate); rotation is then off.
  virtual std::size_t enable_rotation(std::size_t min_total_bytes) {
    (void)min_total_bytes;
    return 1;
  }
  // Binds buffers that the caller owns (a session's, from Backend::memory) instead of copies:
  // nothing is allocated or uploaded. The buffers must outlive the binding. Timed runs cycle
  // through each array's `rotation` sets (all arrays with rotation sets must have the same
  // number); run() uses `buffer`. upload/download/enable_rotation do not apply to this binding.
  virtual void bind_buffers(const std::vector<BufferArgument>& args) = 0;
};

// The number of copy sets enable_rotation needs: the smallest N >= 2 with N * set_bytes >=
// min_total_bytes, or 1 when set_bytes is 0 or the N - 1 extra sets would exceed cap_bytes.
std::size_t rotation_copies_needed(std::size_t set_bytes, std::size_t min_total_bytes, std::size_t cap_bytes);

// Static screening of a compiled candidate before any launch.
struct ScreenResult {
  bool launchable = true;
  std::string reason;                                   // why it cannot launch
  nlohmann::json details = nlohmann::json::object();  // e.g. occupancy and its limiter
};

class Backend {
 public:
  virtual ~Backend() = default;
  virtual std::string name() const = 0;  // "cpu", "cuda", "hip"
  virtual Availability availability() const = 0;
  virtual std::vector<DeviceInfo> devices() const = 0;  // empty when unavailable
  virtual Compiler& compiler() = 0;
  // Throws DeviceError (no such device, compile result not ok, artifact unloadable,
  // entry not found).
  virtual std::unique_ptr<LoadedKernel> load(int ordinal, const CompileResult& compiled, const std::string& entry,
                                             const LaunchGeometry& geometry) = 0;
  // Whether the candidate can launch on device `ordinal` with `geometry`, judged from the
  // compiler's resource report alone (GPU backends: threads, registers, shared memory,
  // occupancy). Configs that cannot launch are recorded as resource_limit without a launch.
  virtual ScreenResult screen(int ordinal, const CompileResult& compiled, const LaunchGeometry& geometry) const {
    (void)ordinal, (void)compiled, (void)geometry;
    return {};
  }
  // Work every worker on device `ordinal` will need, done ahead in the tuning process while
  // the first candidates compile (CUDA: the check kernels into the compile cache). Never throws:
  // a worker that finds nothing prepared does the work itself.
  virtual void prepare_workers(int ordinal) { (void)ordinal; }
  // Whether cold runs can leave the cache clean (LoadedKernel::set_clean_flush(true)): the
  // flush buffer written and then read. HIP's flush is a memset, and a read sweep would need a
  // code object for each gfx target, so it only writes.
  virtual bool supports_clean_flush() const { return false; }
  // Device `ordinal`'s memory, for buffers shared by every kernel loaded on it in this process.
  // Throws DeviceError (unavailable, no such device) or ContextPoisoned.
  virtual DeviceMemory& memory(int ordinal) = 0;
};

// "-DNAME=VALUE" for each define, in name order. Integers and floats as written by
// Value::to_string, booleans as 1/0, strings verbatim (so a string parameter can name a
// type or a function). Throws DeviceError for a name that is not a C identifier or a
// value containing a newline.
std::vector<std::string> define_flags(const Config& defines);

// Whether `name` can be spliced into generated code as a function to call:
// identifiers, namespace qualification and simple template arguments ("gemm<float, 64>").
bool is_valid_entry_name(std::string_view name);

// JSON forms, for sending compile results and geometry to worker processes and for the
// database. from_json throws nlohmann::json::exception on malformed input.
void to_json(nlohmann::json& j, const DeviceInfo& v);
void from_json(const nlohmann::json& j, DeviceInfo& v);
void to_json(nlohmann::json& j, const ArgumentSignature& v);
void from_json(const nlohmann::json& j, ArgumentSignature& v);
void to_json(nlohmann::json& j, const CompileResult& v);
void from_json(const nlohmann::json& j, CompileResult& v);
void to_json(nlohmann::json& j, const LaunchGeometry& v);
void from_json(const nlohmann::json& j, LaunchGeometry& v);

}  // namespace ktune::device
