// The rows of a DH table (dynscope/io/dh_table.hpp) as a table to edit (issue 24): name, type
// (R/P), a, α, d, θ, the limits, the link's mass, COM and inertia. Angles in degrees, lengths in
// metres, as a lecturer writes them; the joint variable (θ of an R row, d of a P row) is marked and
// holds the offset added to q. An edit that checkDhRow refuses is refused in its cell: the cell
// stays, turns red with the reason as its tooltip, and `refused` says why. An accepted edit does not
// change the model's table: it emits `edited` with the new table, which the dock puts on the undo
// stack, and the document's table comes back through setTable.
#pragma once
#include <QAbstractTableModel>
#include <QStringList>

#include "dynscope/io/dh_table.hpp"

class DhTableModel : public QAbstractTableModel {
  Q_OBJECT

 public:
  enum Column {
    Name,
    Type,
    A,
    Alpha,
    D,
    Theta,
    Lower,
    Upper,
    Mass,
    ComX,
    ComY,
    ComZ,
    Ixx,
    Iyy,
    Izz,
    Ixy,
    Ixz,
    Iyz,
    ColumnCount
  };

  explicit DhTableModel(QObject* parent = nullptr);
  void setTable(const dyn::DhTable& table);
  const dyn::DhTable& table() const { return m_table; }
  // The table with `value` typed into (row, column), or why it cannot be ("" = it can).
  QString tableWith(int row, int column, const QString& value, dyn::DhTable& out) const;
  bool isJointVariable(int row, int column) const;
  // Successive joints on one line (dyn::dhDegeneracies), one sentence each; their a and α cells are
  // marked. A value that would make a new such pair is refused in its cell.
  QStringList degeneracies() const;

  int rowCount(const QModelIndex& parent = {}) const override;
  int columnCount(const QModelIndex& parent = {}) const override;
  QVariant data(const QModelIndex& index, int role) const override;
  QVariant headerData(int section, Qt::Orientation orientation, int role) const override;
  Qt::ItemFlags flags(const QModelIndex& index) const override;
  bool setData(const QModelIndex& index, const QVariant& value, int role) override;

 signals:
  void edited(const dyn::DhTable& table, const QString& what);
  void refused(const QString& reason);

 private:
  QString text(int row, int column, bool edit) const;  // edit: the full value, else as shown
  QString degeneracyAt(int row, int column) const;     // why the cell makes a degenerate pair, or ""
  dyn::DhTable m_table;
  std::vector<dyn::DhDegeneracy> m_degenerate;
  int m_badRow = -1, m_badColumn = -1;  // the last refused cell
  QString m_badReason;
};
