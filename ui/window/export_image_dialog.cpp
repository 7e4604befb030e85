#include "window/export_image_dialog.hpp"

#include <QDialogButtonBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QRadioButton>
#include <QSpinBox>
#include <QVBoxLayout>

ExportImageDialog::ExportImageDialog(const QSize& viewportSize, QWidget* parent)
    : QDialog(parent), m_viewport(viewportSize) {
  setWindowTitle(tr("Export image"));
  auto* layout = new QVBoxLayout(this);
  m_useViewport =
      new QRadioButton(tr("Viewport size (%1 × %2)").arg(viewportSize.width()).arg(viewportSize.height()), this);
  auto* custom = new QRadioButton(tr("Custom size:"), this);
  m_useViewport->setChecked(true);
  m_width = new QSpinBox(this);
  m_height = new QSpinBox(this);
  for (QSpinBox* s : {m_width, m_height}) {
    s->setRange(16, 8192);
    s->setSuffix(" px");
    s->setEnabled(false);
  }
  m_width->setValue(1920);
  m_height->setValue(1080);
  auto* sizeRow = new QHBoxLayout;
  sizeRow->addSpacing(20);
  sizeRow->addWidget(m_width);
  sizeRow->addWidget(new QLabel("×", this));
  sizeRow->addWidget(m_height);
  sizeRow->addStretch();
  layout->addWidget(m_useViewport);
  layout->addWidget(custom);
  layout->addLayout(sizeRow);
  connect(custom, &QRadioButton::toggled, m_width, &QSpinBox::setEnabled);
  connect(custom, &QRadioButton::toggled, m_height, &QSpinBox::setEnabled);
  auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
  connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
  connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
  layout->addWidget(buttons);
}

QSize ExportImageDialog::chosenSize() const {
  return m_useViewport->isChecked() ? m_viewport : QSize(m_width->value(), m_height->value());
}
