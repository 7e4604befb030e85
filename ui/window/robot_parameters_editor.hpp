// The editable parameters of the selected link and its joint (issue 24), under the Properties
// table: mass, centre of mass, inertia about the COM; the joint's origin (xyz, rpy), axis, limits,
// velocity and effort limits, damping and friction. Typing a value rebuilds the robot at once
// (RobotDocument::setEdits: the 3D view, τ, H and the plots follow); each change is a step on the
// undo stack (successive changes of one field merge). A value the engine refuses (a negative mass,
// a zero axis, lower above upper) is refused in its box: red, with the reason below and in the
// tooltip, and the robot keeps its last valid state. The model check's findings about the link and
// joint show beneath as they change (the triangle inequality of an inertia explained).
#pragma once
#include <QWidget>
#include <vector>

#include "dynscope/io/robot_edit.hpp"

class QDoubleSpinBox;
class QCheckBox;
class QComboBox;
class QFormLayout;
class QLabel;
class QUndoStack;
class RobotDocument;

class RobotParametersEditor : public QWidget {
  Q_OBJECT

 public:
  RobotParametersEditor(RobotDocument* doc, QUndoStack* undo, QWidget* parent = nullptr);

  // Tests: the boxes of a field (3 for com, 6 for inertia, ...), empty when not shown.
  std::vector<QDoubleSpinBox*> boxes(dyn::EditField field) const;
  QCheckBox* limitedBox() const { return m_limited; }
  QComboBox* kindBox() const { return m_kind; }  // the joint's type (null when it cannot change)
  QString problemText() const;                   // why the last value was refused ("" when it was taken)
  QString findingsText() const;                  // the model check's findings shown for the selection

 private:
  struct Field {
    dyn::EditField field;
    bool joint;
    std::vector<QDoubleSpinBox*> boxes;
    double scale = 1;  // shown per SI unit (degrees for angles)
    QWidget* row = nullptr;
  };
  void rebuild();        // another selection or robot
  void refreshValues();  // m_current's values into the boxes
  void edited(Field& f);
  void addField(QFormLayout* form, const QString& label, dyn::EditField field, bool joint, int count,
                const QString& unit, double scale, const QStringList& parts = {});
  void showFindings();
  // A vector's boxes three to a line where they fit whole, else two or one (presentation mode's
  // larger font in a narrow dock: "xx 0.0494433" must not be cut).
  void fitBoxes();
  void resizeEvent(QResizeEvent* event) override;
  void changeEvent(QEvent* event) override;

  RobotDocument* m_doc;
  QUndoStack* m_undo;
  QLabel* m_heading;
  QLabel* m_problem;
  QLabel* m_findings;
  QCheckBox* m_limited = nullptr;
  QComboBox* m_kind = nullptr;
  std::vector<Field> m_fields;
  std::string m_link, m_joint;      // the elements edited (names in the file)
  dyn::RobotDescription m_current;  // the description with the edits, as of the last rebuild
  bool m_jointAngular = true;
  bool m_writing = false;  // our own edit is being applied: do not echo into the boxes
};
