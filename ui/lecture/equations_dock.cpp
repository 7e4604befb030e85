#include "lecture/equations_dock.hpp"

#include <QComboBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QLabel>
#include <QMenu>
#include <QMessageBox>
#include <QProgressBar>
#include <QPushButton>
#include <QTimer>
#include <QToolButton>
#include <QVBoxLayout>

#include "lecture/equations_document.hpp"
#include "lecture/katex_view.hpp"

namespace {

struct ExportFormat {
  dyn::EquationFormat format;
  const char* label;
  const char* suffix;
};
constexpr ExportFormat kFormats[] = {
    {.format = dyn::EquationFormat::Latex, .label = "LaTeX (matrices and one entry a line)…", .suffix = "tex"},
    {.format = dyn::EquationFormat::C, .label = "C (M, c, g, tau functions)…", .suffix = "c"},
    {.format = dyn::EquationFormat::Python, .label = "Python (needs only math)…", .suffix = "py"},
    {.format = dyn::EquationFormat::Matlab, .label = "MATLAB…", .suffix = "m"},
    {.format = dyn::EquationFormat::Text, .label = "Text…", .suffix = "txt"},
    {.format = dyn::EquationFormat::Json, .label = "JSON…", .suffix = "json"},
};

// The sections of the Show box, in its order.
constexpr equations_html::Section kSections[] = {
    equations_html::Section::All,     equations_html::Section::MassMatrix, equations_html::Section::Coriolis,
    equations_html::Section::Gravity, equations_html::Section::Torque,     equations_html::Section::Christoffel,
    equations_html::Section::Symbols,
};

// Derived without asking when the estimate is below this (the planar arms, the Stanford arm).
constexpr double kQuickSeconds = 3;

}  // namespace

EquationsDock::EquationsDock(EquationsDocument* document, QWidget* parent)
    : QDockWidget(tr("Equations of motion"), parent), m_document(document) {
  setObjectName("equationsDock");
  auto* body = new QWidget(this);
  auto* layout = new QVBoxLayout(body);
  layout->setContentsMargins(4, 4, 4, 4);

  auto* top = new QHBoxLayout;
  m_parameters = new QComboBox(body);
  m_parameters->setObjectName("equationsParameters");
  m_parameters->addItem(tr("Symbolic parameters"), int(dyn::EquationParameters::Symbolic));
  m_parameters->addItem(tr("The robot's numbers"), int(dyn::EquationParameters::Numeric));
  m_parameters->setToolTip(
      tr("Masses, lengths, centres of mass and inertias as symbols (m₁, l₁, c₁ₓ, I₁zz …: a "
         "DH table's, or a URDF's with its joint origins p₁ₓ …) or as the robot's numbers"));
  m_section = new QComboBox(body);
  m_section->setObjectName("equationsSection");
  for (const QString& s :
       {tr("All"), tr("M(q)"), tr("C(q, q̇) q̇"), tr("g(q)"), tr("τ"), tr("Christoffel symbols"), tr("Symbols")})
    m_section->addItem(s);
  m_section->setToolTip(tr("What the view shows: one part for a slide, or everything"));
  m_derive = new QPushButton(tr("Derive"), body);
  m_derive->setObjectName("equationsDerive");
  m_derive->setToolTip(tr("Derive the equations of motion by CRBA and RNEA on symbols (computer algebra)"));
  m_export = new QToolButton(body);
  m_export->setObjectName("equationsExport");
  m_export->setText(tr("Export"));
  m_export->setPopupMode(QToolButton::InstantPopup);
  auto* menu = new QMenu(m_export);
  for (const ExportFormat& f : kFormats)
    menu->addAction(tr(f.label), this, [this, format = f.format] { exportAs(format); });
  m_export->setMenu(menu);
  top->addWidget(m_parameters, 2);
  top->addWidget(m_section, 2);
  top->addWidget(m_derive);
  top->addWidget(m_export);
  layout->addLayout(top);

  auto* progressRow = new QHBoxLayout;
  m_status = new QLabel(body);
  m_status->setObjectName("equationsStatus");
  m_status->setWordWrap(true);
  m_progress = new QProgressBar(body);
  m_progress->setObjectName("equationsProgress");
  m_cancel = new QPushButton(tr("Cancel"), body);
  m_cancel->setObjectName("equationsCancel");
  progressRow->addWidget(m_status, 2);
  progressRow->addWidget(m_progress, 1);
  progressRow->addWidget(m_cancel);
  layout->addLayout(progressRow);

  m_view = new KatexView(tr("Equations of motion"), "equationsWebView", body);
  m_view->setObjectName("equationsView");
  m_view->setMinimumHeight(160);
  layout->addWidget(m_view, 1);
  setWidget(body);

  connect(m_view, &KatexView::typeset, this, &EquationsDock::equationsTypeset);
  connect(m_view, &KatexView::typeset, this, [this] {
    if (m_highlight >= 0) m_view->runScript(equations_html::highlightScript(m_highlight));
  });
  connect(m_parameters, &QComboBox::currentIndexChanged, this, [this](int i) {
    m_document->setParameters(dyn::EquationParameters(m_parameters->itemData(i).toInt()));
    deriveIfQuick();
  });
  connect(m_section, &QComboBox::currentIndexChanged, this, &EquationsDock::refresh);
  connect(m_derive, &QPushButton::clicked, m_document, &EquationsDocument::compute);
  connect(m_cancel, &QPushButton::clicked, m_document, &EquationsDocument::cancel);
  connect(m_document, &EquationsDocument::stateChanged, this, [this] {
    updateControls();
    refresh();
    deriveIfQuick();
  });
  connect(m_document, &EquationsDocument::progressChanged, this, &EquationsDock::updateControls);
  connect(this, &QDockWidget::visibilityChanged, this, [this](bool visible) {
    if (visible) deriveIfQuick();
  });
  updateControls();
  refresh();
}

