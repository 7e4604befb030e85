// The mass-matrix dock: a live heat map of H(q) (or of its factor L) for the document's robot,
// with branch-induced zeros, fill-in, condition number and diagonal (issue 5). Recomputed at
// most once per event-loop turn after poseChanged, and only while visible. "Global 6N" adds the
// sparsity pictures of the review's global analysis (§3.5: I, S, P, P⁻¹, eq. 27's system) beside H.
//
// Wiring in the main window (see docs/mass-matrix.md):
//   auto* mass = new MassMatrixDock(m_doc, this);
//   addDockWidget(Qt::RightDockWidgetArea, mass);
//   connect(mass, &MassMatrixDock::jointClicked, this,
//           [this](int dof) { m_doc->setSelectedBody(m_doc->model().dofBody[dof]); });
// (selectedBodyChanged is connected by the dock itself.)
#pragma once
#include <QDockWidget>
#include <vector>

#include "massmatrix/mass_matrix_analysis.hpp"

class GlobalMatricesView;
class MatrixHeatMap;
class QCheckBox;
class QComboBox;
class QLabel;
class QSplitter;
class QToolButton;
class LectureDocument;
class RobotDocument;

class MassMatrixDock : public QDockWidget {
  Q_OBJECT
  // Read by the workspaces (by name, without knowing this class): the size its views are readable at.
  Q_PROPERTY(QSize readableSize READ readableSize)

 public:
  explicit MassMatrixDock(RobotDocument* doc, QWidget* parent = nullptr);

  MatrixHeatMap* heatMap() const { return m_map; }
  // The global (6N) matrices of §3.5 beside H(q) (off by default).
  GlobalMatricesView* globalView() const { return m_global; }
  QSplitter* picturesSplitter() const { return m_pictures; }
  // The size at which H (and the global matrices, when shown) are readable: what the window
  // should give the dock (docs/plots.md, "Sizes").
  QSize readableSize() const;
  void setShowGlobal(bool on);
  bool showsGlobal() const;
  const MassMatrixAnalysis& analysis() const { return m_analysis; }
  QString statusText() const;
  QString readoutText() const;
  QString errorText() const { return m_error; }
  int recomputeCount() const { return m_recomputes; }

  void setView(MassMatrixView view);
  void setBreadthFirst(bool on);
  void setFactorForm(dyn::CholeskyForm form);
  void setLogMagnitude(bool on);
  void setShowLabels(bool on);

  // PNG of the heat map laid out for `size` (empty: as on screen), `scale` pixels per unit; CSV of the shown matrix,
  // joint names as header and first column, every number at %.17g.
  bool exportPng(const QString& path, QSize size = {}, double scale = 1, QString* error = nullptr) const;
  bool exportCsv(const QString& path, QString* error = nullptr) const;

  // Lecture mode: while the inspector steps through CRBA (or CRBA + LᵀL), the H view shows the
  // entries computed so far, column by column, the others marked "not computed yet".
  void setLectureDocument(LectureDocument* lecture);
  bool showsLectureFill() const { return m_lectureFill; }

  // Presentation mode: the pictures and the status line only. The controls and the hover read-out
  // are for the desk; without them H gets their height, which a projected layout cannot spare.
  void setPresentationMode(bool on);
  bool presentationMode() const { return m_presentation; }

  // Runs a pending recomputation now (tests; export).
  void recomputeNow();
  // Text of the read-out for display cell (r, c); c = MatrixHeatMap::kSideColumn: the diagonal.
  QString describeCell(int r, int c) const;

 public slots:
  void setSelectedBody(int body);  // highlight that joint's rows and columns (-1: none)

 signals:
  void jointClicked(int dof);  // a model dof (model.dofBody[dof] is its body)

 protected:
  void showEvent(QShowEvent* e) override;
  void resizeEvent(QResizeEvent* e) override;

 private:
  void scheduleRecompute();
  void recompute();
  void onModelChanged();
  void onCellClicked(int row, int column);
  void syncControls();
  void updateHighlight();
  void showContent();  // m_analysis (and the lecture's partial H) into the heat map
  void exportPngDialog();
  void exportCsvDialog();

  RobotDocument* m_doc;
  dyn::Data m_data;
  MassMatrixSettings m_settings;
  MassMatrixAnalysis m_analysis;
  MatrixHeatMap* m_map;
  QComboBox* m_viewBox;
  QComboBox* m_formBox;
  QCheckBox* m_breadthFirst;
  QCheckBox* m_log;
  QCheckBox* m_labels;
  QCheckBox* m_globalBox;
  GlobalMatricesView* m_global;
  QSplitter* m_pictures;  // H beside or above the global matrices, whichever leaves both readable
  void arrangePictures();
  QLabel* m_status;
  QLabel* m_readout;
  QString m_error;
  int m_selectedBody = -1;
  LectureDocument* m_lecture = nullptr;
  bool m_lectureFill = false;
  int m_recomputes = 0;
  bool m_pending = false, m_dirty = true;
  bool m_presentation = false;
  std::vector<QWidget*> m_deskOnly;  // hidden in presentation mode
};
