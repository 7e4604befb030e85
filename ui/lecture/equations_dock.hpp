// The Equations of motion view (Lecture workspace, issue 40): the robot's M(q), C(q, q̇)q̇, g(q), τ
// and Christoffel symbols in closed form, typeset by KaTeX like the Algorithm inspector, with
// symbolic or numeric parameters; a section at a time or all; hovering a joint's chip lights the
// terms it appears in; progress and Cancel while deriving, the estimate's refusal above what would
// not finish; export as LaTeX, C, Python, MATLAB, text or JSON. Everything it shows is
// EquationsDocument's; it never derives anything itself.
#pragma once
#include <QDockWidget>

#include "lecture/equations_html.hpp"

class EquationsDocument;
class KatexView;
class QComboBox;
class QLabel;
class QMenu;
class QProgressBar;
class QPushButton;
class QToolButton;

class EquationsDock : public QDockWidget {
  Q_OBJECT

 public:
  EquationsDock(EquationsDocument* document, QWidget* parent = nullptr);

  EquationsDocument* document() const { return m_document; }
  KatexView* view() const { return m_view; }
  QString body() const { return m_body; }
  bool isRendered() const;
  int refusedFormulas() const;
  void setSection(equations_html::Section section);
  equations_html::Section section() const;
  // Lights the terms of joint `dof` (0-based; -1: none), as hovering its chip does.
  void setHighlightedDof(int dof);
  // Asks for a file and writes the equations in `format` there.
  void exportAs(dyn::EquationFormat format);

  void setPresentationMode(bool on, double scale = 1);
  bool presentationMode() const { return m_presentation; }

 signals:
  void equationsTypeset();

 private:
  void refresh();
  void updateControls();
  void deriveIfQuick();

  EquationsDocument* m_document;
  QComboBox* m_parameters;
  QComboBox* m_section;
  QPushButton* m_derive;
  QToolButton* m_export;
  QProgressBar* m_progress;
  QPushButton* m_cancel;
  QLabel* m_status;
  KatexView* m_view;
  QString m_body;
  bool m_presentation = false;
  double m_presentationScale = 1;
  int m_highlight = -1;
};
