// The KDL side of kdl_bridge.hpp. Compiled with default (generic x86-64) flags into the shared
// library dynscope_kdl_bridge with hidden visibility: every KDL and Eigen type stays in this file.
#include "kdl_bridge.hpp"

#include <stdexcept>

#include <kdl/chain.hpp>
#include <kdl/chaindynparam.hpp>
#include <kdl/chainidsolver_recursive_newton_euler.hpp>
#include <kdl/jntarray.hpp>
#include <kdl/jntspaceinertiamatrix.hpp>
#include <kdl/tree.hpp>
#include <kdl/treeidsolver_recursive_newton_euler.hpp>
#include <kdl_parser/kdl_parser.hpp>

namespace dyn::kdl_bridge {

namespace {

// A std::vector as a KDL::JntArray of n entries (throws on a size mismatch).
KDL::JntArray toKdl(const std::vector<double>& x, unsigned n, const char* what) {
  if (x.size() != n)
    throw std::invalid_argument(std::string("kdl_bridge: ") + what + " has " + std::to_string(x.size()) +
                                " entries, KDL expects " + std::to_string(n));
  KDL::JntArray a(n);
  for (unsigned k = 0; k < n; ++k) a(k) = x[k];
  return a;
}

std::vector<double> fromKdl(const KDL::JntArray& a) {
  std::vector<double> x(a.rows());
  for (unsigned k = 0; k < a.rows(); ++k) x[k] = a(k);
  return x;
}

KDL::Vector kdlVector(const std::array<double, 3>& v) { return KDL::Vector(v[0], v[1], v[2]); }

}  // namespace

// ---- KdlChainOracle ---------------------------------------------------------------------------

struct KdlChainOracle::Impl {
  KDL::Chain chain;  // declared before the solvers, which keep a reference to it
  KDL::ChainIdSolver_RNE rne;
  KDL::ChainDynParam dynParam;
  KDL::Wrenches noWrench;
  std::vector<std::string> names;
  KDL::JntArray q, qd, qdd, tau;  // the prepared state and the result of the benchmark calls
  KDL::JntSpaceInertiaMatrix H;

