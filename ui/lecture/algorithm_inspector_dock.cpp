#include "lecture/algorithm_inspector_dock.hpp"

#include <QAction>
#include <QCheckBox>
#include <QComboBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QScrollArea>
#include <QSignalBlocker>
#include <QSlider>
#include <QSpinBox>
#include <QSplitter>
#include <QStyle>
#include <QTabWidget>
#include <QTableView>
#include <QTableWidget>
#include <QTimer>
#include <QToolButton>
#include <QVBoxLayout>
#include <cmath>
#include <memory>

#include "dynscope/model/names.hpp"
#include "lecture/equation_html.hpp"
#include "lecture/katex_view.hpp"
#include "lecture/lecture_document.hpp"
#include "lecture/trace_table_model.hpp"

namespace {

// The size slider: 0..100 maps to a factor 1/8 .. 8 on a log scale, 50 = 1.
double factorOf(int slider) { return std::pow(2.0, (slider - 50) / 50.0 * 3.0); }
int sliderOf(double factor) { return int(std::lround(50 + std::log2(factor) / 3.0 * 50)); }

}  // namespace

AlgorithmInspectorDock::AlgorithmInspectorDock(LectureDocument* lecture, QWidget* parent)
    : QDockWidget(tr("Algorithm inspector"), parent), m_lecture(lecture) {
  setObjectName("algorithmInspectorDock");
  auto* body = new QWidget(this);
  auto* layout = new QVBoxLayout(body);
  layout->setContentsMargins(4, 4, 4, 4);

  // Algorithm and inputs.
  auto* top = new QHBoxLayout;
  m_algorithm = new QComboBox(body);
  m_algorithm->setObjectName("lectureAlgorithm");
  // Featherstone's algorithms first, then the engine's other formulations (DeNOC, Newton-Euler with
  // 3-vectors, the Lagrangian family, the configuration-space method): every one steps.
  for (const dyn::TraceableAlgorithm& a : dyn::traceableAlgorithms()) {
    if (std::string(a.name) == "denoc-id") m_algorithm->insertSeparator(m_algorithm->count());
    m_algorithm->addItem(QString::fromUtf8(a.label), QString::fromUtf8(a.name));
    m_algorithm->setItemData(m_algorithm->count() - 1, QString::fromUtf8(a.title) + "\n" + a.source, Qt::ToolTipRole);
  }
  m_source = new QComboBox(body);
  m_source->setObjectName("lectureInputSource");
  m_source->addItem(tr("Pose and trajectory"));
  m_source->addItem(tr("Entered values"));
  m_source->setToolTip(
      tr("q is always the robot's pose. q̇, q̈ and τ come from the trajectory at the timeline's time (zero without a "
         "trajectory; τ then the Joints dock's constant torques), or from the Inputs tab."));
  top->addWidget(m_algorithm, 2);
  top->addWidget(m_source, 1);
  layout->addLayout(top);

  // Navigation.
  QStyle* st = style();
  const auto makeAction = [this](const QIcon& icon, const QString& text, const QKeySequence& key, const char* name) {
    auto* a = new QAction(icon, text, this);
    a->setObjectName(name);
    a->setShortcut(key);
    a->setShortcutContext(Qt::WidgetWithChildrenShortcut);  // this dock, and the 3D view (the window adds it)
    a->setToolTip(QString("%1 (%2)").arg(text, key.toString(QKeySequence::NativeText)));
    addAction(a);
    m_actions.push_back(a);
    return a;
  };
  m_start = makeAction(st->standardIcon(QStyle::SP_MediaSkipBackward), tr("Start"), QKeySequence(Qt::Key_Home),
                       "lectureStartAction");
  m_startOfPass =
      makeAction(QIcon(), tr("Start of the pass"), QKeySequence(Qt::SHIFT | Qt::Key_Left), "lectureStartOfPassAction");
  m_back = makeAction(st->standardIcon(QStyle::SP_MediaSeekBackward), tr("Step back"), QKeySequence(Qt::Key_Left),
                      "lectureBackAction");
  m_forward = makeAction(st->standardIcon(QStyle::SP_MediaSeekForward), tr("Step"), QKeySequence(Qt::Key_Right),
                         "lectureForwardAction");
  m_endOfPass = makeAction(st->standardIcon(QStyle::SP_MediaSkipForward), tr("End of the pass"),
                           QKeySequence(Qt::SHIFT | Qt::Key_Right), "lectureEndOfPassAction");
  m_end = makeAction(QIcon(), tr("End"), QKeySequence(Qt::Key_End), "lectureEndAction");
  m_play = makeAction(st->standardIcon(QStyle::SP_MediaPlay), tr("Play"), QKeySequence(Qt::Key_P), "lecturePlayAction");
  m_play->setCheckable(true);
  connect(m_start, &QAction::triggered, lecture, &LectureDocument::toStart);
  connect(m_startOfPass, &QAction::triggered, lecture, &LectureDocument::toStartOfPass);
  connect(m_back, &QAction::triggered, lecture, &LectureDocument::stepBackward);
  connect(m_forward, &QAction::triggered, lecture, &LectureDocument::stepForward);
  connect(m_endOfPass, &QAction::triggered, lecture, &LectureDocument::toEndOfPass);
  connect(m_end, &QAction::triggered, lecture, &LectureDocument::toEnd);
  connect(m_play, &QAction::triggered, lecture, &LectureDocument::setPlaying);

  auto* nav = new QHBoxLayout;
  for (QAction* a : {m_start, m_back, m_forward, m_endOfPass, m_play}) {
    auto* b = new QToolButton(body);
    b->setDefaultAction(a);
    nav->addWidget(b);
  }
  m_pace = new QSpinBox(body);
  m_pace->setObjectName("lecturePace");
  m_pace->setRange(100, 10000);
  m_pace->setSingleStep(100);
  m_pace->setSuffix(tr(" ms/step"));
  m_pace->setValue(lecture->paceMs());
  m_pace->setToolTip(tr("Play's pace: time per step"));
  connect(m_pace, &QSpinBox::valueChanged, lecture, &LectureDocument::setPaceMs);
  nav->addWidget(m_pace);
  m_position = new QLabel(body);
  m_position->setObjectName("lecturePosition");
  nav->addWidget(m_position, 1);
  layout->addLayout(nav);
  m_pass = new QLabel(body);
  m_pass->setObjectName("lecturePass");
  m_pass->setWordWrap(true);
  layout->addWidget(m_pass);
  m_counts = new QLabel(body);
  m_counts->setObjectName("lectureCounts");
  m_counts->setWordWrap(true);
  m_counts->setToolTip(
      tr("Measured by running the same code on the operation-counting scalar: multiplications and "
         "divisions (×), additions and subtractions (+); the joint transforms (jcalc) apart, as "
         "Hollerbach counts them."));
  layout->addWidget(m_counts);

  // Equations above, tabs below.
  auto* split = m_split = new QSplitter(Qt::Vertical, body);
  // The web view comes in when the dock is first shown.
  m_equations = new KatexView(tr("Algorithm inspector"), "lectureEquationView", split);
  m_equations->setObjectName("lectureEquations");
  m_equations->setMinimumHeight(160);
  // The web view has no size hint worth the name: give the equations their share once, as
  // presentation mode does (the table below keeps the rest).
  connect(m_equations, &KatexView::viewCreated, this, [this] {
    QTimer::singleShot(0, this, [this] {
      const int total = m_split->height() > 0 ? m_split->height() : 600;
      const int equations = total * (m_presentation ? 72 : 60) / 100;
      m_split->setSizes({equations, total - equations});
    });
  });
  connect(m_equations, &KatexView::typeset, this, &AlgorithmInspectorDock::equationsTypeset);
  m_tabs = new QTabWidget(split);
  m_model = new TraceTableModel(lecture, this);
  m_table = new QTableView(m_tabs);
  m_table->setObjectName("lectureTable");
  m_table->setModel(m_model);
  m_table->setSelectionMode(QAbstractItemView::NoSelection);
  m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
  m_table->verticalHeader()->setTextElideMode(Qt::ElideRight);
  m_table->setToolTip(
      tr("The per-body quantities written so far; the cells of the current step highlighted. "
         "Hover a cell for every entry."));
  m_tabs->addTab(m_table, tr("Per-body quantities"));
  m_inputs = new QTableWidget(m_tabs);
  m_inputs->setObjectName("lectureInputs");
  QFont serif("DejaVu Serif");  // draws the dots of q̇ and q̈ above the q
  m_inputs->horizontalHeader()->setFont(serif);
  m_table->horizontalHeader()->setFont(serif);  // the columns q̈, ṫ, ...
  m_tabs->addTab(m_inputs, tr("Inputs"));
  auto* arrows = new QWidget(m_tabs);
  auto* form = new QFormLayout(arrows);
  m_showArrows = new QCheckBox(tr("Show arrows in the 3D view"), arrows);
  m_showArrows->setObjectName("lectureShowArrows");
  m_passArrow = new QCheckBox(tr("Pass direction (gold arrow along the tree)"), arrows);
  m_passArrow->setObjectName("lecturePassArrow");
  form->addRow(m_showArrows);
  form->addRow(m_passArrow);
  auto* kinds = new QWidget(arrows);
  auto* kindGrid = new QHBoxLayout(kinds);
  kindGrid->setContentsMargins(0, 0, 0, 0);
  for (int k = 0; k < int(dyn::ArrowKind::Count); ++k) {
    auto* box = new QCheckBox(QString::fromUtf8(dyn::arrowName(dyn::ArrowKind(k))), kinds);
    box->setObjectName(QString("lectureArrowKind%1").arg(k));
    box->setToolTip(tr("in %1").arg(QString::fromUtf8(dyn::arrowUnit(dyn::ArrowKind(k)))));
    kindGrid->addWidget(box);
    m_kindBoxes.push_back(box);
    connect(box, &QCheckBox::toggled, this, &AlgorithmInspectorDock::applyArrowControls);
  }
  form->addRow(tr("Quantities"), kinds);
  m_point = new QComboBox(arrows);
  m_point->setObjectName("lectureArrowPoint");
  m_point->addItem(tr("centre of mass"));
  m_point->addItem(tr("body frame origin"));
  form->addRow(tr("Drawn at each body's"), m_point);
  auto* sizeRow = new QHBoxLayout;
  m_size = new QSlider(Qt::Horizontal, arrows);
  m_size->setObjectName("lectureArrowSize");
  m_size->setRange(0, 100);
  m_sizeLabel = new QLabel(arrows);
  sizeRow->addWidget(m_size, 1);
  sizeRow->addWidget(m_sizeLabel);
  form->addRow(tr("Scale"), sizeRow);
  auto* note = new QLabel(tr("The scales are chosen so that the longest arrow of each kind is about a third of the "
                             "robot, then multiplied by this factor; the legend in the 3D view states them."),
                          arrows);
  note->setWordWrap(true);
  form->addRow(note);
  // Scrolled: the controls must not set the tabs' minimum height (presentation mode gives the
  // equations most of the dock).
  auto* arrowsScroll = new QScrollArea(m_tabs);
  arrowsScroll->setWidgetResizable(true);
  arrowsScroll->setFrameShape(QFrame::NoFrame);
  arrowsScroll->setWidget(arrows);
  m_tabs->addTab(arrowsScroll, tr("Arrows"));
  split->addWidget(m_equations);
  split->addWidget(m_tabs);
  split->setStretchFactor(0, 3);
  split->setStretchFactor(1, 2);
  layout->addWidget(split, 1);

  m_handout = new QPushButton(tr("Export handout…"), body);
  m_handout->setObjectName("lectureHandout");
  m_handout->setToolTip(
      tr("The whole walk-through as one HTML page or PDF: every step's equation, numbers and a "
         "picture of the robot with the arrows"));
  connect(m_handout, &QPushButton::clicked, this, &AlgorithmInspectorDock::handoutRequested);
  layout->addWidget(m_handout);
  setWidget(body);

  connect(m_showArrows, &QCheckBox::toggled, this, &AlgorithmInspectorDock::applyArrowControls);
  connect(m_passArrow, &QCheckBox::toggled, this, &AlgorithmInspectorDock::applyArrowControls);
  connect(m_point, &QComboBox::currentIndexChanged, this, &AlgorithmInspectorDock::applyArrowControls);
  connect(m_size, &QSlider::valueChanged, this, &AlgorithmInspectorDock::applyArrowControls);
  connect(m_algorithm, &QComboBox::currentIndexChanged, this,
          [this](int i) { m_lecture->setAlgorithm(m_algorithm->itemData(i).toString()); });
  connect(m_source, &QComboBox::currentIndexChanged, this, [this](int i) {
    m_lecture->setInputSource(i == 1 ? LectureDocument::InputSource::Entered
                                     : LectureDocument::InputSource::RobotAndTrajectory);
  });
  connect(m_inputs, &QTableWidget::cellChanged, this, [this](int row, int column) {
    if (m_updatingInputs) return;
    Eigen::VectorXd qd = m_lecture->enteredQd(), qdd = m_lecture->enteredQdd(), tau = m_lecture->enteredTau();
    bool ok = false;
    const double x = m_inputs->item(row, column)->text().toDouble(&ok);
    Eigen::VectorXd& v = column == 0 ? qd : column == 1 ? qdd : tau;
    if (ok && row < v.size()) {
      v[row] = x;
      m_lecture->setEntered(qd, qdd, tau);
    }
    refreshInputs();
  });
  connect(this, &QDockWidget::visibilityChanged, lecture, &LectureDocument::setActive);
  connect(lecture, &LectureDocument::traceChanged, this, &AlgorithmInspectorDock::refresh);
  connect(lecture, &LectureDocument::traceChanged, this, &AlgorithmInspectorDock::refreshInputs);
  connect(lecture, &LectureDocument::positionChanged, this, &AlgorithmInspectorDock::refresh);
  connect(lecture, &LectureDocument::activeChanged, this, &AlgorithmInspectorDock::updateEnabled);
  connect(lecture, &LectureDocument::inputChanged, this, &AlgorithmInspectorDock::refreshInputs);
  connect(lecture, &LectureDocument::playingChanged, this, [this](bool on) {
    const QSignalBlocker block(m_play);
    m_play->setChecked(on);
    m_play->setIcon(style()->standardIcon(on ? QStyle::SP_MediaPause : QStyle::SP_MediaPlay));
  });
  connect(lecture, &LectureDocument::algorithmChanged, this, [this](const QString& name) {
    const QSignalBlocker block(m_algorithm);
    m_algorithm->setCurrentIndex(m_algorithm->findData(name));
  });
  connect(lecture, &LectureDocument::arrowSettingsChanged, this, &AlgorithmInspectorDock::syncArrowControls);
  syncArrowControls();
  refreshInputs();
  refresh();
}

