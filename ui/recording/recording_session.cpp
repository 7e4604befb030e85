#include "recording/recording_session.hpp"

#include <QImage>
#include <QTimer>
#include <QWidget>
#include <algorithm>
#include <cmath>

#include "timeline/timeline_dock.hpp"
#include "viewport/vtk_viewport.hpp"

namespace {
bool g_grabbing = false;  // see RecordingSession::isGrabbing
}

bool RecordingSession::isGrabbing() { return g_grabbing; }

RecordingSession::RecordingSession(Targets targets, QObject* parent)
    : QObject(parent), m_targets(std::move(targets)), m_timer(new QTimer(this)) {
  m_timer->setTimerType(Qt::PreciseTimer);
  connect(m_timer, &QTimer::timeout, this, [this] {
    if (m_settings.source == RecordingSettings::Source::Timeline)
      timelineStep();
    else
      liveTick();
  });
}

// A recording still running when the window closes is finished: the lecturer keeps the file.
RecordingSession::~RecordingSession() {
  if (m_encoder) m_encoder->close();
}

int RecordingSession::framesWritten() const { return m_encoder ? m_encoder->framesWritten() : m_lastFrames; }
double RecordingSession::recordedSeconds() const { return m_encoder ? m_encoder->durationSeconds() : m_lastSeconds; }
QSize RecordingSession::frameSize() const { return m_encoder ? m_encoder->frameSize() : m_lastSize; }
QString RecordingSession::codecName() const { return m_encoder ? m_encoder->codecName() : m_lastCodec; }

QImage RecordingSession::grab() const {
  g_grabbing = true;
  QImage image;
  if (m_settings.capture == RecordingSettings::Capture::Window) {
    if (m_targets.window) image = m_targets.window->grab().toImage();
  } else if (m_targets.viewport) {
    image = m_targets.viewport->grabImage(m_settings.size.width(), m_settings.size.height());
  }
  g_grabbing = false;
  return image;
}

bool RecordingSession::start(const RecordingSettings& settings, QString* error) {
  const auto fail = [&](const QString& message) {
    if (error) *error = message;
    return false;
  };
  if (isRecording()) return fail(tr("a recording is running: stop it first"));
  if (!VideoEncoder::formatForPath(settings.path))
    return fail(tr("%1: unknown video format (use %2)").arg(settings.path, VideoEncoder::extensionsText()));
  m_settings = settings;
  m_planned = settings.duration > 0 ? std::max(1, int(std::lround(settings.duration * settings.fps))) : 0;
  using Source = RecordingSettings::Source;
  if (settings.source == Source::Timeline) {
    m_timeline = m_targets.timeline ? m_targets.timeline() : nullptr;
    if (!m_timeline || m_timeline->clock().isEmpty())
      return fail(tr("there is no trajectory to play: load a demonstration or a CSV file, or add waypoints"));
    const PlaybackClock& clock = m_timeline->clock();
    m_t0 = clock.startTime();
    m_timelineEnd = clock.endTime();
    m_timeBefore = clock.time();
    m_wasPlaying = clock.isPlaying();
    // The whole trajectory: both its first and its last pose are frames (hence the + 1).
    if (m_planned == 0) m_planned = int(std::lround((m_timelineEnd - m_t0) * settings.fps)) + 1;
    m_timeline->pause();
    m_timeline->setTime(m_t0);
  } else if (settings.source == Source::SimulationTime) {
    const std::optional<double> t = m_targets.simulationTime ? m_targets.simulationTime() : std::nullopt;
    if (!t) return fail(tr("there is no simulation to record: set one up in the Simulation dock"));
    m_simStart = *t;
  }
  const QImage first = grab();
  if (first.isNull()) {
    restoreTimeline();
    return fail(tr("the view could not be rendered (no OpenGL context?)"));
  }
  auto encoder = std::make_unique<VideoEncoder>();
  if (!encoder->open(settings.path, first.size(), settings.fps)) {
    restoreTimeline();
    return fail(encoder->error());
  }
  m_encoder = std::move(encoder);
  m_starting = true;
  const bool wrote = write(first, 1);
  m_starting = false;
  if (!wrote) return fail(m_lastError);
  m_wall.start();
  // The timeline renders frame after frame, the event loop running between them (repaints, the
  // progress, a Stop); live sources sample at twice the frame rate so that no frame is late by
  // more than half a frame.
  m_timer->start(settings.source == Source::Timeline ? 0 : std::max(1, 500 / settings.fps));
  if (m_planned > 0 && framesWritten() >= m_planned) finish(true, {});
  return true;
}

