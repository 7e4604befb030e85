#include "algorithms/algorithms_dock.hpp"

#include <QComboBox>
#include <QFormLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QScrollArea>
#include <QScrollBar>
#include <QSplitter>
#include <QStandardItemModel>
#include <QStyle>
#include <QTabWidget>
#include <QTableWidget>
#include <QTimer>
#include <QVBoxLayout>
#include <memory>

#include "document/robot_document.hpp"
#include "plots/operation_count_plot.hpp"
#include "trajectory/trajectory_document.hpp"

namespace {

const dyn::Problem kProblems[] = {dyn::Problem::InverseDynamics, dyn::Problem::MassMatrix,
                                  dyn::Problem::ForwardDynamics};

// The figure's chain sizes go beyond the robot (at least 16, twice its n), up to the CLI's 64.
int figureNMax(int robotN) { return std::clamp(std::max(16, 2 * robotN), 1, 64); }

QString vectorText(const Eigen::VectorXd& v, int shown = 8) {
  QStringList parts;
  for (int i = 0; i < std::min<int>(int(v.size()), shown); ++i) {
    QString x = QString::number(v[i], 'f', 3);
    if (x == QLatin1String("-0.000")) x.remove(0, 1);  // a value that rounds to zero has no sign
    parts << x;
  }
  if (v.size() > shown) parts << QStringLiteral("…");
  return "(" + parts.join(", ") + ")";
}

QTableWidgetItem* item(const QString& text, Qt::Alignment align = Qt::AlignRight | Qt::AlignVCenter) {
  auto* it = new QTableWidgetItem(text);
  it->setTextAlignment(align);
  it->setFlags(Qt::ItemIsEnabled | Qt::ItemIsSelectable);
  return it;
}

QString count(long long v) {
  return v < 0 ? QStringLiteral("—") : QLocale::c().toString(v).replace(',', QChar(0x2009));
}

}  // namespace

