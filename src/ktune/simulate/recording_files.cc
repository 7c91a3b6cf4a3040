#include "ktune/simulate/recording_files.h"

#include <fstream>
#include <stdexcept>

#include "ktune/simulate/kernel_tuner_format.h"

namespace ktune::simulate {
namespace {

bool is_sqlite(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  char magic[16] = {};
  in.read(magic, sizeof magic);
  return in.gcount() == 16 && std::string(magic, 15) == "SQLite format 3";
}

RecordedSpace from_document(const nlohmann::json& doc, const std::string& origin) {
  if (doc.is_object() && doc.value("format", std::string()) == "ktune-recorded-space") {
    return recorded_space_from_json(doc, origin);
  }
  if (doc.is_object() && doc.contains("cache") && doc.contains("tune_params")) {
    return recorded_space_from_kernel_tuner_cache(doc, origin);
  }
  if (doc.is_object() && doc.contains("schema_version") && doc.contains("results")) {
    return recorded_space_from_t4_results(doc, origin);
  }
  throw RecordingError(origin + ": neither a ktune recorded space, a Kernel Tuner cache file nor T4 results");
}

}  // namespace

RecordingFormat parse_recording_format(const std::string& name) {
  if (name == "ktune") return RecordingFormat::Ktune;
  if (name == "kt-cache") return RecordingFormat::KernelTunerCache;
  if (name == "t4") return RecordingFormat::T4;
  throw std::invalid_argument("unknown recording format '" + name + "'; valid: ktune, kt-cache, t4");
}

RecordedSpace read_recording(const std::filesystem::path& path, const RecordSelection& selection) {
  if (!std::filesystem::is_regular_file(path)) throw RecordingError(path.string() + ": no such file");
  if (is_sqlite(path)) {
    db::Database database(path);
    try {
      return record_from_database(database, selection);
    } catch (const RecordingError& e) {
      throw RecordingError(path.string() + ": " + e.what());
    }
  }
  std::ifstream in(path);
  nlohmann::json doc;
  try {
    doc = nlohmann::json::parse(in);
  } catch (const nlohmann::json::parse_error& e) {
    throw RecordingError(path.string() + ": not JSON: " + e.what());
  }
  try {
    return from_document(doc, path.string());
  } catch (const nlohmann::json::exception& e) {
    throw RecordingError(path.string() + ": " + e.what());
  }
}

void write_recording(const RecordedSpace& space, const std::filesystem::path& path, RecordingFormat format) {
  if (format == RecordingFormat::Ktune) return save_recorded_space(space, path);
  std::ofstream out(path);
  out << (format == RecordingFormat::T4 ? to_t4_results(space) : to_kernel_tuner_cache(space)).dump(1) << "\n";
  if (!out) throw RecordingError(path.string() + ": cannot be written");
}

}  // namespace ktune::simulate
