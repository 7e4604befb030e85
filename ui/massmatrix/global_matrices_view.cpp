#include "massmatrix/global_matrices_view.hpp"

#include <QFontMetricsF>
#include <QPaintEvent>
#include <QPainter>
#include <algorithm>
#include <cmath>

#include "dynscope/algorithms/crba.hpp"
#include "dynscope/loops/global_analysis.hpp"

namespace {

// Entries count as non-zero above this fraction of the matrix's largest one (rounding of zeros
// made by cancellation, e.g. in P⁻¹ H, stays out of the picture).
constexpr double kRelativeZero = 1e-12;

GlobalMatricesView::Picture picture(const QString& name, const QString& title, const Eigen::MatrixXd& m) {
  GlobalMatricesView::Picture p;
  p.name = name;
  p.title = title;
  const double big = m.size() ? m.cwiseAbs().maxCoeff() : 0.0;
  p.nonZero = (m.array().abs() > kRelativeZero * big).eval();
  p.nonZeros = int(p.nonZero.count());
  return p;
}

}  // namespace

GlobalMatricesView::GlobalMatricesView(QWidget* parent) : QWidget(parent) {
  setObjectName("globalMatricesView");
  setMinimumSize(160, 120);  // hard minimum; below minimumSizeHint a "too small" hint is painted
  setToolTip(
      tr("The global (6N) formulation of Orin & Featherstone's review, §3.5: every body as a free rigid body, "
         "held together by its joints' constraint forces. Black: a structural non-zero."));
}

void GlobalMatricesView::clear() {
  m_pictures.clear();
  m_summary.clear();
  m_reductionError = 0;
  update();
}

bool GlobalMatricesView::compute(const dyn::Model& model, const Eigen::VectorXd& q, QString* error) {
  m_pictures.clear();
  try {
    dyn::Data data(model);
    dyn::LoopData ld(model);
    dyn::GlobalData gd(model);
    const Eigen::VectorXd zero = Eigen::VectorXd::Zero(model.nv);
    dyn::globalSystem(model, data, ld, gd, q, zero);  // I, H, P, P⁻¹, S, T and eq. 27's matrix
    dyn::globalMassMatrix(gd);                        // M = Sᵀ I S (after eq. 29)
    dyn::crba(model, data, q);
    m_reductionError = (gd.M - data.M).cwiseAbs().maxCoeff();
    const int six = 6 * model.N, t = gd.t;
    m_pictures.push_back(picture("I", tr("I  %1×%1").arg(six), gd.I));
    m_pictures.push_back(picture("S", tr("S = P⁻¹H  %1×%2").arg(six).arg(model.nv), gd.Sg));
    m_pictures.push_back(picture("P", tr("P  %1×%1").arg(six), gd.P));
    m_pictures.push_back(picture("P⁻¹", tr("P⁻¹  %1×%1").arg(six), gd.Pinv));
    m_pictures.push_back(
        picture("[I T; Tᵀ 0]", tr("eq. 27  %1×%1").arg(six + t), gd.system.topLeftCorner(six + t, six + t)));
    int nnz = 0;
    long long size = 0;
    for (const Picture& p : m_pictures) {
      nnz += p.nonZeros;
      size += (long long)p.nonZero.rows() * p.nonZero.cols();
    }
    setToolTip(tr("<p>The global (6N) formulation of Orin &amp; Featherstone's review, §3.5: every body a free "
                  "rigid body, held together by its joints' constraint forces. Black: a non-zero entry.</p>"
                  "<p><b>I</b>: the body inertias in world coordinates, block diagonal (eq. 23); <b>S = P⁻¹H</b>: "
                  "the joint motion subspaces propagated to the bodies (eq. 24); <b>P</b>: the incidence matrix of "
                  "eq. 29 (identity blocks, −1 blocks at the parents); <b>P⁻¹</b>: the paths to the root; "
                  "<b>eq. 27</b>: [I T; Tᵀ 0] with %1 constraint-force columns in T%2.</p>"
                  "<p>H(q) = Sᵀ I S to %3</p>")
                   .arg(t)
                   .arg(model.hasLoops() ? tr(" (the loop joints' rows included)") : QString())
                   .arg(m_reductionError, 0, 'e', 1));
    m_summary = tr("Global form (6N = %1): %2 % of its entries are non-zero; Sᵀ I S = H(q) to %3")
                    .arg(six)
                    .arg(size ? 100.0 * nnz / double(size) : 0.0, 0, 'f', 1)
                    .arg(m_reductionError, 0, 'e', 1);
  } catch (const std::exception& e) {
    m_summary = tr("Global matrices: %1").arg(QString::fromUtf8(e.what()));
    if (error) *error = m_summary;
    update();
    return false;
  }
  updateGeometry();  // the readable size follows the matrices' sizes
  update();
  return true;
}

