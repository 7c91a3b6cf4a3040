#include "ktune/tuner/session_arguments.h"

#include <algorithm>
#include <stdexcept>

#include "ktune/core/source_error.h"
#include "ktune/tuner/instantiate.h"
#include "ktune/verify/data_init.h"
#include "ktune/verify/poison.h"

namespace ktune::tuner {
namespace {

// Arrays of one argument kept at once (configs whose lengths differ, e.g. a workspace per block).
constexpr std::size_t kVariantsPerArgument = 4;

enum class Role { Input, Output, InitialisedOutput, Scratch };

Role role_of(const spec::Argument& a) {
  if (a.scratch) return Role::Scratch;
  if (a.output) return a.init_explicit ? Role::InitialisedOutput : Role::Output;
  return Role::Input;
}

}  // namespace

struct SessionArguments::Array {
  std::string key;  // type, length and init: equal keys hold equal initial data
  std::size_t elements = 0;
  std::unique_ptr<device::DeviceBuffer> working;   // what kernels are bound to
  std::unique_ptr<device::DeviceBuffer> pristine;  // the initial contents (not for plain outputs)
  std::vector<std::unique_ptr<device::DeviceBuffer>> rotation;  // copies of an input for timed runs
};

struct SessionArguments::Reference {
  std::vector<std::size_t> outputs;  // argument indices
  std::vector<std::unique_ptr<device::DeviceBuffer>> buffers;
};

SessionArguments::SessionArguments(const spec::TuningProblem& problem, device::DeviceMemory& memory)
    : problem_(problem), memory_(memory) {}

SessionArguments::~SessionArguments() = default;

void SessionArguments::make_pristine(Array& array) {
  // Made on the host once, uploaded once; later resets copy from the device's pristine buffer.
  std::size_t index = 0;
  for (const auto& [i, variants] : arrays_)
    for (const auto& v : variants)
      if (v.get() == &array) index = i;
  const spec::Argument& a = problem_.arguments[index];
  device::HostArgument host = device::array_argument(a.name, a.type, array.elements, a.output);
  try {
    verify::initialize(host.data, a.type, a.init);
  } catch (const std::exception& e) {
    throw SourceError(problem_.spec_path.string(), a.line, 0, "argument '" + a.name + "' init: " + e.what());
  }
  memory_.upload(*array.working, host.data);
  bytes_uploaded_ += host.data.size();
  if (role_of(a) != Role::Output) {
    if (!array.pristine) array.pristine = memory_.allocate(host.data.size());
    memory_.copy(*array.pristine, *array.working);
  }
}

SessionArguments::Array& SessionArguments::array_for(std::size_t index, const Config& config) {
  const spec::Argument& a = problem_.arguments[index];
  const std::size_t elements = array_length(problem_, index, config);
  const std::string key = std::string(element_type_name(a.type)) + ":" + std::to_string(elements) + ":" +
                          verify::init_to_json(a.init).dump();
  auto& variants = arrays_[index];
  for (std::size_t v = 0; v < variants.size(); ++v) {
    if (variants[v]->key != key) continue;
    std::rotate(variants.begin() + static_cast<std::ptrdiff_t>(v), variants.begin() + static_cast<std::ptrdiff_t>(v) + 1,
                variants.end());
    return *variants.back();
  }
  if (variants.size() >= kVariantsPerArgument) variants.erase(variants.begin());
  auto array = std::make_unique<Array>();
  array->key = key;
  array->elements = elements;
  array->working = memory_.allocate(elements * element_size(a.type));
  variants.push_back(std::move(array));
  ++arrays_made_;
  make_pristine(*variants.back());
  return *variants.back();
}

std::vector<device::BufferArgument> SessionArguments::arguments(const Config& config) {
  std::vector<device::BufferArgument> args;
  for (std::size_t i = 0; i < problem_.arguments.size(); ++i) {
    const spec::Argument& a = problem_.arguments[i];
    device::BufferArgument b;
    b.name = a.name;
    b.type = a.type;
    b.is_array = a.is_array;
    b.is_output = a.output;
    if (a.is_array) b.buffer = array_for(i, config).working.get();
    else b.value = make_argument(problem_, i, config).data;
    args.push_back(std::move(b));
  }
  return args;
}

std::size_t SessionArguments::add_rotation(std::vector<device::BufferArgument>& args, const Config& config,
                                           std::size_t min_total_bytes) {
  std::vector<Array*> inputs;
  std::size_t set_bytes = 0, held = 0;
  for (std::size_t i = 0; i < problem_.arguments.size(); ++i) {
    if (!problem_.arguments[i].is_array || role_of(problem_.arguments[i]) != Role::Input) continue;
    Array& a = array_for(i, config);
    if (a.working->bytes() == 0) continue;
    inputs.push_back(&a);
    set_bytes += a.working->bytes();
    held += a.rotation.size() * a.working->bytes();
  }
  const std::size_t sets =
      device::rotation_copies_needed(set_bytes, min_total_bytes, (memory_.free_bytes() + held) / 4);
  for (Array* a : inputs) {
    if (a->rotation.size() + 1 > sets) a->rotation.resize(sets > 1 ? sets - 1 : 0);
    while (a->rotation.size() + 1 < sets) {
      a->rotation.push_back(memory_.allocate(a->working->bytes()));
      memory_.copy(*a->rotation.back(), *a->pristine);
    }
  }
  rotation_sets_ = sets;
  if (sets < 2) return 1;
  for (std::size_t i = 0; i < args.size(); ++i) {
    if (!args[i].is_array || role_of(problem_.arguments[i]) != Role::Input) continue;
    Array& a = array_for(i, config);
    args[i].rotation.clear();
    for (auto& copy : a.rotation) args[i].rotation.push_back(copy.get());
  }
  return sets;
}

void SessionArguments::prepare_verified_run(const Config& config) {
  for (std::size_t i = 0; i < problem_.arguments.size(); ++i) {
    const spec::Argument& a = problem_.arguments[i];
    if (!a.is_array) continue;
    Array& array = array_for(i, config);
    switch (role_of(a)) {
      case Role::Input: break;
      case Role::Output: memory_.fill(*array.working, verify::poison_pattern(a.type)); break;
      case Role::InitialisedOutput:
      case Role::Scratch: memory_.copy(*array.working, *array.pristine); break;
    }
  }
}

std::vector<MemoryFinding> SessionArguments::check_memory(const Config& config) {
  std::vector<MemoryFinding> findings;
  for (std::size_t i = 0; i < problem_.arguments.size(); ++i) {
    const spec::Argument& a = problem_.arguments[i];
    if (!a.is_array) continue;
    Array& array = array_for(i, config);
    if (auto v = memory_.check_guards(*array.working)) findings.push_back({a.name, v->describe()});
    if (array.pristine) {
      if (auto v = memory_.check_guards(*array.pristine)) {
        findings.push_back({"pristine copy of " + a.name, v->describe()});
        make_pristine(array);  // the copy may be damaged inside too: made again from the spec
      }
    }
    if (role_of(a) == Role::Input) {
      if (auto at = memory_.first_difference(*array.working, *array.pristine)) {
        findings.push_back({a.name, "the kernel changed this input (first changed byte at offset " +
                                        std::to_string(*at) + "); declare it an output or scratch if it must"});
        memory_.copy(*array.working, *array.pristine);
      }
    }
  }
  for (auto it = references_.begin(); it != references_.end();) {
    bool damaged = false;
    for (std::size_t k = 0; k < it->second->buffers.size(); ++k) {
      if (auto v = memory_.check_guards(*it->second->buffers[k])) {
        findings.push_back({"reference " + problem_.arguments[it->second->outputs[k]].name, v->describe()});
        damaged = true;
      }
    }
    // A damaged reference is computed again when next needed.
    it = damaged ? references_.erase(it) : std::next(it);
  }
  return findings;
}

std::string SessionArguments::reference_key(const Config& config) {
  std::string id;
  for (std::size_t i = 0; i < problem_.arguments.size(); ++i) {
    const spec::Argument& a = problem_.arguments[i];
    id += a.name + ":" + std::string(element_type_name(a.type)) + ":";
    if (a.is_array) {
      id += std::to_string(array_length(problem_, i, config));
    } else {
      for (std::byte b : make_argument(problem_, i, config).data) id += std::to_string(static_cast<int>(b)) + ",";
    }
    id += ";";
  }
  return id;
}

bool SessionArguments::ensure_reference(const Config& reference_config, const ReferenceRunner& run_reference) {
  const std::string key = reference_key(reference_config);
  if (references_.count(key)) return false;
  std::vector<device::BufferArgument> args = arguments(reference_config);
  prepare_verified_run(reference_config);
  run_reference(args);
  std::vector<MemoryFinding> findings = check_memory(reference_config);
  if (!findings.empty()) {
    std::string text;
    for (const auto& f : findings) text += (text.empty() ? "" : "; ") + f.describe();
    throw std::runtime_error("the reference kernel damaged memory it must not touch: " + text);
  }
  auto reference = std::make_unique<Reference>();
  for (std::size_t i = 0; i < problem_.arguments.size(); ++i) {
    if (!problem_.arguments[i].output) continue;
    Array& array = array_for(i, reference_config);
    reference->outputs.push_back(i);
    reference->buffers.push_back(memory_.allocate(array.working->bytes()));
    memory_.copy(*reference->buffers.back(), *array.working);
  }
  references_.emplace(key, std::move(reference));
  return true;
}

std::vector<std::pair<std::string, verify::Comparison>> SessionArguments::compare_outputs(
    const Config& config, const Config& reference_config, const verify::Tolerance& tolerance) {
  auto it = references_.find(reference_key(reference_config));
  if (it == references_.end()) throw std::logic_error("compare_outputs: the reference was not computed");
  const Reference& reference = *it->second;
  std::vector<std::pair<std::string, verify::Comparison>> results;
  for (std::size_t k = 0; k < reference.outputs.size(); ++k) {
    const spec::Argument& a = problem_.arguments[reference.outputs[k]];
    Array& array = array_for(reference.outputs[k], config);
    const device::DeviceBuffer& expected = *reference.buffers[k];
    if (expected.bytes() != array.working->bytes())
      throw std::runtime_error("output '" + a.name + "' has " + std::to_string(array.elements) +
                               " elements but the reference produced " +
                               std::to_string(expected.bytes() / element_size(a.type)));
    results.emplace_back(a.name, memory_.compare(*array.working, expected, a.type, tolerance));
  }
  return results;
}

nlohmann::json SessionArguments::stats() const {
  return {{"arrays_made", arrays_made_}, {"bytes_uploaded", bytes_uploaded_}, {"rotation_sets", rotation_sets_}};
}

}  // namespace ktune::tuner
