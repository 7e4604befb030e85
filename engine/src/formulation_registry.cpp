// The table of formulations (dynscope/formulations/registry.hpp).
//
// Adding a formulation: an adapter (a struct naming its workspace and how to call it) and one entry
// in formulations() below, e.g.
//   struct MyId {
//     template <class S> using Workspace = MyWorkspaceTpl<S>;  // constructible from the model
//     template <class S> static const VecX<S>& run(const ModelTpl<S>& m, Workspace<S>& ws, const VecX<S>& q,
//                                                  const VecX<S>& qd, const VecX<S>& qdd) { return myId(m, ws, q, qd,
//                                                  qdd); }
//   };
//   entry<MyId>(Problem::InverseDynamics, {.name = "my-id", ...})
#include "dynscope/formulations/registry.hpp"

#include <memory>
#include <stdexcept>

#include "dynscope/algorithms/aba.hpp"
#include "dynscope/algorithms/crba.hpp"
#include "dynscope/algorithms/forward_dynamics_crba.hpp"
#include "dynscope/algorithms/rnea.hpp"
#include "dynscope/formulations/denoc_forward_dynamics.hpp"
#include "dynscope/formulations/denoc_generalized_inertia.hpp"
#include "dynscope/formulations/denoc_inverse_dynamics.hpp"
#include "dynscope/formulations/configuration_space_method.hpp"
#include "dynscope/formulations/newton_euler_3vector.hpp"
#include "dynscope/formulations/recursive_lagrangian_3x3.hpp"
#include "dynscope/formulations/recursive_lagrangian_4x4.hpp"
#include "dynscope/formulations/uicker_kahn_lagrangian.hpp"
#include "dynscope/formulations/waters_lagrangian.hpp"

