#include "plots/stacked_decomposition_plot.hpp"

#include <QAreaSeries>
#include <QButtonGroup>
#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineSeries>
#include <QScopedValueRollback>
#include <QSignalBlocker>
#include <QToolButton>
#include <QVBoxLayout>
#include <QValueAxis>
#include <cmath>

#include "plots/csv_export.hpp"
#include "plots/decimation.hpp"
#include "plots/plot_legend.hpp"
#include "plots/plot_palette.hpp"
#include "plots/plot_failure.hpp"

namespace {

enum { kLower = 0, kUpper = 1, kPositive = 0, kNegative = 1 };

}  // namespace

QColor StackedDecompositionPlot::termColor(int term) {
  return term == Total ? QColor(20, 20, 20) : plots::seriesColor(term == External ? 3 : term);
}

StackedDecompositionPlot::StackedDecompositionPlot(QWidget* parent) : PlotWidget(parent) {
  setObjectName("stackedDecompositionPlot");
  // Plain names: a combining diaeresis (q̈) renders detached in common fonts.
  m_termNames = {tr("inertial"), tr("Coriolis/centrifugal"), tr("gravity"), tr("total τ"), tr("−Jᵀf (from outside)")};

  m_jointBox = new QComboBox(this);
  m_jointBox->setObjectName("decompositionJoint");
  m_jointBox->setSizeAdjustPolicy(QComboBox::AdjustToContents);
  m_stackedButton = new QToolButton(this);
  m_stackedButton->setObjectName("decompositionStacked");
  m_stackedButton->setText(tr("Stacked"));
  m_sideButton = new QToolButton(this);
  m_sideButton->setObjectName("decompositionSideBySide");
  m_sideButton->setText(tr("Side by side"));
  auto* group = new QButtonGroup(this);
  for (QToolButton* b : {m_stackedButton, m_sideButton}) {
    b->setCheckable(true);
    b->setAutoRaise(true);
    group->addButton(b);
  }
  m_stackedButton->setChecked(true);

  auto* bar = new QHBoxLayout;
  bar->setContentsMargins(6, 4, 6, 0);
  auto* label = new QLabel(tr("Joint:"), this);
  label->setBuddy(m_jointBox);
  bar->addWidget(label);
  bar->addWidget(m_jointBox);
  bar->addStretch(1);
  bar->addWidget(m_stackedButton);
  bar->addWidget(m_sideButton);
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->setSpacing(2);
  layout->addLayout(bar);
  layout->addWidget(m_canvas, 1);

  // Bands first so that the lines are drawn over them.
  for (int k : kStacked)
    for (int p : {kPositive, kNegative}) {
      auto* area = new QAreaSeries(new QLineSeries(this), new QLineSeries(this));
      area->setParent(this);
      QColor fill = termColor(k);
      fill.setAlphaF(0.75);
      area->setBrush(fill);
      area->setPen(Qt::NoPen);
      m_canvas->addSeries(area);
      m_bands[k][p] = area;
    }
  for (int k = 0; k < kSeries; ++k) {
    m_lines[k] = new QLineSeries(this);
    m_lines[k]->setPen(QPen(termColor(k), k == Total ? 2.2 : 1.8));
    m_canvas->addSeries(m_lines[k]);
  }
  m_canvas->setAxisTitles(QStringLiteral("t [s]"), QStringLiteral("τ [N·m]"));

  connect(m_jointBox, &QComboBox::currentIndexChanged, this, [this](int i) {
    if (i >= 0) setCurrentJoint(i);
  });
  connect(m_stackedButton, &QToolButton::toggled, this, [this](bool on) {
    if (on) setMode(Mode::Stacked);
  });
  connect(m_sideButton, &QToolButton::toggled, this, [this](bool on) {
    if (on) setMode(Mode::SideBySide);
  });
  applyMode();
  updateLegend();
}

bool StackedDecompositionPlot::setData(const std::vector<double>& t, const Eigen::MatrixXd& inertial,
                                       const Eigen::MatrixXd& coriolis, const Eigen::MatrixXd& gravity,
                                       const Eigen::MatrixXd& total, QStringList jointNames, QString yLabel,
                                       QString xLabel, QString* error) {
  return setData(t, inertial, coriolis, gravity, Eigen::MatrixXd(), total, std::move(jointNames), std::move(yLabel),
                 std::move(xLabel), error);
}

