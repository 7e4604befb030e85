// The timeline: playback clock arithmetic (speed, loop, end, stepping between samples) and the
// dock driven as a user drives it (play button, scrubber, speed box, shortcuts).
#include <QtTest>

#include <QAction>
#include <QComboBox>
#include <QSignalSpy>
#include <QSlider>
#include <QToolButton>

#include "timeline/playback_clock.hpp"
#include "timeline/timeline_dock.hpp"

namespace {
// t_k = k h on [0, T]
std::vector<double> uniformTimes(int n, double h) {
  std::vector<double> t(n);
  for (int k = 0; k < n; ++k) t[k] = k * h;
  return t;
}
}  // namespace

class TestTimeline : public QObject {
  Q_OBJECT

 private slots:
  void clockAdvancesBySpeedTimesWallTime() {
    PlaybackClock c;
    c.setSampleTimes(uniformTimes(11, 0.1));  // 0 .. 1 s
    c.setSpeed(0.25);
    c.play();
    QVERIFY(c.isPlaying());
    QVERIFY(c.advance(0.4));
    QCOMPARE(c.time(), 0.1);  // 0.4 s of wall time at 0.25x
    c.setSpeed(100);          // clamped to 4x
    QCOMPARE(c.speed(), PlaybackClock::kMaxSpeed);
    c.setSpeed(0);
    QCOMPARE(c.speed(), PlaybackClock::kMinSpeed);
  }

  void clockStopsAtTheEndOrWraps() {
    PlaybackClock c;
    c.setSampleTimes(uniformTimes(11, 0.1));
    c.play();
    c.advance(1.25);
    QCOMPARE(c.time(), 1.0);
    QVERIFY(!c.isPlaying());
    c.play();  // from the end: restarts
    QCOMPARE(c.time(), 0.0);
    c.setLoop(true);
    c.advance(2.3);  // 2.3 s on a 1 s loop -> 0.3
    QVERIFY(c.isPlaying());
    QVERIFY(std::abs(c.time() - 0.3) < 1e-12);
  }

  void clockStepsFromSampleToSample() {
    PlaybackClock c;
    c.setSampleTimes({0.0, 0.5, 0.75, 2.0});
    c.setTime(0.6);  // between samples 1 and 2, nearer 1
    QCOMPARE(c.nearestSample(), 1);
    c.step(+1);
    QCOMPARE(c.time(), 0.75);
    c.setTime(0.6);
    c.step(-1);
    QCOMPARE(c.time(), 0.5);
    c.step(-1);
    c.step(-1);  // stays on the first sample
    QCOMPARE(c.time(), 0.0);
    c.setTime(5.0);  // clamped
    QCOMPARE(c.time(), 2.0);
    c.step(+1);
    QCOMPARE(c.time(), 2.0);
    c.setTime(std::nan(""));  // ignored
    QCOMPARE(c.time(), 2.0);
  }

  void emptyClockDoesNothing() {
    PlaybackClock c;
    c.play();
    QVERIFY(!c.isPlaying());
    QVERIFY(!c.advance(1.0));
    c.step(1);
    QCOMPARE(c.time(), 0.0);
    QCOMPARE(c.nearestSample(), -1);
  }

  void dockPlaysAndEmitsTime() {
    TimelineDock dock;
    QSignalSpy times(&dock, &TimelineDock::timeChanged);
    QSignalSpy playing(&dock, &TimelineDock::playingChanged);
    dock.setSampleTimes(uniformTimes(101, 0.01));
    auto* play = dock.findChild<QToolButton*>("playButton");
    QVERIFY(play);
    play->click();
    QVERIFY(dock.isPlaying());
    QCOMPARE(playing.count(), 1);
    dock.advance(0.5);
    QCOMPARE(times.count(), 1);
    QCOMPARE(times.last().at(0).toDouble(), 0.5);
    QCOMPARE(dock.scrubber()->value(), 50);
    dock.advance(1.0);  // past the end: stops on the last sample
    QVERIFY(!dock.isPlaying());
    QCOMPARE(dock.time(), 1.0);
    QCOMPARE(playing.count(), 2);
  }

  void realTimerMovesTheRobotForward() {
    TimelineDock dock;
    QSignalSpy times(&dock, &TimelineDock::timeChanged);
    dock.setSampleTimes(uniformTimes(1001, 0.01));  // 10 s
    dock.play();
    QTest::qWait(200);
    QVERIFY(times.count() >= 3);  // ~60 Hz ticks
    QVERIFY(dock.time() > 0.05 && dock.time() < 1.0);
    dock.pause();
  }

  void scrubberAndSpeedBox() {
    TimelineDock dock;
    QSignalSpy times(&dock, &TimelineDock::timeChanged);
    dock.setSampleTimes(uniformTimes(11, 0.2));  // 0 .. 2 s
    QCOMPARE(dock.scrubber()->maximum(), 10);
    dock.scrubber()->setValue(7);  // as a drag does
    QCOMPARE(dock.time(), 7 * 0.2);
    QCOMPARE(times.count(), 1);
    dock.speedBox()->setCurrentIndex(0);
    QCOMPARE(dock.clock().speed(), 0.1);
    dock.setSpeed(2.0);
    QCOMPARE(dock.speedBox()->currentText(), QString("2") + QChar(0xD7));
  }

  void setTimeEmitsOnlyOnChange() {
    TimelineDock dock;
    dock.setSampleTimes(uniformTimes(11, 0.1));
    QSignalSpy times(&dock, &TimelineDock::timeChanged);
    dock.setTime(0.35);
    dock.setTime(0.35);  // a plot echoing the cursor back must not loop
    QCOMPARE(times.count(), 1);
  }

  void actionsHaveShortcutsAndDisableWithoutTrajectory() {
    TimelineDock dock;
    for (QAction* a : dock.playbackActions()) {
      QVERIFY2(!a->shortcut().isEmpty(), qPrintable(a->text()));
      QVERIFY(!a->isEnabled());
    }
    dock.setSampleTimes(uniformTimes(3, 1.0));
    for (QAction* a : dock.playbackActions()) QVERIFY(a->isEnabled());
  }
};

QTEST_MAIN(TestTimeline)
#include "test_timeline.moc"
