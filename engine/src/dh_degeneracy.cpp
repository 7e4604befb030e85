// Degenerate pairs of a DH chain (dynscope/io/dh_table.hpp): successive joint axes on one line.
// Standard convention, row i = Rz(theta_i) Tz(d_i) Tx(a_i) Rx(alpha_i): axis z_i of joint i+1 lies at
// distance a_i from axis z_{i-1} of joint i and turned by alpha_i about their common normal, so the
// two are one line when a_i = 0 and sin(alpha_i) = 0, parallel when sin(alpha_i) = 0. Modified
// convention: row i holds a_{i-1}, alpha_{i-1}, the same relation between z_{i-1} and z_i.
#include <cmath>
#include <sstream>

#include "dynscope/io/dh_table.hpp"

namespace dyn {

std::vector<DhDegeneracy> dhDegeneracies(const DhTable& table) {
  constexpr double kZero = 1e-12;  // a typed 0 (m), or an angle whose sine rounds to 0 (180° in radians)
  const bool modified = table.convention == DhConvention::Modified;
  std::vector<DhDegeneracy> out;
  for (size_t k = 0; k + 1 < table.rows.size(); ++k) {
    const DhRow &j1 = table.rows[k], &j2 = table.rows[k + 1];
    const size_t row = modified ? k + 1 : k;
    const DhRow& r = table.rows[row];
    if (j1.prismatic != j2.prismatic || std::abs(std::sin(r.alpha)) > kZero) continue;
    if (!j1.prismatic && std::abs(r.a) > kZero) continue;  // revolute: parallel axes a apart still differ
    // Subscripts as in the papers: standard row i holds a_i, alpha_i; modified row i a_{i-1}, alpha_{i-1}.
    const std::string sub = modified ? std::to_string(row) : std::to_string(row + 1);
    std::ostringstream why;
    why << "joints '" << j1.name << "' and '" << j2.name << "' "
        << (j1.prismatic ? "slide along parallel axes (alpha" + sub + " = "
                         : "turn about the same line (a" + sub + " = 0, alpha" + sub + " = ")
        << (std::cos(r.alpha) > 0 ? "0" : "180") << "°): '" << j2.name
        << "' adds no degree of freedom of its own (the chain is degenerate)";
    out.push_back({int(k), int(k + 1), int(row), why.str()});
  }
  return out;
}

}  // namespace dyn
