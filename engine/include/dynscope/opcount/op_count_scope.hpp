// Where an operation-counting run books its arithmetic. The papers compare costs on different
// bases (Hollerbach excludes the joint transforms A_j and their derivatives; Saha and Featherstone
// count them), so algorithms mark the joint-transform work with an OpCountScope and the counting
// scalar keeps it apart. For every other scalar the scope is an empty object that compiles away.
#pragma once

namespace dyn {

enum class OpCategory {
  Algorithm,        // the formulation's own arithmetic
  JointTransforms,  // jcalc: the joint transforms A_i (XJ X_T), their sines and cosines, S_i
  Tabulation,       // off-line work a formulation's count leaves out: the tables of the configuration-space
                    // method (Horn & Raibert); everything inside it, joint transforms too, is booked here
};

// No-op for double, autodiff, ...; specialised by CountingScalar (opcount/counting_scalar.hpp).
template <class S>
struct OpCountScope {
  explicit OpCountScope(OpCategory) {}
};

}  // namespace dyn
