#include "massmatrix/mass_matrix_dock.hpp"

#include <QCheckBox>
#include <QComboBox>
#include <QFileDialog>
#include <QHBoxLayout>
#include <QImage>
#include <QLabel>
#include <QMessageBox>
#include <QPushButton>
#include <QScrollArea>
#include <QSplitter>
#include <QTimer>
#include <QVBoxLayout>
#include <cmath>
#include <cstdio>

#include "document/robot_document.hpp"
#include "document/save_file.hpp"
#include "lecture/lecture_document.hpp"
#include "massmatrix/global_matrices_view.hpp"
#include "massmatrix/matrix_heat_map.hpp"
#include "plots/csv_export.hpp"

namespace {
QString shortName(const std::string& name) {  // labels: "left_knee_joint" -> "left_knee"
  QString s = QString::fromStdString(name);
  if (s.endsWith("_joint")) s.chop(6);
  return s;
}
QString sci(double v) { return QString::number(v, 'g', 3); }
}  // namespace

MassMatrixDock::MassMatrixDock(RobotDocument* doc, QWidget* parent)
    : QDockWidget(tr("Mass matrix"), parent), m_doc(doc) {
  setObjectName("massMatrixDock");
  auto* body = new QWidget(this);
  auto* layout = new QVBoxLayout(body);
  layout->setContentsMargins(4, 4, 4, 4);

  auto* controls = new QHBoxLayout;
  m_viewBox = new QComboBox(body);
  m_viewBox->setObjectName("massMatrixView");
  m_viewBox->addItem(tr("H(q) inertia matrix"));
  m_viewBox->addItem(tr("L factor"));
  m_formBox = new QComboBox(body);
  m_formBox->setObjectName("massMatrixForm");
  m_formBox->addItem(tr("H = L\u1d40L (Featherstone, tips first)"));
  m_formBox->addItem(tr("H = LL\u1d40 (textbook Cholesky, root first)"));
  m_formBox->setToolTip(
      tr("Which end the elimination starts from. With parents numbered before children, "
         "L\u1d40L causes no fill-in; LL\u1d40 fills every branch zero below a shared joint."));
  m_breadthFirst = new QCheckBox(tr("Breadth-first numbering"), body);
  m_breadthFirst->setObjectName("massMatrixBreadthFirst");
  m_breadthFirst->setToolTip(
      tr("Renumber the joints level by level (P H P\u1d40) instead of the model's depth-first order"));
  m_log = new QCheckBox(tr("Log magnitude"), body);
  m_log->setObjectName("massMatrixLog");
  m_labels = new QCheckBox(tr("Labels"), body);
  m_labels->setObjectName("massMatrixLabels");
  m_labels->setChecked(true);
  m_globalBox = new QCheckBox(tr("Global 6N (§3.5)"), body);
  m_globalBox->setObjectName("massMatrixGlobal");
  m_globalBox->setToolTip(
      tr("Show the global (6N) matrices of Orin & Featherstone's §3.5 beside H(q): "
         "large but sparse; H = Sᵀ I S"));
  auto* png = new QPushButton(tr("PNG\u2026"), body);
  auto* csv = new QPushButton(tr("CSV\u2026"), body);
  png->setToolTip(tr("Save the picture as PNG"));
  csv->setToolTip(tr("Save the shown matrix as CSV"));
  // Two rows and shrinkable combo boxes, so that the dock fits beside the 3D view.
  for (QComboBox* box : {m_viewBox, m_formBox}) {
    box->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    box->setMinimumContentsLength(10);
  }
  controls->addWidget(m_viewBox, 1);
  controls->addWidget(m_formBox, 2);
  controls->addWidget(png);
  controls->addWidget(csv);
  auto* toggles = new QHBoxLayout;
  toggles->addWidget(m_breadthFirst);
  toggles->addWidget(m_log);
  toggles->addWidget(m_labels);
  toggles->addWidget(m_globalBox);
  toggles->addStretch();
  layout->addLayout(controls);
  layout->addLayout(toggles);

  m_map = new MatrixHeatMap(body);
  m_map->setObjectName("massMatrixHeatMap");
  m_map->setHoverTextProvider([this](int r, int c) { return describeCell(r, c); });
  m_global = new GlobalMatricesView(body);
  m_global->setVisible(false);
  m_pictures = new QSplitter(Qt::Horizontal, body);
  m_pictures->setObjectName("massMatrixPictures");
  m_pictures->setChildrenCollapsible(false);
  m_pictures->addWidget(m_map);
  m_pictures->addWidget(m_global);
  // Its height is what is left: the scroll area sizes the body by the labels' height-for-width and
  // the size hints of the rest, so a hint here made the dock scroll rather than the pictures fit.
  m_pictures->setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Ignored);
  layout->addWidget(m_pictures, 1);
  m_readout = new QLabel(body);
  m_readout->setObjectName("massMatrixReadout");
  m_readout->setWordWrap(true);
  m_readout->setMinimumHeight(2 * m_readout->fontMetrics().height() + 4);
  m_readout->setText(tr("Hover a cell for its value and the relation of its two joints."));
  m_status = new QLabel(body);
  m_status->setObjectName("massMatrixStatus");
  m_status->setWordWrap(true);
  m_status->setTextInteractionFlags(Qt::TextSelectableByMouse);
  layout->addWidget(m_readout);
  layout->addWidget(m_status);
  m_deskOnly = {m_viewBox, m_formBox, png, csv, m_breadthFirst, m_log, m_labels, m_globalBox, m_readout};
  auto* scroll = new QScrollArea(this);  // scrolls instead of forcing the window wider or taller on a laptop
  scroll->setWidgetResizable(true);
  scroll->setFrameShape(QFrame::NoFrame);
  scroll->setWidget(body);
  setWidget(scroll);

  connect(m_viewBox, &QComboBox::currentIndexChanged, this,
          [this](int i) { setView(i == 1 ? MassMatrixView::L : MassMatrixView::H); });
  connect(m_formBox, &QComboBox::currentIndexChanged, this,
          [this](int i) { setFactorForm(i == 1 ? dyn::CholeskyForm::LLT : dyn::CholeskyForm::LTL); });
  connect(m_breadthFirst, &QCheckBox::toggled, this, &MassMatrixDock::setBreadthFirst);
  connect(m_log, &QCheckBox::toggled, this, &MassMatrixDock::setLogMagnitude);
  connect(m_labels, &QCheckBox::toggled, this, &MassMatrixDock::setShowLabels);
  connect(m_globalBox, &QCheckBox::toggled, this, &MassMatrixDock::setShowGlobal);
  connect(png, &QPushButton::clicked, this, &MassMatrixDock::exportPngDialog);
  connect(csv, &QPushButton::clicked, this, &MassMatrixDock::exportCsvDialog);
  connect(m_map, &MatrixHeatMap::cellClicked, this, &MassMatrixDock::onCellClicked);
  connect(m_map, &MatrixHeatMap::labelClicked, this, [this](int k) { onCellClicked(k, k); });
  connect(m_map, &MatrixHeatMap::hoveredCellChanged, this, [this] {
    if (!m_map->hoverText().isEmpty()) m_readout->setText(m_map->hoverText());
  });

  connect(doc, &RobotDocument::modelChanged, this, &MassMatrixDock::onModelChanged);
  connect(doc, &RobotDocument::poseChanged, this, &MassMatrixDock::scheduleRecompute);
  connect(doc, &RobotDocument::selectedBodyChanged, this, &MassMatrixDock::setSelectedBody);
  syncControls();
  if (doc->hasModel()) onModelChanged();
}

