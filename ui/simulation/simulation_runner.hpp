// Runs a dyn::Simulator on a worker thread in real time (or at a chosen multiple of it) and
// publishes the latest state; the window shows it at the display rate. The engine integrates,
// this class only paces it: each pass of the worker advances the simulation to
// speed × (wall time since start), in whole steps, then sleeps until the next step is due.
// When the simulation cannot keep up, it runs as fast as it can and the ratio shows it.
#pragma once
#include <QObject>
#include <QString>
#include <atomic>
#include <condition_variable>
#include <memory>
#include <mutex>
#include <optional>
#include <thread>
#include <vector>

#include "dynscope/simulation/simulator.hpp"
#include "simulation/perturbation.hpp"

class SimulationRunner : public QObject {
  Q_OBJECT

 public:
  // What the display needs, copied under a lock after every pass of the worker.
  struct Snapshot {
    double t = 0;
    Eigen::VectorXd q, qd, tau;
    double energy = 0, drift = 0, fdDifference = 0;
    double constraintError = 0, constraintRateError = 0;  // closed loops: |phi(q)|, |phi' qd| of the last sample
    double ratio = 0;  // simulated seconds per wall second over the last ~0.5 s of running
    int samples = 0;   // recorded samples so far
    dyn::SimulationStatus status = dyn::SimulationStatus::Ok;
    QString error;
    long steps = 0;
    long projectionFailures = 0;  // closed loops: steps whose projection onto phi = 0 fell short
    double worstProjectionResidual = 0;
    // The wrenches acting at this state (the push of perturbation.hpp), world point and axes, and
    // their joint forces tau_e = J^T f (empty without one).
    struct Wrench {
      int body = 0;
      Eigen::Vector3d point, force, moment;
    };
    std::vector<Wrench> wrenches;
    Eigen::VectorXd tauExternal;
    // The ground's push per body that touches it (the ground on): the sum of its points' forces at
    // their centre of pressure (world), and how many of its points touch; their total penetration's
    // deepest point.
    struct Contact {
      int body = 0, points = 0;
      Eigen::Vector3d point, force;
    };
    std::vector<Contact> contacts;
    double penetration = 0;
  };

  explicit SimulationRunner(QObject* parent = nullptr);
  ~SimulationRunner() override;

  // A new simulator for `model` at (q0, qd0); the run is paused. False with a message when the
  // settings, the controller or the state do not fit the model.
  bool configure(const dyn::Model& model, const dyn::SimulationSettings& settings, dyn::Controller controller,
                 const Eigen::VectorXd& q0, const Eigen::VectorXd& qd0, QString* error = nullptr);
  bool isConfigured() const { return static_cast<bool>(m_sim); }
  // New settings / controller for the current run (keeps the state and the record).
  bool setSettings(const dyn::SimulationSettings& settings, QString* error = nullptr);
  bool setController(dyn::Controller controller, QString* error = nullptr);

  void start();  // runs in real time × speed
  void pause();  // returns when the worker has stopped stepping
  bool step();   // one step while paused; false if diverged
  bool isRunning() const { return m_running.load(); }
  void setSpeed(double simSecondsPerWallSecond);  // 0.1 .. 100; "as fast as possible": a large value
  double speed() const { return m_speed.load(); }

  Snapshot snapshot() const;

  // A push on a body (the mouse in the 3D view): a spring-damper whose wrench the worker computes
  // from the current state before every step (perturbation.hpp) and hands the simulator
  // (Simulator::setWrenches), so the spring never acts on a stale state; within a step it is held
  // (1 ms by default, against the spring's 2 Hz); setWrenches evaluates the dynamics once, so a push
  // costs one more evaluation per step. Thread-safe; the snapshot shows it at once when
  // paused, with the next pass when running. Kept across configure() until cleared.
  void setPerturbation(const perturb::Perturbation& p);
  // Steady wrenches from outside (the trajectory document's: a hand holding the tool down), held in
  // world axes and applied with the push at every step. Thread-safe; kept across configure().
  void setSteadyWrenches(std::vector<dyn::ExternalWrench> wrenches);
  void clearPerturbation();
  bool hasPerturbation() const;
  // While paused: `seconds` of simulation in whole steps (at least one), the push applied; false
  // if the run diverged.
  bool advance(double seconds);
  // The energy monitor's series so far (small: three numbers per recorded sample).
  struct History {
    std::vector<double> t, energy, drift, fdDifference;
    std::vector<double> constraintError, constraintRateError;  // closed loops: |phi|, |phi' qd| (else empty)
    std::vector<double> contactNormal, contactFriction;        // the ground on: N per sample (else empty)
  };
  History history() const;
  // Limit hits since the last call.
  std::vector<dyn::LimitEvent> takeLimitEvents();
  // The recorded run so far (copied; pause first for a consistent copy while running).
  dyn::SimulationRecord record() const;
  const dyn::Model* model() const { return m_sim ? &m_sim->model() : nullptr; }

 signals:
  // From the worker thread (queued): the run stopped by itself (divergence).
  void stoppedByItself(const QString& reason);

 private:
  void workerLoop();
  void publish();            // with m_simMutex held
  bool stepLocked();         // applyPerturbation(), then one step; with m_simMutex held
  void applyPerturbation();  // the push's wrench at the current state; with m_simMutex held

  std::unique_ptr<dyn::Simulator> m_sim;
  mutable std::mutex m_simMutex;  // the simulator: the worker while stepping, the GUI for commands
  mutable std::mutex m_snapMutex;
  Snapshot m_snap;
  History m_history;
  long m_historyInterval = 0;  // the record's interval when m_history was started
  std::vector<dyn::LimitEvent> m_newEvents;
  size_t m_eventsSeen = 0;
  std::thread m_worker;
  std::mutex m_wakeMutex;
  std::condition_variable m_wake;
  std::atomic<bool> m_running{false}, m_quit{false};
  std::atomic<double> m_speed{1.0};
  double m_ratio = 0;
  mutable std::mutex m_perturbMutex;
  std::optional<perturb::Perturbation> m_perturbation;
  std::vector<dyn::ExternalWrench> m_steady;  // setSteadyWrenches's (m_perturbMutex)
  bool m_steadyChanged = false;               // since the simulator was last given them (m_perturbMutex)
  // Worker side (m_simMutex): the push, the steady wrenches as the simulator holds them, both together.
  std::vector<dyn::ExternalWrench> m_wrench, m_steadyHeld, m_all;
  bool m_pushHeld = false;            // the simulator holds a push
  std::unique_ptr<dyn::Data> m_data;  // the push's kinematics
};
