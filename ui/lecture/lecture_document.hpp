// Lecture mode's state (issue 15): which algorithm the inspector steps through, at which state
// of the robot, the recorded trace (the engine's own run, dyn::traceAlgorithm) and the position in
// it. The inspector dock, the 3D arrows, the mass-matrix dock and the window's keys all read and
// drive this document; none of them talk to each other.
//
// Position p counts the steps taken: 0 is the start (nothing computed yet), stepCount() the end.
// The step shown is the last one taken (p - 1). While inactive (the inspector hidden) nothing is
// recomputed and the navigation does nothing.
#pragma once
#include <Eigen/Core>
#include <QObject>
#include <QString>
#include <array>
#include <memory>

#include "dynscope/trace/algorithm_trace.hpp"
#include "dynscope/trace/trace_arrows.hpp"

class QTimer;
class RobotDocument;
class TrajectoryDocument;

class LectureDocument : public QObject {
  Q_OBJECT

 public:
  // Where q̇, q̈ and τ come from: the trajectory at its current time (zero without one; τ then the
  // Joints dock's constant torques), or values entered in the inspector. q is always the robot's.
  enum class InputSource { RobotAndTrajectory, Entered };

  LectureDocument(RobotDocument* robot, TrajectoryDocument* trajectory, QObject* parent = nullptr);
  ~LectureDocument() override;

  bool isActive() const { return m_active; }
  void setActive(bool on);

  QString algorithm() const { return m_algorithm; }
  const dyn::TraceableAlgorithm* algorithmInfo() const;
  // A traceable name (dyn::traceableAlgorithms(): rnea, crba, aba, crba-ltl, denoc-id, ...).
  void setAlgorithm(const QString& name);
  // Whether the algorithm fills the joint-space inertia matrix (CRBA, CRBA + LᵀL, the DeNOC GIM):
  // the mass-matrix dock then shows it filling column by column.
  bool fillsMassMatrix() const;

  InputSource inputSource() const { return m_source; }
  void setInputSource(InputSource source);
  // Entered values (size nv; zero after a load).
  const Eigen::VectorXd& enteredQd() const { return m_qd; }
  const Eigen::VectorXd& enteredQdd() const { return m_qdd; }
  const Eigen::VectorXd& enteredTau() const { return m_tau; }
  bool setEntered(const Eigen::VectorXd& qd, const Eigen::VectorXd& qdd, const Eigen::VectorXd& tau);
  // The input of the current trace.
  dyn::TraceInput currentInput() const;

  // The trace (valid when hasTrace()); error() says why there is none (e.g. a massless joint in FD).
  bool hasTrace() const { return static_cast<bool>(m_trace); }
  const dyn::AlgorithmTrace& trace() const { return *m_trace; }
  const dyn::Model& model() const { return *m_model; }  // the model traced (robot + payload + gravity)
  QString error() const { return m_error; }
  // For a formulation other than the engine's default for its problem (RNEA, CRBA, ABA): that
  // default's result at the same input, and its name; empty otherwise. The lecture's point that
  // they all agree is shown at the end of the walk-through.
  const Eigen::MatrixXd& referenceResult() const { return m_reference; }
  QString referenceName() const { return m_referenceName; }
  // Why that default gave no result at this input (its refusal, naming the joint); empty when it did.
  QString referenceRefusal() const { return m_referenceRefusal; }
  // Runs the algorithm now. After a change of the pose, the time or the inputs it runs again by
  // itself once the changes pause (at once for a quick trace; after up to half a second for a slow
  // one, so that dragging a slider over a large robot does not trace every intermediate pose), and
  // only if the input did change.
  void retraceNow();
  // Stepping keeps every step of the walk-through: models up to this many bodies (a 1000-body chain
  // is measured in docs/lecture-mode.md).
  static constexpr int kMaxBodies = 2000;

  int position() const { return m_position; }
  int stepCount() const { return m_trace ? int(m_trace->steps.size()) : 0; }
  const dyn::TraceStepRecord* currentStep() const;  // nullptr at the start
  const dyn::TracePass* currentPass() const;        // of the current step (the first pass at the start)
  const dyn::TraceState& state() const;
  // The body the current step processes (-1 at the start).
  int currentBody() const;

  void setPosition(int position);
  void stepForward() { setPosition(m_position + 1); }
  void stepBackward() { setPosition(m_position - 1); }
  void toStart() { setPosition(0); }
  void toEnd() { setPosition(stepCount()); }
  // To the last step of the current pass (of the next pass when already there).
  void toEndOfPass();
  void toStartOfPass();

  // How the 3D arrows are drawn (the window's arrow overlay follows these).
  struct ArrowSettings {
    bool show = true;
    bool passArrow = true;
    std::array<bool, int(dyn::ArrowKind::Count)> kinds{true, true, true, true, true, true, true, true};
    double size = 1.0;  // multiplies the automatic scales (the legend states the result)
    dyn::ArrowPoint point = dyn::ArrowPoint::CenterOfMass;
  };
  const ArrowSettings& arrowSettings() const { return m_arrows; }
  void setArrowSettings(const ArrowSettings& settings);

  // Play: one step every paceMs() until the end.
  bool isPlaying() const;
  void setPlaying(bool on);
  int paceMs() const { return m_paceMs; }
  void setPaceMs(int ms);

 signals:
  void activeChanged(bool active);
  void algorithmChanged(const QString& name);
  void inputChanged();
  void traceChanged();  // a new trace (position kept where possible)
  void positionChanged(int position);
  void playingChanged(bool playing);
  void arrowSettingsChanged();

 private:
  void scheduleRetrace(bool inputMayBeUnchanged = false);
  void onModelChanged();

  RobotDocument* m_robot;
  TrajectoryDocument* m_trajectory;
  bool m_active = false;
  QString m_algorithm = "rnea";
  InputSource m_source = InputSource::RobotAndTrajectory;
  Eigen::VectorXd m_qd, m_qdd, m_tau;
  std::shared_ptr<const dyn::Model> m_model;
  std::unique_ptr<dyn::AlgorithmTrace> m_trace;
  std::unique_ptr<dyn::TraceCursor> m_cursor;  // the state at the position, walked step by step
  dyn::TraceState m_noState;
  QString m_error;
  Eigen::MatrixXd m_reference;
  QString m_referenceName;
  QString m_referenceRefusal;
  int m_position = 0;
  bool m_mustRetrace = true;  // something besides the input changed (model, algorithm, dynamics)
  QTimer* m_retrace;          // debounces the automatic retrace
  qint64 m_lastTraceMs = 0;
  QTimer* m_player;
  int m_paceMs = 1200;
  ArrowSettings m_arrows;
};
