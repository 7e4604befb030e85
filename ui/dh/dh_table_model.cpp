#include "dh/dh_table_model.hpp"

#include <QBrush>
#include <QColor>
#include <QFont>
#include <algorithm>
#include <cmath>
#include <numbers>

namespace {

constexpr double kDeg = 180 / std::numbers::pi;

// Shown: 5 significant digits, so that columns stay narrow enough to read whole from the back of
// the hall (0.15005, 0.00016667); edited: 12, enough for any value typed by hand, and an angle in
// degrees stays 90 (not the 90.00000000000001 that radians and back can make).
QString number(double v, bool edit) { return QString::number(v, 'g', edit ? 12 : 5); }

}  // namespace

DhTableModel::DhTableModel(QObject* parent) : QAbstractTableModel(parent) {}

void DhTableModel::setTable(const dyn::DhTable& table) {
  m_badRow = m_badColumn = -1;
  m_badReason.clear();
  m_degenerate = dyn::dhDegeneracies(table);
  if (table.rows.size() == m_table.rows.size() && rowCount() > 0) {
    // The same rows with new values (an edit committed from a cell, whose editor is still
    // closing): no reset, which would delete that editor under the view.
    m_table = table;
    emit dataChanged(index(0, 0), index(rowCount() - 1, ColumnCount - 1));
    emit headerDataChanged(Qt::Horizontal, 0, ColumnCount - 1);
    return;
  }
  beginResetModel();
  m_table = table;
  endResetModel();
}

int DhTableModel::rowCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : int(m_table.rows.size()); }
int DhTableModel::columnCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : ColumnCount; }

bool DhTableModel::isJointVariable(int row, int column) const {
  if (row < 0 || row >= rowCount()) return false;
  return m_table.rows[size_t(row)].prismatic ? column == D : column == Theta;
}

QString DhTableModel::text(int row, int column, bool edit) const {
  const dyn::DhRow& r = m_table.rows[size_t(row)];
  const double limitScale = r.prismatic ? 1 : kDeg;
  switch (column) {
    case Name:
      return QString::fromStdString(r.name);
    case Type:
      return r.prismatic ? "P" : "R";
    case A:
      return number(r.a, edit);
    case Alpha:
      return number(r.alpha * kDeg, edit);
    case D:
      return number(r.d, edit);
    case Theta:
      return number(r.theta * kDeg, edit);
    case Lower:
      return r.hasLimits ? number(r.lower * limitScale, edit) : QStringLiteral("—");
    case Upper:
      return r.hasLimits ? number(r.upper * limitScale, edit) : QStringLiteral("—");
    case Mass:
      return number(r.mass, edit);
    case ComX:
    case ComY:
    case ComZ:
      return number(r.com[column - ComX], edit);
    default:
      return number(r.inertia[size_t(column - Ixx)], edit);
  }
}

QString DhTableModel::degeneracyAt(int row, int column) const {
  if (column != A && column != Alpha) return {};
  for (const dyn::DhDegeneracy& d : m_degenerate)
    if (d.row == row && (column == Alpha || !m_table.rows[size_t(d.first)].prismatic))
      return QString::fromStdString(d.why);
  return {};
}

QStringList DhTableModel::degeneracies() const {
  QStringList out;
  for (const dyn::DhDegeneracy& d : m_degenerate)
    out << tr("Rows %1–%2: %3").arg(d.first + 1).arg(d.second + 1).arg(QString::fromStdString(d.why));
  return out;
}

QVariant DhTableModel::data(const QModelIndex& index, int role) const {
  if (!index.isValid()) return {};
  const int row = index.row(), column = index.column();
  const bool bad = row == m_badRow && column == m_badColumn;
  const QString degenerate = role == Qt::BackgroundRole || role == Qt::ToolTipRole ? degeneracyAt(row, column) : "";
  switch (role) {
    case Qt::DisplayRole:
      return text(row, column, false);
    case Qt::EditRole:
      return text(row, column, true);
    case Qt::TextAlignmentRole:
      return column <= Type ? int(Qt::AlignLeft | Qt::AlignVCenter) : int(Qt::AlignRight | Qt::AlignVCenter);
    case Qt::BackgroundRole:
      if (bad) return QBrush(QColor(255, 214, 214));
      if (!degenerate.isEmpty()) return QBrush(QColor(255, 224, 170));
      if (isJointVariable(row, column)) return QBrush(QColor(255, 244, 200));
      return {};
    case Qt::FontRole:
      if (isJointVariable(row, column)) {
        QFont f;
        f.setBold(true);
        return f;
      }
      return {};
    case Qt::ToolTipRole:
      if (bad) return m_badReason;
      if (!degenerate.isEmpty()) return degenerate + tr(". Type a non-zero value to separate the axes.");
      if (isJointVariable(row, column))
        return m_table.rows[size_t(row)].prismatic ? tr("The joint variable: d = q + this offset (m)")
                                                   : tr("The joint variable: θ = q + this offset (°)");
      if (column == Lower || column == Upper) return tr("Type a value, or leave empty for no limits");
      return {};
    default:
      return {};
  }
}