bool StackedDecompositionPlot::setData(const std::vector<double>& t, const Eigen::MatrixXd& inertial,
                                       const Eigen::MatrixXd& coriolis, const Eigen::MatrixXd& gravity,
                                       const Eigen::MatrixXd& external, const Eigen::MatrixXd& total,
                                       QStringList jointNames, QString yLabel, QString xLabel, QString* error) {
  const std::array<const Eigen::MatrixXd*, kSeries> inputs{&inertial, &coriolis, &gravity, &total, &external};
  const char* what[] = {"inertial", "coriolis", "gravity", "total", "external"};
  for (int k = 0; k < kSeries; ++k) {
    const bool absent = k == External && external.size() == 0;  // no forces from outside
    if (!absent && (inputs[k]->rows() != jointNames.size() || inputs[k]->cols() != Eigen::Index(t.size())))
      return plotFailure(error, tr("Decomposition data: %1 is %2 x %3, expected %4 x %5 (joints x samples)")
                             .arg(what[k])
                             .arg(inputs[k]->rows())
                             .arg(inputs[k]->cols())
                             .arg(jointNames.size())
                             .arg(t.size()));
  }
  for (std::size_t k = 0; k < t.size(); ++k) {
    if (!std::isfinite(t[k])) return plotFailure(error, tr("Decomposition data: t[%1] is not finite").arg(k));
    if (k > 0 && t[k] < t[k - 1])
      return plotFailure(error, tr("Decomposition data: t[%1] comes before t[%2]; times must not decrease").arg(k).arg(k - 1));
  }
  QScopedValueRollback batch(m_batch, true);
  m_t = t;
  const bool hadExternal = hasExternal();
  for (int k = 0; k < kSeries; ++k) m_data[k] = *inputs[k];
  const bool sameJoints = jointNames == m_names;
  m_names = std::move(jointNames);
  if (!sameJoints) {
    const QSignalBlocker block(m_jointBox);
    m_jointBox->clear();
    m_jointBox->addItems(m_names);
  }
  m_xLabel = xLabel;
  m_yLabel = yLabel;
  m_batch = false;
  if (hasExternal() != hadExternal) applyMode();  // the fourth term came or went: its series and legend entry
  const int old = m_joint;
  showJoint(std::clamp(m_joint, 0, std::max(0, jointCount() - 1)));
  if (m_joint != old) emit currentJointChanged(m_joint);
  return true;
}

void StackedDecompositionPlot::setCurrentJoint(int joint) {
  if (joint == m_joint || joint < 0 || joint >= jointCount()) return;
  showJoint(joint);
  emit currentJointChanged(joint);
}

void StackedDecompositionPlot::showJoint(int joint) {
  m_joint = joint;
  {
    const QSignalBlocker block(m_jointBox);
    m_jointBox->setCurrentIndex(joint);
  }
  // The joint in the y title (one line with it, not a chart title that costs the plot a line).
  m_canvas->setAxisTitles(m_xLabel, joint < jointCount() ? m_names[joint] + ": " + m_yLabel : m_yLabel);
  viewAboutToChange();
  restack();
  m_canvas->autoRangeIfUntouched();
  viewChanged();
}

void StackedDecompositionPlot::setMode(Mode mode) {
  if (mode == m_mode) return;
  m_mode = mode;
  applyMode();
  emit modeChanged(mode);
}

void StackedDecompositionPlot::setTermNames(const QStringList& names) {
  if (names.size() != 4 && names.size() != kSeries) return;
  for (int k = 0; k < names.size(); ++k) m_termNames[k] = names[k];
  updateLegend();
}

void StackedDecompositionPlot::setTermVisible(Term term, bool visible) {
  if (term < 0 || term >= kSeries || m_visible[term] == visible) return;
  m_visible[term] = visible;
  if (const int entry = int(legendTerms().indexOf(term)); entry >= 0)
    m_canvas->plotLegend()->setEntryShown(entry, visible);
  applyMode();
  emit termVisibilityChanged(term, visible);
}

void StackedDecompositionPlot::setAllSeriesVisible(bool visible) {
  for (int k = 0; k < kSeries; ++k) setTermVisible(Term(k), visible);
}

void StackedDecompositionPlot::legendEntryClicked(int entry) {
  const QList<int> terms = legendTerms();
  if (entry >= 0 && entry < terms.size()) setTermVisible(Term(terms[entry]), !m_visible[terms[entry]]);
}

QList<int> StackedDecompositionPlot::legendTerms() const {
  if (hasExternal()) return {Inertial, Coriolis, Gravity, External, Total};
  return {Inertial, Coriolis, Gravity, Total};
}

void StackedDecompositionPlot::applyMode() {
  {
    const QSignalBlocker a(m_stackedButton), b(m_sideButton);
    m_stackedButton->setChecked(m_mode == Mode::Stacked);
    m_sideButton->setChecked(m_mode == Mode::SideBySide);
  }
  const bool stacked = m_mode == Mode::Stacked;
  for (int k : kStacked) {
    m_lines[k]->setVisible(!stacked && shown(k));
    for (QAreaSeries* band : m_bands[k]) band->setVisible(stacked && shown(k));
  }
  m_lines[Total]->setVisible(m_visible[Total]);
  updateLegend();
  viewAboutToChange();
  restack();
  m_canvas->autoRangeIfUntouched();
  viewChanged();
}

void StackedDecompositionPlot::updateLegend() {
  QList<PlotLegend::Entry> entries;
  for (int k : legendTerms()) {
    const bool area = k != Total && m_mode == Mode::Stacked;
    entries.append(
        {m_termNames[k], termColor(k), area ? PlotLegend::Swatch::Area : PlotLegend::Swatch::Line, m_visible[k]});
  }
  m_canvas->plotLegend()->setEntries(entries);
  m_canvas->legendChanged();
}

