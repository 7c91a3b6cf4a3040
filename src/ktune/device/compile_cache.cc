#include "ktune/device/compile_cache.h"

#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <random>
#include <sstream>

#include "ktune/device/device.h"

namespace ktune::device {
namespace fs = std::filesystem;

fs::path default_cache_root() {
  auto nonempty = [](const char* name) -> const char* {
    const char* v = std::getenv(name);
    return v && *v ? v : nullptr;
  };
  if (const char* dir = nonempty("KTUNE_CACHE_DIR")) return fs::path(dir);
  if (const char* xdg = nonempty("XDG_CACHE_HOME")) return fs::path(xdg) / "ktune";
  if (const char* home = nonempty("HOME")) return fs::path(home) / ".cache" / "ktune";
  return fs::path("/tmp") / ("ktune-cache-" + std::to_string(getuid()));
}

CompileCache::CompileCache(fs::path directory) : directory_(std::move(directory)) {}

fs::path CompileCache::entry_path(std::string_view key, std::string_view suffix) const {
  return directory_ / (std::string(key) + std::string(suffix));
}

bool CompileCache::contains(std::string_view key, std::string_view suffix) const {
  std::error_code ec;
  return fs::is_regular_file(entry_path(key, suffix), ec);
}

std::optional<std::string> CompileCache::read(std::string_view key, std::string_view suffix) const {
  std::ifstream in(entry_path(key, suffix), std::ios::binary);
  if (!in) return std::nullopt;
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

fs::path CompileCache::temporary_path(std::string_view suffix) const {
  static std::atomic<std::uint64_t> counter{0};
  // pid + counter is unique within a machine; the random part guards against pid reuse
  // across machines sharing a cache over NFS.
  static const std::uint64_t salt = std::random_device{}();
  fs::path tmp = directory_ / "tmp";
  std::error_code ec;
  fs::create_directories(tmp, ec);
  if (ec) throw DeviceError("cannot create compile cache directory '" + tmp.string() + "': " + ec.message());
  std::ostringstream name;
  name << getpid() << '-' << counter.fetch_add(1) << '-' << std::hex << (salt & 0xffffffu) << suffix;
  return tmp / name.str();
}

fs::path CompileCache::publish(const fs::path& temporary, std::string_view key, std::string_view suffix) const {
  fs::path target = entry_path(key, suffix);
  std::error_code ec;
  fs::rename(temporary, target, ec);
  if (ec) {
    fs::remove(temporary, ec);
    throw DeviceError("cannot publish '" + target.string() + "' in the compile cache: " + ec.message());
  }
  return target;
}

fs::path CompileCache::write(std::string_view key, std::string_view suffix, std::string_view contents) const {
  fs::path tmp = temporary_path(suffix);
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    out.write(contents.data(), static_cast<std::streamsize>(contents.size()));
    out.close();
    if (!out) {
      std::error_code ec;
      fs::remove(tmp, ec);
      throw DeviceError("cannot write '" + tmp.string() + "': " + std::strerror(errno));
    }
  }
  return publish(tmp, key, suffix);
}

std::size_t CompileCache::prune_temporaries(std::chrono::seconds age) const {
  std::error_code ec;
  fs::directory_iterator it(directory_ / "tmp", ec);
  if (ec) return 0;
  const auto cutoff = fs::file_time_type::clock::now() - age;
  std::size_t removed = 0;
  for (const auto& entry : it) {
    auto written = entry.last_write_time(ec);
    if (ec || written > cutoff) continue;
    if (fs::remove(entry.path(), ec)) ++removed;
  }
  return removed;
}

}  // namespace ktune::device