AlgorithmsDock::AlgorithmsDock(TrajectoryDocument* traj, QWidget* parent)
    : QDockWidget(tr("Algorithms"), parent), m_traj(traj) {
  setObjectName("algorithmsDock");
  auto* body = new QWidget(this);
  auto* layout = new QVBoxLayout(body);
  // Two columns: the choice, the live numbers and the table on the left; the figure on the right
  // over the dock's whole height (below the controls it was ~100 px high in a low bottom dock).
  auto* split = new QSplitter(Qt::Horizontal, body);
  split->setChildrenCollapsible(false);
  auto* tablePane = new QWidget(split);
  auto* tableLayout = new QVBoxLayout(tablePane);
  tableLayout->setContentsMargins(0, 0, 0, 0);

  auto* form = new QFormLayout;
  m_idCombo = new QComboBox(body);
  m_idCombo->setObjectName("inverseDynamicsCombo");
  m_idCombo->setToolTip(
      tr("The formulation that computes τ along the trajectory, in the plots and at the current time"));
  m_fdCombo = new QComboBox(body);
  m_fdCombo->setObjectName("forwardDynamicsCombo");
  m_fdCombo->setToolTip(tr("The formulation that computes q̈ = FD(q, q̇, τ) at the current time"));
  form->addRow(tr("Inverse dynamics (torques):"), m_idCombo);
  form->addRow(tr("Forward dynamics (accelerations):"), m_fdCombo);
  tableLayout->addLayout(form);
  m_note = new QLabel(body);
  m_note->setObjectName("algorithmNote");
  m_note->setWordWrap(true);
  m_note->setStyleSheet("color: #a03000;");
  m_note->hide();
  tableLayout->addWidget(m_note);
  m_live = new QLabel(body);
  m_live->setObjectName("liveDynamics");
  m_live->setWordWrap(true);
  m_live->setTextInteractionFlags(Qt::TextSelectableByMouse);
  m_live->setSizePolicy(QSizePolicy::Preferred, QSizePolicy::Maximum);
  tableLayout->addWidget(m_live);

  // What the table shows, above it.
  auto* statusRow = new QHBoxLayout;
  m_status = new QLabel(body);
  m_status->setObjectName("surveyStatus");
  m_status->setWordWrap(true);
  auto* again = new QPushButton(tr("Measure again"), body);
  again->setObjectName("measureAgainButton");
  again->setToolTip(tr("Recompute the table at the current state (F9)"));
  again->setShortcut(QKeySequence(Qt::Key_F9));
  statusRow->addWidget(m_status, 1);
  statusRow->addWidget(again);
  tableLayout->addLayout(statusRow);

  m_table = new QTableWidget(0, 8, tablePane);
  m_table->setObjectName("formulationTable");
  m_table->setHorizontalHeaderLabels({tr("problem"), tr("formulation"), tr("max |Δ|"), tr("relative"), tr("mul"),
                                      tr("add"), tr("joint transforms\nmul / add"), tr("µs per call")});
  m_table->horizontalHeaderItem(DiffColumn)
      ->setToolTip(tr("Largest difference from the engine's reference: τ from RNEA, M from CRBA, q̈ from ABA"));
  m_table->horizontalHeaderItem(MulsColumn)
      ->setToolTip(tr("Multiplications and divisions of one call, measured with the counting scalar (joint "
                      "transforms apart, as in the papers; for the configuration-space method the evaluation "
                      "alone)"));
  m_table->horizontalHeaderItem(TimeColumn)
      ->setToolTip(tr("Measured time of one call on this machine; for the configuration-space method it "
                      "includes tabulating G, J and C at q (marked “incl. tables”)"));
  m_table->verticalHeader()->hide();
  m_table->verticalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);  // rows grow with the font (F11)
  m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
  m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
  m_table->setWordWrap(false);
  m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
  m_table->horizontalHeader()->setSectionResizeMode(NameColumn, QHeaderView::Stretch);  // long titles elide
  m_table->setTextElideMode(Qt::ElideRight);
  m_table->setMinimumHeight(4 * fontMetrics().height() + 30);  // scrolls; a laptop's bottom area is low
  tableLayout->addWidget(m_table, 1);

  auto* figurePane = new QWidget(split);
  auto* figureLayout = new QVBoxLayout(figurePane);
  figureLayout->setContentsMargins(0, 0, 0, 0);
  auto* countRow = new QHBoxLayout;
  m_countCombo = new QComboBox(figurePane);
  m_countCombo->setObjectName("countCombo");
  m_countCombo->addItem(tr("multiplications"), int(OperationCountPlot::Count::Multiplications));
  m_countCombo->addItem(tr("additions"), int(OperationCountPlot::Count::Additions));
  countRow->addWidget(new QLabel(tr("Operation count against n:"), figurePane));
  countRow->addWidget(m_countCombo);
  countRow->addStretch(1);
  figureLayout->addLayout(countRow);
  // Below its readable size (minimumSizeHint) the figure says "too small" rather than making the
  // dock scroll it out of view; readableSize() tells the window how much room it wants. Its height
  // is what is left (Ignored): the scroll area sizes the body by its size hints.
  m_plot = new OperationCountPlot(figurePane);
  m_plot->setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Ignored);
  figureLayout->addWidget(m_plot, 1);
  m_figureNote = new QLabel(figurePane);
  m_figureNote->setObjectName("figureNote");
  m_figureNote->setWordWrap(true);
  figureLayout->addWidget(m_figureNote);
  split->addWidget(tablePane);
  split->addWidget(figurePane);
  // The table keeps the width that shows all its columns and the formulations' names (fitTableWidth),
  // the figure takes the rest: it is what gains from more room (presentation mode's large fonts).
  split->setStretchFactor(0, 0);
  split->setStretchFactor(1, 1);
  m_split = split;
  m_tablePane = tablePane;
  m_figurePane = figurePane;
  layout->addWidget(split, 1);
  // When the dock is too narrow for the table beside a readable figure (a laptop, presentation
  // mode's fonts), the two become tabs, each over the whole dock (arrangeViews).
  m_views = new QTabWidget(body);
  m_views->setObjectName("algorithmsViews");
  m_views->setDocumentMode(true);
  m_views->hide();
  layout->addWidget(m_views, 1);
  m_scroll = new QScrollArea(this);  // scrolls instead of forcing the window wider or taller on a laptop
  m_scroll->setWidgetResizable(true);
  m_scroll->setFrameShape(QFrame::NoFrame);
  m_scroll->setWidget(body);
  setWidget(m_scroll);

  m_debounce = new QTimer(this);
  m_debounce->setSingleShot(true);
  m_debounce->setInterval(400);  // a scrub or playback measures once it stops
  connect(m_debounce, &QTimer::timeout, this, &AlgorithmsDock::recompute);

  connect(again, &QPushButton::clicked, this, &AlgorithmsDock::recompute);
  connect(m_countCombo, &QComboBox::currentIndexChanged, this,
          [this] { m_plot->setCount(OperationCountPlot::Count(m_countCombo->currentData().toInt())); });
  const auto choose = [this](QComboBox* combo, bool inverse) {
    const QString name = combo->currentData().toString();
    QString error;
    const bool ok =
        inverse ? m_traj->setInverseDynamicsAlgorithm(name, &error) : m_traj->setForwardDynamicsAlgorithm(name, &error);
    if (!ok) {
      fillCombos();  // back to the document's choice
      m_note->setText(error);
      m_note->show();
    }
  };
  connect(m_idCombo, &QComboBox::activated, this, [this, choose] { choose(m_idCombo, true); });
  connect(m_fdCombo, &QComboBox::activated, this, [this, choose] { choose(m_fdCombo, false); });
  connect(m_traj, &TrajectoryDocument::algorithmsChanged, this, [this] {
    fillCombos();
    fillTable();  // the driving rows are marked
  });
  connect(m_traj, &TrajectoryDocument::liveDynamicsChanged, this, [this] {
    showLive();
    m_debounce->start();
  });
  connect(m_traj->robot(), &RobotDocument::modelChanged, this, [this] {
    fillCombos();
    recompute();
  });
  connect(this, &QDockWidget::visibilityChanged, this, [this](bool visible) {
    if (!visible || !m_stale) return;
    m_stale = false;
    startWork();  // not recompute(): the region on screen may not be laid out yet
  });
  fillCombos();
  showLive();
  recompute();
}

