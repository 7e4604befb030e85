#include "window/robot_parameters_editor.hpp"

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QEvent>
#include <QFormLayout>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QRegularExpression>
#include <QStyle>
#include <QUndoStack>
#include <QVBoxLayout>
#include <QWheelEvent>
#include <algorithm>
#include <cmath>
#include <limits>
#include <numbers>

#include "document/robot_document.hpp"
#include "document/robot_edit_command.hpp"

namespace {

constexpr double kDeg = 180 / std::numbers::pi;

// The joint type: like the number boxes, the wheel changes it only once it has the focus.
class KindBox : public QComboBox {
 public:
  explicit KindBox(QWidget* parent) : QComboBox(parent) { setFocusPolicy(Qt::StrongFocus); }
  void wheelEvent(QWheelEvent* event) override {
    if (hasFocus())
      QComboBox::wheelEvent(event);
    else
      event->ignore();
  }
};

// A number box that shows 6 significant digits (inertias of 2e-5 kg m² and masses of 80 kg alike)
// and takes any decimal or exponent form.
class ParameterBox : public QDoubleSpinBox {
 public:
  explicit ParameterBox(QWidget* parent) : QDoubleSpinBox(parent) {
    setDecimals(12);
    setRange(-1e9, 1e9);
    setButtonSymbols(QAbstractSpinBox::NoButtons);
    setAlignment(Qt::AlignRight);
    setKeyboardTracking(true);  // each keystroke: the robot follows as the value is typed
    setMinimumWidth(fontMetrics().horizontalAdvance(QStringLiteral("xy -0.00123")) + 8);
    setFocusPolicy(Qt::StrongFocus);  // a wheel passing over the panel scrolls it, never edits (below)
  }
  void wheelEvent(QWheelEvent* event) override {
    if (hasFocus())
      QDoubleSpinBox::wheelEvent(event);
    else
      event->ignore();  // to the scroll area
  }
  QString textFromValue(double v) const override { return QString::number(v, 'g', 6); }
  double valueFromText(const QString& text) const override { return number(text).toDouble(); }
  QValidator::State validate(QString& text, int&) const override {
    if (!text.startsWith(prefix())) return QValidator::Invalid;  // the component's name stays
    bool ok = false;
    number(text).toDouble(&ok);
    if (ok) return QValidator::Acceptable;
    static const QRegularExpression partial(QStringLiteral("^[-+]?[0-9]*\\.?[0-9]*([eE][-+]?[0-9]*)?$"));
    return partial.match(number(text)).hasMatch() ? QValidator::Intermediate : QValidator::Invalid;
  }

 private:
  QString number(const QString& text) const { return text.mid(prefix().size()).trimmed(); }
};

QString severityWord(dyn::Severity s) {
  return s == dyn::Severity::Error     ? QObject::tr("error")
         : s == dyn::Severity::Warning ? QObject::tr("warning")
                                       : QObject::tr("note");
}

}  // namespace

RobotParametersEditor::RobotParametersEditor(RobotDocument* doc, QUndoStack* undo, QWidget* parent)
    : QWidget(parent), m_doc(doc), m_undo(undo) {
  setObjectName("robotParametersEditor");
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(4, 4, 4, 4);
  m_heading = new QLabel(this);
  m_heading->setWordWrap(true);
  layout->addWidget(m_heading);
  auto* host = new QWidget(this);
  host->setObjectName("parameterFields");
  layout->addWidget(host);
  m_problem = new QLabel(this);
  m_problem->setObjectName("parameterProblem");
  m_problem->setWordWrap(true);
  m_problem->setStyleSheet("color: #b00020");
  m_problem->setVisible(false);
  layout->addWidget(m_problem);
  m_findings = new QLabel(this);
  m_findings->setObjectName("parameterFindings");
  m_findings->setWordWrap(true);
  m_findings->setTextFormat(Qt::RichText);
  layout->addWidget(m_findings);
  layout->addStretch();
  connect(m_doc, &RobotDocument::selectedBodyChanged, this, [this] {
    if (!m_writing) rebuild();  // (our own edit keeps the selection)
  });
  connect(m_doc, &RobotDocument::modelChanged, this, [this] {
    if (m_writing) {  // our own edit: the values are the typed ones; the findings may have changed
      showFindings();
      return;
    }
    rebuild();  // a load, a reload, undo/redo: the selection's values as they are now
  });
  rebuild();
}

std::vector<QDoubleSpinBox*> RobotParametersEditor::boxes(dyn::EditField field) const {
  for (const Field& f : m_fields)
    if (f.field == field) return f.boxes;
  return {};
}