void MassMatrixDock::onModelChanged() {
  m_data = dyn::Data(m_doc->model());
  m_selectedBody = m_doc->selectedBody();
  scheduleRecompute();
}

void MassMatrixDock::scheduleRecompute() {
  m_dirty = true;
  if (m_pending || !isVisible()) return;  // hidden: recomputed when shown
  m_pending = true;
  QTimer::singleShot(0, this, [this] {
    if (m_pending) recompute();
  });
}

void MassMatrixDock::showEvent(QShowEvent* e) {
  QDockWidget::showEvent(e);
  if (m_dirty) scheduleRecompute();
}

void MassMatrixDock::resizeEvent(QResizeEvent* e) {
  QDockWidget::resizeEvent(e);
  arrangePictures();
}

// H and the global matrices side by side when the width holds both readable, else one above the
// other when the height does, else along the longer side; each gets room in proportion to its
// readable size (the humanoid's H had shrunk to 85 px beside five sparsity pictures).
void MassMatrixDock::arrangePictures() {
  if (!m_global->isVisible()) return;
  const QSize area = m_pictures->size(), h = m_map->minimumSizeHint(), g = m_global->minimumSizeHint();
  const int handle = m_pictures->handleWidth();
  const bool sideFits =
      area.width() >= h.width() + g.width() + handle && area.height() >= std::max(h.height(), g.height());
  const bool stackFits =
      area.height() >= h.height() + g.height() + handle && area.width() >= std::max(h.width(), g.width());
  const Qt::Orientation o = sideFits                        ? Qt::Horizontal
                            : stackFits                     ? Qt::Vertical
                            : area.width() >= area.height() ? Qt::Horizontal
                                                            : Qt::Vertical;
  const bool horizontal = o == Qt::Horizontal;
  const int need = horizontal ? h.width() + g.width() : h.height() + g.height();
  const int have = (horizontal ? area.width() : area.height()) - handle;
  // Again when the room or the views' needs changed (not on every pose: the user's splitter stays).
  const QRect key(QPoint(area.width(), area.height()), QSize(need, int(o)));
  if (o != m_pictures->orientation() || m_pictures->property("arrangedFor").toRect() != key) {
    m_pictures->setOrientation(o);
    // In proportion to their readable sizes; when both cannot be readable, H first (the lecture's
    // subject), and the 6N pictures show their "too small" hint.
    const int hNeed = horizontal ? h.width() : h.height();
    const int first = need <= have ? have * hNeed / std::max(1, need) : std::min(hNeed, have - 60);
    m_pictures->setSizes({first, have - first});
    m_pictures->setProperty("arrangedFor", key);
  }
}

