// The model tree dock: the kinematic tree of bodies, each row with its joint, joint type, parent
// and mass; links merged into a body by fixed joints appear beneath it. Selection is two-way
// with the document (and so with the 3D view).
#pragma once
#include <QDockWidget>

class QTreeWidget;
class QTreeWidgetItem;
class RobotDocument;

class ModelTreeDock : public QDockWidget {
  Q_OBJECT

 public:
  // Type and mass first: in a narrow dock they stay visible next to a deep tree.
  enum Column { Name, Type, Mass, Joint, Parent, ColumnCount };
  ModelTreeDock(RobotDocument* document, QWidget* parent = nullptr);

  QTreeWidget* tree() const { return m_tree; }
  QTreeWidgetItem* itemForBody(int body) const;

 protected:
  void changeEvent(QEvent* event) override;

 private:
  void rebuild();
  void fitColumns();
  void showSelection(int body);
  void onItemSelectionChanged();

  RobotDocument* m_doc;
  QTreeWidget* m_tree;
  std::vector<QTreeWidgetItem*> m_bodyItems;  // index = body
};
