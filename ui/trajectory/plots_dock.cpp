#include "trajectory/plots_dock.hpp"

#include <QTabBar>
#include <QTabWidget>
#include <cmath>

#include "document/robot_document.hpp"
#include "dynscope/model/names.hpp"
#include "plots/stacked_decomposition_plot.hpp"
#include "plots/time_series_plot.hpp"
#include "trajectory/trajectory_document.hpp"

namespace {

QStringList toQt(const std::vector<std::string>& names) {
  QStringList out;
  for (const auto& n : names) out << QString::fromStdString(n);
  return out;
}

}  // namespace

PlotsDock::PlotsDock(TrajectoryDocument* doc, QWidget* parent)
    : QDockWidget(tr("Plots"), parent), m_doc(doc), m_stale(TabCount, true) {
  setObjectName("plotsDock");
  m_tabs = new QTabWidget(this);
  m_tabs->setObjectName("plotTabs");
  m_tabs->setDocumentMode(true);
  const QString titles[] = {tr("τ"), tr("q"), tr("velocity"), tr("acceleration"), tr("power"), tr("energy")};
  const QString tips[] = {tr("Joint torques and forces τ = RNEA(q, q̇, q̈)"),
                          tr("Joint positions"),
                          tr("Joint velocities"),
                          tr("Joint accelerations"),
                          tr("Power delivered by each joint, τ·q̇"),
                          tr("Kinetic, potential and total energy")};
  for (int i = Torque; i <= Energy; ++i) {
    auto* p = new TimeSeriesPlot(m_tabs);
    p->setObjectName(QString("plot_%1").arg(i));
    m_series.push_back(p);
    m_tabs->addTab(p, titles[i]);
    m_tabs->setTabToolTip(i, tips[i]);
    connect(p, &PlotWidget::cursorTimeRequested, this, &PlotsDock::timeRequested);
  }
  m_decomposition = new StackedDecompositionPlot(m_tabs);
  m_decomposition->setObjectName("plot_decomposition");
  m_decomposition->setTermNames(
      {tr("inertial M(q)·q̈"), tr("Coriolis/centrifugal c(q, q̇)"), tr("gravity g(q)"), tr("τ"), tr("external −Jᵀf")});
  m_tabs->addTab(m_decomposition, tr("τ decomposition"));
  m_tabs->setTabToolTip(Decomposition, tr("τ = M(q)·q̈ + c(q, q̇) + g(q), for one joint"));
  connect(m_decomposition, &PlotWidget::cursorTimeRequested, this, &PlotsDock::timeRequested);
  setWidget(m_tabs);

  connect(m_tabs, &QTabWidget::currentChanged, this, &PlotsDock::fillCurrent);
  connect(m_doc, &TrajectoryDocument::dynamicsChanged, this, &PlotsDock::invalidate);
  connect(m_doc, &TrajectoryDocument::timeChanged, this, [this](double t) {
    for (auto* p : m_series) p->setCursorTime(t);
    m_decomposition->setCursorTime(t);
    for (auto* p : m_scriptPlots) p->setCursorTime(t);
  });
  invalidate();
}

TimeSeriesPlot* PlotsDock::plot(Tab tab) const { return tab < Decomposition ? m_series[tab] : nullptr; }

QSize PlotsDock::readableSize() const {
  QSize plots;
  for (int i = 0; i < m_tabs->count(); ++i)
    if (const auto* p = qobject_cast<const PlotWidget*>(m_tabs->widget(i)))
      plots = plots.expandedTo(p->minimumSizeHint());
  const int tabBar = m_tabs->tabBar()->sizeHint().height();
  const QSize chrome = isVisible() ? size() - m_tabs->size() : QSize(4, fontMetrics().height() + 8);  // title, frame
  return plots + QSize(0, tabBar) + chrome.expandedTo(QSize(0, 0));
}

PlotWidget* PlotsDock::currentPlot() const { return qobject_cast<PlotWidget*>(m_tabs->currentWidget()); }

void PlotsDock::showTab(Tab tab) { m_tabs->setCurrentIndex(tab); }

bool PlotsDock::showScriptPlot(const QString& title, const std::vector<double>& t, const Eigen::MatrixXd& values,
                               const QStringList& names, const QString& yLabel, QString* error) {
  TimeSeriesPlot* plot = nullptr;
  for (int i = 0; i < int(m_scriptPlots.size()); ++i)
    if (m_tabs->tabText(TabCount + i) == title) plot = m_scriptPlots[std::size_t(i)];
  const bool made = !plot;
  if (made) plot = new TimeSeriesPlot(m_tabs);
  if (!plot->setData(t, values, names, yLabel, QStringLiteral("t [s]"), error)) {
    if (made) delete plot;
    return false;
  }
  if (made) {
    plot->setObjectName(QString("script_plot_%1").arg(m_scriptPlots.size()));
    m_scriptPlots.push_back(plot);
    m_tabs->addTab(plot, title);
    m_tabs->setTabToolTip(m_tabs->count() - 1, tr("Plotted by a Python script (dynscope.Viewer.plot)"));
    connect(plot, &PlotWidget::cursorTimeRequested, this, &PlotsDock::timeRequested);
  }
  if (m_doc->hasTrajectory()) plot->setCursorTime(m_doc->time());
  plot->autoRange();
  m_tabs->setCurrentWidget(plot);
  return true;
}

