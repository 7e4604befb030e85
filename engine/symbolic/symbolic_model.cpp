// Symbolic parameters for any loaded model (a URDF's links and joints, say): each body's mass, centre
// of mass and inertia about it (Inertia::mcI) and each joint origin's translation as symbols where
// non-zero, the rotations and axes kept as numbers; and what each parameter name means, for a DH
// table's symbols and for these.
#include <cmath>
#include <stdexcept>

#include "dynscope/symbolic/equations_of_motion.hpp"

namespace dyn {
namespace {

// Rounding noise out: |x| < 1e-13 -> 0, within 1e-13 of +-1 -> +-1 (cos(pi/2) = 6e-17 is 0).
double snapped(double x) {
  if (std::abs(x) < 1e-13) return 0;
  if (std::abs(std::abs(x) - 1) < 1e-13) return x > 0 ? 1 : -1;
  return x;
}
template <class M>
void snap(M&& values) {
  for (double& x : values.reshaped()) x = snapped(x);
}

}  // namespace

std::string parameterMeaning(const std::string& name, ParameterFrames frames) {
  if (name == "g") return "magnitude of gravity [m/s^2]";
  if (name.size() < 2 || name.find_first_of("0123456789") != 1) return "";
  const std::size_t end = name.find_first_not_of("0123456789", 1);
  const std::string k = name.substr(1, end - 1), rest = end == std::string::npos ? "" : name.substr(end);
  const bool dh = frames == ParameterFrames::Dh;
  const std::string frame = dh ? "DH frame " + k : "link " + k + "'s frame";
  // Name by its first letter and, for vectors and tensors, its components.
  switch (name[0]) {
    case 'l':
      return rest.empty() ? "link length a of row " + k + " [m]" : "";
    case 'd':
      return rest.empty() ? "offset d of row " + k + " [m]" : "";
    case 'p':
      return rest.size() == 1 ? "origin of joint " + k + ", " + rest + " in its parent link's frame [m]" : "";
    case 'm':
      return rest.empty() ? "mass of link " + k + " [kg]" : "";
    case 'c':
      return rest.size() == 1 ? "centre of mass of link " + k + ", " + rest + " in " + frame + " [m]" : "";
    case 'I':
      return rest.size() == 2
                 ? "inertia of link " + k + " about its centre of mass, " + rest + " (" + frame + " axes) [kg m^2]"
                 : "";
  }
  return "";
}

std::string SymbolicModel::meaning(const std::string& name) const {
  std::string out = parameterMeaning(name, frames);
  const std::size_t end = name.find_first_not_of("0123456789", 1), unit = out.rfind(" [");
  if (frames == ParameterFrames::Dh || out.empty() || end == 1 || unit == std::string::npos) return out;
  // A loaded model's link or joint name before the unit: "mass of link 2 (upper_arm_link) [kg]".
  const int i = std::stoi(name.substr(1, end - 1));
  if (i < 1 || i > model.N) return out;
  const std::string which = name[0] == 'p' ? model.jointNames[i] : model.bodyNames[i];
  return which.empty() ? out : out.insert(unit, " (" + which + ")");
}

SymbolicModel symbolicModel(const Model& loaded) {
  for (int i = 1; i <= loaded.N; ++i)
    if (loaded.joints[i].type != JointType::Revolute && loaded.joints[i].type != JointType::Prismatic)
      throw std::invalid_argument("symbolicModel: joint '" + loaded.jointNames[i] + "' is " +
                                  jointTypeName(loaded.joints[i].type) +
                                  "; symbolic parameters are written for revolute and prismatic joints only");
  // The numbers with their rounding noise out, as the numeric equations take them.
  Model m = loaded;
  for (int i = 1; i <= m.N; ++i) {
    snap(m.Xtree[i].E);
    snap(m.Xtree[i].r);
    snap(m.I[i].h);
    snap(m.I[i].Ibar);
    snap(m.joints[i].axis);
  }
  snap(m.gravity.v);
  snap(m.gravity.w);

  SymbolicModel out;
  out.frames = ParameterFrames::Link;
  out.model = m.cast<Sym>();
  // A symbol for a non-zero value (TeX name given), the value remembered for evaluation.
  const auto symbol = [&](double value, const std::string& name, const std::string& tex) -> Sym {
    if (value == 0) return 0;
    out.parameters.emplace_back(name, tex);
    out.values.append(out.parameters.back() == Sym::exactDecimal(value));
    return Sym(out.parameters.back());
  };
  const char* axes[] = {"x", "y", "z"};
  for (int i = 1; i <= m.N; ++i) {
    const std::string k = std::to_string(i);
    // Joint i's origin in the parent link's frame: X_T(i)'s translation.
    for (int a = 0; a < 3; ++a)
      out.model.Xtree[i].r[a] = symbol(m.Xtree[i].r[a], "p" + k + axes[a], "p_{" + k + axes[a] + "}");
    // Mass, centre of mass and inertia about it (m = 0: no centre of mass, the inertia as it is).
    const Inertia<double>& I = m.I[i];
    Vec3<double> c = I.com();
    Mat3<double> Ic = I.inertiaAboutCom();
    snap(c);
    snap(Ic);
    const Sym mass = symbol(I.m, "m" + k, "m_{" + k + "}");
    Vec3<Sym> cs;
    for (int a = 0; a < 3; ++a) cs[a] = symbol(c[a], "c" + k + axes[a], "c_{" + k + axes[a] + "}");
    // The tensor's six components: xx yy zz xy xz yz.
    const int rows[] = {0, 1, 2, 0, 0, 1}, cols[] = {0, 1, 2, 1, 2, 2};
    Mat3<Sym> Is;
    for (int e = 0; e < 6; ++e) {
      const std::string comp = std::string(axes[rows[e]]) + axes[cols[e]];
      Is(rows[e], cols[e]) = Is(cols[e], rows[e]) =
          symbol(Ic(rows[e], cols[e]), "I" + k + comp, "I_{" + k + comp + "}");
    }
    out.model.I[i] = Inertia<Sym>::mcI(mass, cs, Is);
  }
  // |a_g| as g, the direction a number.
  const Vec3<double> ag = m.gravity.v;
  if (ag.norm() > 0) {
    const Sym g = symbol(ag.norm(), "g", "g");
    Vec3<double> u = ag / ag.norm();
    snap(u);
    out.model.gravity.v = Vec3<Sym>(g * Sym(u.x()), g * Sym(u.y()), g * Sym(u.z()));
  }
  return out;
}

}  // namespace dyn
