// The video encoder (ui/recording/video_encoder.cpp): a moving square written as MP4, WebM and GIF,
// then decoded again by FFmpeg's demuxers and decoders (tests/support/decoded_video.hpp): the
// frame count, the size, the duration and the colours where the square is and is not. And the
// errors: an unwritable file, an unknown extension, a bad size or rate, no frames. No display.
#include <QtTest>

#include <QDir>
#include <QFileInfo>
#include <QImage>
#include <QPainter>
#include <QTemporaryDir>
#include <cmath>

#include "decoded_video.hpp"
#include "recording/video_encoder.hpp"

namespace {

const QColor kBackground(30, 60, 140);
const QColor kSquare(230, 40, 30);
constexpr int kSide = 48;

QPoint squareAt(int frame) { return {16 + 10 * frame, 90}; }  // top-left corner

QImage movingSquare(const QSize& size, int frame) {
  QImage image(size, QImage::Format_ARGB32);
  image.fill(kBackground);
  QPainter p(&image);
  p.fillRect(QRect(squareAt(frame), QSize(kSide, kSide)), kSquare);
  return image;
}

// Largest channel difference.
int distance(QRgb a, const QColor& b) {
  return std::max({std::abs(qRed(a) - b.red()), std::abs(qGreen(a) - b.green()), std::abs(qBlue(a) - b.blue())});
}

QString describe(QRgb c) { return QString("(%1, %2, %3)").arg(qRed(c)).arg(qGreen(c)).arg(qBlue(c)); }

}  // namespace

class TestRecordingEncoder : public QObject {
  Q_OBJECT
  QTemporaryDir m_tmp;

 private slots:
  void formatsFollowTheExtension() {
    QCOMPARE(VideoEncoder::formatForPath("a/b.mp4"), VideoEncoder::Format::Mp4);
    QCOMPARE(VideoEncoder::formatForPath("b.WEBM"), VideoEncoder::Format::WebM);
    QCOMPARE(VideoEncoder::formatForPath("c.gif"), VideoEncoder::Format::Gif);
    QVERIFY(!VideoEncoder::formatForPath("d.avi"));
    QVERIFY(!VideoEncoder::formatForPath("mp4"));
  }

  void writesAndDecodes_data() {
    QTest::addColumn<QString>("name");
    QTest::addColumn<QString>("decoder");  // what Debian's FFmpeg writes (libx264, libvpx-vp9)
    QTest::addColumn<int>("tolerance");    // colour: lossy 4:2:0 video, or a 256-colour palette
    QTest::newRow("mp4") << "square.mp4"
                         << "h264" << 40;
    QTest::newRow("webm") << "square.webm"
                          << "vp9" << 40;
    QTest::newRow("gif") << "square.gif"
                         << "gif" << 24;
  }

  void writesAndDecodes() {
    QFETCH(QString, name);
    QFETCH(QString, decoder);
    QFETCH(int, tolerance);
    const QString path = m_tmp.filePath(name);
    const QSize size(320, 240);
    const int fps = 10, frames = 20;
    VideoEncoder encoder;
    QVERIFY2(encoder.open(path, size, fps), qPrintable(encoder.error()));
    QCOMPARE(encoder.frameSize(), size);
    for (int k = 0; k < frames; ++k) QVERIFY2(encoder.addFrame(movingSquare(size, k)), qPrintable(encoder.error()));
    QVERIFY(!QFileInfo::exists(path));  // written under its .part name until closed
    QVERIFY2(encoder.close(), qPrintable(encoder.error()));
    QVERIFY(QFileInfo(path).size() > 1000);
    QVERIFY(!QFileInfo::exists(path + ".part"));

    const auto video = dyn::testing::decodeVideo(path, {0, 10, frames - 1});
    QVERIFY2(video.error.isEmpty(), qPrintable(video.error));
    QCOMPARE(video.codec, decoder);
    QCOMPARE(video.frames, frames);
    QCOMPARE(video.width, size.width());
    QCOMPARE(video.height, size.height());
    // 20 frames of 1/10 s: 2 s (GIF stores delays in 1/100 s: exact here).
    const double seconds = double(frames) / fps;
    QVERIFY2(std::abs(video.streamEndSeconds - seconds) < 0.5 / fps,
             qPrintable(QString("the stream ends at %1 s, expected %2 s").arg(video.streamEndSeconds).arg(seconds)));
    if (video.containerSeconds >= 0)
      QVERIFY2(std::abs(video.containerSeconds - seconds) < 1.5 / fps,
               qPrintable(QString("the file says %1 s, expected %2 s").arg(video.containerSeconds).arg(seconds)));

    // The square where it was drawn, the background where it is not: the frames are in order.
    for (int k : {0, 10, frames - 1}) {
      const QImage& image = video.images.at(k);
      const QPoint centre = squareAt(k) + QPoint(kSide / 2, kSide / 2);
      const QRgb inside = image.pixel(centre), outside = image.pixel(centre.x(), 30);
      QVERIFY2(
          distance(inside, kSquare) <= tolerance,
          qPrintable(QString("frame %1: square %2, drawn %3").arg(k).arg(describe(inside), describe(kSquare.rgb()))));
      QVERIFY2(
          distance(outside, kBackground) <= tolerance,
          qPrintable(
              QString("frame %1: background %2, drawn %3").arg(k).arg(describe(outside), describe(kBackground.rgb()))));
      if (k > 0)  // where the square started is background again
        QVERIFY(distance(image.pixel(squareAt(0) + QPoint(kSide / 2, kSide / 2)), kBackground) <= tolerance);
    }
  }

