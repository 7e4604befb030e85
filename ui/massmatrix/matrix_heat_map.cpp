#include "massmatrix/matrix_heat_map.hpp"

#include <QFontMetricsF>
#include <QHelpEvent>
#include <QImage>
#include <QLinearGradient>
#include <QMouseEvent>
#include <QPainter>
#include <QToolTip>
#include <algorithm>
#include <cmath>

namespace {
constexpr double kMargin = 8;
constexpr double kDecades = 4;  // log scale: magnitudes below max * 1e-4 show as zero

// A diverging blue - white - red map (ColorBrewer RdBu stops): the sign reads at a glance and
// zero is neutral, which suits a matrix whose entries change sign.
const QColor kStops[9] = {{33, 102, 172},  {67, 147, 195},  {146, 197, 222}, {209, 229, 240}, {247, 247, 247},
                          {253, 219, 199}, {244, 165, 130}, {214, 96, 77},   {178, 24, 43}};
}  // namespace

MatrixHeatMap::MatrixHeatMap(QWidget* parent) : QWidget(parent) {
  setMouseTracking(true);
  setAttribute(Qt::WA_OpaquePaintEvent);
  setMinimumSize(120, 100);  // hard minimum; below minimumSizeHint a "too small" hint is painted
}

QString MatrixHeatMap::titleToolTip() const { return layoutFor(size()).titleLines == 0 ? m_content.title : QString(); }

bool MatrixHeatMap::event(QEvent* e) {
  if (e->type() == QEvent::ToolTip) {  // the cells have their own read-out; the title only when elided
    const auto* help = static_cast<QHelpEvent*>(e);
    const QString tip = titleToolTip();
    if (!tip.isEmpty() && layoutFor(size()).title.contains(help->pos()))
      QToolTip::showText(help->globalPos(), tip, this);
    return true;
  }
  return QWidget::event(e);
}

void MatrixHeatMap::setContent(HeatMapContent content) {
  const bool resized = content.values.rows() != m_content.values.rows() || content.title != m_content.title ||
                       content.labels != m_content.labels;
  m_content = std::move(content);
  m_cellImage = QImage();
  updateScale();
  if (resized) updateGeometry();        // the readable size follows n, the labels and the title
  if (m_hoverRow >= 0 && m_provider) {  // keep the read-out live while the robot moves
    const int n = int(m_content.values.rows());
    if (m_hoverRow < n && (m_hoverCol < n || m_hoverCol == kSideColumn))
      m_hoverText = m_provider(m_hoverRow, m_hoverCol);
  }
  update();
}

void MatrixHeatMap::setLogMagnitude(bool on) {
  m_log = on;
  m_cellImage = QImage();
  update();
}

void MatrixHeatMap::setShowLabels(bool on) {
  m_showLabels = on;
  updateGeometry();
  update();
}

void MatrixHeatMap::setHighlighted(std::vector<int> positions) {
  m_highlight = std::move(positions);
  update();
}

CellKind MatrixHeatMap::kindAt(int r, int c) const {
  if (m_content.kinds.empty()) return CellKind::Value;
  return m_content.kinds[size_t(r) * m_content.values.cols() + c];
}

void MatrixHeatMap::updateScale() {
  double vmax = 0;
  const int n = int(m_content.values.rows());
  for (int r = 0; r < n; ++r)
    for (int c = 0; c < n; ++c) {
      const CellKind k = kindAt(r, c);
      if (k == CellKind::Value || k == CellKind::FillIn) vmax = std::max(vmax, std::abs(m_content.values(r, c)));
    }
  m_vmax = vmax > 0 && std::isfinite(vmax) ? vmax : 1.0;
  if (m_content.fixedScale > 0 && std::isfinite(m_content.fixedScale)) m_vmax = m_content.fixedScale;
}

// x relative to the maximum, on the linear or the symmetric log scale:
// sign(x) log(|x| / xmin) / log(1 / xmin), with xmin = 10^-kDecades.
static double relativePosition(double x, bool log) {
  if (!std::isfinite(x)) return 0;
  if (!log) return std::clamp(x, -1.0, 1.0);
  const double a = std::abs(x);
  if (a <= std::pow(10.0, -kDecades)) return 0;
  return std::copysign(std::min(1.0, std::log10(a) / kDecades + 1), x);
}

