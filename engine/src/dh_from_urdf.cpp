// URDF/MJCF serial chain -> DhTable (dh_from_urdf.hpp; docs/convert.md). Everything is computed at
// the zero configuration in world coordinates: the joint axis lines L_i (point p_i, direction z_i),
// the modified (proximal) frames M_i built on them, and the parameters between successive frames.
// Each M_i is rebuilt from M_{i-1} and its rounded parameters, so the table is exactly consistent
// and the bodies' inertials and the tool are expressed in the frames the table will produce.
#include "dynscope/io/dh_from_urdf.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <map>
#include <numbers>
#include <sstream>
#include <stdexcept>

#include "dh_geometry.hpp"

namespace dyn {
namespace {

using dh::Iso;
using V3 = Eigen::Vector3d;
constexpr double kPi = std::numbers::pi;
constexpr double kParallel = 1e-9;  // |z_i x z_i+1| below this: parallel axes

[[noreturn]] void refuse(const std::string& joint, const std::string& why) {
  throw std::invalid_argument("joint '" + joint + "': " + why);
}

const char* kindWord(JointKind k) {
  switch (k) {
    case JointKind::Planar:
      return "planar";
    case JointKind::Spherical:
      return "spherical";
    case JointKind::Floating:
      return "floating";
    case JointKind::Helical:
      return "helical";
    default:
      return "movable";
  }
}

// Rounding noise off: angles within 1e-14 of 0, +-pi/2 or +-pi are those (and -pi is pi).
double tidyAngle(double t) {
  for (double k : {0.0, kPi / 2, -kPi / 2, kPi, -kPi})
    if (std::abs(t - k) < 1e-14) return k == -kPi ? kPi : k;
  return t;
}
using dh::tidy;

struct Line {
  V3 p, z;
};

struct AxisFrame {
  V3 o, x, z;
};

V3 perpendicular(const V3& v, const V3& z) {  // v made perpendicular to z, unit; any when v is along z
  const V3 w = v - v.dot(z) * z;
  return w.norm() > 1e-9 ? V3(w.normalized()) : V3(z.unitOrthogonal());
}

// The closest points of two non-parallel lines: parameters on a and on b.
std::pair<double, double> closest(const Line& a, const Line& b) {
  const V3 w = a.p - b.p;
  const double c = a.z.dot(b.z), d = a.z.dot(w), e = b.z.dot(w), den = 1 - c * c;
  return {(c * e - d) / den, (e - c * d) / den};
}

class Converter {
 public:
  Converter(const RobotDescription& robot, std::vector<std::string>* notes) : robot_(robot), notes_(notes) {}

  DhTable run(DhConvention convention) {
    walkTree();
    buildFrames();
    DhTable t = table();
    if (convention == DhConvention::Standard) t = toConvention(t, DhConvention::Standard);
    if (const std::string problem = checkDhTable(t); !problem.empty())
      throw std::invalid_argument("the DH table cannot be written: " + problem);
    return t;
  }

 private:
  void note(const std::string& s) {
    if (notes_) notes_->push_back(s);
  }

