#pragma once
// A compiled model's exported functions and their tensor arguments and results, as IREE itself
// declares them (`iree.abi.declaration` in `iree-dump-module`'s listing), so any input dialect
// (linalg, torch, stablehlo) reads the same. ktune makes random inputs from it.

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "ktune/core/element_type.h"
#include "ktune/iree/iree_tools.h"

namespace ktune::iree {

struct TensorType {
  std::vector<std::int64_t> shape;  // static dimensions
  ElementType type = ElementType::F32;
  std::string text;                  // "tensor<512x1024xf16>"
  std::size_t element_count() const;
};

struct FunctionSignature {
  std::string name;
  std::vector<TensorType> inputs, outputs;
};

// Parses `iree-dump-module` output. Throws IreeError for a declaration ktune cannot use
// (dynamic dimensions, non-tensor arguments, unknown element types), naming the function.
std::vector<FunctionSignature> parse_module_signatures(const std::string& dump_text);
// Runs iree-dump-module on `vmfb` (IreeError with its message when it fails) and parses it.
std::vector<FunctionSignature> module_signatures(const IreeTools& tools, const std::filesystem::path& vmfb);
// The function named `name`, or the only exported one when `name` is empty. Throws IreeError
// listing the exported functions otherwise.
FunctionSignature select_function(const std::vector<FunctionSignature>& functions, const std::string& name,
                                  const std::filesystem::path& model);
// "tensor<512x1024xf16>" -> shape and type; throws IreeError for what is not a static tensor.
TensorType parse_tensor_type(const std::string& text);

}  // namespace ktune::iree