double MatrixHeatMap::scalePosition(double v) const { return relativePosition(v / m_vmax, m_log); }

QColor MatrixHeatMap::divergingColor(double t) {
  const double x = (std::clamp(t, -1.0, 1.0) + 1) * 4;  // 0 .. 8 over the stops
  const int i = std::min(7, int(x));
  const double f = x - i;
  const QColor &a = kStops[i], &b = kStops[i + 1];
  return QColor::fromRgbF(float(a.redF() + f * (b.redF() - a.redF())),
                          float(a.greenF() + f * (b.greenF() - a.greenF())),
                          float(a.blueF() + f * (b.blueF() - a.blueF())));
}

QString MatrixHeatMap::formatValue(double v) const {
  if (v == 0) return "0";
  return QString::number(v, 'g', 3);
}

MatrixHeatMap::Layout MatrixHeatMap::layoutFor(QSize size) const {
  const QFontMetricsF fm(font());
  const double fh = fm.height(), W = size.width(), H = size.height();
  const int n = int(m_content.values.rows());
  const bool side = n > 0 && m_content.side.size() == n;
  Layout l;
  double top = kMargin;
  if (!m_content.title.isEmpty()) {
    // One line, or two when it is too wide (a narrow dock): the title is never cut, unless even
    // two lines are too short (then elided, with the whole title as the tooltip).
    l.titleLines = titleLines(W - 2 * kMargin);
    l.title = QRectF(kMargin, kMargin, W - 2 * kMargin, fh * (l.titleLines + 0.3));
    top += fh * (l.titleLines + 0.5);
  }
  const double tickW = fm.horizontalAdvance("-0.00e+00") + 6;
  const bool pending =
      std::find(m_content.kinds.begin(), m_content.kinds.end(), CellKind::Pending) != m_content.kinds.end();
  const double legendW = fh + 6 + fm.horizontalAdvance(pending ? "not computed yet" : "branch zero");
  const double barBlock = 16 + std::max(14 + 4 + tickW, legendW);
  // Above the matrix: the column labels, and the side strip's label in full ("diag H").
  const double sideW = side && !m_content.sideLabel.isEmpty() ? fm.horizontalAdvance(m_content.sideLabel) + 12 : 0;
  auto band = [&](double labelW) { return std::max(labelW, sideW); };
  auto cellFor = [&](double labelW) {
    const double w = (W - kMargin - labelW - (side ? 6 : 0) - barBlock - kMargin) / (n + (side ? 1 : 0));
    const double h = (H - top - band(labelW) - kMargin) / std::max(n, 1);
    return std::max(1.0, std::min(w, h));
  };
  double labelW = 0;
  if (m_showLabels && n > 0) {
    double nameW = 0;
    for (const QString& s : m_content.labels) nameW = std::max(nameW, fm.horizontalAdvance(s));
    labelW = std::min(nameW + 8, std::max(60.0, 0.28 * std::min(W, H)));
    l.cell = cellFor(labelW);
    l.names = l.cell >= fh * 0.95;
    if (!l.names) {
      labelW = fm.horizontalAdvance("000") + 8;
      l.cell = cellFor(labelW);
      l.labelStep = std::max(1, int(std::ceil(fh / l.cell)));
    }
  } else {
    l.cell = cellFor(0);
  }
  l.matrix = QRectF(kMargin + labelW, top + band(labelW), l.cell * n, l.cell * n);
  const double right = side ? l.matrix.right() + 6 + l.cell : l.matrix.right();
  if (side) l.side = QRectF(l.matrix.right() + 6, l.matrix.top(), l.cell, l.matrix.height());
  // Colour bar: its caption above (clear of the top tick's label, which is centred on the bar's top
  // edge), the legend of the special cells below.
  const double barTop = l.matrix.top() + 1.5 * fh + 6, legendH = (pending ? 3 : 2) * (fh + 4);
  l.bar = QRectF(right + 16, barTop, 14, std::max(40.0, l.matrix.bottom() - barTop - legendH - 6));
  l.readable = n == 0 || (l.matrix.width() >= minimumMatrixSide() - 0.5 && l.titleLines > 0 &&
                          l.bar.left() - 16 + barBlock <= W + 0.5 && l.bar.bottom() + legendH + 6 <= H + 0.5);
  return l;
}

