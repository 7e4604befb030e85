// What every fuzz target asserts beyond "no crash, no hang, no leak, no sanitizer report": a
// parse that succeeds gives a model (or table, or project) that is usable, with finite numbers
// and UTF-8 names, and the algorithms on it give finite results unless the numbers are so large
// that overflow is the honest answer. A violated invariant aborts, which libFuzzer reports as a
// crash and the replay driver as a failing input.
#pragma once
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "dynscope/algorithms/aba.hpp"
#include "dynscope/algorithms/crba.hpp"
#include "dynscope/algorithms/rnea.hpp"
#include "dynscope/io/finding.hpp"
#include "dynscope/io/load_error.hpp"
#include "dynscope/io/model_builder.hpp"
#include "dynscope/io/robot_description.hpp"
#include "dynscope/io/utf8.hpp"
#include "dynscope/model/data.hpp"

namespace fuzz {

[[noreturn]] inline void violated(const char* invariant, const std::string& detail) {
  std::fprintf(stderr, "fuzz invariant violated: %s: %s\n", invariant, detail.c_str());
  std::abort();
}

#define FUZZ_REQUIRE(condition, detail)                     \
  do {                                                      \
    if (!(condition)) ::fuzz::violated(#condition, detail); \
  } while (false)

inline void requireUtf8(const std::string& text, const char* what) {
  FUZZ_REQUIRE(dyn::isValidUtf8(text), std::string(what) + " is not valid UTF-8");
}

// A load error names the source and says something.
inline void checkError(const std::exception& e, const std::string& source) {
  const std::string message = e.what();
  FUZZ_REQUIRE(message.find(source) != std::string::npos, "the message does not name the file: " + message);
  FUZZ_REQUIRE(message.size() > source.size() + 2, "empty message: " + message);
}

template <class Derived>
bool allFinite(const Eigen::MatrixBase<Derived>& m) {
  return m.allFinite();
}

// The largest magnitude in the model's numbers: above ~1e50, sums over a few thousand bodies of
// products of masses, lengths and gravity may overflow, and non-finite results are honest.
inline double largestMagnitude(const dyn::Model& m) {
  double big = m.gravity.v.cwiseAbs().maxCoeff();
  for (int i = 0; i <= m.N; ++i) {
    big = std::max({big, std::abs(m.I[i].m), m.I[i].h.cwiseAbs().maxCoeff(), m.I[i].Ibar.cwiseAbs().maxCoeff(),
                    m.Xtree[i].r.cwiseAbs().maxCoeff()});
  }
  return big;
}

// The smallest non-zero magnitude among the masses and inertias: below ~1e-50, a pivot of H can
// underflow to a tiny positive number and the accelerations overflow, which is honest too.
inline double smallestMagnitude(const dyn::Model& m) {
  double small = HUGE_VAL;
  const auto take = [&](double x) {
    if (x != 0) small = std::min(small, std::abs(x));
  };
  for (int i = 1; i <= m.N; ++i) {
    take(m.I[i].m);
    for (int k = 0; k < 3; ++k) take(m.I[i].h[k]);
    for (int k = 0; k < 9; ++k) take(m.I[i].Ibar(k));
  }
  return small;
}

// The model is finite and named in UTF-8; RNEA and CRBA at the neutral pose are finite for
// moderate numbers; ABA either gives finite accelerations for moderate numbers or refuses a
// singular or indefinite H(q), naming a joint of the model, or the model check reported H(q) as
// singular, indefinite or ill-conditioned (never a silent NaN).
inline void checkModel(const dyn::Model& m) {
  FUZZ_REQUIRE(int(m.parent.size()) == m.N + 1 && int(m.joints.size()) == m.N + 1, "body arrays");
  for (int i = 1; i <= m.N; ++i) {
    FUZZ_REQUIRE(m.parent[i] >= 0 && m.parent[i] < i, "lambda(i) < i");
    FUZZ_REQUIRE(allFinite(m.Xtree[i].E) && allFinite(m.Xtree[i].r), "X_T of body " + std::to_string(i));
    FUZZ_REQUIRE(std::isfinite(m.I[i].m) && allFinite(m.I[i].h) && allFinite(m.I[i].Ibar),
                 "inertia of body " + std::to_string(i));
    FUZZ_REQUIRE(m.I[i].m >= 0, "negative mass");
    requireUtf8(m.bodyNames[i], "a body name");
    requireUtf8(m.jointNames[i], "a joint name");
  }
  requireUtf8(m.name, "the robot name");
  for (const auto& f : m.frames) requireUtf8(f.name, "a frame name");
  FUZZ_REQUIRE(allFinite(m.gravity.v), "gravity");
  for (int k = 0; k < m.nq; ++k)
    FUZZ_REQUIRE(!std::isnan(m.lowerLimit[k]) && !std::isnan(m.upperLimit[k]) && m.lowerLimit[k] <= m.upperLimit[k],
                 "limits of q entry " + std::to_string(k));
  if (m.nv > 2000) return;  // keep each input fast; the parsers' own work was checked above

  dyn::Data data(m);
  const Eigen::VectorXd q = m.neutral(), zero = Eigen::VectorXd::Zero(m.nv);
  const Eigen::VectorXd& tau = dyn::rnea(m, data, q, zero, zero);
  const auto& H = dyn::crba(m, data, q);
  if (largestMagnitude(m) < 1e50) {
    FUZZ_REQUIRE(tau.allFinite(), "RNEA at the neutral pose is not finite");
    FUZZ_REQUIRE(H.allFinite(), "CRBA at the neutral pose is not finite");
  }
  if (!m.immobileBodies.empty()) return;
  try {
    const Eigen::VectorXd& qdd = dyn::aba(m, data, q, zero, zero);
    // Not finite without a refusal: only where H(q) is singular or nearly so up to rounding (a
    // pivot of 1e-17 instead of 0 passes the check); the model check must then have said so, and
    // the CLI and the simulator refuse the non-finite result naming the joint.
    const bool flagged = std::any_of(m.findings.begin(), m.findings.end(),
                                     [](const dyn::Finding& f) { return f.code.rfind("conditioning.", 0) == 0; });
    if (largestMagnitude(m) < 1e50 && smallestMagnitude(m) > 1e-50)
      FUZZ_REQUIRE(qdd.allFinite() || flagged,
                   "ABA at the neutral pose is not finite, was not refused, and the model check did not flag H(q)");
  } catch (const dyn::ForwardDynamicsError& e) {  // inconsistent inertias that load: refused, naming the joint
    FUZZ_REQUIRE(e.body() >= 1 && e.body() <= m.N, "the refusal names a joint of the model");
  }
}

// The body of an XML robot reader's fuzz target (URDF, MJCF): `parse(text, source)` either refuses
// with a LoadError that names `source`, or gives a description whose names are UTF-8 and which builds
// (fixed and floating base) into a model that passes checkModel, or is refused with a named error.
template <class Parse>
int fuzzRobotReader(const uint8_t* bytes, size_t size, const char* source, Parse parse) {
  const std::string text(reinterpret_cast<const char*>(bytes), size);
  dyn::RobotDescription robot;
  try {
    robot = parse(text, source);
  } catch (const dyn::LoadError& e) {
    checkError(e, source);
    return 0;
  }
  for (const auto& link : robot.links) {
    requireUtf8(link.name, "a link name");
    for (const auto& g : link.visuals) requireUtf8(g.shape.meshUri, "a mesh file name");
  }
  for (const auto& joint : robot.joints) requireUtf8(joint.name, "a joint name");
  for (const bool floating : {false, true}) {
    try {
      checkModel(dyn::buildModel(robot, dyn::BuildOptions{.floatingBase = floating}));
    } catch (const dyn::LoadError& e) {
      checkError(e, source);
    }
  }
  return 0;
}

}  // namespace fuzz
