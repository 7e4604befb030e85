// Properties of the selected link: joint and its value, mass, centre of mass, inertia about
// the COM (in the URDF link frame) and the link's pose in the world (from its model frame); below
// them the editable parameters of the link and its joint (robot_parameters_editor.hpp).
#pragma once
#include <QDockWidget>

class QTabWidget;
class QTreeWidget;
class QUndoStack;
class RobotDocument;
class RobotParametersEditor;

class PropertiesDock : public QDockWidget {
  Q_OBJECT

 public:
  PropertiesDock(RobotDocument* document, QUndoStack* undo, QWidget* parent = nullptr);
  RobotParametersEditor* editor() const { return m_editor; }
  QTabWidget* tabs() const { return m_tabs; }  // "Values", "Edit"

  // "Mass" -> "8.393 kg"; empty if absent (tests).
  QString value(const QString& property) const;

 protected:
  void changeEvent(QEvent* event) override;

 private:
  void refresh();
  void applyFixedFont();

  RobotDocument* m_doc;
  QTreeWidget* m_table;
  RobotParametersEditor* m_editor;
  QTabWidget* m_tabs;
};