QSize MassMatrixDock::readableSize() const {
  const QSize h = m_map->minimumSizeHint(), g = m_global->minimumSizeHint();
  QSize pictures = h;
  if (m_global->isVisibleTo(this)) {
    const QSize side(h.width() + g.width(), std::max(h.height(), g.height()));
    const QSize stack(std::max(h.width(), g.width()), h.height() + g.height());
    pictures = side.width() * side.height() <= stack.width() * stack.height() ? side : stack;
  }
  // The controls, read-out and status around the pictures (the pictures take no height in the
  // body's minimum: their vertical policy is Ignored).
  // The word-wrapped read-out and status take as many lines as that width gives them.
  const QLayout* body = m_pictures->parentWidget()->layout();
  const int width = std::max(pictures.width() + body->contentsMargins().left() + body->contentsMargins().right(),
                             body->minimumSize().width());
  const int around = body->hasHeightForWidth() ? body->totalHeightForWidth(width) : body->minimumSize().height();
  // The dock's title bar and frame.
  const QSize chrome = isVisible() ? size() - widget()->size() : QSize(4, fontMetrics().height() + 8);
  return QSize(width, pictures.height() + around) + chrome.expandedTo(QSize(0, 0));
}

void MassMatrixDock::setPresentationMode(bool on) {
  if (on == m_presentation) return;
  m_presentation = on;
  for (QWidget* w : m_deskOnly) w->setVisible(!on);
  updateGeometry();
}

void MassMatrixDock::recomputeNow() {
  if (m_dirty || m_pending) recompute();
}

void MassMatrixDock::recompute() {
  m_pending = false;
  m_dirty = false;
  ++m_recomputes;
  m_error.clear();
  const dyn::Model& model = m_doc->model();
  if (!m_doc->hasModel() || model.nv == 0) {
    m_analysis = MassMatrixAnalysis{};
    m_map->setContent({});
    m_status->setText(tr("No robot with moving joints"));
    return;
  }
  if (m_data.tau.size() != model.nv) m_data = dyn::Data(model);
  // Mimic joints: H_y = GᵀHG on the independent coordinates; in lecture mode the H that the
  // algorithm stepped through fills (all joints).
  const dyn::MimicCoupling* mimic = m_lecture && m_lecture->isActive() ? nullptr : m_doc->mimic();
  try {
    m_analysis = analyseMassMatrix(model, m_data, m_doc->q(), m_settings, mimic);
  } catch (const std::exception& e) {
    // E.g. a joint that moves no mass: H is singular and has no Cholesky factor. Show H then.
    m_error = QString::fromStdString(e.what());
    MassMatrixSettings h = m_settings;
    h.view = MassMatrixView::H;
    m_analysis = analyseMassMatrix(model, m_data, m_doc->q(), h, mimic);
  }
  if (showsGlobal()) {
    m_global->compute(model, m_doc->q());
    arrangePictures();
  }
  showContent();
}