QStringList PlotsDock::scriptPlotTitles() const {
  QStringList titles;
  for (int i = 0; i < int(m_scriptPlots.size()); ++i) titles << m_tabs->tabText(TabCount + i);
  return titles;
}

void PlotsDock::invalidate() {
  std::fill(m_stale.begin(), m_stale.end(), true);
  fillCurrent();
}

void PlotsDock::fillCurrent() {
  const int tab = m_tabs->currentIndex();
  if (tab >= 0 && tab < TabCount && m_stale[tab]) fill(tab);  // a script's plots are filled by the script
}

void PlotsDock::fill(int tab) {
  m_stale[tab] = false;
  if (tab == Energy || tab == Decomposition) m_doc->ensureDetails();
  const dyn::SampledTrajectory& s = m_doc->samples();
  const dyn::TrajectoryDynamics& d = m_doc->dynamics();
  const dyn::Model& m = m_doc->dynamicsModel();
  const std::vector<double> t = m_doc->sampleTimes();
  const bool any = m_doc->hasTrajectory() && d.tau.cols() == s.samples();
  if (!any) {
    if (tab < Decomposition)
      m_series[tab]->clear();
    else
      m_decomposition->setData({}, {}, {}, {}, {}, {});
    return;
  }
  const QStringList v = toQt(dyn::velocityNames(m));
  switch (tab) {
    case Torque: {
      m_series[Torque]->setData(t, d.tau, v, tr("τ [N·m | N]"));
      m_tabs->setTabToolTip(Torque, m_doc->hasExternalForces()
                                        ? tr("What the joints give, τ = RNEA(q, q̇, q̈) − Jᵀf: the run had "
                                             "forces from outside (Jᵀf)")
                                        : tr("Joint torques and forces τ = RNEA(q, q̇, q̈)"));
      std::vector<double> lo(m.nv), hi(m.nv);
      for (int k = 0; k < m.nv; ++k) {
        const double e = m.effortLimit[k];
        lo[k] = std::isfinite(e) ? -e : -INFINITY;
        hi[k] = std::isfinite(e) ? e : INFINITY;
      }
      m_series[Torque]->setLimits(lo, hi);
      QStringList units;  // for the notes that name a limit beyond the view
      for (int k = 0; k < m.nv; ++k) {
        const dyn::JointType type = m.joints[std::size_t(m.dofBody[std::size_t(k)])].type;
        units << (type == dyn::JointType::Prismatic                                     ? tr("N")
                  : type == dyn::JointType::Revolute || type == dyn::JointType::Helical ? tr("N·m")
                                                                                        : QString());
      }
      m_series[Torque]->setLimitUnits(units);
      const auto& bad = m_doc->violations().samples;
      for (int k = 0; k < int(bad.size()) && k < m.nv; ++k) m_series[Torque]->setFlaggedSamples(k, bad[k]);
      break;
    }
    case Position:
      m_series[Position]->setData(t, s.q, toQt(dyn::configurationNames(m)), tr("q [rad | m]"));
      break;
    case Velocity:
      m_series[Velocity]->setData(t, s.qd, v, tr("q̇ [rad/s | m/s]"));
      break;
    case Acceleration:
      m_series[Acceleration]->setData(t, s.qdd, v, tr("q̈ [rad/s² | m/s²]"));
      break;
    case Power:
      m_series[Power]->setData(t, d.power, v, tr("τ·q̇ [W]"));
      break;
    case Energy: {
      if (d.total.size() != s.samples()) {
        m_series[Energy]->clear();
        break;
      }
      Eigen::MatrixXd e(3, s.samples());
      e.row(0) = d.kinetic.transpose();
      e.row(1) = d.potential.transpose();
      e.row(2) = d.total.transpose();
      m_series[Energy]->setData(t, e, {tr("kinetic"), tr("potential"), tr("total")}, tr("energy [J]"));
      break;
    }
    case Decomposition:
      // A run with forces from outside: τ is the joints' share and −Jᵀf the fourth term.
      m_decomposition->setData(t, d.inertial, d.coriolis, d.gravity, d.external, d.tau, v, tr("τ [N·m | N]"));
      m_tabs->setTabToolTip(Decomposition, d.external.size() > 0
                                               ? tr("τ = M(q)·q̈ + c(q, q̇) + g(q) − Jᵀf: what the joints "
                                                    "give, for one joint (Jᵀf: the forces from outside)")
                                               : tr("τ = M(q)·q̈ + c(q, q̇) + g(q), for one joint"));
      break;
  }
  const double now = m_doc->time();
  if (tab < Decomposition)
    m_series[tab]->setCursorTime(now);
  else
    m_decomposition->setCursorTime(now);
}
