#include "recording/record_dialog.hpp"

#include <QButtonGroup>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QRadioButton>
#include <QSpinBox>
#include <QStandardPaths>
#include <QVBoxLayout>

#include "recording/video_encoder.hpp"

QString RecordDialog::defaultFolder() {
  for (auto location : {QStandardPaths::MoviesLocation, QStandardPaths::PicturesLocation}) {
    const QString dir = QStandardPaths::writableLocation(location);
    if (!dir.isEmpty() && QDir(dir).exists()) return dir;
  }
  return QDir::homePath();
}

RecordDialog::RecordDialog(const Offer& offer, QWidget* parent) : QDialog(parent), m_viewport(offer.viewportSize) {
  setObjectName("recordDialog");
  setWindowTitle(tr("Record video"));
  auto* form = new QFormLayout;

  m_view = new QRadioButton(tr("3D view"), this);
  m_view->setObjectName("captureView");
  m_window = new QRadioButton(tr("Whole window"), this);
  m_window->setObjectName("captureWindow");
  // Two groups: radio buttons of one parent would otherwise exclude each other across both rows.
  auto* captures = new QButtonGroup(this);
  captures->addButton(m_view);
  captures->addButton(m_window);
  m_view->setChecked(true);
  auto* capture = new QHBoxLayout;
  capture->addWidget(m_view);
  capture->addWidget(m_window);
  capture->addStretch();
  form->addRow(tr("Capture:"), capture);

  m_size = new QComboBox(this);
  m_size->setObjectName("sizeBox");
  m_size->addItem(tr("As shown (%1 × %2)").arg(m_viewport.width()).arg(m_viewport.height()), QSize());
  for (const QSize& s : {QSize(1920, 1080), QSize(1280, 720), QSize(854, 480)})
    m_size->addItem(tr("%1 × %2").arg(s.width()).arg(s.height()), s);
  m_size->setToolTip(tr("The 3D view is rendered at this size; the window is recorded as shown"));
  form->addRow(tr("Size:"), m_size);
  connect(m_window, &QRadioButton::toggled, m_size, [this](bool on) { m_size->setEnabled(!on); });

  m_timeline = new QRadioButton(tr("Trajectory timeline, start to end (one frame every 1/fps of its time)"), this);
  m_timeline->setObjectName("sourceTimeline");
  m_realTime = new QRadioButton(tr("Live, real time (until stopped with Ctrl+R)"), this);
  m_realTime->setObjectName("sourceRealTime");
  m_simulation = new QRadioButton(tr("Live simulation, simulated time (one frame every 1/fps simulated)"), this);
  m_simulation->setObjectName("sourceSimulation");
  m_timeline->setEnabled(offer.hasTrajectory);
  if (!offer.hasTrajectory)
    m_timeline->setToolTip(tr("No trajectory: load a demonstration or a CSV, or add waypoints"));
  m_simulation->setEnabled(offer.hasSimulation);
  if (!offer.hasSimulation) m_simulation->setToolTip(tr("No simulation: set one up in the Simulation dock"));
  auto* sources = new QVBoxLayout;
  auto* sourceGroup = new QButtonGroup(this);
  for (QRadioButton* b : {m_timeline, m_realTime, m_simulation}) {
    sources->addWidget(b);
    sourceGroup->addButton(b);
  }
  (offer.hasTrajectory ? m_timeline : m_realTime)->setChecked(true);
  form->addRow(tr("Source:"), sources);

  m_fps = new QSpinBox(this);
  m_fps->setObjectName("fps");
  m_fps->setRange(1, 120);
  m_fps->setValue(30);
  m_fps->setSuffix(tr(" frames/s"));
  form->addRow(tr("Frame rate:"), m_fps);

  m_path = new QLineEdit(offer.defaultPath, this);
  m_path->setObjectName("path");
  m_path->setMinimumWidth(fontMetrics().horizontalAdvance(QString(48, 'x')));
  auto* browse = new QPushButton(tr("Browse…"), this);
  browse->setObjectName("browse");
  connect(browse, &QPushButton::clicked, this, &RecordDialog::browse);
  auto* fileRow = new QHBoxLayout;
  fileRow->addWidget(m_path, 1);
  fileRow->addWidget(browse);
  form->addRow(tr("File:"), fileRow);
  m_format = new QLabel(this);
  m_format->setObjectName("formatLabel");
  form->addRow(QString(), m_format);

  m_buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
  m_buttons->button(QDialogButtonBox::Ok)->setText(tr("Record"));
  connect(m_buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
  connect(m_buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
  auto* layout = new QVBoxLayout(this);
  layout->addLayout(form);
  layout->addWidget(m_buttons);
  connect(m_path, &QLineEdit::textChanged, this, &RecordDialog::updateFormat);
  if (offer.last) {  // the same choices as the last time (the file name is new)
    setCapture(offer.last->capture);
    if (offer.last->source != RecordingSettings::Source::Timeline || offer.hasTrajectory)
      if (offer.last->source != RecordingSettings::Source::SimulationTime || offer.hasSimulation)
        setSource(offer.last->source);
    m_fps->setValue(offer.last->fps);
    if (const int i = m_size->findData(offer.last->size); i >= 0) m_size->setCurrentIndex(i);
  }
  updateFormat();
}

void RecordDialog::updateFormat() {
  const auto format = VideoEncoder::formatForPath(m_path->text());
  m_buttons->button(QDialogButtonBox::Ok)->setEnabled(format.has_value());
  m_format->setText(format ? VideoEncoder::codecDescription(*format)
                           : tr("Unknown format: end the name in %1").arg(VideoEncoder::extensionsText()));
}

void RecordDialog::browse() {
  const QString path =
      QFileDialog::getSaveFileName(this, tr("Record video"), m_path->text(),
                                   tr("MP4 video, H.264 (*.mp4);;WebM video, VP9 (*.webm);;Animated GIF (*.gif)"));
  if (!path.isEmpty()) m_path->setText(path);
}

void RecordDialog::setSource(RecordingSettings::Source source) {
  using Source = RecordingSettings::Source;
  (source == Source::Timeline ? m_timeline : source == Source::RealTime ? m_realTime : m_simulation)->setChecked(true);
}

void RecordDialog::setCapture(RecordingSettings::Capture capture) {
  (capture == RecordingSettings::Capture::Window ? m_window : m_view)->setChecked(true);
}

RecordingSettings RecordDialog::settings() const {
  RecordingSettings s;
  s.path = m_path->text().trimmed();
  s.capture = m_window->isChecked() ? RecordingSettings::Capture::Window : RecordingSettings::Capture::View3D;
  s.source = m_timeline->isChecked()   ? RecordingSettings::Source::Timeline
             : m_realTime->isChecked() ? RecordingSettings::Source::RealTime
                                       : RecordingSettings::Source::SimulationTime;
  s.fps = m_fps->value();
  if (s.capture == RecordingSettings::Capture::View3D) s.size = m_size->currentData().toSize();
  return s;
}