QVariant DhTableModel::headerData(int section, Qt::Orientation orientation, int role) const {
  if (role != Qt::DisplayRole) return {};
  if (orientation == Qt::Vertical) return section + 1;
  const bool modified = m_table.convention == dyn::DhConvention::Modified;
  switch (section) {
    case Name:
      return tr("Joint");
    case Type:
      return tr("R/P");
    case A:
      return modified ? tr("aᵢ₋₁ [m]") : tr("aᵢ [m]");
    case Alpha:
      return modified ? tr("αᵢ₋₁ [°]") : tr("αᵢ [°]");
    case D:
      return tr("dᵢ [m]");
    case Theta:
      return tr("θᵢ [°]");
    case Lower:
      return tr("lower");
    case Upper:
      return tr("upper");
    case Mass:
      return tr("m [kg]");
    case ComX:
      return tr("COM x [m]");
    case ComY:
      return tr("COM y [m]");
    case ComZ:
      return tr("COM z [m]");
    case Ixx:
      return tr("Ixx [kg·m²]");
    case Iyy:
      return tr("Iyy");
    case Izz:
      return tr("Izz");
    case Ixy:
      return tr("Ixy");
    case Ixz:
      return tr("Ixz");
    case Iyz:
      return tr("Iyz");
    default:
      return {};
  }
}

Qt::ItemFlags DhTableModel::flags(const QModelIndex& index) const {
  return index.isValid() ? Qt::ItemIsEnabled | Qt::ItemIsSelectable | Qt::ItemIsEditable : Qt::NoItemFlags;
}

QString DhTableModel::tableWith(int row, int column, const QString& value, dyn::DhTable& out) const {
  out = m_table;
  if (row < 0 || row >= rowCount()) return tr("no row %1").arg(row + 1);
  dyn::DhRow& r = out.rows[size_t(row)];
  const QString v = value.trimmed();
  if (column == Name) {
    r.name = v.toStdString();
  } else if (column == Type) {
    if (v.compare("R", Qt::CaseInsensitive) && v.compare("P", Qt::CaseInsensitive))
      return tr("the joint type is R (revolute) or P (prismatic)");
    r.prismatic = !v.compare("P", Qt::CaseInsensitive);
  } else if ((column == Lower || column == Upper) && (v.isEmpty() || v == QStringLiteral("—") || v == "none")) {
    r.hasLimits = false;  // no limits (both go)
  } else {
    bool ok = false;
    const double x = v.toDouble(&ok);
    if (!ok) return tr("'%1' is not a number").arg(v);
    const double angle = x / kDeg, limit = r.prismatic ? x : x / kDeg;
    switch (column) {
      case A:
        r.a = x;
        break;
      case Alpha:
        r.alpha = angle;
        break;
      case D:
        r.d = x;
        break;
      case Theta:
        r.theta = angle;
        break;
      case Lower:
      case Upper:
        if (!r.hasLimits) {  // the first limit typed: the other starts at the same value
          r.hasLimits = true;
          r.lower = r.upper = limit;
        }
        (column == Lower ? r.lower : r.upper) = limit;
        break;
      case Mass:
        r.mass = x;
        r.hasInertial = true;
        break;
      case ComX:
      case ComY:
      case ComZ:
        r.com[column - ComX] = x;
        r.hasInertial = true;
        break;
      default:
        r.inertia[size_t(column - Ixx)] = x;
        r.hasInertial = true;
        break;
    }
  }
  if (const std::string why = dyn::checkDhRow(out, row); !why.empty()) return QString::fromStdString(why);
  // A value that makes two joints one (a twist that puts an axis on the previous one) is refused; a
  // degenerate pair that was there before (a row just added, all zeros) is shown, not refused.
  for (const dyn::DhDegeneracy& d : dyn::dhDegeneracies(out))
    if (std::none_of(m_degenerate.begin(), m_degenerate.end(),
                     [&](const dyn::DhDegeneracy& before) { return before.first == d.first; }))
      return QString::fromStdString(d.why);
  return {};
}

bool DhTableModel::setData(const QModelIndex& index, const QVariant& value, int role) {
  if (!index.isValid() || role != Qt::EditRole) return false;
  if (value.toString().trimmed() == text(index.row(), index.column(), true)) return false;  // unchanged
  dyn::DhTable next;
  const QString why = tableWith(index.row(), index.column(), value.toString(), next);
  if (!why.isEmpty()) {  // refused in the cell: it keeps its value, turns red, says why
    m_badRow = index.row();
    m_badColumn = index.column();
    m_badReason = why;
    emit dataChanged(index, index);
    emit refused(why);
    return false;
  }
  m_badRow = m_badColumn = -1;
  m_badReason.clear();
  emit edited(next, tr("Edit %1 of row %2")
                        .arg(headerData(index.column(), Qt::Horizontal, Qt::DisplayRole).toString())
                        .arg(index.row() + 1));
  return true;
}
