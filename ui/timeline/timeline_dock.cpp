#include "timeline/timeline_dock.hpp"

#include <QAction>
#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QSignalBlocker>
#include <QSlider>
#include <QStyle>
#include <QTimer>
#include <QToolButton>
#include <algorithm>
#include <cmath>

namespace {
const double kSpeeds[] = {0.1, 0.25, 0.5, 1.0, 2.0, 4.0};

QToolButton* buttonFor(QAction* action, QWidget* parent) {
  auto* b = new QToolButton(parent);
  b->setDefaultAction(action);
  b->setAutoRaise(true);
  return b;
}
}  // namespace

TimelineDock::TimelineDock(QWidget* parent) : QDockWidget(tr("Timeline"), parent) {
  setObjectName("timelineDock");
  auto* body = new QWidget(this);
  auto* row = new QHBoxLayout(body);
  row->setContentsMargins(6, 2, 6, 2);
  QStyle* st = style();

  auto makeAction = [this](const QIcon& icon, const QString& text, const QKeySequence& key) {
    auto* a = new QAction(icon, text, this);
    a->setShortcut(key);
    a->setToolTip(QString("%1 (%2)").arg(text, key.toString(QKeySequence::NativeText)));
    return a;
  };
  m_startAction =
      makeAction(st->standardIcon(QStyle::SP_MediaSkipBackward), tr("Go to start"), QKeySequence("Ctrl+Home"));
  m_stepBackAction =
      makeAction(st->standardIcon(QStyle::SP_MediaSeekBackward), tr("Step back one sample"), QKeySequence(","));
  m_playAction = makeAction(st->standardIcon(QStyle::SP_MediaPlay), tr("Play"), QKeySequence(Qt::Key_Space));
  m_stepForwardAction =
      makeAction(st->standardIcon(QStyle::SP_MediaSeekForward), tr("Step forward one sample"), QKeySequence("."));
  m_loopAction = makeAction(st->standardIcon(QStyle::SP_BrowserReload), tr("Loop"), QKeySequence("L"));
  m_loopAction->setCheckable(true);
  m_slowerAction = makeAction(QIcon(), tr("Slower"), QKeySequence("["));
  m_fasterAction = makeAction(QIcon(), tr("Faster"), QKeySequence("]"));

  connect(m_startAction, &QAction::triggered, this, &TimelineDock::goToStart);
  connect(m_stepBackAction, &QAction::triggered, this, [this] { step(-1); });
  connect(m_playAction, &QAction::triggered, this, &TimelineDock::togglePlay);
  connect(m_stepForwardAction, &QAction::triggered, this, [this] { step(+1); });
  connect(m_loopAction, &QAction::toggled, this, &TimelineDock::setLoop);
  connect(m_slowerAction, &QAction::triggered, this,
          [this] { m_speed->setCurrentIndex(std::max(0, m_speed->currentIndex() - 1)); });
  connect(m_fasterAction, &QAction::triggered, this,
          [this] { m_speed->setCurrentIndex(std::min(m_speed->count() - 1, m_speed->currentIndex() + 1)); });

  row->addWidget(buttonFor(m_startAction, body));
  row->addWidget(buttonFor(m_stepBackAction, body));
  m_playButton = buttonFor(m_playAction, body);
  m_playButton->setObjectName("playButton");
  row->addWidget(m_playButton);
  row->addWidget(buttonFor(m_stepForwardAction, body));
  row->addWidget(buttonFor(m_loopAction, body));

  m_speed = new QComboBox(body);
  m_speed->setObjectName("speedBox");
  m_speed->setToolTip(tr("Playback speed ([ slower, ] faster)"));
  for (double s : kSpeeds) m_speed->addItem(QString::number(s) + QChar(0xD7), s);
  m_speed->setCurrentIndex(3);  // 1x
  connect(m_speed, &QComboBox::currentIndexChanged, this, [this](int i) {
    if (i >= 0) m_clock.setSpeed(m_speed->itemData(i).toDouble());
  });
  row->addWidget(m_speed);

  m_slider = new QSlider(Qt::Horizontal, body);
  m_slider->setObjectName("scrubber");
  m_slider->setToolTip(tr("Drag to scrub through the trajectory"));
  connect(m_slider, &QSlider::valueChanged, this, &TimelineDock::onSliderMoved);
  // Scrubbing pauses playback; it resumes when the slider is released.
  connect(m_slider, &QSlider::sliderPressed, this, [this] {
    m_wasPlaying = isPlaying();
    pause();
  });
  connect(m_slider, &QSlider::sliderReleased, this, [this] {
    if (m_wasPlaying) play();
  });
  row->addWidget(m_slider, 1);

  m_timeLabel = new QLabel(body);
  m_timeLabel->setObjectName("timeLabel");
  m_timeLabel->setMinimumWidth(m_timeLabel->fontMetrics().horizontalAdvance("t = 000.000 / 000.000 s  #00000"));
  row->addWidget(m_timeLabel);
  setWidget(body);

  m_timer = new QTimer(this);
  m_timer->setTimerType(Qt::PreciseTimer);
  m_timer->setInterval(16);  // display rate; the step itself uses the measured wall time
  connect(m_timer, &QTimer::timeout, this, &TimelineDock::onTick);
  syncControls();
}

