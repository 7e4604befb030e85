// Generated robots for operation counts and scaling studies: a general N-link serial chain of
// revolute joints, the manipulator that Hollerbach's Tables I-II and Saha's Tables 1-2 count
// (every DH length, offset and twist non-zero, every link inertia full and off its joint axis).
#pragma once
#include "../model/model.hpp"

namespace dyn {

// Links link0 (the base) .. link<n>, joints joint1 .. joint<n>; seeded, so a given (n, seed)
// always gives the same robot. Throws std::invalid_argument unless 1 <= n <= 100000.
RobotDescription generalChainDescription(int n, unsigned seed = 1);
Model generalChain(int n, unsigned seed = 1);

}  // namespace dyn
