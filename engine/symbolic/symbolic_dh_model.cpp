// A standard-DH chain (Denavit & Hartenberg 1955; Paul 1981, §2.6: ^{i-1}T_i = Rz(theta_i)
// Tz(d_i) Tx(a_i) Rx(alpha_i)) with its lengths, masses, centres of mass and inertias as symbols:
// the model buildModel makes of the table (docs/dh-format.md, "What the loader builds": body i is
// DH frame i-1 turned by theta_i, holding row i's inertial from DH frame i), with symbols in place
// of the numbers.
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

}  // namespace dyn