AlgorithmInspectorDock::~AlgorithmInspectorDock() = default;

QWidget* AlgorithmInspectorDock::equationPanel() const { return m_equations; }
QWebEngineView* AlgorithmInspectorDock::equationView() const { return m_equations->webView(); }
bool AlgorithmInspectorDock::equationsRendered() const { return m_equations->isRendered(); }
int AlgorithmInspectorDock::refusedFormulas() const { return m_equations->refusedFormulas(); }

void AlgorithmInspectorDock::applyArrowControls() {
  LectureDocument::ArrowSettings s = m_lecture->arrowSettings();
  s.show = m_showArrows->isChecked();
  s.passArrow = m_passArrow->isChecked();
  for (size_t k = 0; k < m_kindBoxes.size(); ++k) s.kinds[k] = m_kindBoxes[k]->isChecked();
  s.point = m_point->currentIndex() == 1 ? dyn::ArrowPoint::FrameOrigin : dyn::ArrowPoint::CenterOfMass;
  s.size = factorOf(m_size->value());
  m_lecture->setArrowSettings(s);
}

void AlgorithmInspectorDock::syncArrowControls() {
  const LectureDocument::ArrowSettings& s = m_lecture->arrowSettings();
  const QSignalBlocker b1(m_showArrows), b2(m_passArrow), b3(m_point), b4(m_size);
  m_showArrows->setChecked(s.show);
  m_passArrow->setChecked(s.passArrow);
  for (size_t k = 0; k < m_kindBoxes.size(); ++k) {
    const QSignalBlocker b(m_kindBoxes[k]);
    m_kindBoxes[k]->setChecked(s.kinds[k]);
  }
  m_point->setCurrentIndex(s.point == dyn::ArrowPoint::FrameOrigin ? 1 : 0);
  m_size->setValue(sliderOf(s.size));
  m_sizeLabel->setText(QString("× %1").arg(s.size, 0, 'g', 2));
}