  // The links from the root with their zero-pose placement and body (0 = ground, i = after the i-th
  // movable joint); refuses what is not one serial chain.
  void walkTree() {
    if (!robot_.loopJoints.empty())
      refuse(robot_.loopJoints.front().name, "it closes a loop; a DH table describes an open serial chain");
    std::map<std::string, int> linkIndex;
    for (int l = 0; l < int(robot_.links.size()); ++l) linkIndex.emplace(robot_.links[size_t(l)].name, l);
    const int L = int(robot_.links.size());
    std::vector<std::vector<int>> children(static_cast<size_t>(L));
    std::vector<int> parentJoint(static_cast<size_t>(L), -1);
    for (int j = 0; j < int(robot_.joints.size()); ++j) {
      const JointDesc& jd = robot_.joints[size_t(j)];
      const auto p = linkIndex.find(jd.parent), c = linkIndex.find(jd.child);
      if (p == linkIndex.end() || c == linkIndex.end()) refuse(jd.name, "its parent or child link does not exist");
      if (parentJoint[size_t(c->second)] >= 0)
        refuse(jd.name, "link '" + jd.child + "' already hangs from joint '" +
                            robot_.joints[size_t(parentJoint[size_t(c->second)])].name +
                            "': the joints close a loop; a DH table describes an open serial chain");
      parentJoint[size_t(c->second)] = j;
      children[size_t(p->second)].push_back(j);
    }
    int root = -1;
    for (int l = 0; l < L; ++l)
      if (parentJoint[size_t(l)] < 0) {
        if (root >= 0)
          throw std::invalid_argument("link '" + robot_.links[size_t(l)].name + "' is not connected to the root");
        root = l;
      }
    if (root < 0) throw std::invalid_argument("the robot has no root link");
    // Breadth-first order, then which subtrees hold a movable joint.
    std::vector<int> order{root};
    for (size_t k = 0; k < order.size(); ++k)
      for (int j : children[size_t(order[k])]) order.push_back(linkIndex.at(robot_.joints[size_t(j)].child));
    std::vector<bool> moves(static_cast<size_t>(L), false);
    for (auto it = order.rbegin(); it != order.rend(); ++it)
      for (int j : children[size_t(*it)]) {
        const JointDesc& jd = robot_.joints[size_t(j)];
        if (jd.kind != JointKind::Fixed || moves[size_t(linkIndex.at(jd.child))]) moves[size_t(*it)] = true;
      }
    pose_.assign(size_t(L), Iso::Identity());
    body_.assign(size_t(L), 0);
    depth_.assign(size_t(L), 0);
    for (int l : order) {
      int continuing = -1;
      for (int j : children[size_t(l)]) {
        const JointDesc& jd = robot_.joints[size_t(j)];
        const int c = linkIndex.at(jd.child);
        const bool movable = jd.kind != JointKind::Fixed;
        if (movable || moves[size_t(c)]) {
          if (continuing >= 0)
            refuse(jd.name, "it branches off link '" + robot_.links[size_t(l)].name +
                                "', which already carries joint '" + robot_.joints[size_t(continuing)].name +
                                "'; a DH table describes a serial chain");
          continuing = j;
        }
        pose_[size_t(c)] = pose_[size_t(l)] * dh::toIso(jd.origin);
        body_[size_t(c)] = body_[size_t(l)];
        depth_[size_t(c)] = depth_[size_t(l)] + 1;
        if (!movable) continue;
        if (jd.kind != JointKind::Revolute && jd.kind != JointKind::Continuous && jd.kind != JointKind::Prismatic)
          refuse(jd.name, std::string("it is ") + kindWord(jd.kind) + "; a DH row is one revolute or prismatic joint");
        if (jd.mimic) refuse(jd.name, "it mimics joint '" + jd.mimic->joint + "'; a DH table has no mimic relations");
        if (jd.armature != 0) refuse(jd.name, "it has an armature (rotor inertia); a DH table has no key for it");
        if (jd.stiffness != 0) refuse(jd.name, "it has a spring (stiffness); a DH table has no key for it");
        chain_.push_back(j);
        body_[size_t(c)] = int(chain_.size());
        depth_[size_t(c)] = 0;
        const V3 axis = jd.axis.normalized();
        lines_.push_back(Line{pose_[size_t(c)].translation(), pose_[size_t(c)].linear() * axis});
      }
    }
    if (chain_.empty()) throw std::invalid_argument("the robot has no revolute or prismatic joint to describe");
    scale_ = 1;
    for (const Line& line : lines_) scale_ = std::max(scale_, line.p.norm());
  }

