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
      return QString("%1×%2").arg(v.rows()).arg(v.cols());
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
  m_rows = 0;
  if (m_lecture->hasTrace()) {
    m_rows = m_lecture->model().N;
    const dyn::AlgorithmTrace& t = m_lecture->trace();
    const auto note = [&](const dyn::TraceTerm& term) {
      if (term.index >= 1 && std::find(m_columns.begin(), m_columns.end(), term.quantity) == m_columns.end())
        m_columns.push_back(term.quantity);
    };
    for (const auto& term : t.initial) note(term);
    for (const auto& step : t.steps)
      for (int w : step.written) note(step.terms[w]);
  }
  endResetModel();
}

int TraceTableModel::rowCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : m_rows; }
int TraceTableModel::columnCount(const QModelIndex& parent) const {
  return parent.isValid() ? 0 : int(m_columns.size());
}

bool TraceTableModel::isChanged(int row, int column) const {
  return column >= 0 && column < int(m_columns.size()) && m_lecture->state().wasChanged(m_columns[column], body(row));
}

QColor TraceTableModel::changedColour() { return QColor(255, 222, 89); }

QVariant TraceTableModel::data(const QModelIndex& index, int role) const {
  if (!index.isValid() || !m_lecture->hasTrace()) return {};
  const dyn::TraceTerm* t = m_lecture->state().find(m_columns[index.column()], body(index.row()));
  const bool changed = isChanged(index.row(), index.column());
  switch (role) {
    case Qt::DisplayRole:
      return t ? compact(*t) : QString();
    case Qt::ToolTipRole:
      return t ? full(*t) : tr("not computed yet");
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
