// The timeline: play / pause / loop / speed (0.1x - 4x), step one sample, go to start, and a
// scrub slider over the trajectory's samples. Emits timeChanged whenever the time moves — by
// playback, scrubbing, stepping or setTime — and the window poses the robot and moves the plot
// cursors from it. Playback advances by measured wall time at the display rate.
#pragma once
#include <QDockWidget>
#include <QElapsedTimer>
#include <vector>

#include "timeline/playback_clock.hpp"

class QAction;
class QComboBox;
class QLabel;
class QSlider;
class QTimer;
class QToolButton;

class TimelineDock : public QDockWidget {
  Q_OBJECT

 public:
  explicit TimelineDock(QWidget* parent = nullptr);

  void setSampleTimes(std::vector<double> t);  // the trajectory's sample times; empty: disabled
  const PlaybackClock& clock() const { return m_clock; }
  double time() const { return m_clock.time(); }
  bool isPlaying() const { return m_clock.isPlaying(); }

  // Playback actions with their shortcuts, for the window's menu.
  QList<QAction*> playbackActions() const;
  QSlider* scrubber() const { return m_slider; }
  QComboBox* speedBox() const { return m_speed; }

 public slots:
  void setTime(double t);  // e.g. a click on a plot; emits timeChanged if the time moved
  void play();
  void pause();
  void togglePlay();
  void step(int direction);
  void goToStart();
  void setLoop(bool on);
  void setSpeed(double speed);
  // Advances playback by `wallSeconds` as the display timer does (tests drive it directly).
  void advance(double wallSeconds);

 signals:
  void timeChanged(double t);
  void playingChanged(bool playing);

 private:
  void onTick();
  void onSliderMoved(int index);
  void syncControls();
  void emitIfMoved(double before);

  PlaybackClock m_clock;
  QTimer* m_timer;
  QElapsedTimer m_wall;
  QSlider* m_slider;
  QLabel* m_timeLabel;
  QComboBox* m_speed;
  QToolButton* m_playButton;
  QAction* m_playAction;
  QAction* m_stepBackAction;
  QAction* m_stepForwardAction;
  QAction* m_startAction;
  QAction* m_loopAction;
  QAction* m_fasterAction;
  QAction* m_slowerAction;
  bool m_wasPlaying = false;
};
