#include "ktune/device/cuda/dynamic_library.h"

#include <dlfcn.h>
#include <link.h>

#include <cstdlib>
#include <filesystem>
#include <utility>

namespace ktune {
namespace {

std::string last_dl_error() {
  const char* text = dlerror();
  return text ? std::string(text) : std::string("unknown dlopen error");
}

std::string mapped_path(void* handle, const std::string& fallback) {
  link_map* map = nullptr;
  if (dlinfo(handle, RTLD_DI_LINKMAP, &map) == 0 && map && map->l_name && map->l_name[0] != '\0') {
    return map->l_name;
  }
  return fallback;
}

}  // namespace

DynamicLibrary DynamicLibrary::open(const std::string& name_or_path) {
  dlerror();  // clear any stale error so the one we report belongs to this call
  // RTLD_NODELETE: a vendor library stays mapped after the last handle closes. Unmapping
  // libcuda or libnvrtc gains nothing, and their static state (NVRTC's statically linked C++
  // runtime allocates an exception-handling pool) would then read as leaked under LSan.
  void* handle = dlopen(name_or_path.c_str(), RTLD_NOW | RTLD_LOCAL | RTLD_NODELETE);
  if (!handle) {
    throw DynamicLibraryError("cannot load " + name_or_path + ": " + last_dl_error());
  }
  return DynamicLibrary(handle, name_or_path, mapped_path(handle, name_or_path));
}

Loaded<DynamicLibrary> DynamicLibrary::open_first(const std::vector<std::string>& candidates) {
  Loaded<DynamicLibrary> result;
  if (candidates.empty()) {
    result.error = "no library candidates to try";
    return result;
  }
  std::string attempts;
  for (const std::string& candidate : candidates) {
    try {
      result.value = std::make_shared<DynamicLibrary>(open(candidate));
      return result;
    } catch (const DynamicLibraryError& e) {
      attempts += std::string("\n  ") + e.what();
    }
  }
  result.error = "tried " + std::to_string(candidates.size()) + " location(s):" + attempts;
  return result;
}

DynamicLibrary::DynamicLibrary(DynamicLibrary&& other) noexcept
    : handle_(std::exchange(other.handle_, nullptr)),
      name_(std::move(other.name_)),
      path_(std::move(other.path_)) {}

DynamicLibrary& DynamicLibrary::operator=(DynamicLibrary&& other) noexcept {
  if (this != &other) {
    if (handle_) dlclose(handle_);
    handle_ = std::exchange(other.handle_, nullptr);
    name_ = std::move(other.name_);
    path_ = std::move(other.path_);
  }
  return *this;
}

DynamicLibrary::~DynamicLibrary() {
  if (handle_) dlclose(handle_);
}

void* DynamicLibrary::symbol(const char* name) const {
  if (!handle_) return nullptr;
  return dlsym(handle_, name);
}

std::string DynamicLibrary::missing_symbol_message(std::initializer_list<const char*> names) const {
  std::string tried;
  for (const char* name : names) {
    if (!tried.empty()) tried += ", ";
    tried += name;
  }
  return path_ + " does not export " + tried + " (library too old or not the expected one?)";
}

std::vector<std::string> library_candidates(const char* env_var, const std::vector<std::string>& names,
                                            const std::vector<std::string>& directories) {
  std::vector<std::string> candidates;
  if (env_var) {
    if (const char* value = std::getenv(env_var); value && value[0] != '\0') {
      std::error_code ec;
      if (std::filesystem::is_directory(value, ec)) {
        for (const std::string& name : names) candidates.push_back((std::filesystem::path(value) / name).string());
      } else {
        candidates.emplace_back(value);
      }
    }
  }
  for (const std::string& name : names) candidates.push_back(name);
  for (const std::string& directory : directories) {
    if (directory.empty()) continue;
    for (const std::string& name : names) {
      candidates.push_back((std::filesystem::path(directory) / name).string());
    }
  }
  return candidates;
}

}  // namespace ktune