  void oddSizesLoseALineForH264() {
    const QString path = m_tmp.filePath("odd.mp4");
    VideoEncoder encoder;
    QVERIFY2(encoder.open(path, QSize(203, 121), 5), qPrintable(encoder.error()));
    QCOMPARE(encoder.frameSize(), QSize(202, 120));
    for (int k = 0; k < 3; ++k) QVERIFY(encoder.addFrame(movingSquare(QSize(203, 121), k)));
    QVERIFY(encoder.close());
    const auto video = dyn::testing::decodeVideo(path, {0, 1, 2});  // (a width that is no multiple of 16)
    QCOMPARE(video.frames, 3);
    QCOMPARE(QSize(video.width, video.height), QSize(202, 120));
    // A GIF keeps any size.
    VideoEncoder gif;
    QVERIFY(gif.open(m_tmp.filePath("odd.gif"), QSize(203, 121), 5));
    QCOMPARE(gif.frameSize(), QSize(203, 121));
  }

  void framesOfAnotherSizeAreScaled() {
    const QString path = m_tmp.filePath("scaled.webm");
    VideoEncoder encoder;
    QVERIFY(encoder.open(path, QSize(200, 100), 10));
    QVERIFY(encoder.addFrame(movingSquare(QSize(400, 200), 0)));
    QVERIFY(encoder.addFrame(movingSquare(QSize(200, 100), 1)));
    QVERIFY(encoder.close());
    const auto video = dyn::testing::decodeVideo(path);
    QCOMPARE(video.frames, 2);
    QCOMPARE(QSize(video.width, video.height), QSize(200, 100));
  }

  void errorsAreMessages_data() {
    QTest::addColumn<QString>("path");
    QTest::addColumn<QSize>("size");
    QTest::addColumn<int>("fps");
    QTest::addColumn<QString>("expected");  // a part of the message
    QTest::newRow("unwritable folder") << "/proc/dynscope-recording.mp4" << QSize(64, 64) << 30 << "cannot write";
    QTest::newRow("no such folder") << "/nonexistent-dynscope/x.webm" << QSize(64, 64) << 30 << "does not exist";
    QTest::newRow("unknown extension") << "TMP/x.avi" << QSize(64, 64) << 30 << "unknown video format";
    QTest::newRow("no extension") << "TMP/x" << QSize(64, 64) << 30 << "unknown video format";
    QTest::newRow("too small") << "TMP/x.mp4" << QSize(1, 1) << 30 << "2 to 8192";
    QTest::newRow("zero fps") << "TMP/x.gif" << QSize(64, 64) << 0 << "frame rate";
  }

  void errorsAreMessages() {
    QFETCH(QString, path);
    QFETCH(QSize, size);
    QFETCH(int, fps);
    QFETCH(QString, expected);
    path.replace("TMP", m_tmp.path());
    VideoEncoder encoder;
    QVERIFY(!encoder.open(path, size, fps));
    QVERIFY2(encoder.error().contains(expected), qPrintable(encoder.error()));
    QVERIFY(!encoder.isOpen());
    QVERIFY(!encoder.addFrame(movingSquare(QSize(64, 64), 0)));  // no crash, still an error
    QVERIFY(!encoder.close());
    QVERIFY(!QFileInfo::exists(path));
    QVERIFY(!QFileInfo::exists(path + ".part"));
  }

  void nothingRecordedLeavesNoFile() {
    const QString path = m_tmp.filePath("empty.mp4");
    VideoEncoder encoder;
    QVERIFY(encoder.open(path, QSize(64, 64), 30));
    QVERIFY(QFileInfo::exists(path + ".part"));
    QVERIFY(!encoder.close());
    QVERIFY2(encoder.error().contains("no frames"), qPrintable(encoder.error()));
    QVERIFY(!QFileInfo::exists(path));
    QVERIFY(!QFileInfo::exists(path + ".part"));
  }

  void anAbandonedRecordingLeavesNoFile() {
    const QString path = m_tmp.filePath("abandoned.webm");
    {
      VideoEncoder encoder;
      QVERIFY(encoder.open(path, QSize(64, 64), 30));
      QVERIFY(encoder.addFrame(movingSquare(QSize(64, 64), 0)));
    }
    QVERIFY(!QFileInfo::exists(path));
    QVERIFY(!QFileInfo::exists(path + ".part"));
  }

  void anExistingFileIsReplaced() {
    const QString path = m_tmp.filePath("again.gif");
    for (int frames : {2, 5}) {
      VideoEncoder encoder;
      QVERIFY(encoder.open(path, QSize(80, 60), 10));
      for (int k = 0; k < frames; ++k) QVERIFY(encoder.addFrame(movingSquare(QSize(80, 60), k)));
      QVERIFY(encoder.close());
      QCOMPARE(dyn::testing::decodeVideo(path).frames, frames);
    }
  }
};

QTEST_GUILESS_MAIN(TestRecordingEncoder)
#include "test_recording_encoder.moc"
