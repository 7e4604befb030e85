// How a simulation integrates: the integrator, its step and tolerance, the forward-dynamics
// algorithm, and the passive joint effects (damping, friction, limits) with their constants.
#pragma once
#include <optional>
#include <string>
#include <string_view>

#include "../loops/loop_method.hpp"

namespace dyn {

enum class Integrator {
  SemiImplicitEuler,  // symplectic Euler on (q, p = H qd), implicit damping (velocity form for quaternion joints)
  Rk4,                // classic fourth-order Runge-Kutta, fixed step
  DormandPrince45,    // adaptive embedded RK5(4) (Dormand & Prince 1980), error per step <= tolerance
};

enum class ForwardAlgorithm {
  Aba,   // articulated-body algorithm, O(N)
  Crba,  // H(q) qdd = tau - C(q, qd) with the sparse L^T L factor
};

// The ground plane the robot can stand on (off by default); the contact model is in ground_contact.hpp.
struct GroundSettings {
  bool enabled = false;
  double height = 0;      // the plane z = height (m, world); its normal is +z
  double friction = 0.8;  // Coulomb coefficient mu (dimensionless, >= 0)
  double timeConstant =
      0.01;  // s: each point a spring-damper of this time constant for its effective mass (shared by its shape)
  double dampingRatio = 1;  // zeta: 1 is critically damped (no bounce)
  double stiffness = 0;     // N/m per shape (its points in contact share it); > 0 replaces the rule
  double damping = 0;       // N s/m per shape (used with `stiffness`)
};

struct SimulationSettings {
  Integrator integrator = Integrator::SemiImplicitEuler;
  double dt = 1e-3;         // the step (Dormand-Prince: the interval of one step() and the largest sub-step)
  double tolerance = 1e-8;  // Dormand-Prince: mixed absolute/relative error bound per sub-step
  double minStep = 1e-12;   // Dormand-Prince: below this the run counts as diverged (too stiff)
  ForwardAlgorithm algorithm = ForwardAlgorithm::Aba;
  bool compare = false;  // also run the other algorithm at every recorded state, record max |qdd difference|

  bool damping = true;             // tau -= model.damping .* qd
  bool friction = true;            // tau -= model.friction .* tanh(qd / frictionVelocity)
  double frictionVelocity = 1e-2;  // smoothing of the Coulomb friction sign (rad/s or m/s)
  bool limits = true;              // joint limits as one-sided spring-dampers
  double limitStiffness = 1e4;     // N m/rad (N/m) per unit of penetration
  double limitDamping = 1e2;       // N m s/rad (N s/m), only while inside the limit

  double velocityBound = 1e3;  // |qd_i| above this (or NaN/inf) stops the run as diverged
  int recordEvery = 1;         // record every k-th step (and the initial state)
  // 0: the record grows with the run. n >= 2: when it holds n samples, every other one is dropped
  // and the recording interval doubles: a long run (a GUI left running) stays in bounded memory and
  // covers the whole run at a coarser rate. With record().reserve(n) stepping never allocates.
  int recordLimit = 0;
  bool energy = true;  // record kinetic + potential energy

  // Closed-loop mechanisms (models with loop joints, docs/loops.md). `algorithm` is for trees.
  LoopMethod loopMethod = LoopMethod::Multipliers;  // review §3.4: method 1, 2 (eq. 21) or 3
  bool baumgarte = true;                            // phi'' + 2 alpha phi' + beta^2 phi = 0 instead of phi'' = 0
  double baumgarteAlpha = 20;                       // 1/s (critically damped with alpha = beta)
  double baumgarteBeta = 20;                        // 1/s
  bool projection = true;              // after each step: q onto phi(q) = 0, qd onto phi' qd = 0 (mass-weighted)
  double projectionTolerance = 1e-12;  // max |phi| (m, rad) the position projection goes down to
  int projectionIterations = 8;        // Newton steps at most per projection

  GroundSettings ground;  // a ground plane with soft contact and Coulomb friction (off: the robot floats)
};

// Throws std::invalid_argument naming the setting that is out of range.
void validate(const SimulationSettings& settings);
void validate(const GroundSettings& ground);

// "euler" (or "symplectic-euler"), "rk4", "rk45" (or "dopri5"); nullopt for anything else.
std::optional<Integrator> integratorByName(std::string_view name);
const char* integratorName(Integrator integrator);

}  // namespace dyn