  // The modified frames M_0..M_n (world coordinates, at q = 0) and the rows' a, alpha, theta, d.
  void buildFrames() {
    const size_t n = lines_.size();
    const double meet = 1e-12 * scale_;
    rows_.assign(n, DhRow{});
    frames_.assign(n + 1, Iso::Identity());
    // Frame 0: the world when its x axis is perpendicular to axis 1 and meets it.
    const Line& L1 = lines_[0];
    const Line xw{V3::Zero(), V3::UnitX()};
    const bool worldFits = std::abs(L1.z.x()) < 1e-12 && std::abs(L1.p.dot(V3::UnitX().cross(L1.z))) < meet;
    worldIsFrame0_ = worldFits;
    V3 anchor = worldFits ? V3(L1.p + closest(L1, xw).first * L1.z) : L1.p;  // where x_{i-1} meets axis i
    V3 previousX = worldFits ? V3::UnitX() : perpendicular(jointFrameX(0), L1.z);
    for (size_t i = 0; i < n; ++i) {
      const Line& Li = lines_[i];
      AxisFrame g{anchor, perpendicular(previousX, Li.z), Li.z};
      if (i + 1 < n) {
        const Line& Ln = lines_[i + 1];
        const V3 c = Li.z.cross(Ln.z);
        if (c.norm() < kParallel) {  // parallel (or coincident): the normal through the anchor
          const V3 w = Ln.p - anchor, perp = w - w.dot(Li.z) * Li.z;
          if (c.norm() > 1e-15) {
            std::ostringstream os;
            os << "the axes of joints '" << name(i) << "' and '" << name(i + 1) << "' are " << c.norm()
               << " rad from parallel: taken as parallel";
            note(os.str());
          }
          if (perp.norm() >= meet) g.x = perp.normalized();
          anchor = Ln.p + (anchor + perp - Ln.p).dot(Ln.z) * Ln.z;
        } else {  // skew or intersecting: the common normal
          const auto [ta, tb] = closest(Li, Ln);
          g.o = Li.p + ta * Li.z;
          anchor = Ln.p + tb * Ln.z;
          const V3 nrm = c.normalized();
          const double a = (anchor - g.o).dot(nrm);
          // Skew: x towards axis i+1 (a > 0). Intersecting (or nearly, as rpy written to 11 digits
          // leave them): the sign of z_i x z_i+1 closest to the previous x, so theta is 0 where the
          // published tables have it. The sign is a choice only: a is measured from the frames below.
          g.x = std::abs(a) >= 1e-9 * scale_ ? V3(a > 0 ? nrm : V3(-nrm)) : nrm.dot(previousX) < 0 ? V3(-nrm) : nrm;
        }
      }
      previousX = g.x;
      // Parameters from the rebuilt M_{i-1} to g; frame 0 = frame 1 at q = 0 when the world does not fit.
      if (i == 0 && !worldFits) {
        Iso M = Iso::Identity();
        M.linear() << g.x, g.z.cross(g.x), g.z;
        M.translation() = g.o;
        frames_[0] = frames_[1] = M;
        continue;
      }
      const Iso& A = frames_[i];
      const V3 xa = A.linear().col(0), za = A.linear().col(2), oa = A.translation();
      DhRow& r = rows_[i];
      r.alpha = tidyAngle(std::atan2(za.cross(g.z).dot(xa), za.dot(g.z)));
      r.a = tidy((g.o - oa).dot(xa), meet);
      r.theta = tidyAngle(std::atan2(xa.cross(g.x).dot(g.z), xa.dot(g.x)));
      r.d = tidy((g.o - oa - r.a * xa).dot(g.z), meet);
      frames_[i + 1] = A * dh::rowTransform(r, DhConvention::Modified);
      // How far the rebuilt axis is from the URDF's (rounding, or an approximation noted above).
      const Iso& M = frames_[i + 1];
      const double off =
          std::max(M.linear().col(2).cross(Li.z).norm() * scale_, (M.translation() - Li.p).cross(Li.z).norm());
      deviation_ = std::max(deviation_, off);
    }
    if (deviation_ > 1e-9 * scale_) {
      std::ostringstream os;
      os << "the DH axes differ from the URDF's by up to " << deviation_ << " m (axes taken as parallel)";
      note(os.str());
    }
  }

  // The x axis of joint 1's URDF frame, a default x_1 when frame 0 is not the world.
  V3 jointFrameX(size_t k) const {
    const JointDesc& jd = robot_.joints[size_t(chain_[k])];
    for (size_t l = 0; l < robot_.links.size(); ++l)
      if (robot_.links[l].name == jd.child) return pose_[l].linear().col(0);
    return V3::UnitX();
  }

  const std::string& name(size_t k) const { return robot_.joints[size_t(chain_[k])].name; }

