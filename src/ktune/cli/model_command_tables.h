#pragma once
// The text tables of `ktune model dispatches / inspect / candidates / profile / tune / rank`: one row of cells
// per dispatch or candidate, built from what src/ktune/iree computed (no logic of their own), then
// rendered with each column as wide as its widest cell, so that long names (pipelines such as
// LLVMGPUVectorDistribute, IREE's export names) never push the columns after them out of line.

#include <cstddef>
#include <string>
#include <vector>

#include "ktune/iree/candidate_compile.h"
#include "ktune/iree/compile_model.h"
#include "ktune/iree/matmul_candidates.h"
#include "ktune/iree/model_inspection.h"
#include "ktune/iree/model_tuning.h"
#include "ktune/iree/offline_rank.h"

namespace ktune::cli {

class TextTable {
 public:
  explicit TextTable(std::vector<std::string> header);
  // Right-aligns a column (numbers).
  TextTable& align_right(std::size_t column);
  // A row with fewer cells than the header is padded with empty cells.
  void add_row(std::vector<std::string> cells);
  std::size_t rows() const { return rows_.size() - 1; }
  const std::vector<std::string>& row(std::size_t i) const { return rows_.at(i + 1); }
  // Header and rows, columns two spaces apart; the last column is not padded, so a long last
  // cell (an error, a list of findings) widens nothing.
  std::string render() const;

 private:
  std::vector<std::vector<std::string>> rows_;  // the header first
  std::vector<bool> right_;
};

// `model dispatches`: what IREE configured, one row per dispatch.
TextTable dispatches_table(const iree::CompiledModel& model);
// `model inspect`: IREE's choices and the kernel's resources, one row per dispatch.
TextTable inspection_table(const iree::ModelInspection& inspection);
// `model candidates`: each candidate's knobs, and, when `build_requested` (--build K > 0), the
// build of the first builds.size() of them ("not built" after those).
TextTable candidates_table(const std::vector<iree::MatmulCandidate>& candidates,
                           const std::vector<iree::CandidateBuild>& builds, bool build_requested);
// `model profile` / `model tune`: the dispatches by share.
TextTable profile_table(const iree::ModelProfile& profile);
// `model tune`: per tuned dispatch, its candidates, what was measured, the best against default.
TextTable tuning_table(const iree::ModelTuning& tuning);
// `model rank`: a dispatch's first `max_rows` candidates by static rank (not times).
TextTable ranking_table(const iree::DispatchRanking& ranking, std::size_t max_rows);

}  // namespace ktune::cli
