// The inspector's table of per-body quantities (v, a, f, Iᶜ, Iᴬ, pᴬ, U, D, u, q̈; DeNOC's t, ṫ, w;
// the Lagrangian W, Ẅ, D, c …): one row per body, one column per quantity the algorithm writes, the
// cells the current step changed highlighted; empty until a step has written them. A vector over
// the dofs (the sums' F, CRBA + LᵀL's x) is a column too, each body showing its joint's entries. A
// thin Qt model over LectureDocument's state.
#pragma once
#include <Eigen/Core>
#include <QAbstractTableModel>
#include <string>
#include <vector>

class LectureDocument;
namespace dyn {
struct TraceTerm;
}

class TraceTableModel : public QAbstractTableModel {
  Q_OBJECT

 public:
  explicit TraceTableModel(LectureDocument* lecture, QObject* parent = nullptr);

  int rowCount(const QModelIndex& parent = {}) const override;
  int columnCount(const QModelIndex& parent = {}) const override;
  QVariant data(const QModelIndex& index, int role) const override;
  QVariant headerData(int section, Qt::Orientation orientation, int role) const override;

  // The quantity of a column ("v", "IA", ...) and the body of a row.
  std::string quantity(int column) const { return m_columns.at(column); }
  int body(int row) const { return row + 1; }
  bool isChanged(int row, int column) const;
  static QColor changedColour();

  // Column header text of a quantity ("Iᴬ" for "IA").
  static QString headerFor(const std::string& quantity);

 private:
  void rebuild();
  const dyn::TraceTerm* valueAt(int row, int column, Eigen::MatrixXd& entries) const;
  LectureDocument* m_lecture;
  std::vector<std::string> m_columns;
  std::vector<bool> m_overDofs;  // the column is one vector over the dofs (index -1 in the state)
  int m_rows = 0;
};
