#pragma once
// The kernel sources under kernels/, compiled into the binary (cmake/EmbedText.cmake) so that
// ktune emits complete translation units without finding its source tree at run time.

#include <string_view>

namespace ktune::generated {

std::string_view gemm_params_source();  // kernels/gemm_params.h
std::string_view gemm_common_source();  // kernels/gemm_common.cuh
std::string_view gemm_sm80_source();    // kernels/gemm_sm80.cuh
std::string_view gemm_sm90_source();    // kernels/gemm_sm90.cuh

}  // namespace ktune::generated
