#include "recording/recording_controller.hpp"

#include <QAction>
#include <QDateTime>
#include <QDir>
#include <QFileInfo>
#include <QIcon>
#include <QMainWindow>
#include <QPainter>
#include <QPainterPath>
#include <QRegularExpression>
#include <QStatusBar>
#include <QTimer>
#include <cmath>

#include "recording/record_dialog.hpp"
#include "timeline/timeline_dock.hpp"
#include "viewport/vtk_viewport.hpp"

// "● REC 00:03" in white on red, the part of a timeline render done in a darker red behind it. It
// paints nothing while a frame is grabbed, so a recording of the whole window does not show it.
class RecordingIndicator : public QWidget {
 public:
  explicit RecordingIndicator(QWidget* parent) : QWidget(parent) {
    setObjectName("recordingIndicator");
    setToolTip(tr("Recording: Ctrl+R stops"));
  }
  void show(const QString& text, double fraction) {
    m_text = text;
    m_fraction = fraction;
    setAccessibleName(text);
    updateGeometry();
    update();
    setVisible(true);
  }
  QString text() const { return m_text; }
  QSize sizeHint() const override {
    const QFontMetrics m(boldFont());
    return {m.horizontalAdvance(m_text) + 2 * m.height(), m.height() + 6};
  }
  QSize minimumSizeHint() const override { return sizeHint(); }

 protected:
  void paintEvent(QPaintEvent*) override {
    if (RecordingSession::isGrabbing()) return;
    QPainter p(this);
    p.setRenderHint(QPainter::Antialiasing);
    const QRectF r = QRectF(rect()).adjusted(1, 1, -1, -1);
    QPainterPath pill;
    pill.addRoundedRect(r, r.height() / 2, r.height() / 2);
    p.fillPath(pill, QColor(200, 20, 30));
    if (m_fraction >= 0) {
      p.setClipPath(pill);
      p.fillRect(QRectF(r.topLeft(), QSizeF(r.width() * std::clamp(m_fraction, 0.0, 1.0), r.height())),
                 QColor(120, 0, 10));
      p.setClipping(false);
    }
    p.setPen(Qt::white);
    p.setFont(boldFont());
    p.drawText(r, Qt::AlignCenter, m_text);
  }

 private:
  QFont boldFont() const {
    QFont f = font();
    f.setBold(true);
    return f;
  }
  QString m_text;
  double m_fraction = -1;
};

namespace {

// A red disc (record) or a dark square (stop) for the toolbar: drawn, no icon file needed.
QIcon recordIcon(bool recording) {
  QPixmap pixmap(64, 64);
  pixmap.fill(Qt::transparent);
  QPainter p(&pixmap);
  p.setRenderHint(QPainter::Antialiasing);
  p.setPen(Qt::NoPen);
  if (recording) {
    p.setBrush(QColor(60, 60, 60));
    p.drawRoundedRect(QRectF(14, 14, 36, 36), 5, 5);
  } else {
    p.setBrush(QColor(210, 25, 35));
    p.drawEllipse(QRectF(10, 10, 44, 44));
  }
  return QIcon(pixmap);
}

QString clock(double seconds) {
  const int s = int(std::floor(seconds));
  return QString("%1:%2").arg(s / 60, 2, 10, QChar('0')).arg(s % 60, 2, 10, QChar('0'));
}

}  // namespace

RecordingController::RecordingController(QMainWindow* window, RecordingSession::Targets targets,
                                         std::function<QString()> baseName)
    : QObject(window),
      m_window(window),
      m_targets(targets),
      m_baseName(std::move(baseName)),
      m_session(new RecordingSession(std::move(targets), this)),
      m_action(new QAction(recordIcon(false), tr("&Record video…"), this)),
      m_indicator(new RecordingIndicator(window)),
      m_tick(new QTimer(this)) {
  setObjectName("recordingController");
  m_action->setObjectName("recordAction");
  m_action->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_R));
  m_action->setToolTip(tr("Record the 3D view or the window to a video (MP4, WebM, GIF) (Ctrl+R)"));
  connect(m_action, &QAction::triggered, this, &RecordingController::trigger);
  m_indicator->hide();
  window->statusBar()->insertPermanentWidget(0, m_indicator);
  m_tick->setInterval(250);
  connect(m_tick, &QTimer::timeout, this, &RecordingController::updateIndicator);
  connect(m_session, &RecordingSession::progressed, this, [this](int, int planned) {
    if (planned > 0 && m_session->settings().source == RecordingSettings::Source::Timeline) updateIndicator();
  });
  connect(m_session, &RecordingSession::finished, this, &RecordingController::onFinished);
}

