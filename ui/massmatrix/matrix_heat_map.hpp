// A square matrix as a heat map (QPainter): a diverging colour map centred on zero (optionally
// on a symmetric log-magnitude scale) with its colour bar, structural zeros hatched grey,
// fill-in outlined, an optional side strip (the diagonal), joint-name labels when they fit,
// highlighted rows/columns, and a hover read-out. It paints what it is given; computing is the
// owner's job.
#pragma once
#include <Eigen/Core>
#include <QImage>
#include <QStringList>
#include <QWidget>
#include <functional>
#include <vector>

#include "massmatrix/mass_matrix_analysis.hpp"

struct HeatMapContent {
  Eigen::MatrixXd values;
  std::vector<CellKind> kinds;  // row-major; empty: every cell a Value
  QStringList labels;           // one per row/column
  Eigen::VectorXd side;         // optional strip right of the matrix (e.g. the diagonal)
  QString sideLabel;
  QString title;
  QString scaleLabel;     // above the colour bar
  double fixedScale = 0;  // > 0: the colour range is [-fixedScale, fixedScale] (else the largest value)
};

class MatrixHeatMap : public QWidget {
  Q_OBJECT

 public:
  // Geometry of one layout, shared by painting, hit-testing and tests.
  struct Layout {
    QRectF title, matrix, side, bar;
    double cell = 0;
    bool names = false;    // joint names as labels (else dof numbers)
    int labelStep = 1;     // every labelStep-th label when numbers are shown
    int titleLines = 1;    // 0: elided even on two lines
    bool readable = true;  // false: cells below the readable size; a hint is painted instead
  };
  static constexpr int kSideColumn = -2;  // column index reported for the side strip

  explicit MatrixHeatMap(QWidget* parent = nullptr);

  void setContent(HeatMapContent content);
  const HeatMapContent& content() const { return m_content; }
  void setLogMagnitude(bool on);
  bool logMagnitude() const { return m_log; }
  void setShowLabels(bool on);
  bool showLabels() const { return m_showLabels; }
  void setHighlighted(std::vector<int> positions);  // rows and columns to emphasise
  const std::vector<int>& highlighted() const { return m_highlight; }
  // Text for the read-out of cell (r, c) (c = kSideColumn: the side strip).
  void setHoverTextProvider(std::function<QString(int, int)> provider) { m_provider = std::move(provider); }

  QString hoverText() const { return m_hoverText; }
  int hoverRow() const { return m_hoverRow; }
  int hoverColumn() const { return m_hoverCol; }

  Layout layoutFor(QSize size) const;
  QPoint cellCenter(int r, int c) const;         // widget coordinates
  bool cellAt(QPointF p, int* r, int* c) const;  // c may be kSideColumn
  // Colour-map position of a value in [-1, 1] (linear or symmetric log), and its colour.
  double scalePosition(double v) const;
  static QColor divergingColor(double t);
  static QColor structuralZeroColor() { return QColor(190, 190, 190); }
  static QColor fillInColor() { return QColor(255, 140, 0); }
  static QColor pendingColor() { return QColor(236, 236, 236); }
  double scaleMax() const { return m_vmax; }

  void paintContent(QPainter& p, QSize size) const;
  // The same picture laid out for `size`, drawn at `scale` device pixels per unit (export).
  QImage renderImage(QSize size, double scale = 1) const;

  // Readable: at least 5 px a cell and 8 lines for the matrix, its labels, colour bar and title in
  // full (two lines at most). Smaller, it paints a "too small" hint instead of a smear.
  QSize sizeHint() const override { return minimumSizeHint().expandedTo({560, 480}); }
  QSize minimumSizeHint() const override;
  bool isReadable() const { return layoutFor(size()).readable; }
  QString titleToolTip() const;  // the whole title when it is elided at the current width

 signals:
  void cellClicked(int row, int column);
  void labelClicked(int position);
  void hoveredCellChanged(int row, int column);  // -1, -1 when leaving

 protected:
  bool event(QEvent* e) override;
  void paintEvent(QPaintEvent*) override;
  void mouseMoveEvent(QMouseEvent* e) override;
  void mousePressEvent(QMouseEvent* e) override;
  void leaveEvent(QEvent*) override;

 private:
  void updateScale();
  int titleLines(double width) const;
  bool titleElided(double width) const;
  double minimumMatrixSide() const;
  QSize estimatedMinimumSize() const;
  void updateHover(QPointF p, QPoint global);
  int labelAt(QPointF p) const;
  void paintCells(QPainter& p, const Layout& l) const;
  void paintLabels(QPainter& p, const Layout& l) const;
  void paintSide(QPainter& p, const Layout& l) const;
  void paintColourBar(QPainter& p, const Layout& l) const;
  QString formatValue(double v) const;
  CellKind kindAt(int r, int c) const;

  HeatMapContent m_content;
  std::vector<int> m_highlight;
  std::function<QString(int, int)> m_provider;
  QString m_hoverText;
  int m_hoverRow = -1, m_hoverCol = -1;
  double m_vmax = 1;  // the colour range is [-m_vmax, m_vmax]
  bool m_log = false, m_showLabels = true;
  // One pixel per cell (small cells: hundreds of dofs), built on the first paint after the content
  // or the scale changed; hover and highlight repaints reuse it (a million colour look-ups otherwise).
  mutable QImage m_cellImage;
};
