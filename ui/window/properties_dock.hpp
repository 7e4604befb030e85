// Properties of the selected link: joint and its value, mass, centre of mass, inertia about
// the COM (in the URDF link frame) and the link's pose in the world (from its model frame).
#pragma once
#include <QDockWidget>

class QTreeWidget;
class RobotDocument;

class PropertiesDock : public QDockWidget {
  Q_OBJECT

 public:
  PropertiesDock(RobotDocument* document, QWidget* parent = nullptr);

  // "Mass" -> "8.393 kg"; empty if absent (tests).
  QString value(const QString& property) const;

 protected:
  void changeEvent(QEvent* event) override;

 private:
  void refresh();
  void applyFixedFont();

  RobotDocument* m_doc;
  QTreeWidget* m_table;
};