// Lines the title needs at `width`: 1, 2 (word-wrapped), or 0 when even two lines cut it.
int MatrixHeatMap::titleLines(double width) const {
  QFont f = font();
  f.setBold(true);
  const QFontMetricsF fm(f);
  if (fm.horizontalAdvance(m_content.title) <= width) return 1;
  return titleElided(width) ? 0 : 2;
}

bool MatrixHeatMap::titleElided(double width) const {
  QFont f = font();
  f.setBold(true);
  const QFontMetricsF fm(f);
  const QRectF two = fm.boundingRect(QRectF(0, 0, width, 1e6), Qt::TextWordWrap, m_content.title);
  return two.height() > 2.5 * fm.height() || two.width() > width + 0.5;
}

// The matrix at least 5 pixels a cell (the grid and the hatching show) and eight lines high.
double MatrixHeatMap::minimumMatrixSide() const {
  const int n = int(m_content.values.rows());
  return std::max(5.0 * n, 8 * QFontMetricsF(font()).height());
}

QSize MatrixHeatMap::minimumSizeHint() const {
  // The estimate below, grown until layoutFor agrees that it is readable (the labels' room grows
  // with the size, so the estimate can fall a few pixels short).
  QSize s = estimatedMinimumSize();
  for (int k = 0; k < 40 && m_content.values.rows() > 0; ++k) {
    const Layout l = layoutFor(s);
    if (l.readable) break;
    const int step = std::max(4, int(std::ceil(minimumMatrixSide() - l.matrix.width())) + 2);
    s += QSize(step, step);
  }
  return s;
}

QSize MatrixHeatMap::estimatedMinimumSize() const {
  const QFontMetricsF fm(font());
  const double fh = fm.height();
  const int n = int(m_content.values.rows());
  if (n == 0) return {200, 160};
  const double side = minimumMatrixSide(), cell = side / n;
  // What layoutFor puts around the matrix, at that cell size.
  double labelW = 0;
  if (m_showLabels) {
    double nameW = 0;
    for (const QString& s : m_content.labels) nameW = std::max(nameW, fm.horizontalAdvance(s));
    labelW = cell >= fh * 0.95 ? std::min(nameW + 8, std::max(60.0, 0.28 * side)) : fm.horizontalAdvance("000") + 8;
  }
  const bool sideStrip = m_content.side.size() == n;
  const double tickW = fm.horizontalAdvance("-0.00e+00") + 6;
  const double legendW = fh + 6 + fm.horizontalAdvance("not computed yet");
  const double barBlock = 16 + std::max(14 + 4 + tickW, legendW);
  double w = kMargin + labelW + side + (sideStrip ? 6 + cell : 0) + barBlock + kMargin;
  // The title in at most two lines: at least half its width (plus a word's slack).
  QFont bold = font();
  bold.setBold(true);
  const double title = QFontMetricsF(bold).horizontalAdvance(m_content.title);
  w = std::max(w, std::min(title, 0.6 * title + 40) + 2 * kMargin);
  const int lines = m_content.title.isEmpty() ? 0 : title <= w - 2 * kMargin ? 1 : 2;
  const double h = kMargin + (lines ? fh * (lines + 0.5) : 0) + labelW + std::max(side, fh * 5 + 60) + kMargin;
  return QSize(int(std::ceil(w)) + 1, int(std::ceil(h)) + 1);
}

QPoint MatrixHeatMap::cellCenter(int r, int c) const {
  const Layout l = layoutFor(size());
  if (c == kSideColumn) return l.side.topLeft().toPoint() + QPoint(int(l.cell / 2), int((r + 0.5) * l.cell));
  return QPointF(l.matrix.left() + (c + 0.5) * l.cell, l.matrix.top() + (r + 0.5) * l.cell).toPoint();
}

