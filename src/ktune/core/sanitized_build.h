#pragma once
// Whether this translation unit is built with AddressSanitizer (scripts/test.sh's second stage,
// KTUNE_SANITIZE). GCC says so with __SANITIZE_ADDRESS__, clang with
// __has_feature(address_sanitizer) (clang 14 does not define GCC's macro); KTUNE_ASAN is 1 for
// either, for code that must include <sanitizer/...> headers or call their functions.
//
// Tests that bound a cost in wall time (an ask's overhead, a scan's speed) check the algorithm's
// complexity, not the machine: under ASan every memory access is checked and the same loop runs
// several times slower, more so on a loaded CI machine (a 10 ms bound read 10.9 ms there), so
// they widen their bound by kSanitizerTimeFactor.

#if defined(__SANITIZE_ADDRESS__)
#define KTUNE_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define KTUNE_ASAN 1
#endif
#endif
#ifndef KTUNE_ASAN
#define KTUNE_ASAN 0
#endif

namespace ktune {

inline constexpr bool kSanitizedBuild = KTUNE_ASAN != 0;
inline constexpr double kSanitizerTimeFactor = kSanitizedBuild ? 5.0 : 1.0;

}  // namespace ktune
