// The Model check panel: the model checker's findings about the robot shown (dyn::checkModel,
// docs/model-check.md), one row each with severity, location, element and message, errors first;
// the selected finding's hint below. Severity buttons filter the list. Selecting a finding selects
// its body in the 3D view and the model tree (through the document). The Fix-ups button offers the
// Model menu's fix-up actions.
#pragma once
#include <QDockWidget>
#include <QList>

#include "dynscope/io/finding.hpp"

class QAction;
class QLabel;
class QToolButton;
class QTreeWidget;
class QTreeWidgetItem;
class RobotDocument;

class ModelCheckDock : public QDockWidget {
  Q_OBJECT

 public:
  enum Column { SeverityColumn, LocationColumn, ElementColumn, MessageColumn, ColumnCount };
  ModelCheckDock(RobotDocument* document, QWidget* parent = nullptr);

  QTreeWidget* list() const { return m_list; }
  // The row of findings()[index], or null (filtered out, or no such finding).
  QTreeWidgetItem* itemForFinding(int index) const;
  int visibleCount() const;
  QString summary() const;  // "8 warnings, 5 notes"
  QString details() const;  // the selected finding's message and hint as plain text
  // The fix-up actions the Fix-ups button offers (the Model menu's).
  void setFixupActions(const QList<QAction*>& actions);
  // The list's order, a strict weak ordering: errors, warnings, notes; within each, by line, and
  // findings without a line (models built in code) last.
  static bool listedBefore(const dyn::Finding& a, const dyn::Finding& b);

 protected:
  void changeEvent(QEvent* event) override;

 private:
  void rebuild();
  void applyFilter();
  void showDetails();
  void copySelected() const;

  RobotDocument* m_doc;
  QLabel* m_summary;
  QToolButton* m_show[3];  // errors, warnings, notes
  QToolButton* m_fixups;
  QTreeWidget* m_list;
  QLabel* m_details;
};