// ---- layout ----

double GlobalMatricesView::minimumPictureSide() const {
  // Six lines high, and a third of a pixel an entry for the largest matrix (up to 200 px): smaller,
  // the pattern is a smear.
  int largest = 0;
  for (const Picture& p : m_pictures)
    largest = std::max<int>(largest, int(std::max(p.nonZero.rows(), p.nonZero.cols())));
  return std::max(6.0 * QFontMetricsF(font()).height(), std::min(0.35 * largest, 200.0));
}

QStringList GlobalMatricesView::captions(const Picture& pic) const {
  return {pic.title, tr("%1 nz (%2 %)")
                         .arg(pic.nonZeros)
                         .arg(pic.nonZero.size() ? 100.0 * pic.nonZeros / double(pic.nonZero.size()) : 0.0, 0, 'f', 1)};
}

GlobalMatricesView::Grid GlobalMatricesView::gridFor(QSize size) const {
  const QFontMetricsF fm(font());
  const double line = fm.height();
  Grid best;
  const int count = int(m_pictures.size());
  if (count == 0) return best;
  double widest = 0;  // the captions are never cut: a column is at least as wide as the widest
  for (const Picture& pic : m_pictures)
    for (const QString& c : captions(pic)) widest = std::max(widest, fm.horizontalAdvance(c));
  // The summary on up to two lines above the pictures.
  const double summaryW = fm.horizontalAdvance(m_summary);
  const int summaryLines = summaryW <= size.width() - 8 ? 1 : 2;
  const double top = summaryLines * line + 6;
  for (int cols = 1; cols <= count; ++cols) {
    const int rows = (count + cols - 1) / cols;
    const double cw = (size.width() - 8.0) / cols, ch = (size.height() - top - 4.0) / rows;
    double smallest = 1e9;  // the smallest picture's longer side: what must stay readable
    for (const Picture& pic : m_pictures) {
      const double nr = std::max<Eigen::Index>(1, pic.nonZero.rows()),
                   nc = std::max<Eigen::Index>(1, pic.nonZero.cols());
      const double s = std::max(0.0, std::min((cw - 8) / nc, (ch - 2 * line - 8) / nr));
      smallest = std::min(smallest, s * std::max(nr, nc));
    }
    const bool fits = widest <= cw - 8;
    if (best.cols == 0 || (fits && !best.captionsFit) || (fits == best.captionsFit && smallest > best.smallestSide)) {
      best.cols = cols;
      best.smallestSide = smallest;
      best.captionsFit = fits;
    }
  }
  best.top = top;
  best.summaryLines = summaryLines;
  best.readable = best.captionsFit && best.smallestSide >= minimumPictureSide() - 0.5 &&
                  (summaryLines == 1 || summaryW <= 1.8 * (size.width() - 8));
  return best;
}

QSize GlobalMatricesView::minimumSizeHint() const {
  // The estimate below, grown until gridFor agrees that it is readable.
  QSize s = estimatedMinimumSize();
  for (int k = 0; k < 40 && !m_pictures.empty() && !gridFor(s).readable; ++k) s += QSize(8, 8);
  return s;
}

