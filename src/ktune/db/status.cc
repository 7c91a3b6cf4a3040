#include "ktune/db/status.h"

#include <array>
#include <utility>

namespace ktune::db {

namespace {

constexpr std::array<std::pair<Status, std::string_view>, 9> kStatusNames{{
    {Status::Ok, "ok"},
    {Status::CompileError, "compile_error"},
    {Status::RuntimeError, "runtime_error"},
    {Status::Timeout, "timeout"},
    {Status::WrongResult, "wrong_result"},
    {Status::ResourceLimit, "resource_limit"},
    {Status::Crashed, "crashed"},
    {Status::Skipped, "skipped"},
    {Status::MemoryError, "memory_error"},
}};

}  // namespace

std::string_view to_string(Status status) {
  for (const auto& [value, name] : kStatusNames) {
    if (value == status) return name;
  }
  return "unknown";
}

std::optional<Status> status_from_string(std::string_view text) {
  for (const auto& [value, name] : kStatusNames) {
    if (name == text) return value;
  }
  return std::nullopt;
}

}  // namespace ktune::db
