// ktune calibrate: measure a device's ceilings (copy bandwidth, FP32 and tensor-core peaks)
// once and store them for the roofline; --show prints what is stored.

#include <cstdio>
#include <iostream>
#include <sstream>

#include "ktune/cli/common.h"
#include "ktune/calibrate/device_calibration.h"
#include "ktune/cli/roofline_view.h"
#include "ktune/db/calibrations.h"
#include "ktune/db/database.h"
#include "ktune/device/registry.h"

namespace ktune::cli {

namespace {

struct CalibrateArgs {
  std::string backend = "auto";
  int device = 0;
  std::string tensor = "bf16,f16,tf32,fp8";
  std::int64_t gemm_size = 8192;
  double max_seconds = 4.0;
  bool show = false;
};

std::vector<std::string> split_list(const std::string& text) {
  std::vector<std::string> out;
  std::stringstream in(text);
  for (std::string item; std::getline(in, item, ',');)
    if (!item.empty()) out.push_back(item);
  return out;
}

std::string resolve_backend(const std::string& requested) {
  if (requested != "auto") return requested;
  // A GPU when there is one: its ceilings are the ones the roofline is usually wanted for.
  return device::make_backend("cuda")->availability().available ? "cuda" : "cpu";
}

nlohmann::json ridges(const analysis::DeviceCeilings& c) {
  nlohmann::json j = nlohmann::json::object();
  if (!c.copy_gbps) return j;
  if (auto fp32 = analysis::compute_roof(c, "fp32")) j["fp32"] = fp32->gflops / *c.copy_gbps;
  for (const auto& [math, tflops] : c.tensor_tflops)
    if (auto roof = analysis::compute_roof(c, math)) j[math] = roof->gflops / *c.copy_gbps;
  return j;
}

nlohmann::json calibration_json(const db::DeviceRecord& device, const db::CalibrationRecord& c) {
  return {{"device",
           {{"id", device.id}, {"name", device.name}, {"backend", device.backend}, {"fingerprint", device.fingerprint}}},
          {"calibration", db::to_json(c)},
          {"ridge_intensity", ridges(ceilings_of(c))}};
}

void print_calibration(const db::DeviceRecord& device, const db::CalibrationRecord& c) {
  std::printf("%s (%s, fingerprint %s)\n", device.name.c_str(), device.backend.c_str(),
              device.fingerprint.substr(0, 16).c_str());
  std::printf("  calibration #%lld, %s\n", static_cast<long long>(c.id), c.created_at.c_str());
  if (c.copy_gbps) std::printf("  copy bandwidth  %10.1f GB/s      (read + write)\n", *c.copy_gbps);
  if (c.fp32_gflops) std::printf("  FP32 peak       %10.1f GFLOP/s\n", *c.fp32_gflops);
  for (const auto& [math, tflops] : c.tensor_tflops)
    std::printf("  tensor %-8s %10.1f TFLOP/s\n", math.c_str(), tflops);
  const nlohmann::json r = ridges(ceilings_of(c));
  if (!r.empty()) {
    std::printf("  ridge point    ");
    for (const auto& [math, value] : r.items())
      std::printf(" %s %s", math.c_str(), format_intensity(value.get<double>()).c_str());
    std::printf(" FLOP/byte\n");
  }
  if (c.method.contains("notes"))
    for (const auto& note : c.method.at("notes"))
      if (note.is_string()) std::printf("  note: %s\n", note.get<std::string>().c_str());
}

int show(const GlobalOptions& global, const CalibrateArgs& args, bool backend_given) {
  db::Database database(database_path(global), db::OpenOptions{.create_if_missing = false});
  std::vector<db::DeviceRecord> devices;
  if (backend_given) {
    const std::string backend_name = resolve_backend(args.backend);
    auto backend = device::make_backend(backend_name);
    const device::Availability a = backend->availability();
    if (!a.available)
      throw std::runtime_error("the " + backend_name + " backend is not available on this machine: " + a.reason);
    const auto infos = backend->devices();
    if (args.device < 0 || static_cast<std::size_t>(args.device) >= infos.size())
      throw std::runtime_error("no " + backend_name + " device " + std::to_string(args.device));
    if (auto d = database.device_by_fingerprint(infos[static_cast<std::size_t>(args.device)].fingerprint))
      devices.push_back(*d);
  } else {
    devices = database.devices();
  }
  nlohmann::json out = nlohmann::json::array();
  bool printed = false;
  for (const auto& device : devices) {
    auto c = db::latest_calibration(database, device.id);
    if (!c) continue;
    if (global.json) {
      out.push_back(calibration_json(device, *c));
    } else {
      if (printed) std::printf("\n");
      print_calibration(device, *c);
    }
    printed = true;
  }
  if (global.json) print_json(out);
  else if (!printed) std::printf("%s\n", kNoCalibration);
  return printed ? kExitOk : kExitError;
}

int run(const GlobalOptions& global, const CalibrateArgs& args) {
  calibrate::CalibrationOptions options;
  options.backend = resolve_backend(args.backend);
  options.device = args.device;
  options.tensor_maths = split_list(args.tensor);
  for (const std::string& math : options.tensor_maths)
    if (math != "bf16" && math != "f16" && math != "tf32" && math != "fp8")
      throw CLI::ValidationError("--tensor", "unknown tensor math '" + math + "' (bf16, f16, tf32, fp8)");
  options.gemm_size = args.gemm_size;
  options.max_seconds_per_ceiling = args.max_seconds;
  if (!global.json) options.progress = [](const std::string& line) { std::fprintf(stderr, "%s\n", line.c_str()); };
  const calibrate::CalibrationOutcome outcome = calibrate::calibrate_device(options);

  db::Database database(database_path(global));
  db::DeviceRecord device{0, outcome.device.fingerprint, outcome.device.backend, outcome.device.name,
                          outcome.device.properties};
  device.id = database.upsert_device(device);
  db::CalibrationRecord record;
  record.device_id = device.id;
  record.copy_gbps = outcome.ceilings.copy_gbps;
  record.fp32_gflops = outcome.ceilings.fp32_gflops;
  record.tensor_tflops = outcome.ceilings.tensor_tflops;
  record.method = outcome.method;
  record.id = db::insert_calibration(database, record);
  auto stored = db::latest_calibration(database, device.id);
  if (!stored) throw std::runtime_error("calibrate: the calibration was not stored");
  if (global.json) print_json(calibration_json(device, *stored));
  else print_calibration(device, *stored);
  return kExitOk;
}

}  // namespace

void add_calibrate_command(CLI::App& app, GlobalOptions& global, Handler& handler) {
  auto args = std::make_shared<CalibrateArgs>();
  CLI::App* cmd = app.add_subcommand(
      "calibrate", "Measure a device's ceilings (copy bandwidth, FP32 and tensor-core peaks) for the roofline");
  CLI::Option* backend = cmd->add_option("--backend", args->backend, "cuda, cpu, or auto (cuda when available)")
                             ->check(CLI::IsMember({"auto", "cuda", "cpu"}));
  cmd->add_option("--device", args->device, "Device ordinal within the backend")->check(CLI::NonNegativeNumber);
  cmd->add_option("--tensor", args->tensor, "Tensor-core maths to measure with cuBLASLt (comma list; empty: none)");
  cmd->add_option("--gemm-size", args->gemm_size, "M = N = K of the tensor-core GEMMs")->check(CLI::Range(256, 32768));
  cmd->add_option("--max-seconds", args->max_seconds, "Measurement time limit per ceiling")
      ->check(CLI::Range(0.1, 600.0));
  cmd->add_flag("--show", args->show, "Print the stored calibration instead of measuring");
  cmd->callback([&global, &handler, args, backend] {
    const bool backend_given = backend->count() > 0;
    handler = [&global, args, backend_given]() -> int {
      return args->show ? show(global, *args, backend_given) : run(global, *args);
    };
  });
}

}  // namespace ktune::cli
