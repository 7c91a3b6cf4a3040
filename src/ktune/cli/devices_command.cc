// ktune devices: which backends this binary has, which are usable here, and their devices.

#include <cstdio>

#include "ktune/cli/common.h"
#include "ktune/device/device.h"
#include "ktune/device/registry.h"
#include "ktune/iree/iree_tools.h"

namespace ktune::cli {

void add_devices_command(CLI::App& app, GlobalOptions& global, Handler& handler) {
  CLI::App* cmd = app.add_subcommand(
      "devices", "List backends (cpu, cuda, hip), whether each is available, and devices; and whether IREE's tools are usable");
  static std::string iree_dir;
  cmd->add_option("--iree-tools", iree_dir, "Directory of IREE's tools (default: $KTUNE_IREE_DIR, .venv/bin, PATH)");
  cmd->callback([&global, &handler] {
    handler = [&global]() -> int {
      nlohmann::json out = nlohmann::json::array();
      for (const auto& backend : device::all_backends()) {
        device::Availability a = backend->availability();
        nlohmann::json b = {{"backend", backend->name()}, {"available", a.available}};
        if (!a.available) b["reason"] = a.reason;
        b["devices"] = nlohmann::json::array();
        if (a.available)
          for (const auto& d : backend->devices()) b["devices"].push_back(d);
        out.push_back(b);
      }
      // IREE is a toolchain, not a device backend: listed after them (kind "tool").
      const iree::IreeLookup lookup = iree::find_iree_tools(iree_dir, self_executable());
      nlohmann::json t = {{"backend", "iree"}, {"kind", "tool"}, {"available", lookup.tools.has_value()},
                          {"devices", nlohmann::json::array()}};
      if (lookup.tools)
        t.update({{"version", lookup.tools->version}, {"revision", lookup.tools->revision},
                  {"dir", lookup.tools->dir.string()}, {"found_by", lookup.tools->where},
                  {"pinned", iree::kPinnedVersion}});
      else
        t["reason"] = lookup.reason;
      out.push_back(t);
      if (global.json) {
        print_json(out);
        return kExitOk;
      }
      for (const auto& b : out) {
        if (!b["available"].get<bool>()) {
          // The loader's reason can span lines (each path it tried): indent the rest.
          std::string reason = b["reason"].get<std::string>();
          for (std::size_t pos = reason.find('\n'); pos != std::string::npos; pos = reason.find('\n', pos + 8))
            reason.replace(pos, 1, "\n        ");
          std::printf("%-5s not available: %s\n", b["backend"].get<std::string>().c_str(), reason.c_str());
          continue;
        }
        if (b.value("kind", "") == "tool") {
          std::printf("%-5s available: IREE %s (%s, found by %s)\n", b["backend"].get<std::string>().c_str(),
                      b["version"].get<std::string>().c_str(), b["dir"].get<std::string>().c_str(),
                      b["found_by"].get<std::string>().c_str());
          continue;
        }
        std::printf("%-5s available, %zu device(s)\n", b["backend"].get<std::string>().c_str(), b["devices"].size());
        for (const auto& d : b["devices"])
          std::printf("  [%d] %s  (fingerprint %s)\n", d["ordinal"].get<int>(), d["name"].get<std::string>().c_str(),
                      d["fingerprint"].get<std::string>().substr(0, 12).c_str());
      }
      return kExitOk;
    };
  });
}

}  // namespace ktune::cli
