#pragma once
// A shared library opened with dlopen at run time. GPU vendor libraries are never linked into
// ktune, so the binary starts on machines without them and can say exactly what is missing.
// Nothing here is CUDA-specific; the HIP backend can reuse it (or it can move to core/).

#include <initializer_list>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

namespace ktune {

class DynamicLibraryError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Something that can be loaded or not. Loading a vendor library is expected to fail on many
// machines, so failure is a value (with a sentence saying why), not an exception.
template <class T>
struct Loaded {
  std::shared_ptr<T> value;  // null when not available
  std::string error;         // why not, when value is null

  bool ok() const { return value != nullptr; }
  explicit operator bool() const { return ok(); }
  T* operator->() const { return value.get(); }
  T& operator*() const { return *value; }
};

class DynamicLibrary {
 public:
  // Opens `name_or_path` with RTLD_NOW | RTLD_LOCAL | RTLD_NODELETE (the library is never
  // unmapped). Throws DynamicLibraryError with dlerror().
  static DynamicLibrary open(const std::string& name_or_path);

  // Tries each candidate in order and returns the first that opens. On failure the error lists
  // every attempt with its dlerror() text, so the user sees where ktune looked.
  static Loaded<DynamicLibrary> open_first(const std::vector<std::string>& candidates);

  DynamicLibrary(DynamicLibrary&& other) noexcept;
  DynamicLibrary& operator=(DynamicLibrary&& other) noexcept;
  DynamicLibrary(const DynamicLibrary&) = delete;
  DynamicLibrary& operator=(const DynamicLibrary&) = delete;
  ~DynamicLibrary();

  // The address of `name`, or nullptr when the library does not export it.
  void* symbol(const char* name) const;

  // Resolves a function by trying `names` in order (e.g. {"cuMemAlloc_v2", "cuMemAlloc"}).
  // Returns nullptr when none is exported.
  template <class Fn>
  Fn* function(std::initializer_list<const char*> names) const {
    for (const char* name : names) {
      if (void* address = symbol(name)) return reinterpret_cast<Fn*>(address);
    }
    return nullptr;
  }

  // Same, but throws DynamicLibraryError naming the library and every name tried.
  template <class Fn>
  Fn* require_function(std::initializer_list<const char*> names) const {
    if (Fn* fn = function<Fn>(names)) return fn;
    throw DynamicLibraryError(missing_symbol_message(names));
  }

  // What open() was given ("libnvrtc.so.13" or a path).
  const std::string& name() const { return name_; }
  // The file the dynamic loader actually mapped (from dlinfo), or name() when unknown.
  const std::string& path() const { return path_; }

 private:
  DynamicLibrary(void* handle, std::string name, std::string path)
      : handle_(handle), name_(std::move(name)), path_(std::move(path)) {}
  std::string missing_symbol_message(std::initializer_list<const char*> names) const;

  void* handle_ = nullptr;
  std::string name_;
  std::string path_;
};

// Candidate file names/paths for a library: `env_var`'s value first when set (a file or a
// directory), then `names`, then each of `names` inside each of `directories`.
std::vector<std::string> library_candidates(const char* env_var, const std::vector<std::string>& names,
                                            const std::vector<std::string>& directories);

}  // namespace ktune
