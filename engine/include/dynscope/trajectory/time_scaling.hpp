// One-dimensional time scalings s(tau) on [0, T], from s(0) = 0 to s(T) = 1, with their
// derivatives: the profiles that carry a segment from one waypoint to the next.
#pragma once
#include <algorithm>
#include <cmath>
#include <numbers>

namespace dyn {

struct ScalingSample {
  double s = 0, sd = 0, sdd = 0;  // s, ds/dtau, d2s/dtau2
};

// Rest-to-rest quintic: s = 10x^3 - 15x^4 + 6x^5 with x = tau/T; zero velocity and acceleration at
// both ends.
inline ScalingSample quinticScaling(double tau, double T) {
  const double x = std::clamp(tau / T, 0.0, 1.0), x2 = x * x;
  return {x2 * x * (10 - 15 * x + 6 * x2), 30 * x2 * (1 - 2 * x + x2) / T, 60 * x * (1 - 3 * x + 2 * x2) / (T * T)};
}

// Rest-to-rest cubic: s = 3x^2 - 2x^3; zero velocity at both ends, acceleration +-6/T^2 there.
inline ScalingSample cubicScaling(double tau, double T) {
  const double x = std::clamp(tau / T, 0.0, 1.0);
  return {x * x * (3 - 2 * x), 6 * x * (1 - x) / T, (6 - 12 * x) / (T * T)};
}

// Trapezoidal velocity (bang-coast-bang): constant acceleration during the first `fraction` of T,
// constant velocity, then constant deceleration during the last `fraction` (0 < fraction <= 1/2;
// 1/2 is the triangular profile). Velocity is zero at both ends; the acceleration jumps, so at
// tau = 0 and tau = T it reports the one-sided value inside [0, T].
inline ScalingSample trapezoidalScaling(double tau, double T, double fraction = 1.0 / 3.0) {
  const double ta = fraction * T;
  const double V = 1.0 / (T - ta);  // coast velocity: s(T) = V (T - ta) = 1
  const double a = V / ta;
  tau = std::clamp(tau, 0.0, T);
  if (tau < ta) return {0.5 * a * tau * tau, a * tau, a};
  if (tau <= T - ta) return {0.5 * a * ta * ta + V * (tau - ta), V, 0.0};
  const double r = T - tau;
  return {1.0 - 0.5 * a * r * r, a * r, -a};
}

// Cycloid (Saha 1999, eq. 39): s = tau/T - sin(2 pi tau/T) / (2 pi); zero velocity and
// acceleration at both ends, s(T/2) = 1/2.
inline ScalingSample cycloidScaling(double tau, double T) {
  constexpr double twoPi = 2 * std::numbers::pi;
  tau = std::clamp(tau, 0.0, T);
  const double phase = twoPi * tau / T;
  return {tau / T - std::sin(phase) / twoPi, (1 - std::cos(phase)) / T, twoPi * std::sin(phase) / (T * T)};
}

}  // namespace dyn
