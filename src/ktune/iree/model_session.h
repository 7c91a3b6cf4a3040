#pragma once
// What every IREE candidate of one model shares: the tools, the model compiled with IREE's
// defaults (its dump holds the dispatches), the entry function's signature and the random
// inputs (.npy, made once from a seed), and the work directory candidates are built in.

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "ktune/iree/compile_model.h"
#include "ktune/iree/iree_evaluation.h"
#include "ktune/iree/model_signature.h"

namespace ktune::iree {

struct ModelSession {
  IreeTools tools;
  CompiledModel model;  // the default build
  FunctionSignature function;
  std::vector<std::string> other_functions;  // the module's other exported functions
  std::vector<std::filesystem::path> inputs;
  std::filesystem::path work_dir;
  std::vector<std::string> extra_flags;  // given to every iree-compile (--iree-flag)
  std::string model_hash;                // sha256 of the model's text

  // A request with the tools, device, function, inputs and output types filled in.
  IreeEvaluationRequest request_base(int ordinal) const;
};

struct ModelSessionOptions {
  std::string function;  // empty: the only exported function
  std::uint64_t seed = 0;
  std::vector<std::string> extra_flags;
};

// Where `model profile` / `model tune` build when not told (--work-dir): beside the database
// that records the session's results, <db dir>/ktune-work/<model stem>-<chip>-<8 hex digits of
// the model's absolute path>, never the current directory. The database is what a re-run resumes
// from, so the builds its results name stay with it wherever the command runs from; the path's
// digest keeps two models of one name (a/model.mlir, b/model.mlir) apart.
std::filesystem::path default_work_dir(const std::filesystem::path& db_path, const std::filesystem::path& model,
                                       const Target& target);

// Compiles `model` for `target` into work_dir/default, reads its signature and writes random
// inputs (uniform in [-1, 1) for floats, [-4, 4] for integers) to work_dir/inputs. Throws
// IreeError naming the model and what failed.
ModelSession open_model_session(const IreeTools& tools, const std::filesystem::path& model, const Target& target,
                                const std::filesystem::path& work_dir, const ModelSessionOptions& options);

}  // namespace ktune::iree
