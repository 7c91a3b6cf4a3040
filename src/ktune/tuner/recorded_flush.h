#pragma once
// Which L2 flush a recorded result was measured after (measure::L2Flush), read from its
// session's policy: resuming takes only results measured after the flush asked for now, since a
// memory-bound kernel's time differs by the write-back a dirty flush leaves it (15-20% on an
// H200 decode GEMM). Results recorded before the choice existed were measured after the dirty
// flush, as were results without a session.

#include <cstdint>
#include <map>

#include "ktune/db/database.h"
#include "ktune/measure/policy.h"

namespace ktune::tuner {

class RecordedFlush {
 public:
  explicit RecordedFlush(db::Database& database) : database_(database) {}
  measure::L2Flush of(const db::ResultRecord& result);  // looks each session up once

 private:
  db::Database& database_;
  std::map<std::int64_t, measure::L2Flush> sessions_;
};

}  // namespace ktune::tuner