void AlgorithmInspectorDock::refreshInputs() {
  m_updatingInputs = true;
  const bool entered = m_lecture->inputSource() == LectureDocument::InputSource::Entered;
  {
    const QSignalBlocker block(m_source);
    m_source->setCurrentIndex(entered ? 1 : 0);
  }
  const dyn::TraceInput in = m_lecture->currentInput();
  const int nv = int(in.qd.size());
  m_inputs->setRowCount(nv);
  m_inputs->setColumnCount(3);
  m_inputs->setHorizontalHeaderLabels({"q̇", "q̈", "τ"});
  const std::vector<std::string> names =
      m_lecture->hasTrace() || nv > 0 ? dyn::velocityNames(m_lecture->model()) : std::vector<std::string>{};
  for (int r = 0; r < nv; ++r) {
    const QString name = r < int(names.size()) ? QString::fromStdString(names[r]) : QString::number(r);
    if (!m_inputs->verticalHeaderItem(r) || m_inputs->verticalHeaderItem(r)->text() != name)
      m_inputs->setVerticalHeaderItem(r, new QTableWidgetItem(name));
    const double values[3] = {in.qd[r], r < in.qdd.size() ? in.qdd[r] : 0.0, r < in.tau.size() ? in.tau[r] : 0.0};
    for (int c = 0; c < 3; ++c) {
      // Updated in place: this also runs from the table's own cellChanged.
      QTableWidgetItem* item = m_inputs->item(r, c);
      if (!item) {
        item = new QTableWidgetItem;
        m_inputs->setItem(r, c, item);
      }
      item->setText(QString::number(values[c], 'g', 6));
      item->setFlags(entered ? item->flags() | Qt::ItemIsEditable : item->flags() & ~Qt::ItemIsEditable);
    }
  }
  m_inputs->setToolTip(entered ? tr("Type the values; q comes from the robot's pose")
                               : tr("From the trajectory at the timeline's time; choose “Entered” to type them"));
  m_updatingInputs = false;
}

