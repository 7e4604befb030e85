#include "window/properties_dock.hpp"

#include <QEvent>
#include <QFontDatabase>
#include <QHeaderView>
#include <QTabWidget>
#include <QTreeWidget>
#include <numbers>

#include "document/joint_coordinates.hpp"
#include "document/robot_document.hpp"
#include "widgets/vertical_scroll_area.hpp"
#include "window/robot_parameters_editor.hpp"

namespace {

QString vec(const Eigen::Vector3d& v, int decimals = 4) {
  return QString("%1  %2  %3").arg(v.x(), 0, 'f', decimals).arg(v.y(), 0, 'f', decimals).arg(v.z(), 0, 'f', decimals);
}

}  // namespace

PropertiesDock::PropertiesDock(RobotDocument* document, QUndoStack* undo, QWidget* parent)
    : QDockWidget(tr("Properties"), parent), m_doc(document) {
  setObjectName("propertiesDock");
  // The read-out and the editor as two pages: the dock is narrow at the desk and the editor needs
  // its whole height.
  auto* tabs = new QTabWidget(this);
  tabs->setObjectName("propertiesTabs");
  tabs->setDocumentMode(true);
  m_table = new QTreeWidget(tabs);
  m_table->setObjectName("propertiesTable");
  m_table->setColumnCount(2);
  m_table->setHeaderLabels({tr("Property"), tr("Value")});
  m_table->setRootIsDecorated(false);
  m_table->setUniformRowHeights(true);
  m_table->header()->setSectionResizeMode(0, QHeaderView::ResizeToContents);
  applyFixedFont();
  auto* scroll = new VerticalScrollArea(tabs);
  m_editor = new RobotParametersEditor(m_doc, undo, scroll);
  scroll->setWidget(m_editor);
  tabs->addTab(m_table, tr("Values"));
  tabs->addTab(scroll, tr("Edit"));
  m_tabs = tabs;
  setWidget(tabs);
  connect(m_doc, &RobotDocument::selectedBodyChanged, this, &PropertiesDock::refresh);
  connect(m_doc, &RobotDocument::poseChanged, this, &PropertiesDock::refresh);
  connect(m_doc, &RobotDocument::modelChanged, this, &PropertiesDock::refresh);
  connect(this, &QDockWidget::visibilityChanged, this, [this](bool visible) {
    if (visible) refresh();
  });
  refresh();
}

void PropertiesDock::applyFixedFont() {
  // Numbers line up in a fixed font; its size follows the application's (presentation mode).
  QFont font = QFontDatabase::systemFont(QFontDatabase::FixedFont);
  if (this->font().pointSizeF() > 0) font.setPointSizeF(this->font().pointSizeF());  // follows the dock's size
  m_table->setFont(font);
}

void PropertiesDock::changeEvent(QEvent* event) {
  if (event->type() == QEvent::FontChange) applyFixedFont();
  QDockWidget::changeEvent(event);
}

QString PropertiesDock::value(const QString& property) const {
  for (int i = 0; i < m_table->topLevelItemCount(); ++i)
    if (m_table->topLevelItem(i)->text(0) == property) return m_table->topLevelItem(i)->text(1);
  return {};
}