void MassMatrixDock::setShowGlobal(bool on) {
  if (m_globalBox->isChecked() != on) {
    m_globalBox->setChecked(on);  // toggled() comes back here
    return;
  }
  m_global->setVisible(on);
  arrangePictures();
  if (on) {
    m_dirty = true;
    if (isVisible()) recompute();
  }
}

bool MassMatrixDock::showsGlobal() const { return m_globalBox->isChecked(); }

void MassMatrixDock::showContent() {
  m_lectureFill = false;
  if (m_analysis.nv == 0) return;
  const MassMatrixAnalysis& a = m_analysis;
  HeatMapContent c;
  c.values = a.values;
  c.kinds = a.kinds;
  for (const std::string& n : a.dofNames) c.labels << shortName(n);
  c.side = a.diagonal;
  c.sideLabel = tr("diag H");
  const QString numbering =
      m_settings.breadthFirst ? tr("breadth-first numbering") : tr("model (depth-first) numbering");
  if (a.settings.view == MassMatrixView::H) {
    c.title = tr("%1 of %2: %3 of %4 entries structurally zero (%5 %)")
                  .arg(a.reduced ? tr("H_y = G\u1d40HG (mimic joints, independent coordinates)") : tr("H(q)"))
                  .arg(m_doc->robotName())
                  .arg(a.nv * a.nv - a.structuralNonZeros)
                  .arg(a.nv * a.nv)
                  .arg(a.sparsityPercent, 0, 'f', 1);
    c.scaleLabel = tr("H\u1d62\u2c7c (SI)");
  } else {
    c.title = tr("L of %1, %2, %3: fill-in %4")
                  .arg(a.settings.form == dyn::CholeskyForm::LTL ? "H = L\u1d40L" : "H = LL\u1d40")
                  .arg(numbering)
                  .arg(a.sparseAlgorithm ? tr("sparse algorithm") : tr("dense Cholesky of P H P\u1d40"))
                  .arg(a.fillIn);
    c.scaleLabel = tr("L\u1d62\u2c7c");
  }
  // Lecture mode: H as far as CRBA has got (same colour range as the complete H).
  const dyn::TraceTerm* H = m_lecture && m_lecture->isActive() && m_lecture->hasTrace() &&
                                    a.settings.view == MassMatrixView::H && m_lecture->model().nv == a.nv
                                ? m_lecture->state().find("H", -1)
                                : nullptr;
  if (H) {
    m_lectureFill = true;
    c.fixedScale = c.values.cwiseAbs().maxCoeff();
    int known = 0, total = 0;
    for (int r = 0; r < a.nv; ++r)
      for (int col = 0; col < a.nv; ++col) {
        CellKind& kind = c.kinds[size_t(r) * a.nv + col];
        if (kind != CellKind::Value) continue;
        ++total;
        const double v = H->value(a.dof(r), a.dof(col));
        if (std::isnan(v)) {
          kind = CellKind::Pending;
        } else {
          c.values(r, col) = v;
          ++known;
        }
      }
    c.title = tr("H(q) of %1 filled by CRBA: %2 of %3 entries (step %4 of %5)")
                  .arg(m_doc->robotName())
                  .arg(known)
                  .arg(total)
                  .arg(m_lecture->position())
                  .arg(m_lecture->stepCount());
  }
  m_map->setContent(std::move(c));
  updateHighlight();
  // Each "·"-separated item whole on screen: the label wraps between items, never inside a
  // number range such as "λ 0.000511 … 6.1".
  QStringList items = statusText().split(QStringLiteral(" \u00b7 "));
  for (QString& item : items) item.replace(' ', QChar(0x00a0));
  m_status->setText(items.join(QStringLiteral(" \u00b7 ")));
  if (!m_map->hoverText().isEmpty()) m_readout->setText(m_map->hoverText());
}