std::span<const double> StackedDecompositionPlot::term(int k) const {
  if (m_joint < 0 || m_joint >= jointCount() || m_joint >= m_data[k].rows()) return {};  // (External: maybe none)
  return {m_data[k].row(m_joint).data(), std::size_t(m_data[k].cols())};
}

// Positive parts stack upwards from zero and negative parts downwards, in term order, over
// the visible terms: each band's height is the term's magnitude and the signed heights add
// up to the total. (Cumulative lines would cross when terms change sign, and the filled
// regions between them would no longer show the terms.)
void StackedDecompositionPlot::restack() {
  const std::size_t n = m_t.size();
  std::vector<double> up(n, 0.0), down(n, 0.0);  // current top of the positive and negative stacks
  for (int k : kStacked) {
    auto& pos = m_stack[k][kPositive];
    auto& neg = m_stack[k][kNegative];
    const std::span<const double> v = term(k);
    const bool use = shown(k) && v.size() == n;
    for (auto* b : {&pos[kLower], &pos[kUpper], &neg[kLower], &neg[kUpper]}) b->resize(use ? n : 0);
    if (!use) continue;
    for (std::size_t i = 0; i < n; ++i) {
      const double p = std::max(v[i], 0.0), m = std::min(v[i], 0.0);
      pos[kLower][i] = up[i];
      pos[kUpper][i] = up[i] += p;
      neg[kUpper][i] = down[i];
      neg[kLower][i] = down[i] += m;
    }
  }
}

void StackedDecompositionPlot::viewAboutToChange() {
  for (QLineSeries* line : m_lines) line->clear();
  for (int k : kStacked)
    for (QAreaSeries* band : m_bands[k]) band->upperSeries()->clear(), band->lowerSeries()->clear();
}

void StackedDecompositionPlot::viewChanged() {
  if (m_batch) return;
  const double x0 = m_canvas->axisX()->min(), x1 = m_canvas->axisX()->max();
  const int w = m_canvas->plotWidthPixels();
  const int buckets = w >= 50 ? w : 1000;
  auto fill = [&](QLineSeries* series, std::span<const double> y) {
    series->replace(plots::decimateMinMax(m_t, y, x0, x1, buckets));
  };
  const bool stacked = m_mode == Mode::Stacked;
  for (int k : kStacked) {
    const bool shownLine = !stacked && shown(k);
    fill(m_lines[k], shownLine ? term(k) : std::span<const double>());
    for (int p : {kPositive, kNegative}) {
      const bool shownBand = stacked && shown(k);
      fill(m_bands[k][p]->upperSeries(),
           shownBand ? std::span<const double>(m_stack[k][p][kUpper]) : std::span<const double>());
      fill(m_bands[k][p]->lowerSeries(),
           shownBand ? std::span<const double>(m_stack[k][p][kLower]) : std::span<const double>());
    }
  }
  fill(m_lines[Total], m_visible[Total] ? term(Total) : std::span<const double>());
}

PlotBounds StackedDecompositionPlot::dataBounds() const {
  PlotBounds b;
  const std::size_t n = m_t.size();
  if (n == 0 || m_joint < 0 || m_joint >= jointCount()) return b;
  const bool stacked = m_mode == Mode::Stacked;
  for (std::size_t i = 0; i < n; ++i) {
    for (int k : kStacked) {
      if (!shown(k)) continue;
      if (stacked) {
        b.include(m_t[i], m_stack[k][kPositive][kUpper][i]);
        b.include(m_t[i], m_stack[k][kNegative][kLower][i]);
      } else {
        b.include(m_t[i], term(k)[i]);
      }
    }
    if (m_visible[Total]) b.include(m_t[i], term(Total)[i]);
  }
  if (b.empty) b.include(m_t.front(), -1), b.include(m_t.back(), 1);
  return b;
}

bool StackedDecompositionPlot::readout(double t, double* sampleTime, QList<ReadoutRow>* rows) const {
  const int i = plots::nearestSample(m_t, t);
  if (i < 0 || m_joint < 0 || m_joint >= jointCount()) return false;
  *sampleTime = m_t[std::size_t(i)];
  for (int k : legendTerms())
    if (m_visible[k]) rows->append({m_termNames[k], termColor(k), term(k)[std::size_t(i)]});
  return true;
}

bool StackedDecompositionPlot::exportCsv(const QString& path, QString* error) const {
  if (m_joint < 0 || m_joint >= jointCount()) return plots::writeCsv(path, QStringLiteral("t"), m_t, {}, {}, error);
  QStringList names;
  std::vector<std::span<const double>> columns;
  for (int k : legendTerms()) {
    names << m_names[m_joint] + " " + m_termNames[k];
    columns.push_back(term(k));
  }
  return plots::writeCsv(path, QStringLiteral("t"), m_t, names, columns, error);
}