QString AlgorithmInspectorDock::positionText() const { return m_position->text(); }
QString AlgorithmInspectorDock::countsText() const { return m_counts->text(); }

void AlgorithmInspectorDock::refresh() {
  updateEnabled();
  const lecture_html::Style style =
      m_presentation ? lecture_html::Style::presentation(m_presentationScale) : lecture_html::Style::normal();
  if (!m_lecture->hasTrace()) {
    m_position->setText(tr("—"));
    m_pass->clear();
    m_counts->clear();
    m_body = QString("<p>%1</p>")
                 .arg(m_lecture->error().isEmpty() ? tr("Load a robot to step through an algorithm.")
                                                   : m_lecture->error().toHtmlEscaped());
    m_html = lecture_html::page(m_body, style);
    showPage();
    return;
  }
  const dyn::AlgorithmTrace& t = m_lecture->trace();
  const int p = m_lecture->position();
  m_position->setText(p == 0 ? tr("Start · %1 steps").arg(t.steps.size())
                             : tr("Step %1 / %2").arg(p).arg(t.steps.size()));
  const dyn::TracePass* pass = m_lecture->currentPass();
  m_pass->setText(pass && p > 0 ? QString::fromStdString(pass->name) + " — " + QString::fromStdString(pass->reference)
                                : QString());
  m_counts->setText(lecture_html::countsLine(t, p));
  // The step's body row in view: the table may have room for only a few rows (a laptop presenting).
  // (Queued: the table's model takes the same step after this.)
  // Scrolled sideways to the columns this step wrote (the last, then the first: both in view when they fit).
  // Long body names ("left_shoulder_pitch_link") elided, whole in the tooltip: the step's columns
  // need the width more than the names do (measured now: presenting scales the font).
  m_table->verticalHeader()->setMaximumWidth(m_table->fontMetrics().horizontalAdvance("00 left_shoulder_pi…"));
  if (const int body = p > 0 ? t.steps[size_t(p - 1)].body : 0; body >= 1)
    QTimer::singleShot(0, this, [this, body] {
      if (body > m_model->rowCount()) return;
      int first = -1, last = -1;
      for (int c = 0; c < m_model->columnCount(); ++c)
        if (m_model->isChanged(body - 1, c)) (first < 0 ? first : last) = c, last = c;
      m_table->scrollTo(m_model->index(body - 1, last >= 0 ? last : 0), QAbstractItemView::EnsureVisible);
      m_table->scrollTo(m_model->index(body - 1, first >= 0 ? first : 0), QAbstractItemView::EnsureVisible);
    });
  QString body = lecture_html::stepBody(m_lecture->model(), t, p, style);
  const Eigen::MatrixXd& reference = m_lecture->referenceResult();
  if (p == int(t.steps.size()) && reference.size() == t.result.size() && reference.size() > 0)
    body += QString("<p class=\"note\">%1</p>")
                .arg(tr("The engine's %1 at the same input: largest difference %2")
                         .arg(m_lecture->referenceName())
                         .arg(QString::number((t.result - reference).cwiseAbs().maxCoeff(), 'g', 3)));
  else if (p == int(t.steps.size()) && !m_lecture->referenceRefusal().isEmpty())
    body += QString("<p class=\"note\">%1</p>")
                .arg(tr("The engine's %1 refuses the same input: %2")
                         .arg(m_lecture->referenceName(), m_lecture->referenceRefusal().toHtmlEscaped()));
  m_body = body;
  m_html = lecture_html::page(body, style);
  showPage();
}

