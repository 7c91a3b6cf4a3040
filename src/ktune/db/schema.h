#pragma once
// Schema creation and forward migrations, versioned with PRAGMA user_version.

#include "ktune/db/sqlite.h"

namespace ktune::db {

// 'ktun' in ASCII: marks a file as a ktune database (PRAGMA application_id).
inline constexpr int kApplicationId = 0x6b74756e;
// The schema version this build writes. Bump it (and append a migration) for any change to
// tables, and also when a Status or session state is added, so older builds refuse the file
// instead of misreading it.
inline constexpr int kSchemaVersion = 3;  // 2: device_calibrations, 3: results.phases + sanitizer

// Brings the database up to kSchemaVersion inside one IMMEDIATE transaction, so a crash or a
// second process never sees a half-migrated schema. Throws std::runtime_error when the file
// belongs to another application or to a newer ktune.
void migrate(Connection& connection);

}  // namespace ktune::db
