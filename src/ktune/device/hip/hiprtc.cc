#include "ktune/device/hip/hiprtc.h"

#include <cstdlib>

namespace ktune::hip {
namespace {

template <class Fn>
void resolve(const DynamicLibrary& library, Fn*& field, const char* name, std::vector<std::string>& missing) {
  field = library.function<Fn>({name});
  if (!field) missing.emplace_back(name);
}

}  // namespace

std::vector<std::string> hiprtc_candidates() {
  std::vector<std::string> directories;
  if (const char* rocm = std::getenv("ROCM_PATH"); rocm && rocm[0] != '\0')
    directories.push_back(std::string(rocm) + "/lib");
  directories.emplace_back("/opt/rocm/lib");
  return library_candidates("KTUNE_HIPRTC_PATH", {"libhiprtc.so", "libhiprtc.so.6", "libhiprtc.so.5"}, directories);
}

Loaded<Hiprtc> Hiprtc::load() { return load_from(hiprtc_candidates()); }

Loaded<Hiprtc> Hiprtc::load_from(const std::vector<std::string>& candidates) {
  Loaded<Hiprtc> result;
  Loaded<DynamicLibrary> library = DynamicLibrary::open_first(candidates);
  if (!library) {
    result.error = "hiprtc not available: libhiprtc.so not found: " + library.error;
    return result;
  }
  auto rtc = std::make_shared<Hiprtc>();
  std::vector<std::string> missing;
  const DynamicLibrary& lib = *library;
  resolve(lib, rtc->api_.hiprtcVersion, "hiprtcVersion", missing);
  resolve(lib, rtc->api_.hiprtcGetErrorString, "hiprtcGetErrorString", missing);
  resolve(lib, rtc->api_.hiprtcCreateProgram, "hiprtcCreateProgram", missing);
  resolve(lib, rtc->api_.hiprtcDestroyProgram, "hiprtcDestroyProgram", missing);
  resolve(lib, rtc->api_.hiprtcCompileProgram, "hiprtcCompileProgram", missing);
  resolve(lib, rtc->api_.hiprtcGetProgramLogSize, "hiprtcGetProgramLogSize", missing);
  resolve(lib, rtc->api_.hiprtcGetProgramLog, "hiprtcGetProgramLog", missing);
  resolve(lib, rtc->api_.hiprtcGetCodeSize, "hiprtcGetCodeSize", missing);
  resolve(lib, rtc->api_.hiprtcGetCode, "hiprtcGetCode", missing);
  if (!missing.empty()) {
    std::string names;
    for (const auto& m : missing) names += (names.empty() ? "" : ", ") + m;
    result.error = "hiprtc not available: " + lib.path() + " does not export " + names;
    return result;
  }
  rtc->library_ = library.value;
  result.value = std::move(rtc);
  return result;
}

std::string Hiprtc::version_string() const {
  int major = 0, minor = 0;
  if (api_.hiprtcVersion(&major, &minor) != 0) return "";
  return std::to_string(major) + "." + std::to_string(minor);
}

HiprtcOutput Hiprtc::compile(const std::string& source, const std::string& name,
                             const std::vector<std::string>& options) const {
  HiprtcOutput out;
  auto message = [&](hiprtcResult rc, const char* call) {
    const char* text = api_.hiprtcGetErrorString(rc);
    return std::string(call) + " failed: " + (text ? text : "hiprtc error " + std::to_string(rc));
  };
  hiprtcProgram program = nullptr;
  if (hiprtcResult rc = api_.hiprtcCreateProgram(&program, source.c_str(), name.c_str(), 0, nullptr, nullptr); rc != 0) {
    out.log = message(rc, "hiprtcCreateProgram");
    return out;
  }
  std::vector<const char*> argv;
  for (const auto& o : options) argv.push_back(o.c_str());
  const hiprtcResult compiled = api_.hiprtcCompileProgram(program, static_cast<int>(argv.size()), argv.data());
  std::size_t log_size = 0;
  if (api_.hiprtcGetProgramLogSize(program, &log_size) == 0 && log_size > 1) {
    std::string log(log_size, '\0');
    if (api_.hiprtcGetProgramLog(program, log.data()) == 0) {
      log.resize(log_size - 1);
      out.log = std::move(log);
    }
  }
  if (compiled != 0) {
    out.log = message(compiled, "hiprtcCompileProgram") + (out.log.empty() ? "" : "\n" + out.log);
  } else {
    std::size_t code_size = 0;
    if (hiprtcResult rc = api_.hiprtcGetCodeSize(program, &code_size); rc != 0) {
      out.log = message(rc, "hiprtcGetCodeSize");
    } else {
      out.code.assign(code_size, '\0');
      if (hiprtcResult rc2 = api_.hiprtcGetCode(program, out.code.data()); rc2 != 0) out.log = message(rc2, "hiprtcGetCode");
      else out.ok = true;
    }
  }
  api_.hiprtcDestroyProgram(&program);
  return out;
}

}  // namespace ktune::hip
