#include "simulation/simulation_runner.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <utility>

#include "dynscope/algorithms/kinematics.hpp"

namespace {

using Clock = std::chrono::steady_clock;
double seconds(Clock::duration d) { return std::chrono::duration<double>(d).count(); }

}  // namespace

SimulationRunner::SimulationRunner(QObject* parent) : QObject(parent) {
  m_worker = std::thread([this] { workerLoop(); });
}

SimulationRunner::~SimulationRunner() {
  m_running = false;
  m_quit = true;
  { const std::lock_guard<std::mutex> lock(m_wakeMutex); }
  m_wake.notify_all();
  m_worker.join();
}

bool SimulationRunner::configure(const dyn::Model& model, const dyn::SimulationSettings& settings,
                                 dyn::Controller controller, const Eigen::VectorXd& q0, const Eigen::VectorXd& qd0,
                                 QString* error) {
  pause();
  try {
    auto sim = std::make_unique<dyn::Simulator>(model, settings, std::move(controller));
    sim->reset(q0, qd0);
    const std::lock_guard<std::mutex> lock(m_simMutex);
    m_sim = std::move(sim);
    m_data = std::make_unique<dyn::Data>(m_sim->model());
    m_pushHeld = false;
    m_wrench.clear();  // the last run's push (another model's bodies)
    {
      const std::lock_guard<std::mutex> perturbLock(m_perturbMutex);
      m_steadyChanged = true;  // a new simulator holds no wrenches yet
    }
    m_ratio = 0;
    {
      const std::lock_guard<std::mutex> snapLock(m_snapMutex);
      m_history = {};
      m_newEvents.clear();
      m_eventsSeen = 0;
    }
    publish();
  } catch (const std::exception& e) {
    if (error) *error = QString::fromUtf8(e.what());
    return false;
  }
  return true;
}

bool SimulationRunner::setSettings(const dyn::SimulationSettings& settings, QString* error) {
  const std::lock_guard<std::mutex> lock(m_simMutex);
  if (!m_sim) return false;
  try {
    m_sim->setSettings(settings);
  } catch (const std::exception& e) {
    if (error) *error = QString::fromUtf8(e.what());
    return false;
  }
  return true;
}

bool SimulationRunner::setController(dyn::Controller controller, QString* error) {
  const std::lock_guard<std::mutex> lock(m_simMutex);
  if (!m_sim) return false;
  try {
    m_sim->setController(std::move(controller));
  } catch (const std::exception& e) {
    if (error) *error = QString::fromUtf8(e.what());
    return false;
  }
  return true;
}

void SimulationRunner::start() {
  if (!m_sim || m_running) return;
  {
    const std::lock_guard<std::mutex> lock(m_wakeMutex);
    m_running = true;
  }
  m_wake.notify_all();
}

void SimulationRunner::pause() {
  m_running = false;
  const std::lock_guard<std::mutex> lock(m_simMutex);  // returns once no step is in progress
}

bool SimulationRunner::step() {
  pause();
  const std::lock_guard<std::mutex> lock(m_simMutex);
  if (!m_sim) return false;
  const bool ok = stepLocked();
  publish();
  return ok;
}

bool SimulationRunner::advance(double seconds) {
  pause();
  const std::lock_guard<std::mutex> lock(m_simMutex);
  if (!m_sim) return false;
  const long n = std::max(1L, std::lround(seconds / m_sim->settings().dt));
  bool ok = true;
  for (long k = 0; k < n && ok; ++k) ok = stepLocked();
  publish();
  return ok;
}

bool SimulationRunner::stepLocked() {
  applyPerturbation();
  return m_sim->step() == dyn::SimulationStatus::Ok;
}

void SimulationRunner::setPerturbation(const perturb::Perturbation& p) {
  {
    const std::lock_guard<std::mutex> lock(m_perturbMutex);
    m_perturbation = p;
  }
  if (m_running) return;  // the worker publishes it with its next pass
  const std::lock_guard<std::mutex> lock(m_simMutex);
  if (m_sim) publish();
}

void SimulationRunner::clearPerturbation() {
  {
    const std::lock_guard<std::mutex> lock(m_perturbMutex);
    m_perturbation.reset();
  }
  if (m_running) return;
  const std::lock_guard<std::mutex> lock(m_simMutex);
  if (m_sim) publish();
}

bool SimulationRunner::hasPerturbation() const {
  const std::lock_guard<std::mutex> lock(m_perturbMutex);
  return m_perturbation.has_value();
}

