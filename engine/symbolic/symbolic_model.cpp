// Models whose parameters are symbols:
//  - a standard-DH chain (Denavit & Hartenberg 1955; Paul 1981, §2.6: ^{i-1}T_i = Rz(theta_i)
//    Tz(d_i) Tx(a_i) Rx(alpha_i)) with its lengths, masses, centres of mass and inertias as symbols:
//    the model buildModel makes of the table (docs/dh-format.md, "What the loader builds": body i is
//    DH frame i-1 turned by theta_i, holding row i's inertial from DH frame i), with symbols in place
//    of the numbers;
//  - any loaded model (a URDF's links and joints, say): each body's mass, centre of mass and inertia
//    about it (Inertia::mcI) and each joint origin's translation as symbols where non-zero, the
//    rotations and axes kept as numbers;
// and what each parameter name means, for both.
#include <cmath>
#include <stdexcept>

#include "dynscope/io/dh_parser.hpp"
#include "dynscope/io/model_builder.hpp"
#include "dynscope/symbolic/equations_of_motion.hpp"

namespace dyn {
namespace {

// The twists and offsets stay numbers: cos(pi/2) in double is 6e-17, kept as 0.
Sym trigConstant(double x) {
  for (double k : {-1.0, 0.0, 1.0})
    if (std::abs(x - k) < 1e-15) return k;
  return x;
}
Mat3<Sym> rotX(double t) {  // vector-rotating
  const Sym c = trigConstant(std::cos(t)), s = trigConstant(std::sin(t));
  Mat3<Sym> R;
  R << 1, 0, 0, 0, c, -s, 0, s, c;
  return R;
}
Mat3<Sym> rotZ(double t) {
  const Sym c = trigConstant(std::cos(t)), s = trigConstant(std::sin(t));
  Mat3<Sym> R;
  R << c, -s, 0, s, c, 0, 0, 0, 1;
  return R;
}

}  // namespace

GiNaC::realsymbol SymbolicModel::parameter(const std::string& name) const {
  for (const auto& p : parameters)
    if (p.get_name() == name) return p;
  throw std::out_of_range("no parameter " + name);
}

std::vector<GiNaC::realsymbol> SymbolicModel::masses() const {
  std::vector<GiNaC::realsymbol> out;
  for (const auto& p : parameters)
    if (p.get_name().front() == 'm') out.push_back(p);
  return out;
}

SymbolicModel symbolicDhModel(const DhTable& table) {
  if (table.convention != DhConvention::Standard || table.base || table.tool || !table.loops.empty())
    throw std::invalid_argument("symbolicDhModel: a standard-DH serial chain without base, tool or loops");
  SymbolicModel out;
  out.model = buildModel(dhTableToDescription(table)).cast<Sym>();
  ModelTpl<Sym>& model = out.model;
  if (model.N != (int)table.rows.size()) throw std::invalid_argument("symbolicDhModel: a body per row expected");

  // A symbol for a non-zero value (TeX name given), the value remembered for evaluation.
  const auto symbol = [&](double value, const std::string& name, const std::string& tex) -> Sym {
    if (value == 0) return 0;
    out.parameters.emplace_back(name, tex);
    out.values.append(out.parameters.back() == Sym::exactDecimal(value));
    return Sym(out.parameters.back());
  };

  // Pose of the joint-(i+1) predecessor frame in body i, as (R, p).
  Mat3<Sym> R = Mat3<Sym>::Identity();
  Vec3<Sym> p = Vec3<Sym>::Zero();
  for (int i = 1; i <= model.N; ++i) {
    const DhRow& r = table.rows[i - 1];
    const std::string k = std::to_string(i);
    const Sym a = symbol(r.a, "l" + k, "l_{" + k + "}");
    const Sym d = r.prismatic ? Sym(0) : symbol(r.d, "d" + k, "d_{" + k + "}");
    // Joint i at q = 0: Rz(theta) (and Tz(d) for P, whose d offset stays a number).
    Mat3<Sym> Rj = R * rotZ(r.theta);
    const Vec3<Sym> pj = r.prismatic ? Vec3<Sym>(p + R * rotZ(r.theta) * Vec3<Sym>(0, 0, Sym(r.d))) : p;
    model.Xtree[i] = Transform<Sym>::fromPose(Rj, pj);
    // DH frame i in body i: Tz(d) Tx(a) Rx(alpha).
    const Mat3<Sym> Rf = rotX(r.alpha);
    const Vec3<Sym> pf(a, 0, d);
    if (r.hasInertial) {
      const Sym m = symbol(r.mass, "m" + k, "m_{" + k + "}");
      const Vec3<Sym> c(symbol(r.com.x(), "c" + k + "x", "c_{" + k + "x}"),
                        symbol(r.com.y(), "c" + k + "y", "c_{" + k + "y}"),
                        symbol(r.com.z(), "c" + k + "z", "c_{" + k + "z}"));
      const auto& In = r.inertia;  // Ixx Iyy Izz Ixy Ixz Iyz
      const Sym xx = symbol(In[0], "I" + k + "xx", "I_{" + k + "xx}"),
                yy = symbol(In[1], "I" + k + "yy", "I_{" + k + "yy}"),
                zz = symbol(In[2], "I" + k + "zz", "I_{" + k + "zz}"),
                xy = symbol(In[3], "I" + k + "xy", "I_{" + k + "xy}"),
                xz = symbol(In[4], "I" + k + "xz", "I_{" + k + "xz}"),
                yz = symbol(In[5], "I" + k + "yz", "I_{" + k + "yz}");
      Mat3<Sym> Ic;
      Ic << xx, xy, xz, xy, yy, yz, xz, yz, zz;
      model.I[i] = Inertia<Sym>::mcI(m, c, Ic).transformToA(Transform<Sym>::fromPose(Rf, pf));
    } else {
      model.I[i] = Inertia<Sym>();
    }
    R = Rf;
    p = pf;
  }
  // |a_g| as g, the direction a number.
  const Vec3<double> ag = table.gravity;
  if (ag.norm() > 0) {
    const Sym g = symbol(ag.norm(), "g", "g");
    const Vec3<double> u = ag / ag.norm();
    model.gravity.v = Vec3<Sym>(g * Sym(u.x()), g * Sym(u.y()), g * Sym(u.z()));
  }
  return out;
}

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

Model withoutRoundingNoise(const Model& model) {
  Model m = model;
  for (int i = 1; i <= m.N; ++i) {
    snap(m.Xtree[i].E);
    snap(m.Xtree[i].r);
    snap(m.I[i].h);
    snap(m.I[i].Ibar);
    snap(m.joints[i].axis);
  }
  snap(m.gravity.v);
  snap(m.gravity.w);
  return m;
}

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
  const std::string digits = name.substr(1, end == std::string::npos ? std::string::npos : end - 1);
  if (digits.empty()) return out;  // g
  const int i = std::stoi(digits);
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
  Model m = withoutRoundingNoise(loaded);

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
