#pragma once
// What the measurement loop measures. A backend implements SampleSource for one compiled
// candidate: the CPU backend times a call with a steady clock, the CUDA backend brackets a launch
// with events after flushing L2 and discards samples taken while the SM clock was throttled.

namespace ktune::measure {

struct Sample {
  double seconds = 0;  // time of one run (or of one batch divided by its size), finite and >= 0
  bool valid = true;   // false: discarded (e.g. clock throttled); counts towards the timeout only
};

class SampleSource {
 public:
  virtual ~SampleSource() = default;
  // One timed run; the backend prepares cold caches etc. inside, outside the timed region.
  // Exceptions propagate out of run_measurement unchanged.
  virtual Sample sample() = 0;
  // One untimed run during warmup; override when timing has a cost worth skipping.
  virtual void warmup_run() { (void)sample(); }
};

}  // namespace ktune::measure