QWidget* RecordingController::indicator() const { return m_indicator; }
RecordDialog* RecordingController::dialog() const { return m_dialog; }

void RecordingController::trigger() {
  if (m_session->isRecording()) {
    m_session->stop();
    return;
  }
  if (m_dialog && m_dialog->isVisible()) {
    m_dialog->raise();
    return;
  }
  RecordDialog::Offer offer;
  if (m_targets.viewport) offer.viewportSize = m_targets.viewport->size() * m_targets.viewport->devicePixelRatioF();
  TimelineDock* timeline = m_targets.timeline ? m_targets.timeline() : nullptr;
  offer.hasTrajectory = timeline && !timeline->clock().isEmpty();
  offer.hasSimulation = m_targets.simulationTime && m_targets.simulationTime().has_value();
  QString base = m_baseName ? m_baseName() : QString();
  base.replace(QRegularExpression("[^A-Za-z0-9_.-]+"), "_");
  if (base.isEmpty()) base = "dynscope";
  // A new name in the last recording's folder and format, else in the Videos folder as MP4.
  const QFileInfo last(m_last ? m_last->path : QString());
  const QString folder = m_last && last.absoluteDir().exists() ? last.absolutePath() : RecordDialog::defaultFolder();
  const QString suffix = m_last && VideoEncoder::formatForPath(last.filePath()) ? last.suffix() : QString("mp4");
  offer.defaultPath = QDir(folder).filePath(base + QDateTime::currentDateTime().toString("-yyyyMMdd-HHmmss.") + suffix);
  offer.last = m_last;
  // Window-modal but not exec(): no nested event loop while the window renders.
  m_dialog = new RecordDialog(offer, m_window);
  m_dialog->setAttribute(Qt::WA_DeleteOnClose);
  connect(m_dialog, &QDialog::accepted, this, &RecordingController::startFromDialog);
  m_dialog->open();
}

void RecordingController::startFromDialog() {
  if (!m_dialog) return;
  const RecordingSettings settings = m_dialog->settings();
  m_last = settings;
  QString why;
  if (!m_session->start(settings, &why)) {
    emit error(tr("Record video"), why);
    return;
  }
  if (!m_session->isRecording()) return;  // a one-frame timeline is already done
  m_action->setText(tr("Stop &recording"));
  m_action->setIcon(recordIcon(true));
  m_action->setToolTip(tr("Stop the recording and save %1 (Ctrl+R)").arg(QFileInfo(settings.path).fileName()));
  updateIndicator();
  m_tick->start();
}

void RecordingController::updateIndicator() {
  if (!m_session->isRecording()) return;
  const int planned = m_session->framesPlanned(), done = m_session->framesWritten();
  if (m_session->settings().source == RecordingSettings::Source::Timeline)
    m_indicator->show(tr("● REC  %1 / %2").arg(done).arg(planned), planned > 0 ? double(done) / planned : -1);
  else
    m_indicator->show(tr("● REC  %1").arg(clock(m_session->recordedSeconds())), -1);
}

void RecordingController::onFinished(bool ok, const QString& path, const QString& note) {
  m_tick->stop();
  m_indicator->hide();
  m_action->setText(tr("&Record video…"));
  m_action->setIcon(recordIcon(false));
  m_action->setToolTip(tr("Record the 3D view or the window to a video (MP4, WebM, GIF) (Ctrl+R)"));
  if (!ok) {
    emit error(tr("Record video"), note);
    return;
  }
  const QSize size = m_session->frameSize();
  QString text = tr("Recorded %1 (%2 frames, %3 × %4, %5 s, %6)")
                     .arg(path)
                     .arg(m_session->framesWritten())
                     .arg(size.width())
                     .arg(size.height())
                     .arg(m_session->recordedSeconds(), 0, 'f', 2)
                     .arg(m_session->codecName());
  if (!note.isEmpty()) text += ": " + note;
  emit message(text);
  if (m_window) m_window->statusBar()->showMessage(text, 8000);
}
