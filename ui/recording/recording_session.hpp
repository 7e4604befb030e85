// One recording: frames of the 3D view or of the whole window into a VideoEncoder, paced by one of
// three clocks (docs/recording.md):
//   Timeline        the trajectory from its start to its end, once, frame k showing trajectory
//                   time t0 + k/fps (the last one its end): deterministic, as fast as frames render,
//                   the same file on every machine. The timeline is paused and put back afterwards.
//   RealTime        what is on screen, sampled by the wall clock: a frame every 1/fps s (a frame
//                   that renders late is repeated, so the video lasts as long as the recording).
//   SimulationTime  the running simulation, a frame every 1/fps s of simulated time: a simulation
//                   slower than real time plays back at its true speed. The frame shows the pose
//                   the view has then (the simulation dock poses the robot at the display rate).
// The GUI (RecordingController) and `dynscope --record` (window/record_command) both drive it.
#pragma once
#include <QElapsedTimer>
#include <QObject>
#include <QPointer>
#include <QSize>
#include <QString>
#include <functional>
#include <memory>
#include <optional>

#include "recording/video_encoder.hpp"

class QTimer;
class QWidget;
class TimelineDock;
class VtkViewport;

struct RecordingSettings {
  enum class Capture { View3D, Window };
  enum class Source { Timeline, RealTime, SimulationTime };
  QString path;  // .mp4, .webm or .gif
  Capture capture = Capture::View3D;
  Source source = Source::Timeline;
  int fps = 30;
  QSize size;            // the 3D view rendered at this size; empty: as shown (the window: always as shown)
  double duration = -1;  // seconds of video to record; <= 0: the whole timeline / until stopped
};

class RecordingSession : public QObject {
  Q_OBJECT

 public:
  // What to capture from. `simulationTime` gives the simulated time (nullopt: no simulation).
  struct Targets {
    QWidget* window = nullptr;
    VtkViewport* viewport = nullptr;
    std::function<TimelineDock*()> timeline;
    std::function<std::optional<double>()> simulationTime;
  };
  explicit RecordingSession(Targets targets, QObject* parent = nullptr);
  ~RecordingSession() override;

  // Opens the file and starts; false with the reason (nothing recorded then).
  bool start(const RecordingSettings& settings, QString* error);
  // Ends a recording (the file is finished and named); finished() reports it.
  void stop();

  bool isRecording() const { return m_encoder != nullptr; }
  const RecordingSettings& settings() const { return m_settings; }
  int framesWritten() const;
  int framesPlanned() const { return m_planned; }  // Timeline (or a duration): known in advance; else 0
  double recordedSeconds() const;                  // of video so far
  QSize frameSize() const;
  QString codecName() const;
  // True while a frame is being grabbed: an on-screen indicator (the status bar's REC) paints
  // nothing then, so that it does not end up in the video.
  static bool isGrabbing();

 signals:
  void progressed(int frames, int planned);  // after every frame written
  // ok: the file at `path` is complete; else `message` says why not (and no file was left).
  void finished(bool ok, const QString& path, const QString& message);

 private:
  QImage grab() const;
  bool write(const QImage& frame, int copies);
  void timelineStep();
  void liveTick();
  void finish(bool ok, QString message);
  void restoreTimeline();  // the time (and playing) as before a timeline render

  Targets m_targets;
  RecordingSettings m_settings;
  std::unique_ptr<VideoEncoder> m_encoder;
  QTimer* m_timer;
  QElapsedTimer m_wall;
  QPointer<TimelineDock> m_timeline;
  double m_t0 = 0, m_timelineEnd = 0, m_timeBefore = 0;  // Timeline: the trajectory's span, the time before
  bool m_wasPlaying = false;
  double m_simStart = 0;
  int m_planned = 0;
  int m_lastFrames = 0;  // the frames the finished recording wrote (framesWritten() after the end)
  double m_lastSeconds = 0;
  QSize m_lastSize;
  QString m_lastCodec;
  QString m_lastError;
  bool m_starting = false;  // start() reports a failure itself: no finished() then
};
