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
#include <memory>
#include <optional>

#include <array>

#include "dynscope/formulations/registry.hpp"
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
  // A traceable name (rnea, crba, aba, crba-ltl), or "problem:name" of another formulation of the
  // engine's registry ("id:denoc", "fd:denoc", "id:lagrange-4x4"): those are not steppable yet and
  // run whole (wholeRun()).
  void setAlgorithm(const QString& name);
  static QString formulationKey(const dyn::Formulation& f);
  static const dyn::Formulation* formulationOf(const QString& key);  // nullptr for a traceable name
  // The registry's formulations other than the traceable ones (rnea, crba, aba, crba + LᵀL).
  static std::vector<const dyn::Formulation*> wholeRunFormulations();

  // A formulation run whole at the current input: its result, its operation count, and the
  // default algorithm's result for the same problem (rnea, crba or aba) to compare.
  struct WholeRun {
    const dyn::Formulation* formulation = nullptr;
    Eigen::MatrixXd result, reference;  // tau / M / qdd, and the default algorithm's
    dyn::OpTally count;
    QString error;  // e.g. a joint type the formulation refuses
  };
  const WholeRun* wholeRun() const { return m_whole ? &*m_whole : nullptr; }

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
  // Runs the algorithm now (also done at the next event-loop turn after any change).
  void retraceNow();

  int position() const { return m_position; }
  int stepCount() const { return m_trace ? int(m_trace->steps.size()) : 0; }
  const dyn::TraceStepRecord* currentStep() const;  // nullptr at the start
  const dyn::TracePass* currentPass() const;        // of the current step (the first pass at the start)
  const dyn::TraceState& state() const { return m_state; }
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
  void scheduleRetrace();
  void onModelChanged();

  RobotDocument* m_robot;
  TrajectoryDocument* m_trajectory;
  bool m_active = false;
  QString m_algorithm = "rnea";
  InputSource m_source = InputSource::RobotAndTrajectory;
  Eigen::VectorXd m_qd, m_qdd, m_tau;
  std::shared_ptr<const dyn::Model> m_model;
  std::unique_ptr<dyn::AlgorithmTrace> m_trace;
  std::optional<WholeRun> m_whole;
  void runWhole(const dyn::Model& model, const dyn::Formulation& f);
  dyn::TraceState m_state;
  QString m_error;
  int m_position = 0;
  bool m_scheduled = false;
  QTimer* m_player;
  int m_paceMs = 1200;
  ArrowSettings m_arrows;
};