bool MatrixHeatMap::cellAt(QPointF p, int* r, int* c) const {
  const Layout l = layoutFor(size());
  const int n = int(m_content.values.rows());
  if (n == 0) return false;
  *r = int(std::floor((p.y() - l.matrix.top()) / l.cell));
  if (*r < 0 || *r >= n) return false;
  if (l.matrix.contains(p)) {
    *c = std::min(n - 1, int(std::floor((p.x() - l.matrix.left()) / l.cell)));
    return true;
  }
  if (!l.side.isNull() && l.side.contains(p)) {
    *c = kSideColumn;
    return true;
  }
  return false;
}

int MatrixHeatMap::labelAt(QPointF p) const {
  const Layout l = layoutFor(size());
  const int n = int(m_content.values.rows());
  if (!m_showLabels || n == 0) return -1;
  if (p.x() < l.matrix.left() && p.y() >= l.matrix.top() && p.y() < l.matrix.bottom())
    return std::min(n - 1, int((p.y() - l.matrix.top()) / l.cell));
  if (p.y() < l.matrix.top() && p.y() > l.matrix.top() - (l.matrix.left() - kMargin) && p.x() >= l.matrix.left() &&
      p.x() < l.matrix.right())
    return std::min(n - 1, int((p.x() - l.matrix.left()) / l.cell));
  return -1;
}

void MatrixHeatMap::paintEvent(QPaintEvent*) {
  QPainter p(this);
  paintContent(p, size());
}

QImage MatrixHeatMap::renderImage(QSize size, double scale) const {
  QImage img(size * scale, QImage::Format_ARGB32_Premultiplied);
  img.setDevicePixelRatio(scale);
  img.fill(Qt::white);
  QPainter p(&img);
  p.setFont(font());
  paintContent(p, size);
  return img;
}

void MatrixHeatMap::paintContent(QPainter& p, QSize size) const {
  p.fillRect(QRect(QPoint(0, 0), size), Qt::white);  // white in the dock too: it is projected
  const int n = int(m_content.values.rows());
  const Layout l = layoutFor(size);
  p.setRenderHint(QPainter::Antialiasing, false);
  p.setPen(Qt::black);
  if (!m_content.title.isEmpty() && l.readable) {
    QFont f = p.font();
    f.setBold(true);
    p.save();
    p.setFont(f);
    if (l.titleLines == 1 && QFontMetricsF(f).horizontalAdvance(m_content.title) <= l.title.width())
      p.drawText(l.title, Qt::AlignLeft | Qt::AlignVCenter, m_content.title);
    else if (l.titleLines == 2 && !titleElided(l.title.width()))
      p.drawText(l.title, Qt::AlignLeft | Qt::AlignVCenter | Qt::TextWordWrap, m_content.title);
    else
      p.drawText(l.title, Qt::AlignLeft | Qt::AlignVCenter,
                 QFontMetricsF(f).elidedText(m_content.title, Qt::ElideRight, l.title.width()));
    p.restore();
  }
  if (n == 0) {
    p.drawText(QRect(QPoint(0, 0), size), Qt::AlignCenter, tr("No robot loaded"));
    return;
  }
  if (!l.readable) {  // a smear of sub-pixel cells teaches nothing: say what would help
    p.setPen(QColor(80, 80, 80));
    p.drawText(QRectF(QPointF(0, 0), QSizeF(size)), Qt::AlignCenter | Qt::TextWordWrap,
               tr("Too small to read: enlarge this view\n(it needs %1 × %2 pixels)")
                   .arg(minimumSizeHint().width())
                   .arg(minimumSizeHint().height()));
    return;
  }
  paintCells(p, l);
  paintSide(p, l);
  paintLabels(p, l);
  paintColourBar(p, l);
}

