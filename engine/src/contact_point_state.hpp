// Internal: a contact point's place and motion at the kinematics in a Data (ground_contact.hpp).
#pragma once
#include "dynscope/model/data.hpp"
#include "dynscope/simulation/ground_contact.hpp"

namespace dyn::detail {

// pb: the touching point in body coordinates (a sphere's lowest), p: it in world, vp: the world
// velocity of the body's material point there.
struct PointState {
  Vec3<double> pb, p, vp;
};

inline PointState pointState(const Data& data, const ContactPoint& c) {
  const Transform<double>& X = data.X0[c.body];  // body_X_world: E maps world axes to body axes
  PointState s;
  s.pb = c.point;
  if (c.radius > 0) s.pb -= c.radius * X.E.col(2);  // E (0, 0, -1): straight down, in body axes
  s.p = X.pointToA(s.pb);
  const Motion<double>& v = data.v[c.body];
  s.vp = X.E.transpose() * (v.v + cross3(v.w, s.pb));  // v_O + w x p, to world axes
  return s;
}

}  // namespace dyn::detail
