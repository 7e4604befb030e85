// A small bridge to Orocos KDL (Debian's generic x86-64 build) for programs built with
// -march=native: the KDL oracle test (tests/oracle/test_kdl_oracle.cpp) and bench_kdl.
//
// Why: KDL::JntArray / JntSpaceInertiaMatrix wrap Eigen objects, and Eigen's allocation and inline
// functions depend on the compile flags (EIGEN_MAX_ALIGN_BYTES is 64 with AVX-512, 16 without).
// Eigen objects crossing between a -march=native program and the generic KDL corrupt memory.
// So this header includes NO Eigen and NO KDL header: only std::vector<double>, std::string and
// std::array cross it. The implementation (kdl_bridge.cpp) is the shared library dynscope_kdl_bridge,
// compiled with default flags and hidden visibility, which exports only the two classes below; the
// Eigen code instantiated inside it stays inside it. A program linking it also gets a linker version
// script that keeps the program's own Eigen symbols local, so that liborocos-kdl's calls to its weak
// Eigen functions cannot bind to the program's -march=native copies (tests/oracle/CMakeLists.txt).
//
// Joint vectors are in KDL's numbering (jointNames()[k] names entry k); matrices are row-major.
// The solver functions return KDL's error code (0 = success) and throw std::invalid_argument when a
// vector has the wrong size.
#pragma once
#include <array>
#include <memory>
#include <string>
#include <vector>

#define DYNSCOPE_KDL_BRIDGE_API __attribute__((visibility("default")))

namespace dyn::kdl_bridge {

// One KDL::Chain root -> tip with ChainIdSolver_RNE and ChainDynParam (made by KdlTreeOracle::chain).
class DYNSCOPE_KDL_BRIDGE_API KdlChainOracle {
 public:
  KdlChainOracle(KdlChainOracle&&) noexcept;
  KdlChainOracle& operator=(KdlChainOracle&&) noexcept;
  ~KdlChainOracle();

  int joints() const;                               // moving joints (KDL's getNrOfJoints)
  int segments() const;                             // segments, fixed ones included
  const std::vector<std::string>& jointNames() const;  // moving joints in chain order, root first

  // tau = ID(q, qd, qdd) with gravity, no external wrenches (ChainIdSolver_RNE::CartToJnt).
  int inverseDynamics(const std::vector<double>& q, const std::vector<double>& qd, const std::vector<double>& qdd,
                      std::vector<double>& tau);
  // H(q), joints() x joints(), row-major (ChainDynParam::JntToMass).
  int massMatrix(const std::vector<double>& q, std::vector<double>& H);
  // g(q) (ChainDynParam::JntToGravity).
  int gravity(const std::vector<double>& q, std::vector<double>& g);
  // C(q, qd) qd (ChainDynParam::JntToCoriolis).
  int coriolis(const std::vector<double>& q, const std::vector<double>& qd, std::vector<double>& c);

  // For benchmarks: store a state once in KDL's own arrays, then time one solver call on it, run
  // entirely inside this library (no conversion in the timed call).
  void prepare(const std::vector<double>& q, const std::vector<double>& qd, const std::vector<double>& qdd);
  int runPreparedInverseDynamics();  // ChainIdSolver_RNE::CartToJnt on the prepared state
  int runPreparedMassMatrix();       // ChainDynParam::JntToMass on the prepared q

 private:
  friend class KdlTreeOracle;
  struct Impl;
  explicit KdlChainOracle(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

// A KDL::Tree read from a URDF file by kdl_parser, with TreeIdSolver_RNE with and without gravity.
class DYNSCOPE_KDL_BRIDGE_API KdlTreeOracle {
 public:
  // Throws std::runtime_error when kdl_parser cannot read the file.
  KdlTreeOracle(const std::string& urdfPath, const std::array<double, 3>& gravity);
  KdlTreeOracle(KdlTreeOracle&&) noexcept;
  KdlTreeOracle& operator=(KdlTreeOracle&&) noexcept;
  ~KdlTreeOracle();

  std::string rootSegment() const;
  int joints() const;                               // moving joints (KDL's getNrOfJoints)
  const std::vector<std::string>& jointNames() const;  // entry k: the joint of KDL's q number k

  // tau = ID(q, qd, qdd) of the whole tree, with gravity (TreeIdSolver_RNE::CartToJnt).
  int inverseDynamics(const std::vector<double>& q, const std::vector<double>& qd, const std::vector<double>& qdd,
                      std::vector<double>& tau);
  // The same with zero gravity.
  int inverseDynamicsNoGravity(const std::vector<double>& q, const std::vector<double>& qd,
                               const std::vector<double>& qdd, std::vector<double>& tau);

  // The chain root -> tip with this tree's gravity; nullptr when KDL cannot extract it.
  std::unique_ptr<KdlChainOracle> chain(const std::string& tip) const;

  // For benchmarks: as KdlChainOracle::prepare, for the tree solver with gravity.
  void prepare(const std::vector<double>& q, const std::vector<double>& qd, const std::vector<double>& qdd);
  int runPreparedInverseDynamics();  // TreeIdSolver_RNE::CartToJnt on the prepared state

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace dyn::kdl_bridge