AlgorithmsDock::~AlgorithmsDock() {
  m_cancel = true;
  if (m_worker.joinable()) m_worker.join();
}

QString AlgorithmsDock::liveText() const { return m_live->text(); }

int AlgorithmsDock::preferredHeight() const {
  // What is scrolled out of view, added; and at least the figure's readable height.
  return std::max(height() + m_scroll->verticalScrollBar()->maximum(), readableSize().height());
}

QSize AlgorithmsDock::readableSize() const {
  // The table's pane at its minimum beside the figure's pane with the figure readable.
  const QWidget* figurePane = m_plot->parentWidget();
  const QSize figure = m_plot->minimumSizeHint();
  const QSize aroundFigure = figurePane->layout()->minimumSize() - m_plot->minimumSize();
  const QSize table = m_tablePane->minimumSizeHint();
  const int w = table.width() + m_split->handleWidth() + std::max(figure.width(), aroundFigure.width());
  const int h = std::max(table.height(), figure.height() + aroundFigure.height());
  const QMargins body = m_scroll->widget()->layout()->contentsMargins();
  const QSize chrome = isVisible() ? size() - m_scroll->size() : QSize(4, fontMetrics().height() + 8);  // title, frame
  return QSize(w + body.left() + body.right(), h + body.top() + body.bottom()) + chrome.expandedTo(QSize(0, 0));
}