QString MassMatrixDock::statusText() const {
  const MassMatrixAnalysis& a = m_analysis;
  if (a.nv == 0) return tr("No robot with moving joints");
  QString s = tr("%1 dof \u00b7 structural non-zeros %2 of %3 \u00b7 sparsity %4 % \u00b7 cond(H) %5 "
                 "(\u03bb %6 \u2026 %7) \u00b7 diag H %8 \u2026 %9")
                  .arg(a.nv)
                  .arg(a.structuralNonZeros)
                  .arg(a.nv * a.nv)
                  .arg(a.sparsityPercent, 0, 'f', 1)
                  .arg((a.spectrumEstimated ? "≈" : "") + sci(a.conditionNumber), sci(a.eigenMin), sci(a.eigenMax))
                  .arg(sci(a.diagonal.minCoeff()), sci(a.diagonal.maxCoeff()));
  if (a.settings.view == MassMatrixView::L)
    s += tr(" \u00b7 fill-in %1 (the other elimination order: %2)").arg(a.fillIn).arg(a.symbolicFillIn);
  if (!m_error.isEmpty()) s += "\n" + tr("No factor: %1").arg(m_error);
  return s;
}

QString MassMatrixDock::readoutText() const { return m_readout->text(); }

QString MassMatrixDock::describeCell(int r, int c) const {
  const MassMatrixAnalysis& a = m_analysis;
  if (r < 0 || r >= a.nv) return {};
  const dyn::Model& model = m_doc->model();
  const QString ni = QString::fromStdString(a.dofNames[r]);
  if (c == MatrixHeatMap::kSideColumn)
    return tr("H[%1, %1] = %2\ndiagonal: the inertia felt by %1 alone").arg(ni).arg(a.diagonal[r], 0, 'g', 6);
  if (c < 0 || c >= a.nv) return {};
  const QString nj = QString::fromStdString(a.dofNames[c]);
  const bool isL = a.settings.view == MassMatrixView::L;
  const QString value = tr("%1[%2, %3] = %4").arg(isL ? "L" : "H", ni, nj).arg(a.values(r, c), 0, 'g', 6);
  QString relation;
  switch (dyn::dofRelation(model, a.dof(r), a.dof(c))) {
    case dyn::DofRelation::SameDof:
      relation = tr("same joint (diagonal)");
      break;
    case dyn::DofRelation::SameJoint:
      relation = tr("same joint (two of its dofs)");
      break;
    case dyn::DofRelation::Ancestor:
      relation = tr("ancestor\u2013descendant: %1 is an ancestor of %2").arg(ni, nj);
      break;
    case dyn::DofRelation::Descendant:
      relation = tr("ancestor\u2013descendant: %1 is an ancestor of %2").arg(nj, ni);
      break;
    case dyn::DofRelation::DifferentBranches:
      relation = a.reduced && a.pattern(r, c) ? tr("different branches, coupled through their mimic followers")
                                              : tr("different branches");
      break;
  }
  QString note;
  switch (a.kind(r, c)) {
    case CellKind::StructuralZero:
      note = tr(" \u2192 structural zero (eq. 45)");
      break;
    case CellKind::FillIn:
      note = tr(" \u2192 fill-in: zero in H, non-zero in L");
      break;
    case CellKind::Blank:
      note = tr(" (upper triangle: not part of L)");
      break;
    case CellKind::Value:
    case CellKind::Pending:
      break;
  }
  return value + "\n" + relation + note;
}

void MassMatrixDock::setLectureDocument(LectureDocument* lecture) {
  m_lecture = lecture;
  const auto update = [this] {
    if (m_analysis.nv > 0) showContent();
  };
  connect(lecture, &LectureDocument::traceChanged, this, update);
  connect(lecture, &LectureDocument::positionChanged, this, update);
  connect(lecture, &LectureDocument::activeChanged, this, [this, update] {
    if (m_doc->mimic()) {  // H_y at the desk, H in lecture mode
      m_dirty = true;
      recompute();
    } else {
      update();
    }
  });
}

