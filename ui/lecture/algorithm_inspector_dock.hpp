// The Algorithm inspector (lecture mode, issue 15): choose RNEA, CRBA, ABA, CRBA + LᵀL or any other
// formulation of the engine (DeNOC, the Lagrangian family, ...), step through it body by body and
// pass by pass, and read each step's equation in the paper's notation
// with the numbers substituted, the running operation count and a table of the per-body
// quantities. Everything it shows is LectureDocument's; it never computes dynamics.
//
// The equations are typeset by KaTeX in a Qt WebEngine view (equation_html.hpp), created when the
// dock is first shown: a dock that is not on screen does no work, and starts no Chromium.
//
// Keys (also in the window's Lecture menu; they act only while this dock is visible and the focus
// is in it or in the 3D view): → step, ← back, Shift+→ end of the pass, Shift+← start of the
// pass, Home start, End end, P play / pause.
#pragma once
#include <QDockWidget>
#include <memory>
#include <vector>

class LectureDocument;
class QAction;
class QCheckBox;
class QComboBox;
class QLabel;
class QPushButton;
class QSlider;
class QSpinBox;
class QSplitter;
class QTabWidget;
class QTableView;
class QTableWidget;
class QTimer;
class QWebEngineView;
class KatexView;
class TraceTableModel;

class AlgorithmInspectorDock : public QDockWidget {
  Q_OBJECT

 public:
  AlgorithmInspectorDock(LectureDocument* lecture, QWidget* parent = nullptr);
  ~AlgorithmInspectorDock() override;

  LectureDocument* lecture() const { return m_lecture; }
  // The navigation actions (start, back, forward, end of pass, start of pass, end, play).
  const std::vector<QAction*>& navigationActions() const { return m_actions; }
  QAction* forwardAction() const { return m_forward; }
  QAction* backAction() const { return m_back; }
  QAction* endOfPassAction() const { return m_endOfPass; }
  QAction* startAction() const { return m_start; }
  QAction* playAction() const { return m_play; }

  // The panel that holds the equations; the web view in it exists once the dock has been shown.
  QWidget* equationPanel() const;
  QWebEngineView* equationView() const;
  QTableView* table() const { return m_table; }
  TraceTableModel* tableModel() const { return m_model; }
  QString positionText() const;
  QString countsText() const;
  // The page shown (or to be shown): HTML with the equations as TeX for KaTeX.
  QString equationHtml() const { return m_html; }
  // The page shows equationHtml() typeset; `refused` counts the formulas KaTeX could not typeset.
  bool equationsRendered() const;
  int refusedFormulas() const;

  // Presentation mode: the equation panel at projector size (≥ 24 pt).
  // `scale`: presentation mode's sizes for the screen (widgets/presentation_scale.hpp).
  void setPresentationMode(bool on, double scale = 1);
  bool presentationMode() const { return m_presentation; }

 signals:
  void handoutRequested();
  // The view typeset the current page (tests and screenshots wait for it).
  void equationsTypeset();

 private:
  void refresh();
  void refreshInputs();
  void updateEnabled();
  void applyArrowControls();
  void syncArrowControls();
  void showPage();

  LectureDocument* m_lecture;
  std::vector<QAction*> m_actions;
  QAction *m_start, *m_back, *m_forward, *m_endOfPass, *m_startOfPass, *m_end, *m_play;
  QComboBox* m_algorithm;
  QComboBox* m_source;
  QSpinBox* m_pace;
  QLabel* m_position;
  QLabel* m_pass;
  QLabel* m_counts;
  QSplitter* m_split;
  KatexView* m_equations;
  QString m_body;  // stepBody of the page, pushed into the loaded view
  QTabWidget* m_tabs;
  QTableView* m_table;
  TraceTableModel* m_model;
  QTableWidget* m_inputs;
  QCheckBox* m_showArrows;
  QCheckBox* m_passArrow;
  std::vector<QCheckBox*> m_kindBoxes;
  QComboBox* m_point;
  QSlider* m_size;
  QLabel* m_sizeLabel;
  QPushButton* m_handout;
  QString m_html;
  bool m_presentation = false;
  double m_presentationScale = 1;
  bool m_updatingInputs = false;
};
