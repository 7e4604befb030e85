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

namespace {

// One body's motion and forces at its frame origin O, world axes, gravity taken out of the
// accelerations, each with the quantity it came from.
struct AtOrigin {
  struct Value {
    Eigen::Vector3d x = Eigen::Vector3d::Zero();
    const std::string* quantity = nullptr;  // nullptr: not in the state
    explicit operator bool() const { return quantity != nullptr; }
    void set(const Eigen::Vector3d& v, const std::string& q) {
      x = v;
      quantity = &q;
    }
  };
  Value w, v, wd, a, n, f, pn, pf;
  Motion<double> spatialAcceleration;  // a spatial acceleration waiting for the velocity
  const std::string* spatialAccelerationKey = nullptr;
};

Eigen::Vector3d skewPartVee(const Eigen::Matrix3d& S) {  // of the skew-symmetric part
  return 0.5 * Eigen::Vector3d(S(2, 1) - S(1, 2), S(0, 2) - S(2, 0), S(1, 0) - S(0, 1));
}

void collect(const Model& model, const Data& data, int i, const TraceTerm& t, AtOrigin& o) {
  const Eigen::Matrix3d R = data.X0[i].E.transpose();  // link axes -> world axes
  const Eigen::Vector3d O = data.X0[i].r, g = model.gravity.v;
  const std::string& q = t.quantity;
  const auto world3 = [&] {
    return t.frame == TraceFrame::Link ? Eigen::Vector3d(R * t.value.col(0)) : Eigen::Vector3d(t.value.col(0));
  };
  switch (t.role) {
    case TraceRole::Velocity: {
      const Motion<double> m = motionInWorld(t, data, i);
      o.w.set(m.w, q);
      o.v.set(m.v + m.w.cross(O), q);
      break;
    }
    case TraceRole::Acceleration:  // finished in traceArrows, once the velocity is known
      o.spatialAcceleration = motionInWorld(t, data, i) + model.gravity;  // back from a - a_g to a
      o.spatialAccelerationKey = &q;
      break;
    case TraceRole::TwistRate: {  // [w'; o''] in link axes, with gravity
      const Motion<double> m = Motion<double>::fromVector(t.value);
      o.wd.set(R * m.w, q);
      o.a.set(R * m.v + g, q);
      break;
    }
    case TraceRole::Force:
    case TraceRole::BiasForce: {
      const Force<double> F = forceInWorld(t, data, i);
      const bool bias = t.role == TraceRole::BiasForce;
      (bias ? o.pf : o.f).set(F.f, q);
      (bias ? o.pn : o.n).set(F.n - O.cross(F.f), q);  // about O
      break;
    }
    case TraceRole::AngularVelocity:
      o.w.set(world3(), q);
      break;
    case TraceRole::AngularAcceleration:
      o.wd.set(world3(), q);
      break;
    case TraceRole::OriginAcceleration:
      o.a.set(world3() + g, q);
      break;
    case TraceRole::OriginAccelerationTrue:
      o.a.set(world3(), q);
      break;
    case TraceRole::LinearForce:
      o.f.set(world3(), q);
      break;
    case TraceRole::MomentAboutOrigin:
      o.n.set(world3(), q);
      break;
    case TraceRole::PoseRate:
    case TraceRole::PoseAcceleration: {  // W' = [R' p'; 0 0] (or R'), W'' likewise, base axes
      const Eigen::Matrix3d S =
          t.value.topLeftCorner<3, 3>() * R.transpose();  // R' R^T = [w]x; R'' R^T = [w']x + [w]x^2
      const bool rate = t.role == TraceRole::PoseRate;
      (rate ? o.w : o.wd).set(skewPartVee(S), q);
      if (t.value.cols() == 4) (rate ? o.v : o.a).set(t.value.block<3, 1>(0, 3), q);
      break;
    }
    case TraceRole::BiasAcceleration:
    case TraceRole::None:
      break;
  }
}

}  // namespace

std::vector<TraceArrow> traceArrows(const Model& model, const Data& data, const TraceState& state, ArrowPoint point) {
  std::vector<AtOrigin> bodies(size_t(model.N) + 1);
  for (const auto& [key, term] : state.values)
    if (key.second >= 1 && key.second <= model.N && term.role != TraceRole::None && !term.patch)
      collect(model, data, key.second, term, bodies[size_t(key.second)]);
  std::vector<TraceArrow> arrows;
  for (int i = 1; i <= model.N; ++i) {
    AtOrigin& o = bodies[size_t(i)];
    const Eigen::Vector3d O = data.X0[i].r, p = arrowPoint(model, data, i, point), d = p - O;
    if (o.spatialAccelerationKey) {  // classical acceleration of O: spatial + w x v_O
      const Motion<double>& m = o.spatialAcceleration;
      o.wd.set(m.w, *o.spatialAccelerationKey);
      o.a.set(m.v + m.w.cross(O) + o.w.x.cross(o.v.x), *o.spatialAccelerationKey);
    }
    const auto add = [&](ArrowKind kind, const AtOrigin::Value& from, const Eigen::Vector3d& v) {
      if (from) arrows.push_back({i, kind, p, v, *from.quantity});
    };
    // At the point p = O + d of the same body.
    add(ArrowKind::AngularVelocity, o.w, o.w.x);
    add(ArrowKind::Velocity, o.v, o.v.x + o.w.x.cross(d));
    add(ArrowKind::AngularAcceleration, o.wd, o.wd.x);
    add(ArrowKind::Acceleration, o.a, o.a.x + o.wd.x.cross(d) + o.w.x.cross(o.w.x.cross(d)));
    add(ArrowKind::Moment, o.n, o.n.x - d.cross(o.f.x));
    add(ArrowKind::Force, o.f, o.f.x);
    add(ArrowKind::BiasForce, o.pf, o.pf.x);
    add(ArrowKind::BiasMoment, o.pn, o.pn.x - d.cross(o.pf.x));
  }
  return arrows;
}

}  // namespace dyn
