// The Equations of motion view's state (issue 40): the robot's M(q), C(q, q̇)q̇, g(q), τ and
// Christoffel symbols in closed form (dyn::equationsReport, computer algebra in the optional
// dynscope_symbolic), derived off the GUI thread with progress and Cancel, refused up front when
// the estimate says it cannot finish in reasonable time. No widgets: the dock, the handout and the
// tests read it. A new robot (or a changed DH table) drops the equations; compute() derives them.
#pragma once
#include <QObject>
#include <QString>
#include <atomic>
#include <memory>
#include <thread>

#include "dynscope/model/model.hpp"
#include "dynscope/symbolic/equations_report.hpp"

class RobotDocument;

class EquationsDocument : public QObject {
  Q_OBJECT

 public:
  enum class State {
    Empty,      // nothing derived for this robot yet
    Computing,  // progress() says how far
    Ready,      // report() holds the equations
    Refused,    // message(): why (the estimate, or what the model has that cannot be written)
    Failed,     // message(): the error
    Cancelled,
    Unavailable,  // this build has no computer algebra (GiNaC); message() says how to get it
  };

  explicit EquationsDocument(RobotDocument* robot, QObject* parent = nullptr);
  ~EquationsDocument() override;  // cancels and waits for a running derivation

  // Built with computer algebra.
  static bool available();

  State state() const { return m_state; }
  QString message() const { return m_message; }
  // Progress of the running derivation: steps done of total, and what is being derived ("M_{23}").
  int done() const { return m_done; }
  int total() const { return m_total; }
  QString stage() const { return m_stage; }
  const dyn::EquationsReport* report() const { return m_report.get(); }
  std::shared_ptr<const dyn::EquationsReport> sharedReport() const { return m_report; }

  // Numeric (the robot's numbers) or symbolic parameters (m1, l1, c1x, I1zz, ...: a standard-DH
  // table's, or a URDF's masses, centres of mass, inertias and joint origins p1x, ...;
  // symbolicPossible() is false for a DH table the symbols cannot be read from).
  dyn::EquationParameters parameters() const { return m_parameters; }
  void setParameters(dyn::EquationParameters parameters);
  bool symbolicPossible() const;
  QString symbolicImpossibleReason() const;
  // The estimate for the robot shown at the chosen parameters (feasible == false: compute() refuses).
  dyn::EquationsEstimate estimate() const;

  // Derives the equations of the robot shown, in a worker thread; refuses what the estimate rules
  // out. Does nothing while computing.
  void compute();
  void cancel();
  bool isComputing() const { return m_state == State::Computing; }

  // The equations in a format (LaTeX, C, Python, MATLAB, text, JSON); empty when not Ready.
  QString exportText(dyn::EquationFormat format) const;
  // Writes exportText to `path`. False and a message when not Ready or the file cannot be written.
  bool exportTo(const QString& path, dyn::EquationFormat format, QString* error = nullptr) const;
  // The format a file's suffix asks for (.tex, .c, .py, .m, .txt, .json).
  static std::optional<dyn::EquationFormat> formatForSuffix(const QString& suffix);

 signals:
  void stateChanged();
  void progressChanged();

 private:
  void setState(State state, const QString& message = {});
  void onModelChanged();
  void join();

  RobotDocument* m_robot;
  dyn::EquationParameters m_parameters = dyn::EquationParameters::Symbolic;
  State m_state = State::Empty;
  QString m_message;
  int m_done = 0, m_total = 0;
  QString m_stage;
  std::shared_ptr<const dyn::EquationsReport> m_report;
  std::thread m_worker;
  std::shared_ptr<std::atomic<bool>> m_cancel;
  int m_generation = 0;  // a worker's answer for an older robot or request is dropped
};