bool EquationsDock::isRendered() const { return m_view->isRendered(); }
int EquationsDock::refusedFormulas() const { return m_view->refusedFormulas(); }

equations_html::Section EquationsDock::section() const { return kSections[std::max(0, m_section->currentIndex())]; }

void EquationsDock::setSection(equations_html::Section section) {
  for (int k = 0; k < int(std::size(kSections)); ++k)
    if (kSections[k] == section) m_section->setCurrentIndex(k);
}

void EquationsDock::setHighlightedDof(int dof) {
  m_highlight = dof;
  m_view->runScript(equations_html::highlightScript(dof));
}

void EquationsDock::deriveIfQuick() {
  // A small robot's equations come at once when the view is on screen; a larger one waits for Derive.
  if (!isVisible() || m_document->state() != EquationsDocument::State::Empty) return;
  const dyn::EquationsEstimate e = m_document->estimate();
  if (e.feasible && e.seconds <= kQuickSeconds) QTimer::singleShot(0, m_document, &EquationsDocument::compute);
}

void EquationsDock::updateControls() {
  using State = EquationsDocument::State;
  const State s = m_document->state();
  const bool computing = s == State::Computing;
  {
    const QSignalBlocker block(m_parameters);
    m_parameters->setCurrentIndex(m_parameters->findData(int(m_document->parameters())));
  }
  m_parameters->setEnabled(s != State::Unavailable && !computing);
  m_derive->setEnabled(s != State::Unavailable && !computing && s != State::Ready);
  m_export->setEnabled(s == State::Ready);
  m_progress->setVisible(computing);
  m_cancel->setVisible(computing);
  if (computing) {
    m_progress->setRange(0, std::max(1, m_document->total()));
    m_progress->setValue(m_document->done());
    m_status->setText(m_document->stage().isEmpty() ? tr("Deriving…") : tr("Deriving %1…").arg(m_document->stage()));
  } else if (s == State::Empty) {
    const dyn::EquationsEstimate e = m_document->estimate();
    m_status->setText(e.feasible ? tr("Estimate: %1").arg(QString::fromStdString(e.explanation))
                                 : QString::fromStdString(e.explanation));
  } else {
    m_status->clear();
  }
}

void EquationsDock::refresh() {
  using State = EquationsDocument::State;
  const lecture_html::Style style =
      m_presentation ? lecture_html::Style::presentation(m_presentationScale) : lecture_html::Style::normal();
  const dyn::EquationsReport* report = m_document->report();
  switch (m_document->state()) {
    case State::Ready:
      m_body = equations_html::body(*report, section());
      break;
    case State::Computing:
      m_body = equations_html::message(tr("Deriving the equations of motion…"));
      break;
    case State::Empty: {
      const dyn::EquationsEstimate e = m_document->estimate();
      m_body = equations_html::message(
          e.feasible
              ? tr("Derive writes this robot's equations of motion (%1).").arg(QString::fromStdString(e.explanation))
              : QString::fromStdString(e.explanation));
      break;
    }
    default:
      m_body = equations_html::message(m_document->message());
  }
  m_view->show(m_body, equations_html::css(report, style), false);
}

void EquationsDock::exportAs(dyn::EquationFormat format) {
  const ExportFormat* f = nullptr;
  for (const ExportFormat& x : kFormats)
    if (x.format == format) f = &x;
  if (!f || m_document->state() != EquationsDocument::State::Ready) return;
  const QString name = QString::fromStdString(m_document->report()->modelName) + "_equations." + f->suffix;
  const QString path = QFileDialog::getSaveFileName(this, tr("Export the equations of motion"), name,
                                                    tr("%1 (*.%2)").arg(tr(f->label).remove("…"), f->suffix));
  if (path.isEmpty()) return;
  QString error;
  if (!m_document->exportTo(path, format, &error))
    QMessageBox::warning(this, tr("Export the equations of motion"), error);
}

void EquationsDock::setPresentationMode(bool on, double scale) {
  m_presentation = on;
  m_presentationScale = scale;
  refresh();
}
