#include "lecture/trace_table_model.hpp"

#include <QColor>
#include <QFont>
#include <QStringList>
#include <algorithm>

#include "lecture/equation_html.hpp"
#include "lecture/lecture_document.hpp"

namespace {

QString list(const Eigen::MatrixXd& v, int from, int count) {
  QStringList parts;
  for (int k = from; k < from + count; ++k) parts << lecture_html::number(v(k, 0));
  return parts.join(" ");
}

// A cell's text: spatial vectors as [angular | linear], inertias by their mass and centre of mass
// (articulated ones by their diagonal), the rest as numbers; the tooltip has every entry.
QString compact(const dyn::TraceTerm& t) {
  const Eigen::MatrixXd& v = t.value;
  switch (t.kind) {
    case dyn::ValueKind::Scalar:
      return lecture_html::number(v(0, 0));
    case dyn::ValueKind::Motion:
    case dyn::ValueKind::Force:
      return "[" + list(v, 0, 3) + " | " + list(v, 3, 3) + "]";
    case dyn::ValueKind::Inertia: {
      const double m = v(5, 5);
      const bool rigid = std::abs(v(3, 3) - m) < 1e-12 * (1 + m) && std::abs(v(4, 4) - m) < 1e-12 * (1 + m) &&
                         std::abs(v(3, 4)) < 1e-12 * (1 + m);
      if (rigid && m > 0) {  // [Ibar hx; hx^T m1]: h from the lower-left block, c = h / m
        const Eigen::Vector3d h(v(2, 4), v(0, 5), v(1, 3));
        return QString("m %1, c (%2, %3, %4)")
            .arg(lecture_html::number(m), lecture_html::number(h.x() / m), lecture_html::number(h.y() / m),
                 lecture_html::number(h.z() / m));
      }
      QStringList d;
      for (int k = 0; k < 6; ++k) d << lecture_html::number(v(k, k));
      return "diag [" + d.join(" ") + "]";
    }
    default: {
      if (v.cols() == 1) return "[" + list(v, 0, int(v.rows())) + "]";
      if (v.rows() > 4 || v.cols() > 4) return QString("%1×%2").arg(v.rows()).arg(v.cols());
      QStringList rows;  // the Lagrangian 3x3 and 4x4 matrices: row by row
      for (int r = 0; r < v.rows(); ++r) rows << list(v.row(r).transpose(), 0, int(v.cols()));
      return "[" + rows.join("; ") + "]";
    }
  }
}

QString full(const dyn::TraceTerm& t) {
  QString s = QString::fromStdString(dyn::plainMarkup(t.symbol));
  if (t.frame != dyn::TraceFrame::None) s += QString(" (%1 coordinates)").arg(dyn::traceFrameName(t.frame));
  s += ":\n";
  for (int r = 0; r < t.value.rows(); ++r) {
    QStringList row;
    for (int c = 0; c < t.value.cols(); ++c) row << lecture_html::number(t.value(r, c)).rightJustified(10);
    s += row.join(" ") + "\n";
  }
  return s.trimmed();
}

}  // namespace

TraceTableModel::TraceTableModel(LectureDocument* lecture, QObject* parent)
    : QAbstractTableModel(parent), m_lecture(lecture) {
  connect(lecture, &LectureDocument::traceChanged, this, &TraceTableModel::rebuild);
  connect(lecture, &LectureDocument::positionChanged, this, [this] {
    if (m_rows > 0 && !m_columns.empty()) emit dataChanged(index(0, 0), index(m_rows - 1, int(m_columns.size()) - 1));
  });
  rebuild();
}

void TraceTableModel::rebuild() {
  beginResetModel();
  m_columns.clear();
  m_overDofs.clear();
  m_rows = 0;
  if (m_lecture->hasTrace()) {
    m_rows = m_lecture->model().N;
    const int nv = m_lecture->model().nv;
    const dyn::AlgorithmTrace& t = m_lecture->trace();
    const auto note = [&](const dyn::TraceTerm& term) {
      const bool overDofs = term.index == -1 && !term.patch && term.value.cols() == 1 && term.value.rows() == nv &&
                            (term.kind == dyn::ValueKind::Vector || term.kind == dyn::ValueKind::Scalar);
      if ((term.index >= 1 || overDofs) &&
          std::find(m_columns.begin(), m_columns.end(), term.quantity) == m_columns.end()) {
        m_columns.push_back(term.quantity);
        m_overDofs.push_back(overDofs);
      }
    };
    for (const auto& term : t.initial) note(term);
    for (const auto& step : t.steps)
      for (int w : step.written) note(step.terms[w]);
  }
  endResetModel();
}