QSize GlobalMatricesView::estimatedMinimumSize() const {
  if (m_pictures.empty()) return {240, 200};
  const QFontMetricsF fm(font());
  const double line = fm.height(), side = minimumPictureSide();
  double widest = 0;
  for (const Picture& pic : m_pictures)
    for (const QString& c : captions(pic)) widest = std::max(widest, fm.horizontalAdvance(c));
  const double cw = std::max(widest, side) + 16, ch = side + 2 * line + 12;
  const int count = int(m_pictures.size());
  // The grid of least area (ties: the squarer one), the summary on two lines.
  QSizeF best;
  for (int cols = 1; cols <= count; ++cols) {
    const int rows = (count + cols - 1) / cols;
    QSizeF s(cols * cw + 8, rows * ch + 2 * line + 10);
    s.setWidth(std::max(s.width(), fm.horizontalAdvance(m_summary) / 1.8 + 8));
    if (best.isEmpty() || s.width() * s.height() < best.width() * best.height() - 1) best = s;
  }
  return QSize(int(std::ceil(best.width())) + 1, int(std::ceil(best.height())) + 1);
}

void GlobalMatricesView::paintEvent(QPaintEvent*) {
  QPainter p(this);
  p.fillRect(rect(), palette().base());
  p.setPen(palette().text().color());
  if (m_pictures.empty()) {
    p.drawText(rect(), Qt::AlignCenter | Qt::TextWordWrap, m_summary.isEmpty() ? tr("No robot") : m_summary);
    return;
  }
  const QFontMetrics fm(font());
  const int line = fm.height();
  const Grid g = gridFor(size());
  p.drawText(QRectF(4, 2, width() - 8, g.summaryLines * line + 2), Qt::AlignLeft | Qt::AlignVCenter | Qt::TextWordWrap,
             m_summary);
  if (!g.readable) {  // sub-pixel entries and cut captions teach nothing: say what would help
    p.setPen(QColor(80, 80, 80));
    p.drawText(rect().adjusted(4, int(g.top), -4, -4), Qt::AlignCenter | Qt::TextWordWrap,
               tr("Too small to read: enlarge this view\n(it needs %1 × %2 pixels)")
                   .arg(minimumSizeHint().width())
                   .arg(minimumSizeHint().height()));
    return;
  }
  const int cols = g.cols, rows = (int(m_pictures.size()) + cols - 1) / cols;
  const QRectF area = rect().adjusted(4, int(g.top), -4, -4);
  const double cw = area.width() / cols, ch = area.height() / rows;
  for (size_t k = 0; k < m_pictures.size(); ++k) {
    const Picture& pic = m_pictures[k];
    const QRectF cell(area.left() + (k % cols) * cw, area.top() + (k / cols) * ch, cw, ch);
    const double nr = std::max<Eigen::Index>(1, pic.nonZero.rows()), nc = std::max<Eigen::Index>(1, pic.nonZero.cols());
    const QRectF room = cell.adjusted(4, 2 * line + 4, -4, -4);
    const double s = std::max(0.0, std::min(room.width() / nc, room.height() / nr));  // pixels per entry
    const QRectF box(room.left(), room.top(), s * nc, s * nr);
    p.setPen(palette().text().color());
    const QStringList text = captions(pic);
    p.drawText(QRectF(cell.left() + 4, cell.top(), cell.width() - 8, line), Qt::AlignLeft, text[0]);
    p.drawText(QRectF(cell.left() + 4, cell.top() + line, cell.width() - 8, line), Qt::AlignLeft, text[1]);
    p.fillRect(box, QColor(250, 250, 250));
    const QColor ink(20, 20, 40);
    for (Eigen::Index r = 0; r < pic.nonZero.rows(); ++r)
      for (Eigen::Index c = 0; c < pic.nonZero.cols(); ++c)
        if (pic.nonZero(r, c))
          p.fillRect(QRectF(box.left() + c * s, box.top() + r * s, std::max(s, 1.0), std::max(s, 1.0)), ink);
    p.setPen(QPen(QColor(120, 120, 130), 1));
    p.drawRect(box);
  }
}
