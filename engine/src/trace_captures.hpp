// One capture per StepKind: after the algorithm finished step `index`, read the Model and Data
// (and the recorder's state and locals) and fill the step's record. Internal to the engine.
#pragma once
#include "dynscope/trace/trace_recorder.hpp"

namespace dyn::trace_capture {

inline constexpr const char* kHollerbach = "Hollerbach 1980";  // the Lagrangian captures' source

// A recorded force term as a spatial force (zero when there is none).
inline Force<double> forceOf(const TraceTerm* t) {
  return t ? Force<double>::fromVector(t->value) : Force<double>::Zero();
}

using Capture = void (*)(TraceRecorder& recorder, StepBuilder& step, int index);

void rneaOutward(TraceRecorder& r, StepBuilder& b, int i);
void rneaInward(TraceRecorder& r, StepBuilder& b, int i);
void crbaComposite(TraceRecorder& r, StepBuilder& b, int i);
void crbaColumn(TraceRecorder& r, StepBuilder& b, int i);
void abaVelocities(TraceRecorder& r, StepBuilder& b, int i);
void abaInertias(TraceRecorder& r, StepBuilder& b, int i);
void abaAccelerations(TraceRecorder& r, StepBuilder& b, int i);
void fdRightHandSide(TraceRecorder& r, StepBuilder& b, int i);
void ltlFactor(TraceRecorder& r, StepBuilder& b, int k);
void ltlSolveTranspose(TraceRecorder& r, StepBuilder& b, int k);
void ltlSolve(TraceRecorder& r, StepBuilder& b, int k);

// DeNOC (trace_capture_denoc*.cpp), Newton-Euler with 3-vectors, the Lagrangian family and the
// configuration-space method (trace_capture_newton_euler.cpp, trace_capture_lagrangian*.cpp,
// trace_capture_configuration_space.cpp).
void denocTwist(TraceRecorder& r, StepBuilder& b, int i);
void denocWrench(TraceRecorder& r, StepBuilder& b, int i);
void denocComposite(TraceRecorder& r, StepBuilder& b, int i);
void denocGimColumn(TraceRecorder& r, StepBuilder& b, int i);
void denocPhi(TraceRecorder& r, StepBuilder& b, int i);
void denocStep1(TraceRecorder& r, StepBuilder& b, int i);
void denocStep2(TraceRecorder& r, StepBuilder& b, int k);
void denocStep3(TraceRecorder& r, StepBuilder& b, int i);
void newtonEulerForward(TraceRecorder& r, StepBuilder& b, int i);
void newtonEulerBackward(TraceRecorder& r, StepBuilder& b, int i);
void lagrange4Forward(TraceRecorder& r, StepBuilder& b, int i);
void lagrange4Backward(TraceRecorder& r, StepBuilder& b, int i);
void lagrange3Forward(TraceRecorder& r, StepBuilder& b, int i);
void lagrange3Backward(TraceRecorder& r, StepBuilder& b, int i);
void watersRecurrence(TraceRecorder& r, StepBuilder& b, int j);
void watersSum(TraceRecorder& r, StepBuilder& b, int j);
void ukPoses(TraceRecorder& r, StepBuilder& b, int j);
void ukFirstDerivatives(TraceRecorder& r, StepBuilder& b, int j);
void ukSecondFactors(TraceRecorder& r, StepBuilder& b, int l);
void ukSecondDerivatives(TraceRecorder& r, StepBuilder& b, int j);
void ukSum(TraceRecorder& r, StepBuilder& b, int j);
void csTabulate(TraceRecorder& r, StepBuilder& b, int);
void csVelocityProducts(TraceRecorder& r, StepBuilder& b, int);
void csRow(TraceRecorder& r, StepBuilder& b, int i);

// A walk up the tree (or a sum over a path) shows this many terms, then says how many more it took:
// on a long chain the step still writes every entry, but the panel stays readable and the trace small.
constexpr int kShownAtMost = 6;
std::string moreAncestors(int hidden);  // "… and 3 more ancestors (their entries are in the matrix)"

// Matrix symbols and columns shared by the captures.
Eigen::MatrixXd columns(const Motion<double>* S, int count);
Eigen::MatrixXd columns(const Force<double>* U, int count);
// Sum_k S_k x_k over a joint's columns.
Motion<double> combine(const Motion<double>* S, const Eigen::VectorXd& x);
// "i", or the joint's dof entries for multi-dof joints: symbols of H, L entries use 1-based dofs.
std::string dofLabel(int dof);
// DeNOC: "B_{3,2}" (B^T with transposed), and p_i shown as a term.
std::string denocB(int i, int l, bool transposed);
int showJointRate(StepBuilder& b, const JointModel<double>& J, int i);

// The Lagrangian family (Hollerbach 1980): "∂W_{3}/∂q_{2}", and the recurrences (eqs. 8-10) of
// link i written and shown: W_i, dW_i/dq_i (with `derivative`: not for a prismatic joint in the
// 3x3 form), W'_i, W''_i; 4x4 or 3x3.
std::string partialSymbol(const char* of, int j, int i);
struct LagrangianLink {
  int i = 0, parent = 0;
  Eigen::MatrixXd A, dA, d2A, W, U, Wd, Wdd;
  double qd = 0, qdd = 0;
};
struct RecurrenceTerms {
  int W = -1, U = -1, Wd = -1, Wdd = -1;
};
RecurrenceTerms lagrangianRecurrences(TraceRecorder& rec, StepBuilder& b, const LagrangianLink& k, bool derivative);

}  // namespace dyn::trace_capture
