#pragma once
// The child side of a worker: a loop that reads requests, calls a handler, writes replies.
// A worker executable is typically
//
//   int main() { return ktune::worker::serve_from_environment(my_handler); }
//
// and is started by WorkerProcess, which passes the protocol descriptors in
// KTUNE_WORKER_FDS ("<in>,<out>"). The handler decides what requests mean.

#include <functional>
#include <string_view>

#include <nlohmann/json.hpp>

namespace ktune::worker {

using Handler = std::function<nlohmann::json(const nlohmann::json& request)>;

inline constexpr std::string_view kFdsEnvironmentVariable = "KTUNE_WORKER_FDS";

// Serves until end of file on in_fd or an exit message from the parent (see README.md).
// A handler exception becomes the reply {"error": "<what()>"} and the worker stays alive.
// Returns 0 on a clean end, 2 on a protocol error (reported on stderr), 1 when the parent
// went away while a reply was being written.
int serve(int in_fd, int out_fd, const Handler& handler);

// Reads KTUNE_WORKER_FDS and serves. Returns 2 with a message on stderr when the variable
// is missing or malformed (the program was not started by WorkerProcess).
int serve_from_environment(const Handler& handler);

}  // namespace ktune::worker