void AlgorithmsDock::changeEvent(QEvent* event) {
  QDockWidget::changeEvent(event);
  if (event->type() == QEvent::FontChange) {
    fitTableWidth();
    arrangeViews();
  }
}

void AlgorithmsDock::resizeEvent(QResizeEvent* event) {
  QDockWidget::resizeEvent(event);
  arrangeViews();
}

// Side by side when the dock holds the table's columns and a readable figure at its height (the
// legend beside the plot in as many columns as the height needs); else two tabs.
void AlgorithmsDock::arrangeViews() {
  const QSize room = m_scroll->viewport()->size();
  if (room.width() <= 0 || room.height() <= 0) return;
  const QMargins margins = m_scroll->widget()->layout()->contentsMargins();
  const int note = 3 * m_figureNote->fontMetrics().height();  // the figure's note, wrapped
  const int figureHeight = room.height() - margins.top() - margins.bottom() - m_countCombo->sizeHint().height() - note -
                           2 * m_figurePane->layout()->spacing();
  const int figureWidth = m_plot->canvas()->readableWidthAtHeight(figureHeight);
  const int tableWidth = m_tablePane->minimumSizeHint().width();
  const bool side =
      tableWidth + m_split->handleWidth() + figureWidth <= room.width() - margins.left() - margins.right();
  if (side && !m_tabbed && m_figurePane->width() < figureWidth) {
    // The splitter first shares by size hints: the table's columns, the figure the rest.
    const int total = m_split->width() - m_split->handleWidth();
    m_split->setSizes({tableWidth, std::max(0, total - tableWidth)});
  }
  if (side != m_tabbed) return;  // as it is
  m_tabbed = !side;
  if (m_tabbed) {
    m_views->addTab(m_tablePane, tr("Formulations"));
    m_views->addTab(m_figurePane, tr("Operation count against n"));
    m_split->hide();
    m_views->show();
  } else {
    while (m_views->count() > 0) m_views->removeTab(0);
    m_split->addWidget(m_tablePane);
    m_split->addWidget(m_figurePane);
    m_split->setStretchFactor(0, 0);
    m_split->setStretchFactor(1, 1);
    const int total = room.width() - margins.left() - margins.right() - m_split->handleWidth();
    m_split->setSizes({tableWidth, std::max(0, total - tableWidth)});
    m_tablePane->show();
    m_figurePane->show();
    m_views->hide();
    m_split->show();
  }
}

void AlgorithmsDock::fitTableWidth() {
  // Each column as wide as its header and its cells (a refusal spanning the row's numbers is left
  // out: it elides), the name column as wide as "▶ name" (the title after it may elide).
  QHeaderView* header = m_table->horizontalHeader();
  const int padding = 2 * (style()->pixelMetric(QStyle::PM_FocusFrameHMargin, nullptr, m_table) + 1) + 4;
  int width = 2 * m_table->frameWidth() + m_table->verticalScrollBar()->sizeHint().width() + 8;
  for (int c = 0; c < m_table->columnCount(); ++c) {
    int column = header->sectionSizeHint(c);
    for (int r = 0; r < m_table->rowCount(); ++r) {
      const QTableWidgetItem* it = m_table->item(r, c);
      if (!it || m_table->columnSpan(r, c) > 1) continue;
      QString text = it->text();
      if (c == NameColumn) text = text.section(QStringLiteral(" · "), 0, 0);
      column = std::max(column, QFontMetrics(it->font().resolve(m_table->font())).horizontalAdvance(text) + padding);
    }
    width += column;
  }
  m_table->setMinimumWidth(width);
}
QString AlgorithmsDock::noteText() const { return m_note->isVisible() ? m_note->text() : QString(); }

