#include <ktune/ktune.h>

#include "ktune/core/config.h"
#include "ktune/db/database.h"

namespace ktune {

struct TuningDatabase::Impl {
  explicit Impl(const std::filesystem::path& path) : db(path, db::OpenOptions{.create_if_missing = false}) {}
  db::Database db;
};

TuningDatabase::TuningDatabase(const std::string& path)
    : impl_(std::make_unique<Impl>(path.empty() ? db::Database::default_path() : std::filesystem::path(path))) {}
TuningDatabase::~TuningDatabase() = default;
TuningDatabase::TuningDatabase(TuningDatabase&&) noexcept = default;
TuningDatabase& TuningDatabase::operator=(TuningDatabase&&) noexcept = default;

namespace {

std::string text_of(const nlohmann::json& v) { return v.is_string() ? v.get<std::string>() : value_from_json(v).to_string(); }

TunedConfig to_tuned(db::Database& database, const db::ResultRecord& r) {
  TunedConfig t;
  for (const auto& [name, value] : r.config.items()) t.parameters[name] = text_of(value);
  t.median_seconds = r.median_s.value_or(0);
  t.gflops = r.gflops;
  t.gbps = r.gbps;
  t.result_id = r.id;
  if (auto p = database.problem(r.problem_id)) {
    t.problem = p->name;
    for (const auto& [name, value] : p->sizes.items()) t.sizes[name] = text_of(value);
  }
  if (auto d = database.device(r.device_id)) {
    t.device_name = d->name;
    t.device_fingerprint = d->fingerprint;
  }
  return t;
}

}  // namespace

std::optional<TunedConfig> TuningDatabase::best(const std::string& problem,
                                                const std::map<std::string, std::string>& sizes,
                                                const std::string& device_fingerprint) const {
  db::ResultQuery q;
  q.problem_name = problem;
  q.status = db::Status::Ok;
  q.only_best_per_problem = true;
  q.order = db::ResultOrder::Fastest;
  if (!device_fingerprint.empty()) q.device_fingerprint = device_fingerprint;
  for (const auto& r : impl_->db.query(q)) {
    TunedConfig t = to_tuned(impl_->db, r);
    bool match = true;
    for (const auto& [name, value] : sizes) {
      auto it = t.sizes.find(name);
      // Compare as values so that "1024" matches 1024 and "0.5" matches 0.50.
      match = match && it != t.sizes.end() && Value::parse_literal(it->second) == Value::parse_literal(value);
    }
    if (match) return t;
  }
  return std::nullopt;
}

std::vector<TunedConfig> TuningDatabase::all_best() const {
  db::ResultQuery q;
  q.status = db::Status::Ok;
  q.only_best_per_problem = true;
  std::vector<TunedConfig> out;
  for (const auto& r : impl_->db.query(q)) out.push_back(to_tuned(impl_->db, r));
  return out;
}

}  // namespace ktune