  Impl(const KDL::Chain& c, const KDL::Vector& g)
      : chain(c), rne(chain, g), dynParam(chain, g), noWrench(chain.getNrOfSegments(), KDL::Wrench::Zero()) {
    // Joint names in chain order, fixed joints skipped (KDL numbers only the moving ones).
    for (const KDL::Segment& seg : chain.segments)
      if (seg.getJoint().getType() != KDL::Joint::Fixed) names.push_back(seg.getJoint().getName());
    const unsigned n = chain.getNrOfJoints();
    q.resize(n); qd.resize(n); qdd.resize(n); tau.resize(n);
    H.resize(n);
  }
};

KdlChainOracle::KdlChainOracle(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
KdlChainOracle::KdlChainOracle(KdlChainOracle&&) noexcept = default;
KdlChainOracle& KdlChainOracle::operator=(KdlChainOracle&&) noexcept = default;
KdlChainOracle::~KdlChainOracle() = default;

int KdlChainOracle::joints() const { return int(impl_->chain.getNrOfJoints()); }
int KdlChainOracle::segments() const { return int(impl_->chain.getNrOfSegments()); }
const std::vector<std::string>& KdlChainOracle::jointNames() const { return impl_->names; }

// tau = ID(q, qd, qdd), gravity included, zero external wrenches.
int KdlChainOracle::inverseDynamics(const std::vector<double>& q, const std::vector<double>& qd,
                                    const std::vector<double>& qdd, std::vector<double>& tau) {
  const unsigned n = impl_->chain.getNrOfJoints();
  KDL::JntArray t(n);
  const int rc = impl_->rne.CartToJnt(toKdl(q, n, "q"), toKdl(qd, n, "qd"), toKdl(qdd, n, "qdd"), impl_->noWrench, t);
  tau = fromKdl(t);
  return rc;
}

// H(q), copied row by row.
int KdlChainOracle::massMatrix(const std::vector<double>& q, std::vector<double>& H) {
  const unsigned n = impl_->chain.getNrOfJoints();
  KDL::JntSpaceInertiaMatrix M(n);
  const int rc = impl_->dynParam.JntToMass(toKdl(q, n, "q"), M);
  H.assign(size_t(n) * n, 0.0);
  for (unsigned r = 0; r < n; ++r)
    for (unsigned c = 0; c < n; ++c) H[size_t(r) * n + c] = M(r, c);
  return rc;
}

// g(q).
int KdlChainOracle::gravity(const std::vector<double>& q, std::vector<double>& g) {
  const unsigned n = impl_->chain.getNrOfJoints();
  KDL::JntArray out(n);
  const int rc = impl_->dynParam.JntToGravity(toKdl(q, n, "q"), out);
  g = fromKdl(out);
  return rc;
}

// C(q, qd) qd.
int KdlChainOracle::coriolis(const std::vector<double>& q, const std::vector<double>& qd, std::vector<double>& c) {
  const unsigned n = impl_->chain.getNrOfJoints();
  KDL::JntArray out(n);
  const int rc = impl_->dynParam.JntToCoriolis(toKdl(q, n, "q"), toKdl(qd, n, "qd"), out);
  c = fromKdl(out);
  return rc;
}

// Benchmark state, stored in the Impl's arrays.
void KdlChainOracle::prepare(const std::vector<double>& q, const std::vector<double>& qd,
                             const std::vector<double>& qdd) {
  const unsigned n = impl_->chain.getNrOfJoints();
  impl_->q = toKdl(q, n, "q");
  impl_->qd = toKdl(qd, n, "qd");
  impl_->qdd = toKdl(qdd, n, "qdd");
}

// One timed chain RNEA call on the prepared state.
int KdlChainOracle::runPreparedInverseDynamics() {
  return impl_->rne.CartToJnt(impl_->q, impl_->qd, impl_->qdd, impl_->noWrench, impl_->tau);
}

// One timed JntToMass call on the prepared q.
int KdlChainOracle::runPreparedMassMatrix() { return impl_->dynParam.JntToMass(impl_->q, impl_->H); }

// ---- KdlTreeOracle ----------------------------------------------------------------------------

struct KdlTreeOracle::Impl {
  KDL::Tree tree;  // declared before the solvers, which keep a reference to it
  KDL::Vector gravity;
  std::unique_ptr<KDL::TreeIdSolver_RNE> rne, rne0;  // with and without gravity
  std::vector<std::string> names;
  KDL::JntArray q, qd, qdd, tau;  // the prepared state and the result of the benchmark calls
  KDL::WrenchMap noWrench;
};

// Reads the URDF and numbers the joint names by KDL's q_nr (fixed joints have none).
KdlTreeOracle::KdlTreeOracle(const std::string& urdfPath, const std::array<double, 3>& gravity)
    : impl_(std::make_unique<Impl>()) {
  if (!kdl_parser::treeFromFile(urdfPath, impl_->tree))
    throw std::runtime_error("kdl_bridge: kdl_parser::treeFromFile failed on " + urdfPath);
  impl_->gravity = kdlVector(gravity);
  impl_->rne = std::make_unique<KDL::TreeIdSolver_RNE>(impl_->tree, impl_->gravity);
  impl_->rne0 = std::make_unique<KDL::TreeIdSolver_RNE>(impl_->tree, KDL::Vector::Zero());
  const unsigned n = impl_->tree.getNrOfJoints();
  impl_->names.assign(n, std::string());
  for (const auto& [name, el] : impl_->tree.getSegments()) {
    const KDL::Segment& seg = GetTreeElementSegment(el);
    if (seg.getJoint().getType() == KDL::Joint::Fixed) continue;
    const unsigned k = GetTreeElementQNr(el);
    if (k >= n) throw std::runtime_error("kdl_bridge: joint " + seg.getJoint().getName() + " has q_nr out of range");
    impl_->names[k] = seg.getJoint().getName();
  }
  impl_->q.resize(n); impl_->qd.resize(n); impl_->qdd.resize(n); impl_->tau.resize(n);
}

KdlTreeOracle::KdlTreeOracle(KdlTreeOracle&&) noexcept = default;
KdlTreeOracle& KdlTreeOracle::operator=(KdlTreeOracle&&) noexcept = default;
KdlTreeOracle::~KdlTreeOracle() = default;

std::string KdlTreeOracle::rootSegment() const { return impl_->tree.getRootSegment()->first; }
int KdlTreeOracle::joints() const { return int(impl_->tree.getNrOfJoints()); }
const std::vector<std::string>& KdlTreeOracle::jointNames() const { return impl_->names; }

namespace {
// ID of the tree by one of its solvers, converting the vectors.
int treeId(KDL::TreeIdSolver_RNE& rne, unsigned n, const std::vector<double>& q, const std::vector<double>& qd,
           const std::vector<double>& qdd, std::vector<double>& tau) {
  KDL::JntArray t(n);
  const int rc = rne.CartToJnt(toKdl(q, n, "q"), toKdl(qd, n, "qd"), toKdl(qdd, n, "qdd"), KDL::WrenchMap(), t);
  tau = fromKdl(t);
  return rc;
}
}  // namespace

// tau = ID(q, qd, qdd) with gravity.
int KdlTreeOracle::inverseDynamics(const std::vector<double>& q, const std::vector<double>& qd,
                                   const std::vector<double>& qdd, std::vector<double>& tau) {
  return treeId(*impl_->rne, impl_->tree.getNrOfJoints(), q, qd, qdd, tau);
}

// tau = ID(q, qd, qdd) with zero gravity.
int KdlTreeOracle::inverseDynamicsNoGravity(const std::vector<double>& q, const std::vector<double>& qd,
                                            const std::vector<double>& qdd, std::vector<double>& tau) {
  return treeId(*impl_->rne0, impl_->tree.getNrOfJoints(), q, qd, qdd, tau);
}

// The chain root -> tip (Tree::getChain), with the tree's gravity.
std::unique_ptr<KdlChainOracle> KdlTreeOracle::chain(const std::string& tip) const {
  KDL::Chain c;
  if (!impl_->tree.getChain(rootSegment(), tip, c)) return nullptr;
  return std::unique_ptr<KdlChainOracle>(new KdlChainOracle(std::make_unique<KdlChainOracle::Impl>(c, impl_->gravity)));
}

// Benchmark state, stored in the Impl's arrays.
void KdlTreeOracle::prepare(const std::vector<double>& q, const std::vector<double>& qd,
                            const std::vector<double>& qdd) {
  const unsigned n = impl_->tree.getNrOfJoints();
  impl_->q = toKdl(q, n, "q");
  impl_->qd = toKdl(qd, n, "qd");
  impl_->qdd = toKdl(qdd, n, "qdd");
}

// One timed tree RNEA call (with gravity) on the prepared state.
int KdlTreeOracle::runPreparedInverseDynamics() {
  return impl_->rne->CartToJnt(impl_->q, impl_->qd, impl_->qdd, impl_->noWrench, impl_->tau);
}

}  // namespace dyn::kdl_bridge
