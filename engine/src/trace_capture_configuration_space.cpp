// What a lecture shows of the configuration space method (Horn and Raibert, as Hollerbach 1980
// presents it; configuration_space_method.hpp): the tables at q (off-line, one step), the products
// q̇_j q̇_k (one step), then F_i row by row. Tables larger than a lecture can read are not shown
// (the state keeps G and J; C has n³ entries and stays in the workspace).
#include "dynscope/formulations/configuration_space_method.hpp"
#include "trace_captures.hpp"

namespace dyn::trace_capture {
namespace {

const char* kSection = "Hollerbach 1980, 'Configuration space method' (Horn and Raibert 1978)";
constexpr int kShownSize = 8;  // J, q̇ q̇ᵀ and C_i are shown up to 8 × 8

using Workspace = ConfigurationSpaceWorkspace<double>;

// C_i as an n x n matrix: C_ijk at (j, k).
Eigen::MatrixXd coriolisRow(const Workspace& ws, int i) {
  return Eigen::Map<const Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>>(ws.C.row(i).data(),
                                                                                                  ws.n, ws.n);
}

}  // namespace

void csTabulate(TraceRecorder& rec, StepBuilder& b, int) {
  const Workspace& ws = rec.workspace<Workspace>();
  const int tG = b.write(vectorTerm("**G**", ws.G, "G", -1));
  const int tJ = b.write(matrixTerm("**J**", Eigen::MatrixXd(ws.J), "J", -1));
  std::vector<StepBuilder::Token> tokens{tG};
  if (ws.n <= kShownSize) tokens.push_back(tJ);
  if (ws.n <= kShownSize) tokens.push_back(b.show(matrixTerm("C_{1jk}", coriolisRow(ws, 0))));
  b.line("G_{i}(q), J_{ij}(q) and C_{ijk}(q) tabulated at this q (" + std::to_string(ws.n) + " + " +
             std::to_string(ws.n * ws.n) + " + " + std::to_string(ws.n * ws.n * ws.n) +
             " numbers; off-line, not counted)",
         std::string(kSection) +
             "; filled here from RNEA: G = ID(q, 0, 0), J e_{k} = ID(q, 0, e_{k}) − G, C by polarization of "
             "ID(q, q̇, 0) − G",
         tokens);
}

void csVelocityProducts(TraceRecorder& rec, StepBuilder& b, int) {
  const Workspace& ws = rec.workspace<Workspace>();
  const int n = ws.n;
  const Eigen::MatrixXd products =
      Eigen::Map<const Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>>(ws.qdqd.data(), n, n);
  const int t = b.write(matrixTerm("q̇_{j} q̇_{k}", products, "q̇q̇", -1));
  b.line("q̇_{j} q̇_{k}   (j, k = 1 … n), formed once for every row", kSection,
         n <= kShownSize ? std::vector<StepBuilder::Token>{t} : std::vector<StepBuilder::Token>{});
}

void csRow(TraceRecorder& rec, StepBuilder& b, int i) {
  const Workspace& ws = rec.workspace<Workspace>();
  const int n = ws.n;
  const std::string I = dofLabel(i);
  const Eigen::VectorXd qdd = rec.accelerationsOrForces();
  const int tG = b.show(scalarTerm("G_{" + I + "}", ws.G[i]));
  const int tJq = b.show(scalarTerm("Σ_{j} J_{" + I + "j} q̈_{j}", ws.J.row(i).dot(qdd)));
  const int tCq = b.show(scalarTerm("Σ_{j} Σ_{k} C_{" + I + "jk} q̇_{j} q̇_{k}", ws.C.row(i).dot(ws.qdqd)));
  const int tF = b.show(scalarTerm("F_{" + I + "}", ws.tau[i]));
  std::vector<StepBuilder::Token> tokens{tF, "=", tG, "+", tJq, "+", tCq};
  if (n <= kShownSize) {
    tokens.insert(tokens.end(), {"\n", b.show(vectorTerm("J_{" + I + "j}", ws.J.row(i).transpose())), "·",
                                 b.show(vectorTerm("q̈", qdd))});
    tokens.insert(tokens.end(), {"\n", b.show(matrixTerm("C_{" + I + "jk}", coriolisRow(ws, i)))});
  }
  b.line("F_{i} = G_{i} + Σ_{j} J_{ij} q̈_{j} + Σ_{j} Σ_{k} C_{ijk} q̇_{j} q̇_{k}", kSection, tokens);
  b.write(patchTerm("**F**", "tau", -1, {{i, 0}}, ws.tau));
}

}  // namespace dyn::trace_capture
