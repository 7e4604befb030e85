// The lecture view: for one joint, τ = inertial + Coriolis/centrifugal + gravity over time,
// either stacked (the signed terms stacked away from zero: positive parts upwards, negative
// parts downwards, with the total τ drawn over them) or side by side (three lines and τ). A run
// with forces from outside has a fourth term, −Jᵀf (τ = M q̈ + c + g − Jᵀf: the joints' share),
// stacked after gravity and listed before τ; without it the plot shows the three terms only.
// Same cursor, hover, zoom and export behaviour as TimeSeriesPlot (shared PlotCanvas).
#pragma once
#include <Eigen/Core>
#include <QStringList>
#include <array>
#include <span>
#include <vector>

#include "plots/plot_widget.hpp"

class QAreaSeries;
class QComboBox;
class QLineSeries;
class QToolButton;

class StackedDecompositionPlot : public PlotWidget {
  Q_OBJECT

 public:
  enum class Mode { Stacked, SideBySide };
  // External (−Jᵀf) comes after Total so that the three-term indices stay as they were.
  enum Term { Inertial = 0, Coriolis = 1, Gravity = 2, Total = 3, External = 4 };
  static constexpr int kSeries = 5;  // all terms; Total is drawn as a line in both modes
  static constexpr std::array<Term, 4> kStacked{Inertial, Coriolis, Gravity, External};  // stacking order

  explicit StackedDecompositionPlot(QWidget* parent = nullptr);

  // Each matrix is joints x samples; t non-decreasing with one entry per sample. False with a
  // message on bad input (the plot keeps its data). The selected joint is kept if it exists.
  bool setData(const std::vector<double>& t, const Eigen::MatrixXd& inertial, const Eigen::MatrixXd& coriolis,
               const Eigen::MatrixXd& gravity, const Eigen::MatrixXd& total, QStringList jointNames,
               QString yLabel = QStringLiteral("τ [N·m]"), QString xLabel = QStringLiteral("t [s]"),
               QString* error = nullptr);
  // With the fourth term −Jᵀf (`external`, joints x samples; empty: none, as above).
  bool setData(const std::vector<double>& t, const Eigen::MatrixXd& inertial, const Eigen::MatrixXd& coriolis,
               const Eigen::MatrixXd& gravity, const Eigen::MatrixXd& external, const Eigen::MatrixXd& total,
               QStringList jointNames, QString yLabel = QStringLiteral("τ [N·m]"),
               QString xLabel = QStringLiteral("t [s]"), QString* error = nullptr);
  bool hasExternal() const { return m_data[External].size() > 0; }

  int jointCount() const { return int(m_names.size()); }
  int sampleCount() const { return int(m_t.size()); }
  int currentJoint() const { return m_joint; }
  void setCurrentJoint(int joint);
  Mode mode() const { return m_mode; }
  void setMode(Mode mode);

  // Legend labels of inertial, Coriolis/centrifugal, gravity and total (and −Jᵀf: a fifth name).
  void setTermNames(const QStringList& names);
  QStringList termNames() const { return m_termNames; }
  void setTermVisible(Term term, bool visible);
  bool isTermVisible(Term term) const { return m_visible[term]; }

  bool exportCsv(const QString& path, QString* error = nullptr) const override;  // the selected joint

  // What is drawn, for tests. Lines: the stacked terms (side by side) and Total (both modes).
  // Bands (stacked): positive part of a term above the stack so far, negative part below it.
  QLineSeries* termLine(Term term) const { return m_lines[term]; }
  QAreaSeries* band(Term term, bool positivePart) const { return m_bands[term][positivePart ? 0 : 1]; }  // not Total
  QComboBox* jointSelector() const { return m_jointBox; }

 signals:
  void currentJointChanged(int joint);
  void modeChanged(StackedDecompositionPlot::Mode mode);
  void termVisibilityChanged(int term, bool visible);

 protected:
  PlotBounds dataBounds() const override;
  bool hasData() const override { return !m_t.empty() && m_joint >= 0 && m_joint < jointCount(); }
  bool readout(double t, double* sampleTime, QList<ReadoutRow>* rows) const override;
  void setAllSeriesVisible(bool visible) override;
  void legendEntryClicked(int entry) override;
  void viewChanged() override;
  void viewAboutToChange() override;

 private:
  using RowMajor = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
  std::span<const double> term(int term) const;  // of the current joint; Total included
  void showJoint(int joint);
  void restack();
  void applyMode();
  void updateLegend();
  QList<int> legendTerms() const;  // the terms in legend order (External only with its data)
  bool shown(int term) const { return m_visible[term] && (term != External || hasExternal()); }
  static QColor termColor(int term);

  std::vector<double> m_t;
  std::array<RowMajor, kSeries> m_data;  // by Term: joints x samples (External empty without it)
  QStringList m_names;
  QStringList m_termNames;
  QString m_xLabel = QStringLiteral("t [s]"), m_yLabel = QStringLiteral("τ [N·m]");
  int m_joint = 0;
  Mode m_mode = Mode::Stacked;
  std::array<bool, kSeries> m_visible{true, true, true, true, true};
  // Stack boundaries at full resolution for the current joint: [term][pos/neg][lower/upper].
  std::array<std::array<std::array<std::vector<double>, 2>, 2>, kSeries> m_stack;
  std::array<QLineSeries*, kSeries> m_lines{};
  std::array<std::array<QAreaSeries*, 2>, kSeries> m_bands{};  // none for Total
  QComboBox* m_jointBox;
  QToolButton* m_stackedButton;
  QToolButton* m_sideButton;
  bool m_batch = false;
};