void MatrixHeatMap::paintCells(QPainter& p, const Layout& l) const {
  const int n = int(m_content.values.rows());
  const double s = l.cell;
  auto rect = [&](int r, int c) { return QRectF(l.matrix.left() + c * s, l.matrix.top() + r * s, s, s); };
  const QBrush hatch(QColor(120, 120, 120), Qt::BDiagPattern);
  if (s < 3) {
    // Cells of a pixel or two (hundreds of dofs): one image pixel per cell, drawn scaled. A million
    // fillRects for a 1,000-dof robot took a second per frame; this is a few milliseconds.
    if (m_cellImage.width() != n) {
      QImage cells(n, n, QImage::Format_RGB32);
      for (int r = 0; r < n; ++r) {
        auto* line = reinterpret_cast<QRgb*>(cells.scanLine(r));
        for (int c = 0; c < n; ++c) {
          const CellKind k = kindAt(r, c);
          line[c] = k == CellKind::Value            ? divergingColor(scalePosition(m_content.values(r, c))).rgb()
                    : k == CellKind::FillIn         ? fillInColor().rgb()
                    : k == CellKind::StructuralZero ? structuralZeroColor().rgb()
                                                    : qRgb(252, 252, 252);
        }
      }
      m_cellImage = std::move(cells);
    }
    p.drawImage(QRectF(l.matrix.left(), l.matrix.top(), n * s, n * s), m_cellImage);
  }
  for (int r = 0; r < n && s >= 3; ++r)
    for (int c = 0; c < n; ++c) {
      const QRectF R = rect(r, c);
      switch (kindAt(r, c)) {
        case CellKind::Value:
        case CellKind::FillIn:
          p.fillRect(R, divergingColor(scalePosition(m_content.values(r, c))));
          break;
        case CellKind::StructuralZero:
          p.fillRect(R, structuralZeroColor());
          if (s >= 5) p.fillRect(R, hatch);
          break;
        case CellKind::Blank:
          p.fillRect(R, QColor(252, 252, 252));
          break;
        case CellKind::Pending:
          p.fillRect(R, pendingColor());
          if (s >= 5) p.fillRect(R, QBrush(QColor(170, 170, 170), Qt::Dense6Pattern));
          break;
      }
    }
  if (s >= 5) {  // thin grid, so that single cells can be told apart
    p.setPen(QPen(QColor(255, 255, 255, 150), 1));
    for (int k = 1; k < n; ++k) {
      p.drawLine(QPointF(l.matrix.left() + k * s, l.matrix.top()), QPointF(l.matrix.left() + k * s, l.matrix.bottom()));
      p.drawLine(QPointF(l.matrix.left(), l.matrix.top() + k * s), QPointF(l.matrix.right(), l.matrix.top() + k * s));
    }
  }
  p.setRenderHint(QPainter::Antialiasing, true);
  const double w = std::clamp(s * 0.14, 1.5, 3.0);
  p.setPen(QPen(fillInColor(), w));
  p.setBrush(Qt::NoBrush);
  for (int r = 0; r < n && s >= 3; ++r)  // (below 3 pixels the fill-in cells are coloured instead)
    for (int c = 0; c < n; ++c)
      if (kindAt(r, c) == CellKind::FillIn) p.drawRect(rect(r, c).adjusted(w / 2, w / 2, -w / 2, -w / 2));
  // Selected joints: their rows and columns tinted and framed.
  for (int k : m_highlight) {
    if (k < 0 || k >= n) continue;
    const QRectF row(l.matrix.left(), l.matrix.top() + k * s, l.matrix.width(), s);
    const QRectF col(l.matrix.left() + k * s, l.matrix.top(), s, l.matrix.height());
    p.fillRect(row, QColor(255, 210, 0, 70));
    p.fillRect(col, QColor(255, 210, 0, 70));
    p.setPen(QPen(QColor(200, 140, 0), 2));
    p.drawRect(row);
    p.drawRect(col);
  }
  if (m_hoverRow >= 0 && m_hoverRow < n && m_hoverCol >= 0 && m_hoverCol < n) {
    p.setPen(QPen(Qt::black, 2));
    p.drawRect(rect(m_hoverRow, m_hoverCol));
  }
  p.setRenderHint(QPainter::Antialiasing, false);
  p.setPen(QPen(QColor(90, 90, 90), 1));
  p.drawRect(l.matrix);
}