void AlgorithmsDock::fillCombos() {
  const dyn::Model& model = m_traj->dynamicsModel();
  for (auto [combo, problem, current] :
       {std::tuple{m_idCombo, dyn::Problem::InverseDynamics, m_traj->inverseDynamicsAlgorithm()},
        std::tuple{m_fdCombo, dyn::Problem::ForwardDynamics, m_traj->forwardDynamicsAlgorithm()}}) {
    const QSignalBlocker block(combo);
    combo->clear();
    auto* items = qobject_cast<QStandardItemModel*>(combo->model());
    for (const dyn::Formulation& f : dyn::formulations()) {
      if (f.problem != problem) continue;
      combo->addItem(QString::fromStdString(f.title), QString::fromStdString(f.name));
      const int i = combo->count() - 1;
      combo->setItemData(i, QString::fromStdString(f.description + "\n" + f.reference), Qt::ToolTipRole);
      if (model.nv == 0) continue;
      try {
        (void)f.bind(model);
      } catch (const std::exception& e) {  // refused: shown, not selectable, the reason as tooltip
        items->item(i)->setEnabled(false);
        combo->setItemData(i, QString::fromUtf8(e.what()), Qt::ToolTipRole);
      }
    }
    combo->setCurrentIndex(std::max(0, combo->findData(current)));
  }
  const QString note = m_traj->algorithmNote();
  m_note->setText(note);
  m_note->setVisible(!note.isEmpty());
}

void AlgorithmsDock::showLive() {
  const dyn::Model& model = m_traj->dynamicsModel();
  if (model.nv == 0) {
    m_live->setText(tr("No robot loaded."));
    return;
  }
  const Eigen::VectorXd& tau = m_traj->tauAtTime();
  const Eigen::VectorXd& qdd = m_traj->qddAtTime();
  const Eigen::VectorXd& fd = m_traj->forwardQddAtTime();
  const QString where =
      m_traj->hasTrajectory() ? tr("at t = %1 s").arg(m_traj->time(), 0, 'f', 3) : tr("at the current pose, at rest");
  QString text = tr("Live %1: τ = %2 by %3.").arg(where, vectorText(tau), m_traj->inverseDynamicsAlgorithm());
  if (!m_traj->forwardRefusal().isEmpty())
    text +=
        " " + tr("FD(q, qd, τ) by %1 refuses: %2").arg(m_traj->forwardDynamicsAlgorithm(), m_traj->forwardRefusal());
  else if (fd.size() == qdd.size() && qdd.size() > 0)
    text += " " + tr("FD(q, qd, τ) by %1 gives back the accelerations to %2.")
                      .arg(m_traj->forwardDynamicsAlgorithm())
                      .arg((fd - qdd).cwiseAbs().maxCoeff(), 0, 'e', 1);
  m_live->setText(text);
}

void AlgorithmsDock::recompute() {
  m_debounce->stop();
  // Nobody looks (hidden, or a tab behind another: such a dock stays "visible" with nothing on
  // screen): no worker competing with the window for the CPU until the dock is shown.
  if (!isVisible() || visibleRegion().isEmpty()) {
    m_stale = true;
    return;
  }
  m_stale = false;
  startWork();
}

