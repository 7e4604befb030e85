// The choices of a closed-loop forward dynamics (review §3.4): the solution method and the
// constraint stabilization (Baumgarte's). Shared by loop_forward_dynamics.hpp and the simulator.
#pragma once
#include <optional>
#include <string_view>

namespace dyn {

enum class LoopMethod {
  Augmented = 1,    // method 1: the augmented system of eq. 20, O((n + n_c)^3)
  Multipliers = 2,  // method 2: lambda first by eq. 21 with the tree's O(n) algorithms, O(n n_c^2 + n_c^3)
  NullSpace = 3,    // method 3: the null-space projection of eq. 22, O(n^3)
};

struct LoopSettings {
  LoopMethod method = LoopMethod::Multipliers;
  double baumgarteAlpha = 0;     // 1/s: phi'' + 2 alpha phi' + beta^2 phi = 0 (0, 0: phi'' = 0 only)
  double baumgarteBeta = 0;      // 1/s
  double rankTolerance = 1e-10;  // eq. 18: a row is dependent below this times the largest row norm
};

inline const char* loopMethodName(LoopMethod m) {
  switch (m) {
    case LoopMethod::Augmented:
      return "augmented";
    case LoopMethod::Multipliers:
      return "multipliers";
    case LoopMethod::NullSpace:
      return "null-space";
  }
  return "?";
}

// "1" / "augmented", "2" / "multipliers", "3" / "null-space".
inline std::optional<LoopMethod> loopMethodByName(std::string_view s) {
  if (s == "1" || s == "augmented") return LoopMethod::Augmented;
  if (s == "2" || s == "multipliers") return LoopMethod::Multipliers;
  if (s == "3" || s == "null-space") return LoopMethod::NullSpace;
  return std::nullopt;
}

}  // namespace dyn
