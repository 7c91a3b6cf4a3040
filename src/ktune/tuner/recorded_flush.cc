#include "ktune/tuner/recorded_flush.h"

#include <optional>
#include <string>

namespace ktune::tuner {

measure::L2Flush RecordedFlush::of(const db::ResultRecord& result) {
  auto [it, inserted] = sessions_.try_emplace(result.session_id, measure::L2Flush::Dirty);
  if (!inserted || result.session_id == 0) return it->second;
  if (std::optional<db::SessionRecord> s = database_.session(result.session_id)) {
    const nlohmann::json policy = s->options.value("policy", nlohmann::json::object());
    if (policy.is_object() && policy.value("l2_flush", std::string("dirty")) == "clean") it->second = measure::L2Flush::Clean;
  }
  return it->second;
}

}  // namespace ktune::tuner
