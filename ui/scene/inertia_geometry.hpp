// The sizes the scene draws for a body's mass and inertia: the equivalent uniform box or ellipsoid
// (same mass and rotational inertia about the centre of mass, on the principal axes) and the
// radius of the centre-of-mass marker.
#pragma once
#include "dynscope/spatial/inertia.hpp"
#include "scene/scene_primitives.hpp"

namespace scene {

// Full lengths along the principal axes of the equivalent uniform solid: sqrt(factor * s_k), the
// box's edges (factor kBoxFactor) or the ellipsoid's diameters (kEllipsoidFactor); centre and R:
// the centre of mass and the principal axes (columns, right-handed) in body coordinates.
bool equivalentSolid(const dyn::Inertia<double>& I, double factor, Vec3& center, Mat3& R, Vec3& dims);
constexpr double kBoxFactor = 6.0, kEllipsoidFactor = 10.0;
inline bool inertiaBox(const dyn::Inertia<double>& I, Vec3& center, Mat3& R, Vec3& dims) {
  return equivalentSolid(I, kBoxFactor, center, R, dims);
}

// The marker's radius: grows as the cube root of the mass, within 6 mm .. 5 cm.
double comRadius(double mass);

}  // namespace scene
