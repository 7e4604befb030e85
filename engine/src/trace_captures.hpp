// One capture per StepKind: after the algorithm finished step `index`, read the Model and Data
// (and the recorder's state and locals) and fill the step's record. Internal to the engine.
#pragma once
#include "dynscope/trace/trace_recorder.hpp"

namespace dyn::trace_capture {

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

// Matrix symbols and columns shared by the captures.
Eigen::MatrixXd columns(const Motion<double>* S, int count);
Eigen::MatrixXd columns(const Force<double>* U, int count);
// Sum_k S_k x_k over a joint's columns.
Motion<double> combine(const Motion<double>* S, const Eigen::VectorXd& x);
// "i", or the joint's dof entries for multi-dof joints: symbols of H, L entries use 1-based dofs.
std::string dofLabel(int dof);

}  // namespace dyn::trace_capture