void MatrixHeatMap::paintSide(QPainter& p, const Layout& l) const {
  if (l.side.isNull()) return;
  const int n = int(m_content.side.size());
  // Normalised to its own maximum: the diagonal of H is positive and need not share the scale
  // of the matrix shown (e.g. L).
  const double smax = m_content.side.cwiseAbs().maxCoeff();
  for (int r = 0; r < n; ++r) {
    const double t = relativePosition(smax > 0 ? m_content.side[r] / smax : 0, m_log);
    p.fillRect(QRectF(l.side.left(), l.side.top() + r * l.cell, l.cell, l.cell), divergingColor(t));
  }
  p.setPen(QPen(QColor(90, 90, 90), 1));
  p.drawRect(l.side);
  if (!m_content.sideLabel.isEmpty()) {
    p.save();
    p.translate(l.side.center().x(), l.side.top() - 4);
    p.rotate(-90);
    p.setPen(Qt::black);
    const double room = l.matrix.top() - l.title.bottom() - 8;
    p.drawText(QRectF(0, -QFontMetricsF(p.font()).height() / 2, room, QFontMetricsF(p.font()).height()),
               Qt::AlignLeft | Qt::AlignVCenter,
               QFontMetricsF(p.font()).elidedText(m_content.sideLabel, Qt::ElideRight, room));
    p.restore();
  }
}

void MatrixHeatMap::paintLabels(QPainter& p, const Layout& l) const {
  const int n = int(m_content.values.rows());
  if (!m_showLabels) return;
  const QFontMetricsF fm(p.font());
  const double room = l.matrix.left() - kMargin - 6, s = l.cell;
  QFont bold = p.font();
  bold.setBold(true);
  const QFont normal = p.font();
  for (int k = 0; k < n; ++k) {
    const bool hi = std::find(m_highlight.begin(), m_highlight.end(), k) != m_highlight.end();
    if (!l.names && k % l.labelStep != 0 && !hi) continue;
    const QString text = l.names && k < m_content.labels.size()
                             ? fm.elidedText(m_content.labels[k], Qt::ElideMiddle, room)
                             : QString::number(k);
    p.setFont(hi ? bold : normal);
    p.setPen(hi ? QColor(160, 100, 0) : QColor(30, 30, 30));
    // Centred on its row, a line high: cells smaller than the font would clip the glyphs.
    p.drawText(QRectF(kMargin, l.matrix.top() + (k + 0.5) * s - fm.height() / 2, room, fm.height()),
               Qt::AlignRight | Qt::AlignVCenter, text);
    p.save();
    p.translate(l.matrix.left() + (k + 0.5) * s, l.matrix.top() - 6);
    p.rotate(-90);
    p.drawText(QRectF(0, -fm.height() / 2, room, fm.height()), Qt::AlignLeft | Qt::AlignVCenter, text);
    p.restore();
  }
  p.setFont(normal);
}

