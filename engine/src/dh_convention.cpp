// Standard <-> modified DH (docs/convert.md). With M_i the modified (proximal) frame of link i and
// S_i the standard (distal) one, the two products ^{i-1}T_i of docs/dh-format.md give
//   M_i = S_{i-1} Rz(theta_i) Tz(d_i)   and   S_i = M_i Tx(a_i) Rx(alpha_i)   (standard a_i, alpha_i),
// since Tx and Rx commute (Craig 2005 §3.4 writes the proximal product; the distal one is Paul's and Saha's).
// So theta and d stay with their row, a and alpha move one row, and the body-fixed transform
// S_i -> M_i = Tx(a_i) Rx(alpha_i) re-expresses link i's centre of mass and inertia.
#include <cmath>
#include <optional>
#include <tuple>

#include "dh_geometry.hpp"
#include "dynscope/io/dh_table.hpp"

namespace dyn {
namespace {

using dh::Iso;

// A pose that is Tx(a) Rx(alpha) exactly (a screw along x): its a and alpha.
std::optional<std::pair<double, double>> xScrew(const Pose& p) {
  if (p.xyz.y() != 0 || p.xyz.z() != 0 || p.rpy.y() != 0 || p.rpy.z() != 0) return std::nullopt;
  return std::pair(p.xyz.x(), p.rpy.x());
}

// Tx(a) Rx(alpha) with cos and sin of multiples of 90 deg exact (cos(pi/2) is 6e-17 in doubles),
// so a twist of 90 deg moves inertia entries without leaving 1e-17 residues in the others.
Iso screw(double a, double alpha) {
  double c = std::cos(alpha), s = std::sin(alpha);
  if (std::abs(c) < 1e-15) c = 0, s = s > 0 ? 1 : -1;
  if (std::abs(s) < 1e-15) s = 0, c = c > 0 ? 1 : -1;
  Iso T = Iso::Identity();
  T.linear() << 1, 0, 0, 0, c, -s, 0, s, c;
  T.translation() = Vec3<double>(a, 0, 0);
  return T;
}

// Link i's COM and inertia, given in frame F, re-expressed in frame G where X = pose of F in G.
// Sums of products leave rounding noise (0.28 - 0.425 = -0.14499999999999996): tidied to 14 digits.
void reexpress(DhRow& r, const Iso& X) {
  const double size = r.com.norm() + X.translation().norm();
  r.com = X * r.com;
  for (int k = 0; k < 3; ++k) r.com[k] = dh::tidy(r.com[k], 1e-15 * size);
  const auto& I = r.inertia;
  Mat3<double> Ic;
  Ic << I[0], I[3], I[4], I[3], I[1], I[5], I[4], I[5], I[2];
  const Mat3<double> J = X.linear() * Ic * X.linear().transpose();
  const double zero = 1e-15 * J.cwiseAbs().maxCoeff();
  r.inertia = {dh::tidy(J(0, 0), zero), dh::tidy(J(1, 1), zero), dh::tidy(J(2, 2), zero),
               dh::tidy(J(0, 1), zero), dh::tidy(J(0, 2), zero), dh::tidy(J(1, 2), zero)};
}

// Where a link the table generates sits on its body: the body (0 = the ground) and the link's pose
// in the body's reference frame, which is the same in both conventions: the world for the ground,
// M_i (the modified frame) for link i.
std::optional<std::pair<int, Iso>> linkOnBody(const DhTable& t, const std::string& link) {
  if (link == "base") return std::pair(0, Iso(Iso::Identity()));
  if (link == "base_dh" && t.base) return std::pair(0, dh::toIso(*t.base));
  const bool modified = t.convention == DhConvention::Modified;
  for (size_t i = 1; i <= t.rows.size(); ++i) {
    const DhRow& r = t.rows[i - 1];
    if (link == "link" + std::to_string(i))
      return std::pair(int(i), modified || r.prismatic ? Iso(Iso::Identity()) : dh::transZ(-r.d));
    if (link == "frame" + std::to_string(i) && !modified)  // modified frame<i> is a frame on link<i>, not a link
      return std::pair(int(i), screw(r.a, r.alpha));
  }
  return std::nullopt;
}

void moveLoopSide(const DhTable& from, const DhTable& to, std::string& link, Pose& origin) {
  const auto src = linkOnBody(from, link);
  if (!src) return;  // not a link the table generates: the reader will say so
  std::string target = link;
  auto dst = linkOnBody(to, target);  // else base_dh is gone, or frame<i> is no link: link<i> of that body
  if (!dst) dst = linkOnBody(to, target = src->first == 0 ? "base" : "link" + std::to_string(src->first));
  link = target;
  origin = dh::toPose(dst->second.inverse() * src->second * dh::toIso(origin));
}

}  // namespace

DhTable toConvention(const DhTable& t, DhConvention convention) {
  if (t.convention == convention || t.rows.empty()) {
    DhTable same = t;
    same.convention = convention;
    return same;
  }
  DhTable out = t;
  out.convention = convention;
  const size_t n = t.rows.size();
  if (convention == DhConvention::Modified) {
    // S_0 = M_0 unless the base is a pure x-screw, which becomes row 1's a_0, alpha_0.
    double a0 = 0, alpha0 = 0;
    if (t.base)
      if (const auto xs = xScrew(*t.base)) {
        std::tie(a0, alpha0) = *xs;
        out.base.reset();
      }
    for (size_t i = 0; i < n; ++i) {
      DhRow& r = out.rows[i];
      r.a = i == 0 ? a0 : t.rows[i - 1].a;
      r.alpha = i == 0 ? alpha0 : t.rows[i - 1].alpha;
      if (r.hasInertial) reexpress(r, screw(t.rows[i].a, t.rows[i].alpha));  // S_i in M_i
    }
    // S_n = M_n Tx(a_n) Rx(alpha_n): the last length and twist go into the tool.
    const DhRow& last = t.rows.back();
    if (!t.tool) {
      if (last.a != 0 || last.alpha != 0) out.tool = Pose{Vec3<double>(last.a, 0, 0), Vec3<double>(last.alpha, 0, 0)};
    } else if (last.a != 0 || last.alpha != 0) {
      out.tool = dh::toPose(screw(last.a, last.alpha) * dh::toIso(*t.tool));
    }
  } else {
    // S_0 = M_0 Tx(a_0) Rx(alpha_0): row 1's a_0, alpha_0 go into the base.
    const DhRow& first = t.rows.front();
    if (!t.base) {
      if (first.a != 0 || first.alpha != 0)
        out.base = Pose{Vec3<double>(first.a, 0, 0), Vec3<double>(first.alpha, 0, 0)};
    } else if (first.a != 0 || first.alpha != 0) {
      out.base = dh::toPose(dh::toIso(*t.base) * screw(first.a, first.alpha));
    }
    // The last row takes the tool when it is a pure x-screw; else S_n = M_n.
    double an = 0, alphan = 0;
    if (t.tool)
      if (const auto xs = xScrew(*t.tool)) {
        std::tie(an, alphan) = *xs;
        out.tool.reset();
      }
    for (size_t i = 0; i < n; ++i) {
      DhRow& r = out.rows[i];
      r.a = i + 1 < n ? t.rows[i + 1].a : an;
      r.alpha = i + 1 < n ? t.rows[i + 1].alpha : alphan;
      if (r.hasInertial) reexpress(r, screw(r.a, r.alpha).inverse());  // M_i in S_i
    }
  }
  for (LoopJointDesc& l : out.loops) {
    moveLoopSide(t, out, l.link1, l.origin1);
    moveLoopSide(t, out, l.link2, l.origin2);
  }
  return out;
}

}  // namespace dyn
