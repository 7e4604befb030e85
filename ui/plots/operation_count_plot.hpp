// The classic figure of the formulation papers: operation count against n on log-log axes. One
// colour and marker per formulation (plots::seriesColor, plots::seriesMarker): its measured count
// (solid, with its marker at the measured n), the papers' polynomials for it (dashed) and the
// values the papers tabulate (hollow diamonds); a vertical line marks
// the loaded robot's n. Legend entries toggle formulations; PNG/SVG/CSV export like every plot.
// Knows nothing about the engine: it plots the numbers it is given. See docs/formulations.md.
#pragma once
#include <QStringList>
#include <vector>

#include "plots/plot_widget.hpp"

class QLineSeries;
class QScatterSeries;

class OperationCountPlot : public PlotWidget {
  Q_OBJECT

 public:
  enum class Count { Multiplications, Additions };
  struct Paper {
    std::vector<double> muls, adds;  // polynomial coefficients, k multiplies n^k (empty: none)
    struct Value {
      int n;
      double muls, adds;
    };
    std::vector<Value> tabulated;
  };
  struct Series {
    QString name;                    // "id: denoc"
    std::vector<int> n;              // measured sizes, increasing
    std::vector<double> muls, adds;  // measured counts at n
    std::vector<Paper> papers;
  };

  explicit OperationCountPlot(QWidget* parent = nullptr);

  void setSeries(std::vector<Series> series, int nMax);
  void setCount(Count count);
  Count count() const { return m_count; }
  void setMarkedN(int n);  // the loaded robot's n (0: none)
  int markedN() const { return m_markedN; }

  int seriesCount() const { return int(m_series.size()); }
  const Series& series(int i) const { return m_series[std::size_t(i)]; }
  void setSeriesVisible(int i, bool visible);
  bool isSeriesVisible(int i) const;

  bool exportCsv(const QString& path, QString* error = nullptr) const override;

  // What is drawn (tests).
  QLineSeries* measuredLine(int i) const { return m_drawn[std::size_t(i)].measured; }
  const std::vector<QLineSeries*>& paperLines(int i) const { return m_drawn[std::size_t(i)].papers; }
  QScatterSeries* paperMarkers(int i) const { return m_drawn[std::size_t(i)].tabulated; }
  QScatterSeries* measuredMarkers(int i) const { return m_drawn[std::size_t(i)].dots; }

 protected:
  PlotBounds dataBounds() const override;
  bool readout(double x, double* sampleX, QList<ReadoutRow>* rows) const override;
  void setAllSeriesVisible(bool visible) override;
  void legendEntryClicked(int entry) override;
  void viewChanged() override {}
  bool hasData() const override { return false; }  // no time cursor: the dotted line is the robot's n

 private:
  struct Drawn {
    QLineSeries* measured = nullptr;
    QScatterSeries* dots = nullptr;
    std::vector<QLineSeries*> papers;
    QScatterSeries* tabulated = nullptr;
    bool visible = true;
  };
  void rebuild();
  const std::vector<double>& measured(const Series& s) const {
    return m_count == Count::Multiplications ? s.muls : s.adds;
  }
  const std::vector<double>& polynomial(const Paper& p) const {
    return m_count == Count::Multiplications ? p.muls : p.adds;
  }

  std::vector<Series> m_series;
  std::vector<Drawn> m_drawn;
  Count m_count = Count::Multiplications;
  int m_nMax = 1;
  int m_markedN = 0;
};
