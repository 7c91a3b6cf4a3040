#pragma once
// A content-addressed directory of compiled artifacts, shared by threads and by processes
// (two tuning sessions may compile into it at once). Entries are only ever published by
// rename(2) of a finished temporary file, so a reader never sees a half-written artifact,
// and a killed compile leaves at most a stale file under tmp/.

#include <chrono>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>

namespace ktune::device {

// $KTUNE_CACHE_DIR, else $XDG_CACHE_HOME/ktune, else $HOME/.cache/ktune,
// else /tmp/ktune-cache-<uid>.
std::filesystem::path default_cache_root();

class CompileCache {
 public:
  // `directory` is one backend's part of the cache, e.g. default_cache_root() / "cpu".
  // Created on first write.
  explicit CompileCache(std::filesystem::path directory);

  const std::filesystem::path& directory() const { return directory_; }

  // directory/<key><suffix>, e.g. suffix ".so". Keys are hex digests: no path tricks.
  std::filesystem::path entry_path(std::string_view key, std::string_view suffix) const;
  bool contains(std::string_view key, std::string_view suffix) const;
  std::optional<std::string> read(std::string_view key, std::string_view suffix) const;

  // A path under directory/tmp/ that no other thread or process will use.
  // Throws DeviceError if the directory cannot be created.
  std::filesystem::path temporary_path(std::string_view suffix) const;
  // Moves a finished temporary into place (atomically replacing an existing entry, which by
  // construction has the same content). Throws DeviceError on failure.
  std::filesystem::path publish(const std::filesystem::path& temporary, std::string_view key,
                                std::string_view suffix) const;
  // temporary_path + write + publish.
  std::filesystem::path write(std::string_view key, std::string_view suffix, std::string_view contents) const;

  // Deletes temporaries older than `age` (left behind by killed processes); returns how many.
  std::size_t prune_temporaries(std::chrono::seconds age) const;

 private:
  std::filesystem::path directory_;
};

}  // namespace ktune::device