void MatrixHeatMap::paintColourBar(QPainter& p, const Layout& l) const {
  const QFontMetricsF fm(p.font());
  const double fh = fm.height();
  const QRectF& b = l.bar;
  p.setPen(Qt::black);
  const QString caption = m_content.scaleLabel + (m_log ? tr(" (log |.|)") : QString());
  p.drawText(QRectF(b.left(), l.matrix.top(), 400, fh), Qt::AlignLeft | Qt::AlignTop, caption);
  QLinearGradient g(b.topLeft(), b.bottomLeft());
  for (int k = 0; k <= 32; ++k) g.setColorAt(k / 32.0, divergingColor(1 - 2 * k / 32.0));
  p.fillRect(b, g);
  p.setPen(QPen(QColor(90, 90, 90), 1));
  p.drawRect(b);
  // Ticks: quarters of the range (linear) or decades (log), skipping those too close together.
  std::vector<double> ticks;
  if (m_log) {
    for (int d = 0; d <= kDecades; ++d) ticks.push_back(m_vmax * std::pow(10.0, -d));
    const size_t half = ticks.size();
    ticks.push_back(0);
    for (size_t k = 0; k < half; ++k) ticks.push_back(-ticks[k]);
  } else {
    for (double f : {1.0, 0.5, 0.0, -0.5, -1.0}) ticks.push_back(f * m_vmax);
  }
  double lastY = -1e9;
  p.setPen(Qt::black);
  std::sort(ticks.begin(), ticks.end(), [&](double a, double c) { return scalePosition(a) > scalePosition(c); });
  for (double v : ticks) {
    const double y = b.top() + (1 - scalePosition(v)) / 2 * b.height();
    if (y - lastY < fh * 0.95) continue;
    lastY = y;
    p.drawLine(QPointF(b.right(), y), QPointF(b.right() + 4, y));
    p.drawText(QRectF(b.right() + 6, y - fh / 2, 200, fh), Qt::AlignLeft | Qt::AlignVCenter, formatValue(v));
  }
  // Legend of the cells that carry no value colour.
  double y = b.bottom() + 8;
  const QRectF zero(b.left(), y, fh, fh);
  p.fillRect(zero, structuralZeroColor());
  p.fillRect(zero, QBrush(QColor(120, 120, 120), Qt::BDiagPattern));
  p.drawRect(zero);
  p.drawText(QRectF(zero.right() + 6, y, 300, fh), Qt::AlignLeft | Qt::AlignVCenter, tr("branch zero"));
  bool fill = false, pending = false;
  for (CellKind k : m_content.kinds) {
    fill = fill || k == CellKind::FillIn || k == CellKind::Blank;
    pending = pending || k == CellKind::Pending;
  }
  if (pending) {
    y += fh + 4;
    const QRectF f(b.left(), y, fh, fh);
    p.fillRect(f, pendingColor());
    p.fillRect(f, QBrush(QColor(170, 170, 170), Qt::Dense6Pattern));
    p.setPen(QPen(QColor(90, 90, 90), 1));
    p.drawRect(f);
    p.setPen(Qt::black);
    p.drawText(QRectF(f.right() + 6, y, 300, fh), Qt::AlignLeft | Qt::AlignVCenter, tr("not computed yet"));
  }
  if (fill) {
    y += fh + 4;
    const QRectF f(b.left(), y, fh, fh);
    p.fillRect(f, Qt::white);
    p.setPen(QPen(fillInColor(), 2.5));
    p.drawRect(f.adjusted(1, 1, -1, -1));
    p.setPen(Qt::black);
    p.drawText(QRectF(f.right() + 6, y, 300, fh), Qt::AlignLeft | Qt::AlignVCenter, tr("fill-in"));
  }
}

void MatrixHeatMap::updateHover(QPointF pos, QPoint global) {
  int r = -1, c = -1;
  if (!cellAt(pos, &r, &c)) r = c = -1;
  if (r == m_hoverRow && c == m_hoverCol) return;
  m_hoverRow = r;
  m_hoverCol = c;
  if (r < 0) {
    m_hoverText.clear();
  } else if (m_provider) {
    m_hoverText = m_provider(r, c);
  } else {
    const double v = c == kSideColumn ? m_content.side[r] : m_content.values(r, c);
    m_hoverText = QString("(%1, %2) = %3").arg(r).arg(c).arg(v, 0, 'g', 6);
  }
  if (m_hoverText.isEmpty())
    QToolTip::hideText();
  else
    QToolTip::showText(global, m_hoverText, this);
  emit hoveredCellChanged(r, c);
  update();
}

void MatrixHeatMap::mouseMoveEvent(QMouseEvent* e) { updateHover(e->position(), e->globalPosition().toPoint()); }

void MatrixHeatMap::leaveEvent(QEvent*) { updateHover(QPointF(-1, -1), QPoint()); }

void MatrixHeatMap::mousePressEvent(QMouseEvent* e) {
  if (e->button() != Qt::LeftButton) return;
  int r = -1, c = -1;
  if (cellAt(e->position(), &r, &c)) {
    emit cellClicked(r, c);
    return;
  }
  const int k = labelAt(e->position());
  if (k >= 0) emit labelClicked(k);
}
