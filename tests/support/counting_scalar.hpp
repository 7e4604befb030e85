// The engine's operation-counting scalar (dynscope/opcount/counting_scalar.hpp), under the name
// the older suites use.
#pragma once
#include "dynscope/opcount/counting_scalar.hpp"

namespace dyn::testing {
using dyn::CountingScalar;
using dyn::OpCounts;
}  // namespace dyn::testing
