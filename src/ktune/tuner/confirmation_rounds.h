#pragma once
// Interleaved confirmation (`tune gemm --confirm-rounds N`): the finalists and the baseline are
// measured again in N rounds, each round taking every one of them once, in an order that turns
// by one place per round, and each keeps the round whose median is the median of its rounds.
//
// Why: measured one after the other at the full policy, big GEMMs heat the GPU from one
// confirmation to the next, so the order decided the comparison. On an H200 (session 35)
// 4096x12288x4096 f16 confirmed its first finalist at 522.6 us (screened 522.1), the next three
// at 595.7-624.8 (screened 532.4-534.2), the last at 617.4 at 1470 MHz and, after a rest,
// 544.6; the baseline, measured just before them and just after that rest, ran 541.0 and
// 547.8. In rounds every contender runs early and late alike, and a median of rounds drops the
// one that fell on the coolest or the hottest stretch.

#include <cstddef>
#include <optional>
#include <vector>

#include "ktune/measure/policy.h"

namespace ktune::tuner {

// The policy of one round's measurement: the full policy's measured time and samples shared
// out over `rounds` (at least 3 samples each), and its warmup only for the first measurement of
// the confirmation (the GPU is busy from then on: later ones warm up for a share of it).
measure::Policy confirmation_round_policy(const measure::Policy& full, int rounds, bool first_of_phase);

// The order of round `round` over `members` contenders: positions turn by one per round, so
// that over `members` rounds each contender takes every place once.
std::vector<std::size_t> confirmation_round_order(std::size_t members, int round);

// The round whose median is the median of a contender's rounds (the lower middle of an even
// count), among those that measured (a failed round has none); none if none measured.
std::optional<std::size_t> median_round(const std::vector<std::optional<double>>& round_medians);

}  // namespace ktune::tuner