  DhTable table() {
    DhTable t;
    t.name = robot_.name;
    std::replace_if(
        t.name.begin(), t.name.end(), [](char c) { return std::isspace(static_cast<unsigned char>(c)) || c == '#'; },
        '_');
    t.convention = DhConvention::Modified;
    t.gravity = robot_.gravity;
    t.sourceName = robot_.sourceFile;
    if (!worldIsFrame0_) t.base = tidyPose(frames_[0]);
    const size_t n = chain_.size();
    for (size_t i = 0; i < n; ++i) {
      const JointDesc& jd = robot_.joints[size_t(chain_[i])];
      DhRow& r = rows_[i];
      r.name = jd.name;
      r.prismatic = jd.kind == JointKind::Prismatic;
      r.hasLimits = jd.hasLimits && jd.kind != JointKind::Continuous;
      r.lower = r.hasLimits ? jd.lower : 0;
      r.upper = r.hasLimits ? jd.upper : 0;
      if (jd.velocity < 0 || jd.effort < 0)
        note("joint '" + jd.name + "': a negative effort or velocity limit (no limit) is written as none");
      r.velocity = std::max(0.0, jd.velocity);
      r.effort = std::max(0.0, jd.effort);
      r.damping = jd.damping;
      r.friction = jd.friction;
      if (jd.actuated) t.actuated.emplace_back(jd.name, 0);
    }
    addInertials();
    t.rows = rows_;
    // The tool: the deepest link fixed to the last body (the last in file order among equals).
    int end = -1;
    for (int l = 0; l < int(robot_.links.size()); ++l)
      if (body_[size_t(l)] == int(n) && (end < 0 || depth_[size_t(l)] >= depth_[size_t(end)])) end = l;
    const Pose tool = tidyPose(frames_[n].inverse() * pose_[size_t(end)]);
    if (!(tool.xyz.isZero(0) && tool.rpy.isZero(0))) t.tool = tool;
    return t;
  }

  Pose tidyPose(const Iso& T) const {
    Pose p = dh::toPose(T);
    for (int k = 0; k < 3; ++k) {
      p.xyz[k] = tidy(p.xyz[k], 1e-12 * scale_);
      p.rpy[k] = tidyAngle(p.rpy[k]);
    }
    return p;
  }

  // Every link's inertial, summed per body in its DH frame M_i (the ground's is left out).
  void addInertials() {
    std::vector<Inertia<double>> sum(rows_.size() + 1, Inertia<double>::Zero());
    std::vector<bool> has(rows_.size() + 1, false);
    for (size_t l = 0; l < robot_.links.size(); ++l) {
      const LinkDesc& link = robot_.links[l];
      if (!link.inertial) continue;
      const InertialDesc& in = *link.inertial;
      const int b = body_[l];
      if (b == 0) {
        if (in.mass > 0)
          note("link '" + link.name + "' is fixed to the ground: its inertia does not move and is left out");
        continue;
      }
      Mat3<double> Ic;
      Ic << in.ixx, in.ixy, in.ixz, in.ixy, in.iyy, in.iyz, in.ixz, in.iyz, in.izz;
      const Iso F = frames_[size_t(b)].inverse() * pose_[l] * dh::toIso(in.origin);  // COM frame in M_b
      const Transform<double> X = Transform<double>::fromPose(F.linear(), F.translation());
      sum[size_t(b)] += Inertia<double>::mcI(in.mass, Vec3<double>::Zero(), Ic).transformToA(X);
      has[size_t(b)] = true;
    }
    for (size_t i = 0; i < rows_.size(); ++i) {
      const Inertia<double>& I = sum[i + 1];
      DhRow& r = rows_[i];
      r.hasInertial = has[i + 1];
      if (!r.hasInertial) continue;
      const Vec3<double> c = I.m > 0 ? Vec3<double>(I.h / I.m) : Vec3<double>::Zero();
      const Mat3<double> C = skew(c);
      const Mat3<double> Ic = I.Ibar + I.m * C * C;
      const double zero = 1e-14 * std::max(1e-300, Ic.cwiseAbs().maxCoeff());
      r.mass = tidy(I.m, 0);
      for (int k = 0; k < 3; ++k) r.com[k] = tidy(c[k], 1e-14 * scale_);
      r.inertia = {tidy(Ic(0, 0), zero), tidy(Ic(1, 1), zero), tidy(Ic(2, 2), zero),
                   tidy(Ic(0, 1), zero), tidy(Ic(0, 2), zero), tidy(Ic(1, 2), zero)};
    }
  }

  const RobotDescription& robot_;
  std::vector<std::string>* notes_;
  std::vector<Iso> pose_;    // per link, in the world at q = 0
  std::vector<int> body_;    // per link: 0 ground, i after the i-th chain joint
  std::vector<int> depth_;   // per link: fixed joints from its body's first link
  std::vector<int> chain_;   // the movable joints, base outwards
  std::vector<Line> lines_;  // their axes at q = 0
  std::vector<Iso> frames_;  // M_0..M_n
  std::vector<DhRow> rows_;
  double scale_ = 1, deviation_ = 0;
  bool worldIsFrame0_ = false;
};

}  // namespace

DhTable dhTableFromDescription(const RobotDescription& robot, DhConvention convention,
                               std::vector<std::string>* notes) {
  return Converter(robot, notes).run(convention);
}

}  // namespace dyn
