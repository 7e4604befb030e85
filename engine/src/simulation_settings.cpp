#include "dynscope/simulation/simulation_settings.hpp"

#include <cmath>
#include <stdexcept>

namespace dyn {
namespace {

void requirePositive(const char* name, double x) {
  if (!(std::isfinite(x) && x > 0))
    throw std::invalid_argument(std::string("simulation setting ") + name + " must be a positive finite number, not " +
                                std::to_string(x));
}

void requireNonNegative(const char* name, double x) {
  if (!(std::isfinite(x) && x >= 0))
    throw std::invalid_argument(std::string("simulation setting ") + name + " must be a finite number >= 0, not " +
                                std::to_string(x));
}

}  // namespace

void validate(const GroundSettings& g) {
  const auto require = [](bool ok, const char* name, double x, const char* what) {
    if (!ok)
      throw std::invalid_argument(std::string("ground setting ") + name + " must be " + what + ", not " +
                                  std::to_string(x));
  };
  require(std::isfinite(g.height), "height", g.height, "a finite number");
  require(std::isfinite(g.friction) && g.friction >= 0, "friction", g.friction, "a finite number >= 0");
  require(std::isfinite(g.timeConstant) && g.timeConstant > 0, "timeConstant", g.timeConstant,
          "a positive finite number");
  require(std::isfinite(g.dampingRatio) && g.dampingRatio > 0, "dampingRatio", g.dampingRatio,
          "a positive finite number");
  require(std::isfinite(g.stiffness) && g.stiffness >= 0, "stiffness", g.stiffness, "a finite number >= 0");
  require(std::isfinite(g.damping) && g.damping >= 0, "damping", g.damping, "a finite number >= 0");
}

void validate(const SimulationSettings& s) {
  requirePositive("dt", s.dt);
  requirePositive("tolerance", s.tolerance);
  requirePositive("minStep", s.minStep);
  requirePositive("frictionVelocity", s.frictionVelocity);
  requireNonNegative("limitStiffness", s.limitStiffness);
  requireNonNegative("limitDamping", s.limitDamping);
  requirePositive("velocityBound", s.velocityBound);
  if (s.recordLimit < 0 || s.recordLimit == 1)
    throw std::invalid_argument("simulation setting recordLimit must be 0 (none) or >= 2, not " +
                                std::to_string(s.recordLimit));
  requireNonNegative("baumgarteAlpha", s.baumgarteAlpha);
  requireNonNegative("baumgarteBeta", s.baumgarteBeta);
  requirePositive("projectionTolerance", s.projectionTolerance);
  if (s.projectionIterations < 1)
    throw std::invalid_argument("simulation setting projectionIterations must be >= 1, not " +
                                std::to_string(s.projectionIterations));
  if (s.recordEvery < 1)
    throw std::invalid_argument("simulation setting recordEvery must be >= 1, not " + std::to_string(s.recordEvery));
  validate(s.ground);
}

std::optional<Integrator> integratorByName(std::string_view name) {
  if (name == "euler" || name == "symplectic-euler" || name == "semi-implicit-euler")
    return Integrator::SemiImplicitEuler;
  if (name == "rk4") return Integrator::Rk4;
  if (name == "rk45" || name == "dopri5" || name == "dormand-prince") return Integrator::DormandPrince45;
  return std::nullopt;
}

const char* integratorName(Integrator integrator) {
  switch (integrator) {
    case Integrator::SemiImplicitEuler:
      return "euler";
    case Integrator::Rk4:
      return "rk4";
    case Integrator::DormandPrince45:
      return "rk45";
  }
  return "?";
}

}  // namespace dyn
