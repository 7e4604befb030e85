// Assembly of a closed-loop mechanism (review §3.4): find q with phi(q) = 0 (eq. 16), keeping the
// held coordinates (e.g. the independent ones the user moved) at their given values. Gauss-Newton
// on the joint manifolds: each step is the minimum-norm solution of phi'_free dq = -phi from the
// rank-revealing QR (dynscope/loops/pivoted_qr.hpp; rank-deficient steps near singular and planar
// configurations stay well defined), with a backtracking line search on |phi|, and a steepest-
// descent step when Newton's does not reduce |phi|. When |phi| stops decreasing above the tolerance
// the loop cannot close (e.g. a four-bar driven past its Grashof limit): the result then holds the
// closest configuration found and says which loop joint stays open and by how much.
// Double precision; the model must outlive the Assembler. solve() allocates nothing once the
// held set has been seen (it is sized at construction).
#pragma once
#include <random>
#include <string>
#include <vector>

#include "../model/data.hpp"
#include "loop_data.hpp"

namespace dyn {

struct AssemblyOptions {
  std::vector<int> held;     // v indices kept at q0's values (model.independentDofs() for live dragging)
  double tolerance = 1e-12;  // converged when every |phi_i| <= tolerance (m or rad)
  int maxIterations = 100;   // per attempt
  // When Newton stops short of closing the loops (a saddle of |phi|, far from q0's branch), start
  // again from q0 with the free coordinates moved at random (seeded: the same inputs, the same
  // answer); the best attempt is the result. The first attempt starts at q0, so small moves (a
  // slider dragged) stay on q0's branch; a restart may land on another one.
  int restarts = 8;
};

struct AssemblyResult {
  Eigen::VectorXd q;       // the assembled configuration, or the closest one found
  bool converged = false;  // every loop closed to the tolerance
  double residual = 0;     // max |phi_i| at q
  int iterations = 0;  // over all attempts
  int restarts = 0;    // attempts after the first
  int worstLoop = -1;   // index in model.loops of the loop joint with the largest error at q (-1: none)
  std::string message;  // empty when converged; otherwise which loop joint stays open, by how much
};

class Assembler {
 public:
  explicit Assembler(const Model& model);

  // From q0 (quaternions normalised), moving only the coordinates not held. Throws
  // std::invalid_argument for a wrong-sized or non-finite q0 or a held index out of range.
  const AssemblyResult& solve(const Eigen::VectorXd& q0, const AssemblyOptions& options = {});
  const AssemblyResult& result() const { return result_; }

  // The loop errors at q (phi, also phi' and the frames' world poses) into loopData().
  void evaluate(const Eigen::VectorXd& q);
  const LoopData& loopData() const { return ld_; }

  const Model& model() const { return model_; }

 private:
  double merit(const Eigen::VectorXd& q);  // max |phi| at q (phi left in ld_)
  double attempt(const AssemblyOptions& options);  // Gauss-Newton from q_
  void perturb(const Eigen::VectorXd& q0, std::mt19937& rng);
  void describeFailure();

  const Model& model_;
  Data data_;
  LoopData ld_;
  AssemblyResult result_;
  std::vector<char> held_;
  Eigen::VectorXd q_, qTry_, dq_, phi_, grad_, step_, qBest_;
  Eigen::MatrixXd Jfree_;  // phi' without the held columns
};

// One-shot convenience.
AssemblyResult assemble(const Model& model, const Eigen::VectorXd& q0, const AssemblyOptions& options = {});

// "gap of 12.3 mm and 4.5 deg" for loop joint k from phi (its translation and rotation rows).
std::string describeLoopError(const Model& model, const Eigen::VectorXd& phi, int k);

// The loop joint (index in model.loops) with the largest |phi_i|; -1 without loops.
int worstLoop(const Model& model, const Eigen::VectorXd& phi);

}  // namespace dyn
