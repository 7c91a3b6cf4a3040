#pragma once
// Every backend compiled into ktune, whether or not its device or driver is present here.
// Backends load vendor libraries at run time, so the list is the same on every machine;
// availability() says which can be used.

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "ktune/device/device.h"

namespace ktune::device {

std::vector<std::string> backend_names();  // {"cpu", ...} in a stable order
std::vector<std::unique_ptr<Backend>> all_backends();
// Throws DeviceError for an unknown name, listing the known ones.
std::unique_ptr<Backend> make_backend(std::string_view name);

}  // namespace ktune::device
