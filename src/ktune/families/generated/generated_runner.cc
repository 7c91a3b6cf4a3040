#include "ktune/families/generated/generated_runner.h"

#include "ktune/core/sha256.h"
#include "ktune/device/device.h"
#include "ktune/families/generated/generated_launch.h"
#include "ktune/families/generated/sm90_path.h"

namespace ktune::generated {

namespace kc = ktune::cuda;

DeviceTraits device_traits(const kc::CudaDeviceProperties& properties) {
  DeviceTraits d;
  d.compute_capability = properties.compute_major * 10 + properties.compute_minor;
  d.sm_count = properties.multiprocessors;
  d.max_shared_per_block = static_cast<int>(properties.shared_memory_per_block_optin);
  d.name = properties.name;
  return d;
}

std::string compile_key(const std::string& source, const std::string& arch, const kc::NvrtcCompiler& nvrtc) {
  return sha256_hex("ktune-generated-gemm-v1\n" + nvrtc.version_string() + "\n" + arch + "\n" + source);
}

namespace {

nlohmann::json resources_of(const kc::NvrtcResult& result, const std::string& symbol) {
  nlohmann::json j = nlohmann::json::object();
  if (const analysis::KernelResourceUsage* usage = result.resources.find(symbol)) {
    j = analysis::to_json(*usage);
    j["ptxas_found_entry"] = true;
  } else {
    j["ptxas_found_entry"] = false;
  }
  j["cubin_bytes"] = result.cubin.size();
  j["nvrtc_seconds"] = result.seconds;
  return j;
}

}  // namespace

CompiledKernel compile_kernel(const std::string& source, const std::string& arch, const std::string& symbol,
                              const kc::NvrtcCompiler& nvrtc, const device::CompileCache& cache) {
  CompiledKernel out;
  const std::string key = compile_key(source, arch, nvrtc);
  if (auto cubin = cache.read(key, ".cubin")) {
    out.ok = true;
    out.cached = true;
    out.cubin = std::move(*cubin);
    if (auto meta = cache.read(key, ".json")) {
      try {
        out.resources = nlohmann::json::parse(*meta);
      } catch (const nlohmann::json::exception&) {
        // A damaged side file only loses the resource report; the cubin is what matters.
      }
    }
    return out;
  }
  kc::NvrtcRequest request;
  request.source = source;
  request.program_name = "ktune_generated_gemm.cu";
  request.arch = arch;
  request.options = {"-std=c++17"};
  request.resource_usage = true;
  const kc::NvrtcResult result = nvrtc.compile(request);
  out.seconds = result.seconds;
  if (!result.ok) {
    out.error = result.error.empty() ? result.log : result.error + "\n" + result.log;
    return out;
  }
  out.ok = true;
  out.cubin = result.cubin;
  out.resources = resources_of(result, symbol);
  try {
    cache.write(key, ".json", out.resources.dump());
    cache.write(key, ".cubin", out.cubin);
  } catch (const std::exception&) {
    // An unwritable cache costs the next run a compile, nothing else.
  }
  return out;
}

LoadedGemmKernel::LoadedGemmKernel(device::cuda::CudaDeviceContext& context, const std::string& cubin,
                                   const GeneratedKnobs& knobs, const ProblemTraits& traits,
                                   const gemm::GemmProblem& problem, const DeviceTraits& device,
                                   const DeviceOperands& operands, ClusterPlacement* placement)
    : context_(context), launch_(plan_launch(knobs, traits, device)) {
  params_ = make_params(knobs, traits, problem, operands, launch_, device);
  context_.enter();
  context_.check(context_.api().cuModuleLoadData(&module_, cubin.data()), "cuModuleLoadData(generated gemm)");
  const std::string symbol = kernel_symbol(knobs.path);
  context_.check(context_.api().cuModuleGetFunction(&function_, module_, symbol.c_str()), "cuModuleGetFunction(" + symbol + ")");
  context_.check(context_.api().cuFuncSetAttribute(function_, kc::cu::kFuncMaxDynamicSharedSizeBytes,
                                                   launch_.shape.dynamic_shared_bytes),
                 "cuFuncSetAttribute(max dynamic shared memory " + std::to_string(launch_.shape.dynamic_shared_bytes) + ")");
  if (launch_.repacks.any()) {
    if (!operands.repack) throw device::DeviceError("the kernel repacks an operand but was given no scratch buffer");
    context_.check(context_.api().cuModuleGetFunction(&repack_function_, module_, kRepackSymbol),
                   std::string("cuModuleGetFunction(") + kRepackSymbol + ")");
    repacks_ = repack_launches(launch_.repacks, operands.a, operands.b, operands.repack, device.sm_count);
  }
  if (launch_.reduce_grid > 0)
    context_.check(context_.api().cuModuleGetFunction(&reduce_function_, module_, kReduceSymbol),
                   std::string("cuModuleGetFunction(") + kReduceSymbol + ")");
  if (knobs.path == KernelPath::Wgmma) {
    if (!context_.api().cuTensorMapEncodeTiled)
      throw device::DeviceError("this CUDA driver has no cuTensorMapEncodeTiled; TMA kernels cannot run");
    encode_tensor_maps(params_, knobs, traits, context_.api().cuTensorMapEncodeTiled);
    if (placement && cluster_size(knobs) > 1) apply_cluster_order(params_, knobs, launch_, placement, blocks_per_sm());
  }
}

int LoadedGemmKernel::blocks_per_sm() const {
  int blocks = 0;
  if (context_.api().cuOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, function_, launch_.shape.threads,
                                                                 static_cast<std::size_t>(launch_.shape.dynamic_shared_bytes)) !=
      kc::cu::kSuccess)
    return 0;
  return blocks;
}

LoadedGemmKernel::~LoadedGemmKernel() {
  if (module_ && !context_.poisoned()) {
    try {
      context_.enter();
      context_.api().cuModuleUnload(module_);
    } catch (const std::exception&) {
      // The context went away under us; the module went with it.
    }
  }
}

void LoadedGemmKernel::enqueue(kc::CUstream stream) {
  const EnqueueStatus status =
      enqueue_gemm(context_.api(), {function_, repack_function_, reduce_function_}, launch_, repacks_, params_, stream);
  if (!status.ok()) context_.check(status.result, status.what);
}

nlohmann::json LoadedGemmKernel::attributes() const {
  nlohmann::json j;
  int value = 0;
  if (context_.api().cuFuncGetAttribute(&value, kc::cu::kFuncNumRegs, function_) == kc::cu::kSuccess) j["registers"] = value;
  if (context_.api().cuFuncGetAttribute(&value, kc::cu::kFuncLocalSizeBytes, function_) == kc::cu::kSuccess)
    j["local_bytes"] = value;
  if (const int blocks = blocks_per_sm()) j["blocks_per_sm"] = blocks;
  if (params_.cluster_order) j["cluster_order"] = params_.cluster_order_size;
  j["grid"] = launch_.grid;
  j["threads"] = launch_.shape.threads;
  j["dynamic_shared_bytes"] = launch_.shape.dynamic_shared_bytes;
  return j;
}

}  // namespace ktune::generated