void AlgorithmsDock::startWork() {
  if (m_running) {  // one at a time: the latest state is measured when this run is done
    m_pending = true;
    return;
  }
  if (m_worker.joinable()) m_worker.join();  // finished: it posted its last result
  m_running = true;
  m_pending = false;
  m_cancel = false;
  auto model = std::make_shared<const dyn::Model>(m_traj->dynamicsModel());
  Eigen::VectorXd q = m_traj->robot()->q(), qd = m_traj->qdAtTime(), qdd = m_traj->qddAtTime();
  if (q.size() != model->nq) q = model->neutral();
  if (qd.size() != model->nv) qd.setZero(model->nv);
  if (qdd.size() != model->nv) qdd.setZero(model->nv);
  m_state[0] = q, m_state[1] = qd, m_state[2] = qdd;
  m_robotN = model->nv;
  const int nMax = figureNMax(m_robotN);
  const bool curves = nMax != m_curvesNMax;
  m_curvesNMax = nMax;
  m_status->setText(tr("Measuring %1 formulations on %2 (n = %3)…")
                        .arg(dyn::formulations().size())
                        .arg(QString::fromStdString(model->name))
                        .arg(model->nv));
  if (curves) m_figureNote->setText(tr("Counting operations on N-link chains up to N = %1…").arg(nMax));
  m_worker = std::thread([this, model, q, qd, qdd, curves, nMax] {
    auto rows = std::make_shared<std::vector<survey::Row>>();
    try {
      *rows = survey::surveyModel(*model, q, qd, qdd, 4.0, &m_cancel);
    } catch (const std::exception&) {
      rows->clear();  // a model the references cannot handle (loops): an empty table
    }
    QMetaObject::invokeMethod(
        this, [this, rows] { surveyFinished(std::move(*rows)); }, Qt::QueuedConnection);
    if (curves && !m_cancel) {
      auto c = std::make_shared<std::vector<survey::Curve>>(survey::countCurves(nMax, &m_cancel));
      QMetaObject::invokeMethod(
          this, [this, c, nMax] { curvesFinished(std::move(*c), nMax); }, Qt::QueuedConnection);
    }
    QMetaObject::invokeMethod(
        this,
        [this] {
          m_running = false;
          if (m_pending) startWork();
        },
        Qt::QueuedConnection);
  });
}

void AlgorithmsDock::surveyFinished(std::vector<survey::Row> rows) {
  m_rows = std::move(rows);
  ++m_surveys;
  fillTable();
  const dyn::Model& model = m_traj->dynamicsModel();
  m_status->setText(tr("%1 (n = %2), current state: |Δ| from RNEA, CRBA, ABA; operations of one call, joint transforms "
                       "apart; time on this machine.")
                        .arg(QString::fromStdString(model.name))
                        .arg(model.nv));
  m_plot->setMarkedN(m_robotN);
  if (m_curveRuns > 0) updateFigureNote();
}

void AlgorithmsDock::fillTable() {
  m_table->clearSpans();
  m_table->setRowCount(int(m_rows.size()));
  const QString id = m_traj->inverseDynamicsAlgorithm(), fd = m_traj->forwardDynamicsAlgorithm();
  for (int r = 0; r < int(m_rows.size()); ++r) {
    const survey::Row& row = m_rows[std::size_t(r)];
    const dyn::Formulation& f = *row.formulation;
    const QString name = QString::fromStdString(f.name);
    const bool driving = (f.problem == dyn::Problem::InverseDynamics && name == id) ||
                         (f.problem == dyn::Problem::ForwardDynamics && name == fd);
    m_table->setItem(r, ProblemColumn, item(QString::fromLatin1(dyn::problemName(f.problem)), Qt::AlignCenter));
    auto* title = item((driving ? tr("▶ ") : QString()) + name + " · " + QString::fromStdString(f.title),
                       Qt::AlignLeft | Qt::AlignVCenter);
    title->setToolTip(
        QString::fromStdString(f.description + "\n" + f.reference + "\nengine/include/dynscope/" + f.header));
    title->setData(Qt::UserRole, name);
    if (driving) {  // bold only: the size stays the table's (presentation mode enlarges it)
      QFont bold;
      bold.setBold(true);
      title->setFont(bold);
    }
    m_table->setItem(r, NameColumn, title);
    if (!row.refusal.empty() || !row.skipped.empty()) {
      const bool refused = !row.refusal.empty();
      auto* refusal = item(refused ? tr("refuses this robot: %1").arg(QString::fromStdString(row.refusal))
                                   : QString::fromStdString(row.skipped),
                           Qt::AlignLeft | Qt::AlignVCenter);
      refusal->setForeground(refused ? QColor(160, 48, 0) : QColor(110, 110, 110));
      refusal->setToolTip(refused ? QString::fromStdString(row.refusal)
                                  : tr("One call would take too long on this robot; the figure shows how its cost "
                                       "grows with n."));
      m_table->setItem(r, DiffColumn, refusal);
      for (int c = DiffColumn + 1; c <= TimeColumn; ++c) m_table->setItem(r, c, item(QString()));
      m_table->setSpan(r, DiffColumn, 1, TimeColumn - DiffColumn + 1);
      continue;
    }
    const bool reference = &f == &survey::reference(f.problem);
    m_table->setItem(r, DiffColumn, item(reference ? tr("reference") : QString::number(row.maxDiff, 'e', 1)));
    m_table->setItem(r, RelColumn, item(reference ? QString() : QString::number(row.relDiff, 'e', 1)));
    auto* muls = item(count(row.muls));
    auto* adds = item(count(row.adds));
    const QString time = QString::number(row.microseconds, 'f', row.microseconds < 10 ? 2 : 1);
    auto* timeItem = item(time);
    if (f.tabulates) {  // the counts are the evaluation, the time includes the tabulation: say so
      const QString why =
          tr("The operation counts are the evaluation τ = G + J q̈ + q̇ᵀ C q̇ alone, as Hollerbach counts it; the "
             "time of one call includes tabulating G, J and C at q (%1 mul / %2 add, off-line work in the method).")
              .arg(count(row.tableMuls), count(row.tableAdds));
      timeItem->setText(tr("%1 incl. tables").arg(time));
      for (QTableWidgetItem* it : {muls, adds, timeItem}) it->setToolTip(why);
    }
    m_table->setItem(r, MulsColumn, muls);
    m_table->setItem(r, AddsColumn, adds);
    m_table->setItem(r, JointColumn, item(count(row.jointMuls) + " / " + count(row.jointAdds)));
    m_table->setItem(r, TimeColumn, timeItem);
  }
  fitTableWidth();
}

