#pragma once
// The arguments of one problem on one device, made and uploaded once per worker and reused by
// every candidate: inputs, outputs, scratch, each candidate-invariant array kept on the device
// with its pristine copy; the reference outputs computed once and kept on the device too.
// Around each verified run it resets what the run may change (outputs poisoned or reset to
// their init, scratch reset), and afterwards checks memory: guard bands of every buffer, inputs
// against their pristine copies, the reference copies' bands. Only summaries cross to the host.

#include <cstddef>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "ktune/core/config.h"
#include "ktune/device/device.h"
#include "ktune/spec/problem.h"
#include "ktune/verify/compare.h"

namespace ktune::tuner {

// What a candidate did to memory it must not touch.
struct MemoryFinding {
  std::string buffer;  // the argument's name ("reference 'y'" for a reference copy)
  std::string what;    // "12 bytes written past the end (...)", "input changed at byte 4096"
  std::string describe() const { return "'" + buffer + "': " + what; }
};

class SessionArguments {
 public:
  SessionArguments(const spec::TuningProblem& problem, device::DeviceMemory& memory);
  ~SessionArguments();
  SessionArguments(const SessionArguments&) = delete;
  SessionArguments& operator=(const SessionArguments&) = delete;

  // The arguments for `config`, in the kernel's order. Arrays whose length and init match an
  // earlier config's are reused as they are; others are made, uploaded and kept.
  std::vector<device::BufferArgument> arguments(const Config& config);

  // Keeps rotation copies of the current inputs spanning at least min_total_bytes (and at most
  // a quarter of free device memory) and adds them to `args`. Returns the number of sets (1:
  // rotation impossible, nothing added).
  std::size_t add_rotation(std::vector<device::BufferArgument>& args, const Config& config,
                           std::size_t min_total_bytes);

  // Before a verified run of `config`'s arguments: outputs without an init in the spec are
  // poisoned, outputs with one and scratch arrays are reset to it.
  void prepare_verified_run(const Config& config);

  // After a run: every guard band, every input against its pristine copy. Damaged buffers are
  // repaired (bands refilled, inputs restored) so the next candidate starts clean.
  std::vector<MemoryFinding> check_memory(const Config& config);

  // The reference outputs for the arguments of `reference_config`, computed once by running
  // `run_reference` (which must bind and run the reference kernel on `args`). Returns false
  // when they were cached. Throws std::runtime_error when the reference writes an input.
  using ReferenceRunner = std::function<void(const std::vector<device::BufferArgument>& args)>;
  bool ensure_reference(const Config& reference_config, const ReferenceRunner& run_reference);

  // Each output of `config` against the reference of `reference_config`: {name -> comparison}.
  std::vector<std::pair<std::string, verify::Comparison>> compare_outputs(const Config& config,
                                                                         const Config& reference_config,
                                                                         const verify::Tolerance& tolerance);

  // Bytes held on the device and how often arrays were made (for the phase report).
  nlohmann::json stats() const;

 private:
  struct Array;
  struct Reference;
  Array& array_for(std::size_t index, const Config& config);
  std::string reference_key(const Config& config);
  void make_pristine(Array& array);

  const spec::TuningProblem& problem_;
  device::DeviceMemory& memory_;
  // Per argument index: the variants made so far (different lengths), most recent last.
  std::map<std::size_t, std::vector<std::unique_ptr<Array>>> arrays_;
  std::map<std::string, std::unique_ptr<Reference>> references_;
  std::size_t arrays_made_ = 0;
  std::size_t bytes_uploaded_ = 0;
  std::size_t rotation_sets_ = 1;
};

}  // namespace ktune::tuner