void SimulationRunner::applyPerturbation() {
  std::optional<perturb::Perturbation> p;
  bool steadyChanged = false;
  {
    const std::lock_guard<std::mutex> lock(m_perturbMutex);
    p = m_perturbation;
    if (m_steadyChanged) {
      m_steadyHeld.assign(m_steady.begin(), m_steady.end());  // capacity kept: no allocation per step
      m_steadyChanged = false;
      steadyChanged = true;
    }
  }
  const dyn::Model& model = m_sim->model();
  m_wrench.clear();  // the push
  if (p && p->body >= 1 && p->body <= model.N) {
    m_wrench.push_back(perturb::perturbationWrench(model, *m_data, m_sim->q(), m_sim->qd(), *p));
    if (!(m_wrench[0].force.allFinite() && m_wrench[0].moment.allFinite())) m_wrench.clear();  // a state gone bad
  }
  // The simulator holds what it was given (setWrenches evaluates the dynamics once): given again
  // only while a push follows the state, when one has just ended, or when the steady ones changed.
  if (m_wrench.empty() && !m_pushHeld && !steadyChanged) return;
  m_all.assign(m_wrench.begin(), m_wrench.end());  // the push first, then the steady wrenches
  m_all.insert(m_all.end(), m_steadyHeld.begin(), m_steadyHeld.end());
  m_sim->setWrenches(m_all);
  m_pushHeld = !m_wrench.empty();
}

void SimulationRunner::setSteadyWrenches(std::vector<dyn::ExternalWrench> wrenches) {
  const auto same = [](const dyn::ExternalWrench& a, const dyn::ExternalWrench& b) {
    return a.body == b.body && a.point == b.point && a.force == b.force && a.moment == b.moment;
  };
  {
    const std::lock_guard<std::mutex> lock(m_perturbMutex);
    if (std::equal(wrenches.begin(), wrenches.end(), m_steady.begin(), m_steady.end(), same)) return;
    m_steady = std::move(wrenches);
    m_steadyChanged = true;
  }
  if (m_running) return;  // the next step takes them
  const std::lock_guard<std::mutex> lock(m_simMutex);
  if (m_sim) applyPerturbation();
}

void SimulationRunner::setSpeed(double s) { m_speed = std::clamp(s, 0.01, 1000.0); }

SimulationRunner::Snapshot SimulationRunner::snapshot() const {
  const std::lock_guard<std::mutex> lock(m_snapMutex);
  return m_snap;
}

SimulationRunner::History SimulationRunner::history() const {
  const std::lock_guard<std::mutex> lock(m_snapMutex);
  return m_history;
}

std::vector<dyn::LimitEvent> SimulationRunner::takeLimitEvents() {
  const std::lock_guard<std::mutex> lock(m_snapMutex);
  return std::exchange(m_newEvents, {});
}

dyn::SimulationRecord SimulationRunner::record() const {
  const std::lock_guard<std::mutex> lock(m_simMutex);
  return m_sim ? m_sim->record() : dyn::SimulationRecord{};
}