QList<QAction*> TimelineDock::playbackActions() const {
  return {m_playAction, m_stepBackAction, m_stepForwardAction, m_startAction,
          m_loopAction, m_slowerAction,   m_fasterAction};
}

void TimelineDock::setSampleTimes(std::vector<double> t) {
  const double before = time();
  pause();
  m_clock.setSampleTimes(std::move(t));
  {
    const QSignalBlocker block(m_slider);
    m_slider->setRange(0, std::max(0, m_clock.sampleCount() - 1));
  }
  syncControls();
  emitIfMoved(before);
}

void TimelineDock::setTime(double t) {
  const double before = time();
  m_clock.setTime(t);
  syncControls();
  emitIfMoved(before);
}

void TimelineDock::play() {
  if (isPlaying()) return;
  const double before = time();
  m_clock.play();
  if (!isPlaying()) return;
  m_wall.start();
  m_timer->start();
  syncControls();
  emit playingChanged(true);
  emitIfMoved(before);  // a restart from the end jumps to the start
}

void TimelineDock::pause() {
  if (!isPlaying()) return;
  m_clock.pause();
  m_timer->stop();
  syncControls();
  emit playingChanged(false);
}

void TimelineDock::togglePlay() { isPlaying() ? pause() : play(); }

void TimelineDock::step(int direction) {
  const bool wasPlaying = isPlaying();
  const double before = time();
  m_clock.step(direction);
  m_timer->stop();
  syncControls();
  if (wasPlaying) emit playingChanged(false);
  emitIfMoved(before);
}

void TimelineDock::goToStart() { setTime(m_clock.startTime()); }

void TimelineDock::setLoop(bool on) {
  m_clock.setLoop(on);
  const QSignalBlocker block(m_loopAction);
  m_loopAction->setChecked(on);
}

void TimelineDock::setSpeed(double speed) {
  m_clock.setSpeed(speed);
  // The nearest preset in the box (the clock keeps the exact value).
  int best = 0;
  for (int i = 0; i < m_speed->count(); ++i)
    if (std::abs(m_speed->itemData(i).toDouble() - speed) < std::abs(m_speed->itemData(best).toDouble() - speed))
      best = i;
  const QSignalBlocker block(m_speed);
  m_speed->setCurrentIndex(best);
}

void TimelineDock::advance(double wallSeconds) {
  const double before = time();
  const bool wasPlaying = isPlaying();
  m_clock.advance(wallSeconds);
  if (wasPlaying && !isPlaying()) {  // reached the end without looping
    m_timer->stop();
    emit playingChanged(false);
  }
  syncControls();
  emitIfMoved(before);
}

void TimelineDock::onTick() {
  const double dt = m_wall.restart() * 1e-3;
  advance(std::min(dt, 0.25));  // a stalled frame (e.g. a modal dialog) does not jump ahead
}

void TimelineDock::onSliderMoved(int index) {
  const auto& t = m_clock.sampleTimes();
  if (index < 0 || index >= int(t.size())) return;
  setTime(t[index]);
}

void TimelineDock::syncControls() {
  const bool any = !m_clock.isEmpty();
  for (QAction* a : playbackActions()) a->setEnabled(any);
  m_slider->setEnabled(any);
  m_playAction->setIcon(style()->standardIcon(isPlaying() ? QStyle::SP_MediaPause : QStyle::SP_MediaPlay));
  m_playAction->setText(isPlaying() ? tr("Pause") : tr("Play"));
  m_playAction->setToolTip(m_playAction->text() + tr(" (Space)"));
  {
    const QSignalBlocker block(m_slider);
    m_slider->setValue(std::max(0, m_clock.nearestSample()));
  }
  m_timeLabel->setText(any ? QString("t = %1 / %2 s  #%3")
                                 .arg(time(), 0, 'f', 3)
                                 .arg(m_clock.endTime(), 0, 'f', 3)
                                 .arg(m_clock.nearestSample())
                           : tr("no trajectory"));
}

void TimelineDock::emitIfMoved(double before) {
  if (time() != before) emit timeChanged(time());
}