QString RobotParametersEditor::problemText() const { return m_problem->isVisible() ? m_problem->text() : QString(); }
QString RobotParametersEditor::findingsText() const { return m_findings->text(); }

void RobotParametersEditor::addField(QFormLayout* form, const QString& label, dyn::EditField field, bool joint,
                                     int count, const QString& unit, double scale, const QStringList& parts) {
  const std::vector<double> now = dyn::currentValues(m_current, joint, joint ? m_joint : m_link, field);
  if (int(now.size()) != count) return;  // the element has no such parameter (a fixed joint's axis, ...)
  Field f{field, joint, {}, scale, nullptr};
  // A narrow dock: the caption (with the unit) on the left of a single value, above a vector's
  // boxes, three to a line, each box prefixed with its component ("x 0.25", "xy 1e-05").
  auto* row = new QWidget(form->parentWidget());
  auto* grid = new QGridLayout(row);
  grid->setContentsMargins(0, 0, 0, 0);
  grid->setHorizontalSpacing(4);
  grid->setVerticalSpacing(2);
  for (int k = 0; k < count; ++k) {
    auto* box = new ParameterBox(row);
    box->setObjectName(QString("param:%1:%2").arg(dyn::editFieldName(field)).arg(k));
    if (k < parts.size()) box->setPrefix(parts[k] + " ");
    grid->addWidget(box, k / 3, k % 3);
    f.boxes.push_back(box);
  }
  const QString caption = unit.isEmpty() ? label : QString("%1 [%2]").arg(label, unit);
  if (count == 1)
    form->addRow(caption, row);
  else
    form->addRow(new QLabel(caption, form->parentWidget())), form->addRow(row);
  f.row = row;
  m_fields.push_back(f);
  const size_t index = m_fields.size() - 1;
  for (QDoubleSpinBox* box : f.boxes)
    connect(box, &QDoubleSpinBox::valueChanged, this, [this, index] { edited(m_fields[index]); });
}

void RobotParametersEditor::fitBoxes() {
  for (const Field& f : m_fields) {
    if (f.boxes.size() < 2 || f.field == dyn::EditField::Limits) continue;  // limits: two and a switch, always
    auto* grid = static_cast<QGridLayout*>(f.row->layout());
    int needed = 0;
    for (QDoubleSpinBox* box : f.boxes) {
      const QFontMetrics fm = box->fontMetrics();
      // The widest of its text now and a typical long value, with the frame.
      const QString typical = box->prefix() + QStringLiteral("-0.00123456");
      needed = std::max({needed, fm.horizontalAdvance(box->text()), fm.horizontalAdvance(typical)});
    }
    needed += 2 * style()->pixelMetric(QStyle::PM_DefaultFrameWidth) + 8;
    const int spacing = grid->horizontalSpacing();
    const int width = f.row->parentWidget() ? f.row->parentWidget()->contentsRect().width() : f.row->width();
    const int perRow = std::clamp((width + spacing) / (needed + spacing), 1, 3);
    bool same = true;  // already laid out this way
    for (size_t k = 0; k < f.boxes.size(); ++k) {
      f.boxes[k]->setMinimumWidth(std::min(needed, width));
      int r = 0, c = 0, rs = 0, cs = 0;
      grid->getItemPosition(grid->indexOf(f.boxes[k]), &r, &c, &rs, &cs);
      same = same && r == int(k) / perRow && c == int(k) % perRow;
    }
    if (same) continue;
    for (QDoubleSpinBox* box : f.boxes) grid->removeWidget(box);
    for (size_t k = 0; k < f.boxes.size(); ++k) grid->addWidget(f.boxes[k], int(k) / perRow, int(k) % perRow);
  }
}

void RobotParametersEditor::resizeEvent(QResizeEvent* event) {
  QWidget::resizeEvent(event);
  fitBoxes();
}

void RobotParametersEditor::changeEvent(QEvent* event) {
  QWidget::changeEvent(event);
  if (event->type() == QEvent::FontChange) fitBoxes();
}

