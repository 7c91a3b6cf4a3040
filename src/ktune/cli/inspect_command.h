#pragma once
// What `ktune inspect --result ID` shows, for other commands (the HTML report's winner section).

#include <cstdint>
#include <string>

#include "ktune/cli/common.h"

namespace ktune::cli {

// The inspect view of a recorded result as text: its recorded resources and occupancy, and —
// when the session's spec file still exists — the same configuration compiled again for the
// ISA checks (PTX, SASS where cuobjdump exists, AMD assembly). Problems become notes in the
// text; throws only when the database or the result cannot be read.
std::string inspect_result_text(const GlobalOptions& global, std::int64_t result_id);

}  // namespace ktune::cli
