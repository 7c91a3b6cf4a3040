#pragma once
// The outcome of evaluating one configuration, as stored in the results table.

#include <optional>
#include <string_view>

namespace ktune::db {

enum class Status {
  Ok,             // compiled, ran, verified, timed
  CompileError,   // the compiler rejected the config
  RuntimeError,   // launch or execution failed (bad launch config, illegal address, ...)
  Timeout,        // exceeded the time limit (compile or run)
  WrongResult,    // ran, but the output did not match the reference
  ResourceLimit,  // needs more registers / shared memory / threads than the device has
  Crashed,        // the worker process died (signal, abort)
  Skipped,        // not run on purpose (pruned by racing or a constraint discovered late)
  MemoryError,    // wrote outside its arrays (guard bands), into an input, or was flagged by
                  // compute-sanitizer (ktune tune --sanitize); the error names the buffer
};

// Stable lower_snake_case names, used in the database, CSV/JSON exports and the CLI.
std::string_view to_string(Status status);
std::optional<Status> status_from_string(std::string_view text);

}  // namespace ktune::db