// The cell's term; for a column over the dofs, the whole vector and the body's entries.
const dyn::TraceTerm* TraceTableModel::valueAt(int row, int column, Eigen::MatrixXd& entries) const {
  const int b = body(row);
  if (!m_overDofs[column]) {
    const dyn::TraceTerm* t = m_lecture->state().find(m_columns[column], b);
    if (t) entries = t->value;
    return t;
  }
  const dyn::TraceTerm* t = m_lecture->state().find(m_columns[column], -1);
  const auto& J = m_lecture->model().joints[b];
  if (t) entries = t->value.block(J.idx_v, 0, J.nv, 1);
  return t;
}

int TraceTableModel::rowCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : m_rows; }
int TraceTableModel::columnCount(const QModelIndex& parent) const {
  return parent.isValid() ? 0 : int(m_columns.size());
}

bool TraceTableModel::isChanged(int row, int column) const {
  if (column < 0 || column >= int(m_columns.size())) return false;
  if (!m_overDofs[column]) return m_lecture->state().wasChanged(m_columns[column], body(row));
  // A vector over the dofs: the body's entries, if the step wrote them (all of them, or a patch).
  const dyn::TraceStepRecord* step = m_lecture->currentStep();
  if (!step) return false;
  const auto& J = m_lecture->model().joints[body(row)];
  for (int w : step->written) {
    const dyn::TraceTerm& t = step->terms[w];
    if (t.quantity != m_columns[column] || t.index != -1) continue;
    if (!t.patch) return true;
    for (const auto& [r, c] : t.entries)
      if (r >= J.idx_v && r < J.idx_v + J.nv) return true;
  }
  return false;
}

QColor TraceTableModel::changedColour() { return QColor(255, 222, 89); }

QVariant TraceTableModel::data(const QModelIndex& index, int role) const {
  if (!index.isValid() || !m_lecture->hasTrace()) return {};
  Eigen::MatrixXd entries;
  const dyn::TraceTerm* t = valueAt(index.row(), index.column(), entries);
  const bool changed = isChanged(index.row(), index.column());
  const bool pending = t && entries.size() > 0 && entries.array().isNaN().all();
  switch (role) {
    case Qt::DisplayRole:
      if (!t || pending) return QString();
      return m_overDofs[index.column()] ? "[" + list(entries, 0, int(entries.rows())) + "]" : compact(*t);
    case Qt::ToolTipRole:
      if (!t || pending) return tr("not computed yet");
      return m_overDofs[index.column()] ? QString::fromStdString(dyn::plainMarkup(t->symbol)) +
                                              " (this joint's entries): " + list(entries, 0, int(entries.rows()))
                                        : full(*t);
    case Qt::BackgroundRole:
      if (changed) return changedColour();
      if (body(index.row()) == m_lecture->currentBody()) return QColor(235, 242, 255);
      return {};
    case Qt::FontRole:
      if (changed) {
        QFont f;
        f.setBold(true);
        return f;
      }
      return {};
    default:
      return {};
  }
}

QString TraceTableModel::headerFor(const std::string& q) {
  static const std::pair<const char*, const char*> names[] = {{"IC", "Iᶜ"}, {"IA", "Iᴬ"}, {"pA", "pᴬ"}, {"Ia", "Iᵃ"},
                                                              {"pa", "pᵃ"}, {"tau", "τ"}, {"qdd", "q̈"}};
  for (const auto& [key, text] : names)
    if (q == key) return QString::fromUtf8(text);
  return QString::fromStdString(q);
}

QVariant TraceTableModel::headerData(int section, Qt::Orientation orientation, int role) const {
  if (role != Qt::DisplayRole && role != Qt::ToolTipRole) return {};
  if (orientation == Qt::Horizontal) {
    if (section < 0 || section >= int(m_columns.size())) return {};
    return headerFor(m_columns[section]);
  }
  const int b = body(section);
  if (!m_lecture->hasTrace() || b > m_lecture->model().N) return {};
  return QString("%1 %2").arg(b).arg(QString::fromStdString(m_lecture->model().bodyNames[b]));
}