bool RecordingSession::write(const QImage& frame, int copies) {
  for (int i = 0; i < copies; ++i)
    if (!m_encoder->addFrame(frame)) {
      finish(false, m_encoder->error());
      return false;
    }
  emit progressed(m_encoder->framesWritten(), m_planned);
  return true;
}

void RecordingSession::timelineStep() {
  if (!m_encoder) return;
  const int k = m_encoder->framesWritten();
  if (k >= m_planned) return finish(true, {});
  if (!m_timeline) return finish(false, tr("the timeline is gone"));
  // Frame k shows trajectory time t0 + k/fps; past the end (a --duration longer than the
  // trajectory) the last pose is held.
  m_timeline->setTime(std::min(m_t0 + double(k) / m_settings.fps, m_timelineEnd));
  if (!write(grab(), 1)) return;
  if (m_encoder && m_encoder->framesWritten() >= m_planned) finish(true, {});
}

void RecordingSession::liveTick() {
  if (!m_encoder) return;
  double seconds = m_wall.nsecsElapsed() / 1e9;
  if (m_settings.source == RecordingSettings::Source::SimulationTime) {
    const std::optional<double> t = m_targets.simulationTime ? m_targets.simulationTime() : std::nullopt;
    if (!t) return finish(true, tr("the simulation ended"));
    seconds = *t - m_simStart;  // a reset (time going back) waits until the time passes again
  }
  // Frame k is due at k/fps: write the frames due by now, showing the picture of now (a frame the
  // machine was too slow for is a repeat). At most a second's worth per tick keeps the window
  // responsive when the simulation runs far faster than real time; the rest follow.
  int due = int(std::floor(seconds * m_settings.fps)) + 1 - m_encoder->framesWritten();
  if (m_planned > 0) due = std::min(due, m_planned - m_encoder->framesWritten());
  if (due > 0 && !write(grab(), std::min(due, m_settings.fps))) return;
  if (m_planned > 0 && m_encoder && m_encoder->framesWritten() >= m_planned) finish(true, {});
}

void RecordingSession::stop() {
  if (!m_encoder) return;
  QString note;
  if (m_settings.source == RecordingSettings::Source::Timeline && m_encoder->framesWritten() < m_planned)
    note = tr("stopped after %1 of %2 frames").arg(m_encoder->framesWritten()).arg(m_planned);
  finish(true, note);
}

void RecordingSession::finish(bool ok, QString message) {
  if (!m_encoder) return;
  m_timer->stop();
  std::unique_ptr<VideoEncoder> encoder = std::move(m_encoder);  // isRecording() is false from here
  m_lastFrames = encoder->framesWritten();
  m_lastSeconds = encoder->durationSeconds();
  m_lastSize = encoder->frameSize();
  m_lastCodec = encoder->codecName();
  if (ok && !encoder->close()) {
    ok = false;
    message = encoder->error();
  }
  if (!ok && message.isEmpty()) message = encoder->error();
  encoder.reset();  // a failed file's partial copy is removed here
  m_lastError = ok ? QString() : message;
  restoreTimeline();
  if (!m_starting) emit finished(ok, m_settings.path, message);
}

void RecordingSession::restoreTimeline() {
  if (m_settings.source != RecordingSettings::Source::Timeline || !m_timeline) return;
  m_timeline->setTime(m_timeBefore);
  if (m_wasPlaying) m_timeline->play();
}
