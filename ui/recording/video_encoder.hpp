// Writes QImages to a video file with FFmpeg's libraries (libavcodec / libavformat / libswscale):
// no frames dumped to PNG and no external command. The format follows the file's extension:
//   .mp4   H.264 (libx264, CRF 20) in MP4; MPEG-4 part 2 when the libavcodec has no libx264
//   .webm  VP9 (libvpx-vp9, real-time speed); VP8 (libvpx) when there is no VP9 encoder
//   .gif   animated GIF, one 256-colour palette made from the first frame (median cut, gif_palette)
// Every frame lasts 1/fps. The file is written beside the target as "<name>.part" and renamed
// when close() succeeds, so that an interrupted recording never leaves a broken file under the
// name asked for. Errors (an unwritable folder, an unknown extension, no encoder) come back as a
// message, never as a crash.
#pragma once
#include <QSize>
#include <QString>
#include <memory>
#include <optional>

class QImage;

class VideoEncoder {
 public:
  enum class Format { Mp4, WebM, Gif };

  VideoEncoder();
  ~VideoEncoder();  // an encoder still open is abandoned: its partial file is removed
  VideoEncoder(const VideoEncoder&) = delete;
  VideoEncoder& operator=(const VideoEncoder&) = delete;

  // The format of a file name by its extension (case-insensitive); nullopt for any other.
  static std::optional<Format> formatForPath(const QString& path);
  static QString extensionsText() { return QStringLiteral(".mp4, .webm or .gif"); }
  // What open() would use for this format on this machine, e.g. "H.264 (libx264)".
  static QString codecDescription(Format format);

  // Opens `path` for frames of `size` at `fps` frames per second (1..120). H.264, MPEG-4 and VP8/9
  // store 4:2:0 chroma, which needs an even width and height: an odd size loses its last column
  // or row (frameSize() says what is written). False with error() on failure.
  bool open(const QString& path, const QSize& size, int fps);
  bool open(const QString& path, const QSize& size, int fps, Format format);
  // Appends one frame (any QImage format; scaled to the size given to open() when it differs).
  bool addFrame(const QImage& image);
  // Flushes the encoder, finishes the file and gives it its name. False (and no file) when
  // nothing was written or the write failed.
  bool close();

  bool isOpen() const;
  QString error() const { return m_error; }
  QSize frameSize() const { return m_coded; }  // as written: even for the 4:2:0 formats
  int fps() const { return m_fps; }
  int framesWritten() const { return m_frames; }
  double durationSeconds() const { return m_fps > 0 ? double(m_frames) / m_fps : 0.0; }
  QString codecName() const { return m_codec; }  // the encoder in use, e.g. "libx264"

 public:
  struct Av;  // FFmpeg's objects (video_encoder.cpp)

 private:
  bool fail(const QString& message);
  void release();  // frees FFmpeg's objects (not the file)

  std::unique_ptr<Av> m_av;
  QString m_path, m_partPath, m_error, m_codec;
  QSize m_size;   // as asked for in open()
  QSize m_coded;  // as written
  int m_fps = 0, m_frames = 0;
};
