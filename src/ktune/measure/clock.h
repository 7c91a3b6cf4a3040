#pragma once
// Time source of the measurement loop. Injectable so that tests drive the loop with a fake clock
// that advances only when a synthetic sample says so: deterministic and instant.

namespace ktune::measure {

class Clock {
 public:
  virtual ~Clock() = default;
  // Seconds since an arbitrary fixed origin; never decreases.
  virtual double now() const = 0;
};

// std::chrono::steady_clock: immune to wall-clock adjustments during a long tune.
class SteadyClock final : public Clock {
 public:
  double now() const override;
};

// Starts at `start` and moves only through advance().
class FakeClock final : public Clock {
 public:
  explicit FakeClock(double start = 0.0) : now_(start) {}
  double now() const override { return now_; }
  // Throws std::invalid_argument for negative or non-finite steps (time never goes back).
  void advance(double seconds);

 private:
  double now_;
};

}  // namespace ktune::measure
