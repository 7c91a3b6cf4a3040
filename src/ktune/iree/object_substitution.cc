#include "ktune/iree/object_substitution.h"

#include <algorithm>
#include <optional>

#include "ktune/core/read_file.h"

namespace ktune::iree {
namespace fs = std::filesystem;

ObjectSubstitution parse_object_substitution(const std::string& text) {
  const std::size_t eq = text.find('=');
  if (eq == std::string::npos || eq == 0 || eq + 1 == text.size())
    throw IreeError("substitution '" + text + "': expected DISPATCH=FILE (e.g. mlp_dispatch_0=edited.hsaco)");
  return {text.substr(0, eq), fs::path(text.substr(eq + 1))};
}

bool SubstitutionResult::verified() const {
  return !objects.empty() &&
         std::all_of(objects.begin(), objects.end(), [](const SubstitutedObject& o) { return o.carried && o.original_gone; });
}

namespace {

std::string bytes_of(const fs::path& path) {
  std::optional<std::string> bytes = read_file(path);
  if (!bytes) throw IreeError("cannot read " + path.string());
  return *bytes;
}

}  // namespace

SubstitutionResult substitute_objects(const IreeTools& tools, const CompiledModel& original,
                                      const std::vector<ObjectSubstitution>& substitutions, const fs::path& out_dir) {
  if (substitutions.empty()) throw IreeError("nothing to substitute: give DISPATCH=FILE");
  SubstitutionResult result;
  CompileOptions options;
  options.link_executables = false;
  for (const ObjectSubstitution& s : substitutions) {
    const DumpedDispatch& d = find_dispatch(original, s.dispatch);
    if (!fs::is_regular_file(s.file)) throw IreeError("substitution for " + s.dispatch + ": no file " + s.file.string());
    if (d.object.empty())
      throw IreeError(original.model.string() + ": the dump has no object of its own for " + s.dispatch +
                      " (was it compiled with executables linked?)");
    SubstitutedObject o;
    o.substitution = {s.dispatch, fs::absolute(s.file)};
    o.original = d.object;
    result.objects.push_back(o);
    options.extra_flags.push_back("--iree-hal-substitute-executable-object=" + s.dispatch + "=" + o.substitution.file.string());
  }
  result.build = compile_model(tools, original.model, original.target, out_dir, options);
  // The module embeds each executable's object verbatim: a byte search of the .vmfb is the check.
  const std::string module = bytes_of(result.build.vmfb);
  for (SubstitutedObject& o : result.objects) {
    const std::string mine = bytes_of(o.substitution.file), theirs = bytes_of(o.original);
    o.bytes = mine.size();
    o.carried = !mine.empty() && module.find(mine) != std::string::npos;
    o.original_gone = mine == theirs || module.find(theirs) == std::string::npos;
  }
  return result;
}

nlohmann::json to_json(const SubstitutionResult& result) {
  nlohmann::json objects = nlohmann::json::array();
  for (const SubstitutedObject& o : result.objects)
    objects.push_back({{"dispatch", o.substitution.dispatch}, {"file", o.substitution.file.string()},
                       {"original", o.original.string()}, {"bytes", o.bytes}, {"carried", o.carried},
                       {"original_gone", o.original_gone}});
  return {{"vmfb", result.build.vmfb.string()},
          {"command", result.build.command},
          {"compile_seconds", result.build.seconds},
          {"objects", objects},
          {"verified", result.verified()}};
}

}  // namespace ktune::iree
