#pragma once
// A dispatch's code replaced by a file of the user's (seed-000's loop: dump, edit the assembly,
// reassemble, substitute, check): the model recompiled with
// `--iree-hal-substitute-executable-object=<executable>=<file>` (executables not linked, one
// binary each, which is what substitution replaces), then the module checked: it must carry
// each file's bytes verbatim and no longer carry the code object IREE built for that dispatch.

#include <cstddef>
#include <filesystem>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "ktune/iree/compile_model.h"
#include "ktune/iree/iree_tools.h"

namespace ktune::iree {

struct ObjectSubstitution {
  std::string dispatch;          // the executable's name, as `ktune model dump` lists it
  std::filesystem::path file;    // .hsaco (or .ptx for CUDA)
};

// "DISPATCH=FILE"; throws IreeError naming what is wrong.
ObjectSubstitution parse_object_substitution(const std::string& text);

struct SubstitutedObject {
  ObjectSubstitution substitution;
  std::filesystem::path original;  // IREE's own object for the dispatch (from `original`'s dump)
  std::size_t bytes = 0;
  bool carried = false;            // the module contains the file's bytes
  bool original_gone = false;      // ... and not IREE's own object's
};

struct SubstitutionResult {
  CompiledModel build;                     // the model compiled with the substitutions
  std::vector<SubstitutedObject> objects;
  bool verified() const;                   // every object carried, every original gone
};

// `original`: the model compiled with link_executables = false (its dump names the dispatches
// and holds their objects). Throws IreeError for a dispatch the model does not have (naming
// those it has), a missing file, or a failing iree-compile (its message).
SubstitutionResult substitute_objects(const IreeTools& tools, const CompiledModel& original,
                                      const std::vector<ObjectSubstitution>& substitutions,
                                      const std::filesystem::path& out_dir);

nlohmann::json to_json(const SubstitutionResult& result);

}  // namespace ktune::iree
