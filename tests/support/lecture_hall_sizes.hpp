// The lecture hall's screens as QtTest data: a 1366x768 laptop and a 1920x1080 projector, at the
// desk and (optionally) in presentation mode; and the skip when the X screen cannot hold the size
// (scripts/test runs Xvfb at 1920x1080).
#pragma once
#include <QGuiApplication>
#include <QScreen>
#include <QSize>
#include <QTest>

namespace dyn::testing {

// Columns "size" (QSize) and, with presentation, "present" (bool); one row per size and mode.
inline void addLectureHallRows(bool withPresentation) {
  QTest::addColumn<QSize>("size");
  if (withPresentation) QTest::addColumn<bool>("present");
  for (const bool present : {false, true}) {
    if (present && !withPresentation) break;
    for (const QSize size : {QSize(1366, 768), QSize(1920, 1080)}) {
      const QByteArray name =
          QByteArray::number(size.width()) + 'x' + QByteArray::number(size.height()) + (present ? " F11" : "");
      auto& row = QTest::newRow(name.constData()) << size;
      if (withPresentation) row << present;
    }
  }
}

inline bool screenHolds(const QSize& size) {
  const QSize screen = QGuiApplication::primaryScreen()->size();
  return size.width() <= screen.width() && size.height() <= screen.height();
}

}  // namespace dyn::testing

// In a test function: skips it when the screen is smaller than `size`.
#define DYNSCOPE_SKIP_UNLESS_SCREEN_HOLDS(size)                                             \
  do {                                                                                      \
    if (!dyn::testing::screenHolds(size))                                                   \
      QSKIP("the screen is smaller than this size (run Xvfb with -screen 0 1920x1080x24)"); \
  } while (false)
