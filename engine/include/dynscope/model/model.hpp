// The immutable robot model (Featherstone Part 2, "Model data structure"): bodies 1..N
// numbered so that the parent array satisfies 0 <= lambda(i) < i; body 0 is the fixed base.
// Per body: joint model, tree transform X_T(i), spatial inertia I_i (link-i coordinates).
#pragma once
#include <algorithm>
#include <string>
#include <vector>

#include "../io/robot_description.hpp"
#include "joint.hpp"
#include "loop_joint.hpp"

namespace dyn {

// A named frame fixed to a body: every URDF link (also those merged by fixed joints), tool frames.
template <class S> struct Frame {
  std::string name;
  int body = 0;              // the body it is fixed to (0 = base)
  Transform<S> placement;    // frame_X_body
  template <class T> Frame<T> cast() const { return Frame<T>{name, body, placement.template cast<T>()}; }
};

// Geometry for the renderer, attached to a body; placement = geometry_X_body.
struct GeometryObject {
  std::string link;  // the URDF link it came from
  int body = 0;
  Transform<double> placement;
  Shape shape;
  Material material;
  bool collision = false;
};

// A mimic relation recorded from the URDF (not enforced by the algorithms).
struct MimicInfo {
  int joint = 0, mimicked = 0;  // body indices
  double multiplier = 1, offset = 0;
};

// A named configuration from the file (an MJCF keyframe): q in this model's order.
struct NamedPose {
  std::string name;
  Eigen::VectorXd q;
};

template <class S> struct ModelTpl {
  std::string name;
  std::string sourceFile;
  int N = 0;   // number of moving bodies
  int nq = 0;  // configuration size (quaternions make nq > nv)
  int nv = 0;  // velocity size (degrees of freedom)

  // Per body, index 0..N (entry 0 = fixed base, unused where meaningless).
  std::vector<int> parent;  // lambda(i), parent[0] = -1
  std::vector<JointModel<S>> joints;
  std::vector<Transform<S>> Xtree;  // X_T(i) = (joint i predecessor frame)_X_(body lambda(i))
  std::vector<Inertia<S>> I;        // spatial inertia of body i in link-i coordinates
  std::vector<std::string> bodyNames, jointNames;

  // Per degree of freedom, index 0..nv-1.
  std::vector<int> dofParent;  // previous dof on the path to the root (-1 at the root): CRBA/LTL sparsity
  std::vector<int> dofBody;    // body whose joint owns this dof

  Motion<S> gravity = Motion<S>(Vec3<S>::Zero(), Vec3<S>(S(0), S(0), S(-9.81)));  // a_g

  VecX<S> lowerLimit, upperLimit;       // per q entry (+-inf where unlimited)
  VecX<S> velocityLimit, effortLimit;   // per v entry (inf where not given)
  VecX<S> damping, friction;            // per v entry
  // Rotor inertia (MuJoCo's armature) per v entry, added to H's diagonal by CRBA, RNEA and ABA; empty
  // when no joint has any (every model from URDF or DH). The teaching formulations leave it out.
  VecX<S> armature;
  // Joint springs per v entry of one-dof joints (MJCF stiffness and springref): a passive torque
  // -stiffness (q - springref) in simulation and potential energy 1/2 stiffness (q - springref)^2;
  // empty when no joint has one.
  VecX<S> stiffness, springref;

  std::vector<Frame<S>> frames;
  std::vector<GeometryObject> geometries;
  std::vector<MimicInfo> mimics;
  std::string defaultEndEffector;
  std::vector<NamedPose> poses;  // named configurations from the file (MJCF keyframes)
  VecX<S> initial;  // the configuration the file describes, when not the neutral one (MJCF qpos0); else empty
  bool floatingBase = false;
  // Bodies whose joint moves no mass or inertia (their subtree has none): H(q) is singular, so
  // forward dynamics is undefined. Loading still succeeds, for viewing and kinematics.
  std::vector<int> immobileBodies;
  // The model checker's findings (io/model_check.hpp), for the Model check panel and the CLI.
  std::vector<Finding> findings;

  // Closed kinematic loops (review §3.4; docs/loops.md). The bodies and joints above are the
  // spanning tree; these joints close the loops, phi(q) = 0 (eq. 16) over constraintRows rows.
  std::vector<LoopJoint<S>> loops;
  int constraintRows = 0;  // sum of loops[k].rows()
  int loopRank = 0;        // rank of phi' at loopReference: n_c, the independent constraints (eq. 18)
  // Per degree of freedom, chosen at load: the passive dofs (no actuator; the file marks the actuated
  // ones, see docs/loops.md) and the dependent coordinates (solved for by assembly), both v indices in
  // ascending order. The other dofs are actuated and independent (the mechanism's mobility, n - n_c
  // of them). Empty lists (trees, models made in code) mean: every dof actuated and independent.
  // Loops without actuation markers: the independent coordinates are the actuated ones.
  std::vector<int> passiveDofs, dependentDofs;
  VecX<S> loopReference;  // an assembled configuration (the file's zero pose when it closes); empty for trees

  bool hasLoops() const { return !loops.empty(); }
  bool isActuated(int dof) const { return std::find(passiveDofs.begin(), passiveDofs.end(), dof) == passiveDofs.end(); }
  bool isIndependent(int dof) const {
    return std::find(dependentDofs.begin(), dependentDofs.end(), dof) == dependentDofs.end();
  }
  std::vector<int> actuatedDofs() const {
    return dofsWhere([&](int k) { return isActuated(k); });
  }
  std::vector<int> independentDofs() const {
    return dofsWhere([&](int k) { return isIndependent(k); });
  }
  // A configuration to start from: loopReference for closed loops, else the file's initial
  // configuration (MJCF: qpos0), else the neutral one.
  VecX<S> home() const {
    if (loopReference.size() == nq) return loopReference;
    return initial.size() == nq ? initial : neutral();
  }
  int loopIndex(const std::string& n) const {
    for (int k = 0; k < (int)loops.size(); ++k)
      if (loops[k].name == n) return k;
    return -1;
  }

  int bodyIndex(const std::string& n) const {
    for (int i = 0; i < (int)bodyNames.size(); ++i) if (bodyNames[i] == n) return i;
    return -1;
  }
  int jointIndex(const std::string& n) const {
    for (int i = 1; i < (int)jointNames.size(); ++i) if (jointNames[i] == n) return i;
    return -1;
  }
  int frameIndex(const std::string& n) const {
    for (int i = 0; i < (int)frames.size(); ++i) if (frames[i].name == n) return i;
    return -1;
  }
  // Is body a an ancestor of body b (or b itself)?  The relation behind branch-induced sparsity.
  bool isAncestor(int a, int b) const {
    while (b > a) b = parent[b];
    return a == b;
  }
  double totalMass() const {
    S m = S(0);
    for (int i = 1; i <= N; ++i) m += I[i].m;
    return double(m);
  }
  // The neutral configuration: zeros, identity quaternions.
  VecX<S> neutral() const {
    VecX<S> q = VecX<S>::Zero(nq);
    for (int i = 1; i <= N; ++i) {
      if (joints[i].type == JointType::Spherical) q[joints[i].idx_q + 3] = S(1);
      if (joints[i].type == JointType::Floating) q[joints[i].idx_q + 6] = S(1);
    }
    return q;
  }

  template <class F>
  std::vector<int> dofsWhere(F f) const {
    std::vector<int> out;
    for (int k = 0; k < nv; ++k)
      if (f(k)) out.push_back(k);
    return out;
  }

  template <class T> ModelTpl<T> cast() const {
    ModelTpl<T> m;
    m.name = name; m.sourceFile = sourceFile; m.N = N; m.nq = nq; m.nv = nv;
    m.parent = parent; m.bodyNames = bodyNames; m.jointNames = jointNames;
    m.dofParent = dofParent; m.dofBody = dofBody;
    for (const auto& j : joints) m.joints.push_back(j.template cast<T>());
    for (const auto& x : Xtree) m.Xtree.push_back(x.template cast<T>());
    for (const auto& in : I) m.I.push_back(in.template cast<T>());
    m.gravity = gravity.template cast<T>();
    m.lowerLimit = lowerLimit.template cast<T>(); m.upperLimit = upperLimit.template cast<T>();
    m.velocityLimit = velocityLimit.template cast<T>(); m.effortLimit = effortLimit.template cast<T>();
    m.damping = damping.template cast<T>(); m.friction = friction.template cast<T>();
    m.armature = armature.template cast<T>();
    m.stiffness = stiffness.template cast<T>(); m.springref = springref.template cast<T>();
    for (const auto& f : frames) m.frames.push_back(f.template cast<T>());
    m.geometries = geometries; m.mimics = mimics;
    m.defaultEndEffector = defaultEndEffector; m.floatingBase = floatingBase;
    m.poses = poses;
    m.initial = initial.template cast<T>();
    m.immobileBodies = immobileBodies; m.findings = findings;
    for (const auto& l : loops) m.loops.push_back(l.template cast<T>());
    m.constraintRows = constraintRows;
    m.loopRank = loopRank;
    m.passiveDofs = passiveDofs;
    m.dependentDofs = dependentDofs;
    m.loopReference = loopReference.template cast<T>();
    return m;
  }
};

using Model = ModelTpl<double>;

}  // namespace dyn
