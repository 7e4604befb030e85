// sin and cos of one angle together: every revolute joint's jcalc needs both. For double, the
// fdlibm kernel polynomials on [-pi/4, pi/4] after a three-part Cody-Waite reduction by pi/2
// (about 1 ulp, a quarter of libm's cost here); huge or non-finite angles go to libm. Other
// scalars (autodiff, operation counting) use their own sin/cos.
#pragma once
#include <bit>
#include <cmath>
#include <cstdint>

namespace dyn {

template <class S>
inline void sinCos(const S& x, S& s, S& c) {
  using std::cos, std::sin;
  s = sin(x);
  c = cos(x);
}

inline void sinCos(double x, double& s, double& c) {
  if (!(std::abs(x) < 1e5)) {  // also NaN and inf
    s = std::sin(x);
    c = std::cos(x);
    return;
  }
  constexpr double twoOverPi = 6.36619772367581382433e-01;
  constexpr double pio2_1 = 1.57079632673412561417e+00, pio2_2 = 6.07710050630396597660e-11,
                   pio2_3 = 2.02226624871116645580e-21;
  const double k = std::nearbyint(x * twoOverPi);
  const double r = ((x - k * pio2_1) - k * pio2_2) - k * pio2_3;  // x - k pi/2, |r| <= pi/4
  const double z = r * r;
  const double sr = r + r * z *
                            (-1.66666666666666324348e-01 +
                             z * (8.33333333332248946124e-03 +
                                  z * (-1.98412698298579493134e-04 +
                                       z * (2.75573137070700676789e-06 +
                                            z * (-2.50507602534068634195e-08 + z * 1.58969099521155010221e-10)))));
  const double hz = 0.5 * z, w = 1.0 - hz;
  const double cp = z * z *
                    (4.16666666666666019037e-02 +
                     z * (-1.38888888888741095749e-03 +
                          z * (2.48015872894767294178e-05 +
                               z * (-2.75573143513906633035e-07 +
                                    z * (2.08757232129817482790e-09 + z * -1.13596475577881948265e-11)))));
  const double cr = w + (((1.0 - w) - hz) + cp);
  // The quadrant without branches: for angles spread over a turn a switch on it was mispredicted about
  // three times in four (RNEA on the UR5 with q in [-pi, pi]: 271 -> 252 ns, docs/benchmarks.md).
  // k = 0: (sr, cr); 1: (cr, -sr); 2: (-sr, -cr); 3: (-cr, sr).
  const long n = static_cast<long>(k);
  const bool odd = n & 1;
  const double a = odd ? cr : sr, b = odd ? sr : cr;
  const std::uint64_t signS = std::uint64_t(n & 2) << 62, signC = std::uint64_t((n + 1) & 2) << 62;
  s = std::bit_cast<double>(std::bit_cast<std::uint64_t>(a) ^ signS);
  c = std::bit_cast<double>(std::bit_cast<std::uint64_t>(b) ^ signC);
}

}  // namespace dyn
