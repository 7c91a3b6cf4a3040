#pragma once
// For the families' GPU tests: skip a test, printing why, when a reason is given. The tests run
// everywhere; where no GPU is, each one says so in the log (CI's, or a build machine's).

#include <gtest/gtest.h>

#include <cstdio>
#include <memory>
#include <string>

#include "ktune/device/cuda/driver_api.h"

// KTUNE_SKIP_IF(reason): `reason` is a std::string expression; empty means run the test.
#define KTUNE_SKIP_IF(reason)                                           \
  do {                                                                  \
    const std::string ktune_skip_reason_ = (reason);                    \
    if (!ktune_skip_reason_.empty()) {                                  \
      std::printf("skipped: %s\n", ktune_skip_reason_.c_str());         \
      GTEST_SKIP() << ktune_skip_reason_;                               \
    }                                                                   \
  } while (0)

namespace ktune::testing {

// The CUDA driver when it loads and sees a device; else null and the reason to skip.
struct TestDriver {
  std::shared_ptr<const ktune::cuda::CudaDriver> driver;
  std::string skip_reason;
};

inline TestDriver load_test_driver() {
  TestDriver t;
  const Loaded<ktune::cuda::CudaDriver> driver = ktune::cuda::CudaDriver::load();
  if (!driver)
    t.skip_reason = "no CUDA driver: " + driver.error;
  else if (driver->device_count() == 0)
    t.skip_reason = "no CUDA device";
  else
    t.driver = driver.value;
  return t;
}

}  // namespace ktune::testing