void PropertiesDock::refresh() {
  // Cheap enough for every slider step, but skip the work while the dock is hidden.
  if (!isVisible() && m_table->topLevelItemCount() > 0) return;
  const dyn::Model& m = m_doc->model();
  const dyn::Data& d = m_doc->data();
  const int b = m_doc->selectedBody();
  std::vector<std::pair<QString, QString>> rows;
  if (!m_doc->hasModel() || b < 0 || b > m.N) {
    rows.push_back({tr("Selection"), tr("none: click a link")});  // short: the dock is narrow when presenting
  } else {
    const QString link = QString::fromStdString(m.bodyNames[b]);
    rows.push_back({tr("Link"), link});
    // The link's own frame (body frames are canonical joint frames, rotated when the URDF axis is not z).
    const int f = m.frameIndex(m.bodyNames[b]);
    const dyn::Transform<double> X = f >= 0 ? d.oMf[f] : d.X0[b];  // link_X_world
    const dyn::Transform<double> linkInBody = f >= 0 ? m.frames[f].placement : dyn::Transform<double>();
    if (b == 0) {
      rows.push_back({tr("Joint"), tr("fixed base")});
    } else {
      const auto& J = m.joints[b];
      rows.push_back(
          {tr("Joint"), QString("%1 (%2)").arg(QString::fromStdString(m.jointNames[b]), dyn::jointTypeName(J.type))});
      rows.push_back({tr("Parent"), QString::fromStdString(m.bodyNames[m.parent[b]])});
      std::vector<std::pair<QString, QString>> values;
      for (const JointCoordinate& c : jointCoordinates(m)) {
        if (c.body != b) continue;
        const double v = coordinateValue(c, m_doc->q());
        values.push_back(
            {c.label, c.angular ? QString("%1 rad (%2°)").arg(v, 0, 'f', 4).arg(v * 180 / std::numbers::pi, 0, 'f', 2)
                                : QString("%1 m").arg(v, 0, 'f', 4)});
      }
      if (values.size() == 1)
        rows.push_back({tr("Joint value"), values[0].second});
      else  // planar, spherical, floating: a line per coordinate
        for (const auto& [label, text] : values) rows.push_back({tr("Joint value") + " " + label, text});
      for (int k = 0; k < J.nq; ++k) {
        const double lo = m.lowerLimit[J.idx_q + k], hi = m.upperLimit[J.idx_q + k];
        if (std::isfinite(lo) && std::isfinite(hi))
          rows.push_back({tr("Limits"), QString("[%1, %2]").arg(lo, 0, 'g', 5).arg(hi, 0, 'g', 5)});
      }
    }
    // Inertia in the link frame: I_link = X^T I_body X with X = body_X_link.
    const dyn::Inertia<double> I = b == 0 ? dyn::Inertia<double>() : m.I[b].transformToA(linkInBody.inverse());
    rows.push_back({tr("Mass"), QString("%1 kg").arg(I.m, 0, 'f', 4)});
    if (b > 0) {
      const Eigen::Vector3d c = I.com();
      rows.push_back({tr("COM (link)"), vec(c) + " m"});
      rows.push_back({tr("COM (world)"), vec(X.pointToA(c)) + " m"});
      const Eigen::Matrix3d Ic = I.inertiaAboutCom();
      for (int r = 0; r < 3; ++r)  // the matrix, one row per line (link axes)
        rows.push_back(
            {r == 0 ? tr("Inertia at COM [kg·m²]") : QString(),
             QString("%1  %2  %3").arg(Ic(r, 0), 10, 'g', 4).arg(Ic(r, 1), 10, 'g', 4).arg(Ic(r, 2), 10, 'g', 4)});
    }
    rows.push_back({tr("Position (world)"), vec(X.translation()) + " m"});
    const Eigen::Vector3d rpy = dyn::matrixToRpy<double>(X.rotation()) * (180 / std::numbers::pi);
    rows.push_back(
        {tr("Orientation (world)"),
         QString("rpy %1° %2° %3°").arg(rpy.x(), 0, 'f', 2).arg(rpy.y(), 0, 'f', 2).arg(rpy.z(), 0, 'f', 2)});
  }
  // Reuse items so a slider drag does not rebuild the widget tree on every step.
  while (m_table->topLevelItemCount() > int(rows.size()))
    delete m_table->takeTopLevelItem(m_table->topLevelItemCount() - 1);
  while (m_table->topLevelItemCount() < int(rows.size())) new QTreeWidgetItem(m_table);
  for (int i = 0; i < int(rows.size()); ++i) {
    QTreeWidgetItem* item = m_table->topLevelItem(i);
    if (item->text(0) != rows[i].first) item->setText(0, rows[i].first);
    if (item->text(1) != rows[i].second) item->setText(1, rows[i].second);
  }
}
