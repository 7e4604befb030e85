// The joints dock: one row per editable coordinate (see joint_coordinates.hpp), a filter box,
// radians/degrees, Zero / Home / Randomize. Rows write straight into the RobotDocument.
#pragma once
#include <Eigen/Core>
#include <QDockWidget>
#include <vector>

class JointRow;
class QCheckBox;
class QLabel;
class QLineEdit;
class QVBoxLayout;
class RobotDocument;

class JointsDock : public QDockWidget {
  Q_OBJECT

 public:
  JointsDock(RobotDocument* document, QWidget* parent = nullptr);

  const std::vector<JointRow*>& rows() const { return m_rows; }
  JointRow* row(const QString& jointName, const QString& label = QString()) const;
  bool degrees() const { return m_degrees; }
  void setDegrees(bool on);
  void setFilter(const QString& text);
  // Width that shows every row without cutting off names or spin boxes (follows the font).
  int preferredWidth() const;

 protected:
  void changeEvent(QEvent* event) override;

 private:
  void rebuild();
  void fitNameWidth();  // the name column of the rows, for the current font
  void refresh();       // rows from the document's q
  void onRowEdited(JointRow* row, double value);

  RobotDocument* m_doc;
  QWidget* m_rowsHost;
  QVBoxLayout* m_rowsLayout;
  QLineEdit* m_filter;
  QCheckBox* m_degreesBox;
  QLabel* m_summary;
  std::vector<JointRow*> m_rows;
  std::vector<QWidget*> m_headers;  // "name (floating)" lines above multi-coordinate joints
  bool m_degrees = true;
  bool m_editing = false;  // a row is writing to the document: do not echo back into the rows
};