void RobotParametersEditor::rebuild() {
  QWidget* host = findChild<QWidget*>("parameterFields");
  delete host->layout();
  // Later: a rebuild may come from inside one of these boxes' own event handling (undo typed there).
  for (QWidget* w : host->findChildren<QWidget*>(QString(), Qt::FindDirectChildrenOnly)) {
    w->hide();
    w->setParent(nullptr);
    w->deleteLater();
  }
  m_fields.clear();
  m_limited = nullptr;
  m_kind = nullptr;
  m_problem->setVisible(false);
  m_link.clear();
  m_joint.clear();
  auto* form = new QFormLayout(host);
  form->setContentsMargins(0, 0, 0, 0);
  const dyn::Model& m = m_doc->model();
  const int b = m_doc->selectedBody();
  const dyn::RobotDescription* d = m_doc->description();
  if (!d || b < 1 || b > m.N) {
    m_heading->setText(tr("<b>Edit</b>: select a moving link to change its mass, inertia and joint"));
    m_findings->clear();
    return;
  }
  m_link = m.bodyNames[size_t(b)];
  m_joint = m.jointNames[size_t(b)];
  m_current = *d;  // the file's description with the edits: what the fields show
  dyn::applyEdits(m_current, m_doc->edits());
  const bool hasJoint = !dyn::currentValues(*d, true, m_joint, dyn::EditField::OriginXyz).empty();
  m_heading->setText(
      tr("<b>Edit</b> link <i>%1</i>%2 (Ctrl+Z undoes; the file is not changed)")
          .arg(QString::fromStdString(m_link).toHtmlEscaped(),
               hasJoint ? tr(" and joint <i>%1</i>").arg(QString::fromStdString(m_joint).toHtmlEscaped()) : QString()));
  const QStringList xyz{"x", "y", "z"};
  addField(form, tr("Mass"), dyn::EditField::Mass, false, 1, tr("kg"), 1);
  addField(form, tr("COM"), dyn::EditField::Com, false, 3, tr("m"), 1, xyz);
  addField(form, tr("Inertia about the COM"), dyn::EditField::Inertia, false, 6, tr("kg·m²"), 1,
           {"xx", "yy", "zz", "xy", "xz", "yz"});
  if (hasJoint) {
    const dyn::JointModel<double>& J = m.joints[size_t(b)];
    m_jointAngular = J.type != dyn::JointType::Prismatic;
    // The type: revolute, continuous, prismatic or fixed (a fixed joint merges its link into the parent).
    const std::vector<double> kind = dyn::currentValues(*d, true, m_joint, dyn::EditField::Kind);
    if (kind.size() == 1) {
      m_kind = new KindBox(host);
      m_kind->setObjectName("param:kind");
      for (const auto& [k, text] :
           {std::pair{dyn::JointKind::Revolute, tr("revolute")},
            std::pair{dyn::JointKind::Continuous, tr("continuous")},
            std::pair{dyn::JointKind::Prismatic, tr("prismatic")}, std::pair{dyn::JointKind::Fixed, tr("fixed")}})
        m_kind->addItem(text, int(k));
      m_kind->setCurrentIndex(
          m_kind->findData(int(dyn::currentValues(m_current, true, m_joint, dyn::EditField::Kind)[0])));
      form->addRow(tr("Joint type"), m_kind);
      connect(m_kind, &QComboBox::activated, this, [this] {
        dyn::RobotEdit e{true, m_joint, dyn::EditField::Kind, {double(m_kind->currentData().toInt())}};
        if (const std::string why = dyn::checkEdit(*m_doc->description(), e); !why.empty()) {
          m_problem->setText(QString::fromStdString(why));
          m_problem->setVisible(true);
          return;
        }
        const std::vector<dyn::RobotEdit> before = m_doc->edits();
        QString error;
        if (!m_doc->setEdits(dyn::withEdit(before, e), &error)) {  // rebuilds (and re-selects) the robot
          m_problem->setText(error);
          m_problem->setVisible(true);
          return;
        }
        m_undo->push(new RobotEditCommand(m_doc, before, e));
      });
    }
    addField(form, tr("Joint origin"), dyn::EditField::OriginXyz, true, 3, tr("m"), 1, xyz);
    addField(form, tr("Joint rpy"), dyn::EditField::OriginRpy, true, 3, tr("°"), kDeg, {"roll", "pitch", "yaw"});
    addField(form, tr("Axis"), dyn::EditField::Axis, true, 3, QString(), 1, xyz);
    const size_t before = m_fields.size();
    addField(form, tr("Limits"), dyn::EditField::Limits, true, 2, m_jointAngular ? tr("°") : tr("m"),
             m_jointAngular ? kDeg : 1, {tr("lower"), tr("upper")});
    if (m_fields.size() > before) {  // a "limited" switch in front of the two limits
      Field& f = m_fields.back();
      m_limited = new QCheckBox(tr("limited"), f.row);
      m_limited->setObjectName("param:limited");
      static_cast<QGridLayout*>(f.row->layout())->addWidget(m_limited, 0, 2);
      const size_t index = m_fields.size() - 1;
      connect(m_limited, &QCheckBox::toggled, this, [this, index](bool on) {
        for (QDoubleSpinBox* box : m_fields[index].boxes) box->setEnabled(on);
        edited(m_fields[index]);
      });
    }
    addField(form, tr("Velocity limit"), dyn::EditField::Velocity, true, 1, m_jointAngular ? tr("rad/s") : tr("m/s"),
             1);
    addField(form, tr("Effort limit"), dyn::EditField::Effort, true, 1, m_jointAngular ? tr("N·m") : tr("N"), 1);
    addField(form, tr("Damping"), dyn::EditField::Damping, true, 1, m_jointAngular ? tr("N·m·s/rad") : tr("N·s/m"), 1);
    addField(form, tr("Friction"), dyn::EditField::Friction, true, 1, m_jointAngular ? tr("N·m") : tr("N"), 1);
  }
  refreshValues();
  showFindings();
}

