#include "dynscope/trace/trace_arrows.hpp"

namespace dyn {
namespace {

// A spatial value of body i in world Pluecker coordinates (reference point: the world origin).
Motion<double> motionInWorld(const TraceTerm& t, const Data& data, int i) {
  const Motion<double> m = Motion<double>::fromVector(t.value);
  return t.frame == TraceFrame::Link ? data.X0[i].applyInverse(m) : m;  // 0_X_i m
}
Force<double> forceInWorld(const TraceTerm& t, const Data& data, int i) {
  const Force<double> f = Force<double>::fromVector(t.value);
  return t.frame == TraceFrame::Link ? data.X0[i].applyTranspose(f) : f;  // 0_X_i^* f
}

}  // namespace

const char* arrowUnit(ArrowKind k) {
  switch (k) {
    case ArrowKind::AngularVelocity:
      return "rad/s";
    case ArrowKind::Velocity:
      return "m/s";
    case ArrowKind::AngularAcceleration:
      return "rad/s²";
    case ArrowKind::Acceleration:
      return "m/s²";
    case ArrowKind::Moment:
    case ArrowKind::BiasMoment:
      return "N·m";
    case ArrowKind::Force:
    case ArrowKind::BiasForce:
      return "N";
    case ArrowKind::Count:
      break;
  }
  return "";
}

const char* arrowName(ArrowKind k) {
  switch (k) {
    case ArrowKind::AngularVelocity:
      return "ω";
    case ArrowKind::Velocity:
      return "v";
    case ArrowKind::AngularAcceleration:
      return "ω̇";
    case ArrowKind::Acceleration:
      return "a";
    case ArrowKind::Moment:
      return "n";
    case ArrowKind::Force:
      return "f";
    case ArrowKind::BiasForce:
      return "pᴬ";
    case ArrowKind::BiasMoment:
      return "pᴬ moment";
    case ArrowKind::Count:
      break;
  }
  return "";
}

bool arrowIsAngular(ArrowKind k) {
  return k == ArrowKind::AngularVelocity || k == ArrowKind::AngularAcceleration || k == ArrowKind::Moment ||
         k == ArrowKind::BiasMoment;
}

Eigen::Vector3d arrowPoint(const Model& model, const Data& data, int body, ArrowPoint point) {
  const Transform<double>& X = data.X0[body];
  if (point == ArrowPoint::CenterOfMass && model.I[body].m > 0) return X.pointToA(model.I[body].com());
  return X.r;
}

std::vector<TraceArrow> traceArrows(const Model& model, const Data& data, const TraceState& state, ArrowPoint point) {
  std::vector<TraceArrow> arrows;
  for (int i = 1; i <= model.N; ++i) {
    const Eigen::Vector3d p = arrowPoint(model, data, i, point);
    const auto add = [&](ArrowKind kind, const Eigen::Vector3d& v) { arrows.push_back({i, kind, p, v}); };
    Eigen::Vector3d w = Eigen::Vector3d::Zero(), vp = Eigen::Vector3d::Zero();
    if (const TraceTerm* v = state.find("v", i); v && v->role == TraceRole::Velocity) {
      const Motion<double> m = motionInWorld(*v, data, i);
      w = m.w;
      vp = m.v + m.w.cross(p);  // velocity of the body point at p
      add(ArrowKind::AngularVelocity, w);
      add(ArrowKind::Velocity, vp);
    }
    if (const TraceTerm* a = state.find("a", i); a && a->role == TraceRole::Acceleration) {
      const Motion<double> m = motionInWorld(*a, data, i) + model.gravity;  // back from a - a_g to a
      add(ArrowKind::AngularAcceleration, m.w);
      add(ArrowKind::Acceleration, m.v + m.w.cross(p) + w.cross(vp));  // classical: spatial + w x v
    }
    if (const TraceTerm* f = state.find("f", i); f && f->role == TraceRole::Force) {
      const Force<double> F = forceInWorld(*f, data, i);
      add(ArrowKind::Moment, F.n - p.cross(F.f));  // about p
      add(ArrowKind::Force, F.f);
    }
    if (const TraceTerm* pa = state.find("pA", i); pa && pa->role == TraceRole::BiasForce) {
      const Force<double> F = forceInWorld(*pa, data, i);
      add(ArrowKind::BiasMoment, F.n - p.cross(F.f));
      add(ArrowKind::BiasForce, F.f);
    }
  }
  return arrows;
}

}  // namespace dyn