void MassMatrixDock::onCellClicked(int row, int column) {
  Q_UNUSED(column);
  if (row >= 0 && row < m_analysis.nv) emit jointClicked(m_analysis.dof(row));
}

void MassMatrixDock::setSelectedBody(int body) {
  m_selectedBody = body;
  updateHighlight();
}

void MassMatrixDock::updateHighlight() {
  std::vector<int> positions;
  const dyn::Model& model = m_doc->model();
  if (m_selectedBody > 0 && m_selectedBody <= model.N && (int)m_analysis.order.size() == m_analysis.nv) {
    const dyn::JointModel<double>& j = model.joints[m_selectedBody];
    for (int k = 0; k < m_analysis.nv; ++k)
      if (m_analysis.order[k] >= j.idx_v && m_analysis.order[k] < j.idx_v + j.nv) positions.push_back(k);
  }
  m_map->setHighlighted(std::move(positions));
}

void MassMatrixDock::syncControls() {
  const QSignalBlocker b1(m_viewBox), b2(m_formBox), b3(m_breadthFirst), b4(m_log), b5(m_labels);
  m_viewBox->setCurrentIndex(m_settings.view == MassMatrixView::L ? 1 : 0);
  m_formBox->setCurrentIndex(m_settings.form == dyn::CholeskyForm::LLT ? 1 : 0);
  m_formBox->setEnabled(m_settings.view == MassMatrixView::L);
  m_breadthFirst->setChecked(m_settings.breadthFirst);
  m_log->setChecked(m_map->logMagnitude());
  m_labels->setChecked(m_map->showLabels());
}

void MassMatrixDock::setView(MassMatrixView view) {
  m_settings.view = view;
  syncControls();
  scheduleRecompute();
}

void MassMatrixDock::setBreadthFirst(bool on) {
  m_settings.breadthFirst = on;
  syncControls();
  scheduleRecompute();
}

void MassMatrixDock::setFactorForm(dyn::CholeskyForm form) {
  m_settings.form = form;
  syncControls();
  scheduleRecompute();
}

void MassMatrixDock::setLogMagnitude(bool on) {
  m_map->setLogMagnitude(on);
  syncControls();
}

void MassMatrixDock::setShowLabels(bool on) {
  m_map->setShowLabels(on);
  syncControls();
}

bool MassMatrixDock::exportPng(const QString& path, QSize size, double scale, QString* error) const {
  return savePngAtomically(path, m_map->renderImage(size.isEmpty() ? m_map->size() : size, scale), error);
}

bool MassMatrixDock::exportCsv(const QString& path, QString* error) const {
  const MassMatrixAnalysis& a = m_analysis;
  QByteArray out = a.settings.view == MassMatrixView::L ? "L" : "H";
  for (const std::string& n : a.dofNames) out += ',' + plots::csvField(QString::fromStdString(n)).toUtf8();
  out += '\n';
  char number[32];
  for (int r = 0; r < a.nv; ++r) {
    out += plots::csvField(QString::fromStdString(a.dofNames[r])).toUtf8();
    for (int c = 0; c < a.nv; ++c) {
      std::snprintf(number, sizeof number, ",%.17g", a.values(r, c));
      out += number;
    }
    out += '\n';
  }
  return saveFileAtomically(path, out, error);
}

void MassMatrixDock::exportPngDialog() {
  const QString path =
      QFileDialog::getSaveFileName(this, tr("Export mass matrix picture"), "mass-matrix.png", tr("PNG images (*.png)"));
  if (path.isEmpty()) return;
  QString error;
  // Twice the on-screen size: sharp on a projector.
  if (!exportPng(path, m_map->size(), 2, &error)) QMessageBox::warning(this, tr("Export failed"), error);
}

void MassMatrixDock::exportCsvDialog() {
  const QString path =
      QFileDialog::getSaveFileName(this, tr("Export mass matrix"), "mass-matrix.csv", tr("CSV files (*.csv)"));
  if (path.isEmpty()) return;
  QString error;
  if (!exportCsv(path, &error)) QMessageBox::warning(this, tr("Export failed"), error);
}