namespace dyn {
namespace {

// ---- Adapters: the workspace of each formulation and its call --------------------------------------

struct RneaId {
  template <class S>
  using Workspace = DataTpl<S>;
  template <class S>
  static const VecX<S>& run(const ModelTpl<S>& m, Workspace<S>& d, const VecX<S>& q, const VecX<S>& qd,
                            const VecX<S>& qdd) {
    return rnea(m, d, q, qd, qdd);
  }
};
struct DenocId {
  template <class S>
  using Workspace = DenocWorkspaceTpl<S>;
  template <class S>
  static const VecX<S>& run(const ModelTpl<S>& m, Workspace<S>& ws, const VecX<S>& q, const VecX<S>& qd,
                            const VecX<S>& qdd) {
    return denocInverseDynamics(m, ws, q, qd, qdd);
  }
};
struct NewtonEuler3Id {
  template <class S>
  using Workspace = NewtonEuler3WorkspaceTpl<S>;
  template <class S>
  static const VecX<S>& run(const ModelTpl<S>& m, Workspace<S>& ws, const VecX<S>& q, const VecX<S>& qd,
                            const VecX<S>& qdd) {
    return newtonEuler3(m, ws, q, qd, qdd);
  }
};
// The Lagrangian family (Hollerbach 1980) and the configuration-space method: inverse dynamics only.
#define DYN_ID_ADAPTER(Name, WorkspaceT, call)                                                             \
  struct Name {                                                                                            \
    template <class S>                                                                                     \
    using Workspace = WorkspaceT<S>;                                                                       \
    template <class S>                                                                                     \
    static const VecX<S>& run(const ModelTpl<S>& m, Workspace<S>& ws, const VecX<S>& q, const VecX<S>& qd, \
                              const VecX<S>& qdd) {                                                        \
      return call(m, ws, q, qd, qdd);                                                                      \
    }                                                                                                      \
  };
DYN_ID_ADAPTER(UickerKahnId, UickerKahnWorkspace, uickerKahnInverseDynamics)
DYN_ID_ADAPTER(WatersId, WatersWorkspace, watersInverseDynamics)
DYN_ID_ADAPTER(RecursiveLagrangian4x4Id, RecursiveLagrangian4x4Workspace, recursiveLagrangian4x4InverseDynamics)
DYN_ID_ADAPTER(RecursiveLagrangian3x3Id, RecursiveLagrangian3x3Workspace, recursiveLagrangian3x3InverseDynamics)
DYN_ID_ADAPTER(ConfigurationSpaceId, ConfigurationSpaceWorkspace, configurationSpaceInverseDynamics)
#undef DYN_ID_ADAPTER
struct CrbaMass {
  template <class S>
  using Workspace = DataTpl<S>;
  template <class S>
  static void prepare(Workspace<S>& d) {
    d.reserveMassMatrix();  // Data allocates H lazily: at binding, not in the first call
  }
  template <class S>
  static const MatX<S>& run(const ModelTpl<S>& m, Workspace<S>& d, const VecX<S>& q) {
    return crba(m, d, q);
  }
};
struct DenocMass {
  template <class S>
  using Workspace = DenocWorkspaceTpl<S>;
  template <class S>
  static const MatX<S>& run(const ModelTpl<S>& m, Workspace<S>& ws, const VecX<S>& q) {
    return denocGeneralizedInertia(m, ws, q);
  }
};
struct AbaFd {
  template <class S>
  using Workspace = DataTpl<S>;
  template <class S>
  static const VecX<S>& run(const ModelTpl<S>& m, Workspace<S>& d, const VecX<S>& q, const VecX<S>& qd,
                            const VecX<S>& tau) {
    return aba(m, d, q, qd, tau);
  }
};
struct CrbaFd {
  template <class S>
  using Workspace = DataTpl<S>;
  template <class S>
  static void prepare(Workspace<S>& d) {
    d.reserveFactor();  // H and its factor, at binding
  }
  template <class S>
  static const VecX<S>& run(const ModelTpl<S>& m, Workspace<S>& d, const VecX<S>& q, const VecX<S>& qd,
                            const VecX<S>& tau) {
    return forwardDynamicsCrba(m, d, q, qd, tau);
  }
};
struct DenocFd {
  template <class S>
  using Workspace = DenocWorkspaceTpl<S>;
  template <class S>
  static const VecX<S>& run(const ModelTpl<S>& m, Workspace<S>& ws, const VecX<S>& q, const VecX<S>& qd,
                            const VecX<S>& tau) {
    return denocForwardDynamics(m, ws, q, qd, tau);
  }
};

// ---- Binding: a copy of the model and a workspace built once, shared by the returned callable ------

template <class F, class S>
struct Bound {
  ModelTpl<S> model;
  typename F::template Workspace<S> ws;
  explicit Bound(const ModelTpl<S>& m) : model(m), ws(model) {
    if constexpr (requires { F::prepare(ws); }) F::prepare(ws);
  }
};

template <class F, class S>
BoundFormulation<S> bindTo(Problem problem, const ModelTpl<S>& model) {
  auto b = std::make_shared<Bound<F, S>>(model);
  BoundFormulation<S> out;
  if constexpr (requires(const ModelTpl<S>& m, typename F::template Workspace<S>& w, const VecX<S>& x) {
                  F::run(m, w, x);
                }) {
    out.massMatrix = [b](const VecX<S>& q) -> const MatX<S>& { return F::run(b->model, b->ws, q); };
  } else if (problem == Problem::InverseDynamics) {
    out.inverseDynamics = [b](const VecX<S>& q, const VecX<S>& qd, const VecX<S>& qdd) -> const VecX<S>& {
      return F::run(b->model, b->ws, q, qd, qdd);
    };
  } else {
    out.forwardDynamics = [b](const VecX<S>& q, const VecX<S>& qd, const VecX<S>& tau) -> const VecX<S>& {
      return F::run(b->model, b->ws, q, qd, tau);
    };
  }
  return out;
}

template <class F, Problem P>
BoundFormulation<double> bindDouble(const Model& m) {
  return bindTo<F, double>(P, m);
}
template <class F, Problem P>
BoundFormulation<CountingScalar> bindCounting(const ModelTpl<CountingScalar>& m) {
  return bindTo<F, CountingScalar>(P, m);
}

template <class F, Problem P>
Formulation entry(Formulation f) {
  f.problem = P;
  f.bind = &bindDouble<F, P>;
  f.bindCounting = &bindCounting<F, P>;
  return f;
}

// ---- What the papers exclude from their counts ---------------------------------------------------

const char* const kHollerbachBasis =
    "Hollerbach (1980): all-revolute serial arm; M = multiplications, A = additions; 'the cost of computing the "
    "terms in the matrices A_j, dA_j/dq_j and d2A_j/dq_j2 was not included' (the joint transforms, their sines "
    "and cosines), and no sparseness of the matrices is exploited. Compare with the count without joint "
    "transforms.";
const char* const kSahaBasis =
    "Saha (1999): all-revolute serial manipulator; M = multiplications/divisions, A = additions/subtractions. "
    "The paper does not say whether the joint rotation matrices (sines, cosines) are counted: compare with both "
    "the total and the count without joint transforms.";

std::vector<Formulation> makeTable() {
  using P = Problem;
  std::vector<Formulation> t;
  // ---------------------------------------------------------------- inverse dynamics
  t.push_back(entry<RneaId, P::InverseDynamics>({
      .name = "rnea",
      .title = "Recursive Newton-Euler algorithm (spatial vectors)",
      .description = "tau = ID(q, qd, qdd): spatial velocities and accelerations outwards, body forces inwards",
      .reference = "Featherstone (2010), 'A Beginner's Guide to 6-D Vectors (Part 2)', Fig. 5, eqs. 9-13; "
                   "Featherstone (2008), RNEA",
      .header = "algorithms/rnea.hpp",
      .degree = 1,
      .paperCounts = {},  // the seeds print no count for the spatial RNEA
  }));
  t.push_back(entry<DenocId, P::InverseDynamics>({
      .name = "denoc",
      .title = "DeNOC recursive inverse dynamics (Saha)",
      .description = "tau = ID(q, qd, qdd): twists and twist rates outwards, wrenches w = M t' + W M E t inwards, "
                     "tau_i = p_i^T w~_i",
      .reference = "Saha (1999), section 5.1, eqs. 7, 12, 30, 32",
      .header = "formulations/denoc_inverse_dynamics.hpp",
      .degree = 1,
      .revolutePrismaticOnly = true,
      .paperCounts = {{.source = "Saha (1999), Table 1, 'Proposed'",
                       .mulsFormula = "120n - 44",
                       .addsFormula = "97n - 55",
                       .muls = {-44, 120},
                       .adds = {-55, 97},
                       .tabulated = {{6, 676, 527}},
                       .basis = kSahaBasis}},
  }));
  t.push_back(entry<NewtonEuler3Id, P::InverseDynamics>({
      .name = "newton-euler-3",
      .title = "Recursive Newton-Euler, 3-vectors in link coordinates (Luh, Walker and Paul)",
      .description = "tau = ID(q, qd, qdd): angular and linear accelerations outwards with 3x3 rotations, link "
                     "forces and moments inwards",
      .reference = "Hollerbach (1980), 'Recursive Newton-Euler Dynamics' and '... Referred to Link Coordinates' "
                   "(Luh et al. 1980)",
      .header = "formulations/newton_euler_3vector.hpp",
      .degree = 1,
      .revolutePrismaticOnly = true,
      .paperCounts = {{.source = "Hollerbach (1980), Tables I-II, 'Newton-Euler'",
                       .mulsFormula = "150n - 48",
                       .addsFormula = "131n - 48",
                       .muls = {-48, 150},
                       .adds = {-48, 131},
                       .tabulated = {{6, 852, 738}},
                       .basis = kHollerbachBasis},
                      {.source = "Saha (1999), Table 1, 'Luh et al. (1980)' (the additions differ from "
                                 "Hollerbach's in the sign of the constant)",
                       .mulsFormula = "150n - 48",
                       .addsFormula = "131n + 48",
                       .muls = {-48, 150},
                       .adds = {48, 131},
                       .tabulated = {{6, 852, 834}},
                       .basis = kSahaBasis}},
  }));
  // The Lagrangian family (Hollerbach 1980) and the configuration-space method
  t.push_back(entry<UickerKahnId, P::InverseDynamics>({
      .name = "uicker-kahn",
      .title = "Lagrangian formulation with 4x4 matrices (Uicker/Kahn)",
      .description = "tau = ID(q, qd, qdd) from every dW/dq_k and d2W/dq_k dq_l (4x4 link transforms), O(n^4)",
      .reference = "Hollerbach (1980), eqs. 3-5",
      .header = "formulations/uicker_kahn_lagrangian.hpp",
      .degree = 4,
      .revolutePrismaticOnly = true,
      // The seed disagrees with itself (Table I's multiplications give 67,143 at n = 6, Table II prints
      // 66,271): the polynomial and the tabulated value are kept apart, each as printed.
      .paperCounts = {{.source = "Hollerbach (1980), Table I, 'Uicker/Kahn' (its multiplications give 67,143 at "
                                 "n = 6; Table II prints 66,271)",
                       .mulsFormula = "32 1/2 n^4 + 86 5/12 n^3 + 171 1/4 n^2 + 53 1/3 n - 128",
                       .addsFormula = "25n^4 + 66 1/3 n^3 + 129 1/2 n^2 + 42 1/3 n - 96",
                       .muls = {-128, 53.0 + 1.0 / 3.0, 171.25, 86.0 + 5.0 / 12.0, 32.5},
                       .adds = {-96, 42.0 + 1.0 / 3.0, 129.5, 66.0 + 1.0 / 3.0, 25},
                       .tabulated = {},
                       .basis = kHollerbachBasis},
                      {.source = "Hollerbach (1980), Table II, 'Uicker/Kahn' (n = 6)",
                       .tabulated = {{6, 66271, 51548}},
                       .basis = kHollerbachBasis}},
  }));
  t.push_back(entry<WatersId, P::InverseDynamics>({
      .name = "waters",
      .title = "Waters' Lagrangian formulation (backward recurrences)",
      .description = "tau = ID(q, qd, qdd): dW_j/dq_i by recurrence, the backward sums of eq. 6, O(n^2)",
      .reference = "Hollerbach (1980), eqs. 6-10",
      .header = "formulations/waters_lagrangian.hpp",
      .degree = 2,
      .revolutePrismaticOnly = true,
      .paperCounts = {{.source = "Hollerbach (1980), Table I, 'Waters' (its multiplications give 7,043.5 at "
                                 "n = 6; Table II prints 7,051)",
                       .mulsFormula = "106 1/2 n^2 + 620 1/4 n - 512",
                       .addsFormula = "82n^2 + 514n - 384",
                       .muls = {-512, 620.25, 106.5},
                       .adds = {-384, 514, 82},
                       .tabulated = {},
                       .basis = kHollerbachBasis},
                      {.source = "Hollerbach (1980), Table II, 'Waters' (n = 6)",
                       .tabulated = {{6, 7051, 5652}},
                       .basis = kHollerbachBasis}},
  }));
  t.push_back(entry<RecursiveLagrangian4x4Id, P::InverseDynamics>({
      .name = "lagrange-4x4",
      .title = "Hollerbach's recursive Lagrangian formulation, 4x4 matrices",
      .description = "tau = ID(q, qd, qdd): W, W', W'' forward, D and c backward recursions, O(n)",
      .reference = "Hollerbach (1980), eqs. 8-14",
      .header = "formulations/recursive_lagrangian_4x4.hpp",
      .degree = 1,
      .revolutePrismaticOnly = true,
      .paperCounts = {{.source = "Hollerbach (1980), Tables I-II, 'Recursive Lagrangian (4x4)'",
                       .mulsFormula = "830n - 592",
                       .addsFormula = "675n - 464",
                       .muls = {-592, 830},
                       .adds = {-464, 675},
                       .tabulated = {{6, 4388, 3586}},
                       .basis = kHollerbachBasis}},
  }));
  t.push_back(entry<RecursiveLagrangian3x3Id, P::InverseDynamics>({
      .name = "lagrange-3x3",
      .title = "Hollerbach's recursive Lagrangian formulation, 3x3 rotations and 3-vectors",
      .description = "tau = ID(q, qd, qdd): the recursive Lagrangian recurrences with rotation matrices and "
                     "position vectors, O(n)",
      .reference = "Hollerbach (1980), eqs. 15-18 and B1-B5",
      .header = "formulations/recursive_lagrangian_3x3.hpp",
      .degree = 1,
      .revolutePrismaticOnly = true,
      .paperCounts = {{.source = "Hollerbach (1980), Tables I-II, 'Recursive Lagrangian (3x3)'",
                       .mulsFormula = "412n - 277",
                       .addsFormula = "320n - 201",
                       .muls = {-277, 412},
                       .adds = {-201, 320},
                       .tabulated = {{6, 2195, 1719}},
                       .basis = kHollerbachBasis},
                      {.source = "Saha (1999), Table 1, 'Hollerbach (1980)' (Hollerbach's 3x3 count, quoted)",
                       .mulsFormula = "412n - 277",
                       .addsFormula = "320n - 201",
                       .muls = {-277, 412},
                       .adds = {-201, 320},
                       .tabulated = {{6, 2195, 1719}},
                       .basis = kSahaBasis}},
  }));
  t.push_back(entry<ConfigurationSpaceId, P::InverseDynamics>({
      .name = "configuration-space",
      .title = "Configuration-space method (Horn and Raibert): tabulated G, J, C",
      .description = "tau = G + J qdd + qd^T C qd from tables computed at q (the tabulation, by RNEA, is counted "
                     "apart as off-line work)",
      .reference = "Hollerbach (1980), 'Configuration space method'",
      .header = "formulations/configuration_space_method.hpp",
      .degree = 3,
      .tabulates = true,
      .paperCounts = {{.source = "Hollerbach (1980), Tables I-II, 'Horn and Raibert' (evaluation only)",
                       .mulsFormula = "2n^3 + n^2",
                       .addsFormula = "n^3 + n^2 + 2n",
                       .muls = {0, 0, 1, 2},
                       .adds = {0, 2, 1, 1},
                       .tabulated = {{6, 468, 264}},
                       .basis = kHollerbachBasis}},
  }));
  // ---------------------------------------------------------------- mass matrix
  t.push_back(entry<CrbaMass, P::MassMatrix>({
      .name = "crba",
      .title = "Composite-rigid-body algorithm",
      .description = "H(q): composite inertias inwards, each column's force carried to the root; branch-induced "
                     "zeros untouched",
      .reference = "Featherstone (2010), Part 2, Fig. 7, eqs. 44-48",
      .header = "algorithms/crba.hpp",
      .degree = 2,
      .paperCounts = {},  // (Saha's Table 2 counts CRBA only within forward dynamics)
  }));
  t.push_back(entry<DenocMass, P::MassMatrix>({
      .name = "denoc",
      .title = "DeNOC generalized inertia matrix (Saha)",
      .description = "I(q): composite-body mass matrices M~_i, I_ij = p_i^T M~_i B_ij p_j",
      .reference = "Saha (1999), section 4.1, eqs. 20-24",
      .header = "formulations/denoc_generalized_inertia.hpp",
      .degree = 2,
      .revolutePrismaticOnly = true,
      .paperCounts = {},  // Saha gives no count for the GIM alone
  }));
  // ---------------------------------------------------------------- forward dynamics
  t.push_back(entry<AbaFd, P::ForwardDynamics>({
      .name = "aba",
      .title = "Articulated-body algorithm",
      .description = "qdd = FD(q, qd, tau) in O(n): velocities, articulated inertias inwards, accelerations "
                     "outwards (link coordinates, a free joint as one 6-dof block)",
      .reference = "Featherstone Part 2, Fig. 9, eqs. 49-68",
      .header = "algorithms/aba.hpp",
      .degree = 1,
      .paperCounts = {{.source = "Saha (1999), Table 2, 'Featherstone (1983)' (the link-coordinate ABA of 1983)",
                       .mulsFormula = "199n - 198",
                       .addsFormula = "174n - 173",
                       .muls = {-198, 199},
                       .adds = {-173, 174},
                       .tabulated = {{6, 996, 871}, {12, 2190, 1915}},
                       .basis = kSahaBasis}},
  }));
  t.push_back(entry<CrbaFd, P::ForwardDynamics>({
      .name = "crba",
      .title = "Composite-rigid-body method (CRBA + RNEA bias + sparse L^T L)",
      .description = "qdd = H(q)^-1 (tau - C(q, qd)): H by CRBA, C by RNEA, then the branch-sparse factor H = L^T L",
      .reference = "Featherstone Part 2, eqs. 35-37 and 44-48; Walker and Orin (1982) method 3 in the Orin and "
                   "Featherstone review",
      .header = "algorithms/forward_dynamics_crba.hpp",
      .degree = 3,
      .paperCounts = {{.source = "Saha (1999), Table 2, 'Walker and Orin (1982)' (method 3: CRBA and Cholesky)",
                       .mulsFormula = "(1/6)n^3 + 11 1/2 n^2 + 38 1/3 n - 47",
                       .addsFormula = "(1/6)n^3 + 7n^2 + ... (illegible in the seed's text)",
                       .muls = {-47, 38.0 + 1.0 / 3.0, 11.5, 1.0 / 6.0},
                       .adds = {},
                       .tabulated = {{6, 633, 480}, {12, 2357, 1716}},
                       .basis = kSahaBasis}},
  }));
  t.push_back(entry<DenocFd, P::ForwardDynamics>({
      .name = "denoc",
      .title = "DeNOC recursive forward dynamics (Saha)",
      .description = "qdd = FD(q, qd, tau) in O(n): phi = tau - ID(q, qd, 0), UDU^T of the GIM by reverse Gaussian "
                     "elimination, three recursive solution steps",
      .reference = "Saha (1999), section 5.2, eqs. 33-37, Appendix B eqs. 46-55",
      .header = "formulations/denoc_forward_dynamics.hpp",
      .degree = 1,
      .revolutePrismaticOnly = true,
      .paperCounts = {{.source = "Saha (1999), Table 2, 'Proposed'",
                       .mulsFormula = "201n - 335",
                       .addsFormula = "193n - 361",
                       .muls = {-335, 201},
                       .adds = {-361, 193},
                       .tabulated = {{6, 871, 797}, {12, 2077, 1955}},
                       .basis = kSahaBasis}},
  }));
  return t;
}

}  // namespace

const char* problemName(Problem p) {
  switch (p) {
    case Problem::InverseDynamics:
      return "id";
    case Problem::MassMatrix:
      return "mass";
    case Problem::ForwardDynamics:
      return "fd";
  }
  return "?";
}

const char* problemTitle(Problem p) {
  switch (p) {
    case Problem::InverseDynamics:
      return "inverse dynamics";
    case Problem::MassMatrix:
      return "mass matrix";
    case Problem::ForwardDynamics:
      return "forward dynamics";
  }
  return "?";
}

std::optional<Problem> problemByName(std::string_view name) {
  for (Problem p : {Problem::InverseDynamics, Problem::MassMatrix, Problem::ForwardDynamics})
    if (name == problemName(p)) return p;
  return std::nullopt;
}

std::optional<double> PaperCount::evaluate(const std::vector<double>& c, int n) {
  if (c.empty()) return std::nullopt;
  double value = 0;
  for (size_t k = c.size(); k-- > 0;) value = value * n + c[k];  // Horner
  return value;
}

const std::vector<Formulation>& formulations() {
  static const std::vector<Formulation> table = makeTable();
  return table;
}

const Formulation* findFormulation(Problem problem, std::string_view name) {
  for (const Formulation& f : formulations())
    if (f.problem == problem && f.name == name) return &f;
  return nullptr;
}

std::vector<std::string> formulationNames(Problem problem) {
  std::vector<std::string> names;
  for (const Formulation& f : formulations())
    if (f.problem == problem) names.push_back(f.name);
  return names;
}

const Formulation& formulation(Problem problem, std::string_view name) {
  if (const Formulation* f = findFormulation(problem, name)) return *f;
  std::string valid;
  for (const std::string& n : formulationNames(problem)) valid += (valid.empty() ? "" : ", ") + n;
  throw std::invalid_argument("unknown " + std::string(problemTitle(problem)) + " algorithm '" + std::string(name) +
                              "' (valid: " + valid + ")");
}

OpTally countOperations(const Formulation& f, const Model& model, const Eigen::VectorXd& q, const Eigen::VectorXd& qd,
                        const Eigen::VectorXd& qddOrTau) {
  using CS = CountingScalar;
  const ModelTpl<CS> counted = model.cast<CS>();
  const BoundFormulation<CS> b = f.bindCounting(counted);  // workspace set-up is not counted
  const VecX<CS> qc = q.cast<CS>(), qdc = qd.cast<CS>(), xc = qddOrTau.cast<CS>();
  CS::reset();
  switch (f.problem) {
    case Problem::InverseDynamics:
      b.inverseDynamics(qc, qdc, xc);
      break;
    case Problem::MassMatrix:
      b.massMatrix(qc);
      break;
    case Problem::ForwardDynamics:
      b.forwardDynamics(qc, qdc, xc);
      break;
  }
  const OpTally tally = CS::tally();
  CS::reset();
  return tally;
}

}  // namespace dyn
