#pragma once
// Maps configs of a search space to points of [0,1]^dims, the input of surrogate models.
//
// Per parameter: a numeric one (ints/floats) is one dimension, its value normalised over the
// value list's range, on a log scale when every value is positive (tile sizes, unroll factors
// and thread counts act multiplicatively, so 16 -> 32 should be as far as 128 -> 256); a
// parameter with one value is no dimension (it cannot matter); any other parameter is
// categorical: two values are one 0/1 dimension, k > 2 values are k one-hot dimensions scaled
// by 1/sqrt(2), so that any two distinct values lie at distance 1, as with two values; string
// values written as paths ("family/tile/stages") are encoded by their segments, so labels that
// share segments lie closer (config_encoder.cc). Value list order is not assumed to be sorted.

#include <cstddef>
#include <map>
#include <string>
#include <vector>

#include "ktune/core/config.h"
#include "ktune/space/search_space.h"

namespace ktune::search {

class ConfigEncoder {
 public:
  explicit ConfigEncoder(const space::SearchSpace& space);

  std::size_t dims() const { return parameter_of_dim_.size(); }
  // The parameter (declaration index) each dimension encodes; non-decreasing.
  const std::vector<std::size_t>& parameter_of_dim() const { return parameter_of_dim_; }
  // Writes dims() coordinates to `out`. `c` must assign every parameter a value from its list
  // (any config of the space does); throws std::invalid_argument otherwise.
  void encode(const Config& c, double* out) const;
  std::vector<double> encode(const Config& c) const;

 private:
  struct Encoding {
    std::string name;
    std::size_t first_dim = 0, width = 0;
    std::map<Value, std::vector<double>> coordinates;  // value -> its `width` coordinates
  };
  static Encoding encoding_of(const space::Parameter& p);
  static Encoding path_encoding(const space::Parameter& p, Encoding e);

  std::vector<Encoding> params_;
  std::vector<std::size_t> parameter_of_dim_;
};

}  // namespace ktune::search