void RobotParametersEditor::refreshValues() {
  for (Field& f : m_fields) {
    const std::vector<double> v = dyn::currentValues(m_current, f.joint, f.joint ? m_joint : m_link, f.field);
    if (v.size() != f.boxes.size()) continue;
    const bool limited = f.field != dyn::EditField::Limits || std::isfinite(v[0]);
    if (f.field == dyn::EditField::Limits && m_limited) {
      const QSignalBlocker quiet(m_limited);
      m_limited->setChecked(limited);
    }
    for (size_t k = 0; k < v.size(); ++k) {
      const QSignalBlocker quiet(f.boxes[k]);
      f.boxes[k]->setEnabled(limited);
      f.boxes[k]->setValue(limited ? v[k] * f.scale : 0.0);
      f.boxes[k]->setStyleSheet(QString());
    }
  }
  fitBoxes();  // the texts changed
}

void RobotParametersEditor::edited(Field& f) {
  dyn::RobotEdit e;
  e.joint = f.joint;
  e.element = f.joint ? m_joint : m_link;
  e.field = f.field;
  for (QDoubleSpinBox* box : f.boxes) e.values.push_back(box->value() / f.scale);
  if (f.field == dyn::EditField::Limits && m_limited && !m_limited->isChecked())
    e.values = {-std::numeric_limits<double>::infinity(), std::numeric_limits<double>::infinity()};
  // Refused in the box: red, the reason below it and in its tooltip; the robot keeps its state.
  const auto refuse = [&](const QString& why) {
    for (QDoubleSpinBox* box : f.boxes) {
      box->setStyleSheet("background: #ffd6d6");
      box->setToolTip(why);
    }
    m_problem->setText(why);
    m_problem->setVisible(true);
  };
  if (const std::string why = dyn::checkEdit(*m_doc->description(), e); !why.empty()) {
    refuse(QString::fromStdString(why));
    return;
  }
  const std::vector<dyn::RobotEdit> before = m_doc->edits();
  QString error;
  m_writing = true;
  const bool ok = m_doc->setEdits(dyn::withEdit(before, e), &error);  // the command's redo then finds it done
  if (ok) m_undo->push(new RobotEditCommand(m_doc, before, e));
  m_writing = false;
  if (!ok) {
    refuse(error);
    return;
  }
  for (QDoubleSpinBox* box : f.boxes) {
    box->setStyleSheet(QString());
    box->setToolTip(QString());
  }
  m_problem->setVisible(false);
}

void RobotParametersEditor::showFindings() {
  QStringList lines;
  for (const dyn::Finding& f : m_doc->findings()) {
    if (f.severity == dyn::Severity::Info) continue;
    if (f.link != m_link && f.joint != m_joint) continue;
    if (f.link.empty() && f.joint.empty()) continue;
    QString line =
        QString("<b>%1</b> %2").arg(severityWord(f.severity), QString::fromStdString(f.message).toHtmlEscaped());
    if (f.code == "inertia.triangle")  // what the check means, for a class
      line += "<br><i>" +
              tr("A rigid body's principal moments satisfy I<sub>a</sub> + I<sub>b</sub> ≥ I<sub>c</sub> "
                 "(the triangle inequality): no distribution of positive mass gives less. Dynscope computes "
                 "with the values given.") +
              "</i>";
    lines << line;
  }
  m_findings->setText(lines.isEmpty() ? QString() : lines.join("<br>"));
  m_findings->setVisible(!lines.isEmpty());
}
