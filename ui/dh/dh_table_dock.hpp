// The DH table editor (issue 24): the rows of the robot's DH table (a .dh file, or a table made
// here) with a, α, d, θ, the joint type, the limits and the links' inertial parameters. Typing a
// value rebuilds the robot at once (RobotDocument::setDhTable: the 3D view, τ, H and the plots
// follow); a value the engine refuses stays out with the reason in its cell and below the table.
// Add, insert, delete and move rows; switch between the standard and modified conventions (the
// table is converted, the robot stays the same); start a new robot from an empty table or one of
// the seeds' examples (Saha 1999's Stanford arm and 3-link planar arm, the PUMA 560); turn a URDF
// serial chain into a DH table. Every change is one step on the undo stack.
#pragma once
#include <QDockWidget>

#include "dynscope/io/dh_table.hpp"

class DhTableModel;
class QAction;
class QComboBox;
class QLabel;
class QTableView;
class QUndoStack;
class RobotDocument;

class DhTableDock : public QDockWidget {
  Q_OBJECT
  // The robot shown has a DH table (presentation mode shows this dock only then: workspaces.cpp).
  Q_PROPERTY(bool hasTable READ hasTable)
  // The height that shows every row without scrolling (the layouts give at least that, up to their
  // limit: workspaces.cpp); no width of its own.
  Q_PROPERTY(QSize readableSize READ readableSize)

 public:
  DhTableDock(RobotDocument* doc, QUndoStack* undo, QWidget* parent = nullptr);
  // Where the example tables are (robots/: stanford_arm.dh, planar3.dh, puma560.dh).
  void setExamplesDirectory(const QString& dir) { m_examples = dir; }

  bool hasTable() const;
  QSize readableSize() const;
  QTableView* view() const { return m_view; }
  DhTableModel* model() const { return m_model; }
  QComboBox* conventionBox() const { return m_convention; }
  QLabel* problemLabel() const { return m_problem; }
  QLabel* degeneracyLabel() const { return m_degenerate; }
  QAction* addRowAction() const { return m_addRow; }
  QAction* deleteRowAction() const { return m_deleteRow; }
  // A new robot: "empty", "stanford", "planar3", "puma560"; false with a message when it fails.
  bool newRobot(const QString& example);
  bool convertToDh();  // the loaded URDF/MJCF serial chain as a DH table (a new robot)

 private:
  void refresh();  // the document's table (or why there is none) into the view
  void apply(const dyn::DhTable& next, const QString& what);
  void insertRow(int at);
  void moveRow(int delta);
  void say(const QString& problem);

  RobotDocument* m_doc;
  QUndoStack* m_undo;
  DhTableModel* m_model;
  QTableView* m_view;
  QComboBox* m_convention;
  QLabel* m_problem;
  QLabel* m_degenerate;
  QLabel* m_none;
  QAction *m_addRow, *m_insertRow, *m_deleteRow, *m_up, *m_down, *m_toDh;
  QString m_examples;
};