void AlgorithmInspectorDock::showPage() {
  const lecture_html::Style style =
      m_presentation ? lecture_html::Style::presentation(m_presentationScale) : lecture_html::Style::normal();
  m_equations->show(m_body, lecture_html::css(style), m_presentation);  // presenting: zoomed to fit (dynFit)
}

void AlgorithmInspectorDock::updateEnabled() {
  const bool on = m_lecture->isActive() && m_lecture->hasTrace();
  const int p = m_lecture->position(), n = m_lecture->stepCount();
  m_start->setEnabled(on && p > 0);
  m_startOfPass->setEnabled(on && p > 0);
  m_back->setEnabled(on && p > 0);
  m_forward->setEnabled(on && p < n);
  m_endOfPass->setEnabled(on && p < n);
  m_end->setEnabled(on && p < n);
  m_play->setEnabled(on);
  m_handout->setEnabled(on);
}

void AlgorithmInspectorDock::setPresentationMode(bool on, double scale) {
  m_presentation = on;
  m_presentationScale = scale;
  refresh();  // the page's stylesheet has the sizes
  // The pass is in the panel's heading; in presentation mode the equations get most of the dock
  // and the table the rest. Again once the window's new font and geometry have settled.
  m_pass->setVisible(!on);
  const auto share = [this] {
    const int total = m_split->height() > 0 ? m_split->height() : 600;
    const int equations = total * (m_presentation ? 72 : 60) / 100;  // the table keeps a few rows
    m_split->setSizes({equations, total - equations});
  };
  share();
  for (int ms : {0, 350}) QTimer::singleShot(ms, this, share);
}
