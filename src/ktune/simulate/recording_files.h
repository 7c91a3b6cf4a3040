#pragma once
// Recordings as files, whatever wrote them: ktune's recorded-space JSON, Kernel Tuner's cache
// file or T4 results (kernel_tuner_format.h), or a ktune database (record_from_database.h). The
// format is told by the content, not the name.

#include <filesystem>
#include <string>

#include "ktune/simulate/record_from_database.h"
#include "ktune/simulate/recorded_space.h"

namespace ktune::simulate {

enum class RecordingFormat { Ktune, KernelTunerCache, T4 };
// "ktune", "kt-cache", "t4"; throws std::invalid_argument listing them.
RecordingFormat parse_recording_format(const std::string& name);

// `selection` only applies to a database. Throws RecordingError naming the file.
RecordedSpace read_recording(const std::filesystem::path& path, const RecordSelection& selection = {});
void write_recording(const RecordedSpace& space, const std::filesystem::path& path, RecordingFormat format);

}  // namespace ktune::simulate