void AlgorithmsDock::curvesFinished(std::vector<survey::Curve> curves, int nMax) {
  ++m_curveRuns;
  std::vector<OperationCountPlot::Series> series;
  QStringList capped;
  for (const survey::Curve& c : curves) {
    if (!c.formulation) {  // the closed form: measured only, nothing tabulated by the papers
      series.push_back({QString::fromStdString(c.name), c.n, c.muls, c.adds, {}});
      continue;
    }
    const dyn::Formulation& f = *c.formulation;
    OperationCountPlot::Series s;
    s.name = QString("%1: %2").arg(QString::fromLatin1(dyn::problemName(f.problem)), QString::fromStdString(f.name));
    s.n = c.n;
    s.muls = c.muls;
    s.adds = c.adds;
    for (const dyn::PaperCount& p : f.paperCounts) {
      OperationCountPlot::Paper paper{p.muls, p.adds, {}};
      for (const dyn::PaperCount::Value& v : p.tabulated)
        paper.tabulated.push_back({v.n, double(v.muls), double(v.adds)});
      s.papers.push_back(std::move(paper));
    }
    if (c.cap > 0) capped << tr("%1 up to n = %2 (its count grows as n^%3)").arg(s.name).arg(c.cap).arg(f.degree);
    series.push_back(std::move(s));
  }
  m_plot->setSeries(std::move(series), nMax);
  m_plot->setMarkedN(m_robotN);
  arrangeViews();  // the legend's names set the figure's width
  m_capped = capped;
  updateFigureNote();
}

void AlgorithmsDock::updateFigureNote() {
  QString note =
      tr("General N-link revolute chains, N = 1…%1, joint transforms apart; dashed: the papers' "
         "polynomials; ◇: their n = 6, 12 values; dotted: this robot (n = %2); the closed form: τ as code after "
         "common-subexpression elimination, n ≤ %3.")
          .arg(m_curvesNMax)
          .arg(m_robotN)
          .arg(survey::kClosedFormMaxN);
  if (!m_capped.isEmpty()) note += " " + tr("Counted only %1.").arg(m_capped.join(", "));
  m_figureNote->setText(note);
}