void SimulationRunner::publish() {
  applyPerturbation();  // the push as it acts from this state on
  Snapshot s;
  s.t = m_sim->time();
  s.q = m_sim->q();
  s.qd = m_sim->qd();
  s.tau = m_sim->tau();
  s.energy = m_sim->energy();
  const dyn::SimulationRecord& r = m_sim->record();
  s.samples = r.samples();
  s.drift = r.energy.empty() ? 0.0 : r.relativeEnergyDrift(r.samples() - 1);
  s.fdDifference = r.fdDifference.empty() ? 0.0 : r.fdDifference.back();
  s.constraintError = r.constraintError.empty() ? 0.0 : r.constraintError.back();
  s.constraintRateError = r.constraintRateError.empty() ? 0.0 : r.constraintRateError.back();
  s.ratio = m_ratio;
  s.status = m_sim->status();
  s.error = QString::fromStdString(m_sim->lastError());
  s.steps = m_sim->stats().steps;
  s.projectionFailures = m_sim->stats().projectionFailures;
  s.worstProjectionResidual = m_sim->stats().worstProjectionResidual;
  if (!m_wrench.empty()) {  // the push (the steady wrenches are the trajectory document's, drawn by the window)
    const dyn::Model& model = m_sim->model();
    dyn::forwardKinematics(model, *m_data, m_sim->q());
    for (const dyn::ExternalWrench& w : m_wrench)
      s.wrenches.push_back({w.body, m_data->X0[w.body].pointToA(w.point), w.force, w.moment});
    dyn::wrenchJointForces(model, *m_data, m_wrench, s.tauExternal);
  }
  for (const dyn::ContactForce& c : m_sim->contactForces()) {  // per body, at the centre of pressure
    auto it = std::find_if(s.contacts.begin(), s.contacts.end(), [&](const auto& x) { return x.body == c.body; });
    if (it == s.contacts.end())
      it = s.contacts.insert(s.contacts.end(), {c.body, 0, Eigen::Vector3d::Zero(), Eigen::Vector3d::Zero()});
    it->points += 1;
    it->point += c.force.z() * c.position;  // weighted by the normal force, divided below
    it->force += c.force;
    s.penetration = std::max(s.penetration, c.penetration);
  }
  for (auto& c : s.contacts) c.point = c.force.z() > 0 ? Eigen::Vector3d(c.point / c.force.z()) : c.point;
  const std::lock_guard<std::mutex> lock(m_snapMutex);
  m_snap = std::move(s);
  // The new recorded samples' energy, drift and FD difference; the new limit hits.
  // A new run, or the record was thinned (SimulationSettings::recordLimit): start over.
  if (int(m_history.t.size()) > r.samples() || m_sim->recordInterval() != m_historyInterval) {
    m_history = {};
    m_historyInterval = m_sim->recordInterval();
  }
  for (int k = int(m_history.t.size()); k < r.samples(); ++k) {
    m_history.t.push_back(r.t[k]);
    m_history.energy.push_back(r.energy.empty() ? NAN : r.energy[k]);
    m_history.drift.push_back(r.energy.empty() ? NAN : r.relativeEnergyDrift(k));
    m_history.fdDifference.push_back(k < int(r.fdDifference.size()) ? r.fdDifference[k] : NAN);
    if (k < int(r.constraintError.size())) m_history.constraintError.push_back(r.constraintError[k]);
    if (k < int(r.constraintRateError.size())) m_history.constraintRateError.push_back(r.constraintRateError[k]);
    if (k < int(r.contactNormal.size())) m_history.contactNormal.push_back(r.contactNormal[k]);
    if (k < int(r.contactFriction.size())) m_history.contactFriction.push_back(r.contactFriction[k]);
  }
  if (m_eventsSeen > r.limitEvents.size()) m_eventsSeen = 0;
  for (; m_eventsSeen < r.limitEvents.size(); ++m_eventsSeen) m_newEvents.push_back(r.limitEvents[m_eventsSeen]);
}

void SimulationRunner::workerLoop() {
  while (!m_quit) {
    {
      std::unique_lock<std::mutex> lock(m_wakeMutex);
      m_wake.wait(lock, [this] { return m_running.load() || m_quit.load(); });
    }
    if (m_quit) break;
    // One run: sim time follows speed × wall time from an anchor, re-anchored when the speed
    // changes or the simulation falls behind (no sprint to catch up after a slow stretch).
    Clock::time_point wall0 = Clock::now(), ratioWall = wall0;
    double sim0 = 0, ratioSim = 0, speed = m_speed;
    {
      const std::lock_guard<std::mutex> lock(m_simMutex);
      sim0 = ratioSim = m_sim->time();
    }
    while (m_running && !m_quit) {
      bool diverged = false;
      double dt = 0, now = 0;
      QString reason;
      {
        const std::lock_guard<std::mutex> lock(m_simMutex);
        if (!m_running) break;
        if (speed != m_speed) {
          speed = m_speed;
          wall0 = Clock::now();
          sim0 = m_sim->time();
        }
        dt = m_sim->settings().dt;
        const double target = sim0 + seconds(Clock::now() - wall0) * speed;
        const Clock::time_point passStart = Clock::now();
        while (m_sim->time() + 0.5 * dt <= target && m_running) {
          if (!stepLocked()) {
            diverged = true;
            reason = QString::fromStdString(m_sim->lastError());
            break;
          }
          if (Clock::now() - passStart > std::chrono::milliseconds(15)) break;  // show progress at ~60 Hz
        }
        now = m_sim->time();
        if (target - now > 0.25 * speed) {  // behind by a quarter second of wall time: re-anchor
          wall0 = Clock::now();
          sim0 = now;
        }
        const double wallSpan = seconds(Clock::now() - ratioWall);
        if (wallSpan > 0.5) {
          m_ratio = (now - ratioSim) / wallSpan;
          ratioWall = Clock::now();
          ratioSim = now;
        }
        publish();
      }
      if (diverged) {
        m_running = false;
        emit stoppedByItself(reason);
        break;
      }
      // Ahead of the clock: sleep until the next step is due (at most 5 ms, to notice a pause).
      const double due = (now + dt - sim0) / speed - seconds(Clock::now() - wall0);
      if (due > 0) std::this_thread::sleep_for(std::chrono::duration<double>(std::min(due, 0.005)));
    }
  }
}
