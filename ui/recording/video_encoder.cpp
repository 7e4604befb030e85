#include "recording/video_encoder.hpp"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QImage>
#include <cstdio>
#include <cstring>

#include "recording/gif_palette.hpp"

extern "C" {
#include <libavcodec/avcodec.h>
#include <libavformat/avformat.h>
#include <libavutil/imgutils.h>
#include <libavutil/opt.h>
#include <libswscale/swscale.h>
}

namespace {

QString avError(int code) {
  char text[AV_ERROR_MAX_STRING_SIZE] = {};
  av_strerror(code, text, sizeof text);
  return QString::fromLocal8Bit(text);
}

struct Choice {
  const char* muxer;
  const AVCodec* codec;
  const char* description;
};

// The encoder of each format, best first (codecDescription and open agree through this).
Choice choose(VideoEncoder::Format format) {
  switch (format) {
    case VideoEncoder::Format::Mp4:
      if (const AVCodec* c = avcodec_find_encoder_by_name("libx264")) return {"mp4", c, "H.264 (libx264)"};
      // A libavcodec built without libx264 (not Debian's): MPEG-4 part 2 plays everywhere too.
      return {"mp4", avcodec_find_encoder(AV_CODEC_ID_MPEG4), "MPEG-4 part 2 (no libx264 in this libavcodec)"};
    case VideoEncoder::Format::WebM:
      if (const AVCodec* c = avcodec_find_encoder_by_name("libvpx-vp9")) return {"webm", c, "VP9 (libvpx)"};
      return {"webm", avcodec_find_encoder_by_name("libvpx"), "VP8 (libvpx; no VP9 encoder)"};
    case VideoEncoder::Format::Gif:
      return {"gif", avcodec_find_encoder(AV_CODEC_ID_GIF), "GIF (256 colours)"};
  }
  return {};
}

}  // namespace

struct VideoEncoder::Av {
  AVFormatContext* format = nullptr;
  AVCodecContext* codec = nullptr;
  AVStream* stream = nullptr;
  SwsContext* scale = nullptr;
  AVFrame* frame = nullptr;
  AVPacket* packet = nullptr;
  uint8_t* rgb[4] = {};  // the picture in swscale's aligned buffer (av_image_alloc)
  int rgbStride[4] = {};
  bool headerWritten = false;
  bool gif = false;
  GifPalette palette;
};

namespace {
// Every frame lasts one tick of 1/fps (the last one's length is the file's end), in the stream's
// time base (the muxer may have chosen another, e.g. GIF's 1/100 s).
void writeTimes(VideoEncoder::Av& av) {
  if (av.packet->duration <= 0) av.packet->duration = 1;
  av_packet_rescale_ts(av.packet, av.codec->time_base, av.stream->time_base);
  av.packet->stream_index = av.stream->index;
}
}  // namespace

VideoEncoder::VideoEncoder() = default;

VideoEncoder::~VideoEncoder() {
  if (m_av) {
    release();
    QFile::remove(m_partPath);
  }
}

std::optional<VideoEncoder::Format> VideoEncoder::formatForPath(const QString& path) {
  const QString suffix = QFileInfo(path).suffix().toLower();
  if (suffix == "mp4") return Format::Mp4;
  if (suffix == "webm") return Format::WebM;
  if (suffix == "gif") return Format::Gif;
  return std::nullopt;
}

QString VideoEncoder::codecDescription(Format format) {
  const Choice c = choose(format);
  return c.codec ? QString::fromLatin1(c.description) : QStringLiteral("no encoder in this libavcodec");
}

bool VideoEncoder::isOpen() const { return m_av && m_av->codec; }

bool VideoEncoder::fail(const QString& message) {
  m_error = message;
  if (m_av) {
    release();
    if (!m_partPath.isEmpty()) QFile::remove(m_partPath);
  }
  return false;
}

void VideoEncoder::release() {
  if (!m_av) return;
  if (m_av->format) {
    if (m_av->format->pb && !(m_av->format->oformat->flags & AVFMT_NOFILE)) avio_closep(&m_av->format->pb);
    avformat_free_context(m_av->format);
  }
  avcodec_free_context(&m_av->codec);
  sws_freeContext(m_av->scale);
  av_frame_free(&m_av->frame);
  av_packet_free(&m_av->packet);
  av_freep(&m_av->rgb[0]);
  m_av.reset();
}

bool VideoEncoder::open(const QString& path, const QSize& size, int fps) {
  const std::optional<Format> format = formatForPath(path);
  if (!format) {
    m_error = QString("%1: unknown video format '.%2' (use %3)").arg(path, QFileInfo(path).suffix(), extensionsText());
    return false;
  }
  return open(path, size, fps, *format);
}

bool VideoEncoder::open(const QString& path, const QSize& size, int fps, Format format) {
  if (isOpen()) release();
  m_error.clear();
  av_log_set_level(AV_LOG_ERROR);  // libx264's statistics and libvpx's banner are not for the user
  m_path = path;
  m_partPath.clear();
  m_frames = 0;
  m_coded = QSize();
  m_fps = fps;
  m_size = size;
  if (fps < 1 || fps > 120) return fail(QString("frame rate %1: expected 1 to 120 frames per second").arg(fps));
  const bool gif = format == Format::Gif;
  // 4:2:0 chroma (one sample per 2x2 pixels) needs an even width and height: drop the last odd
  // column or row rather than scale the whole picture by a pixel.
  const QSize coded = gif ? size : QSize(size.width() & ~1, size.height() & ~1);
  if (coded.width() < 2 || coded.height() < 2 || coded.width() > 8192 || coded.height() > 8192)
    return fail(
        QString("%1 × %2: a video frame must be 2 to 8192 pixels wide and high").arg(size.width()).arg(size.height()));
  const Choice choice = choose(format);
  if (!choice.codec) return fail(QString("%1: this libavcodec has no encoder for it").arg(path));
  m_codec = QString::fromLatin1(choice.codec->name);
  m_coded = coded;

  // Written under a temporary name in the same folder; close() renames it (see the header).
  const QFileInfo info(path);
  if (!info.absoluteDir().exists()) return fail(QString("%1: the folder does not exist").arg(path));
  m_partPath = info.absoluteDir().filePath(info.fileName() + ".part");

  m_av = std::make_unique<Av>();
  Av& av = *m_av;
  av.gif = gif;
  const QByteArray partName = QFile::encodeName(m_partPath);
  if (int e = avformat_alloc_output_context2(&av.format, nullptr, choice.muxer, partName.constData()); e < 0)
    return fail(QString("%1: %2").arg(path, avError(e)));
  av.codec = avcodec_alloc_context3(choice.codec);
  av.frame = av_frame_alloc();
  av.packet = av_packet_alloc();
  if (!av.codec || !av.frame || !av.packet) return fail("out of memory");
  AVCodecContext* c = av.codec;
  c->width = coded.width();
  c->height = coded.height();
  c->time_base = AVRational{1, fps};
  c->framerate = AVRational{fps, 1};
  c->gop_size = 2 * fps;  // a key frame every 2 s: seeking in a lecture stays quick
  c->pix_fmt = gif ? AV_PIX_FMT_PAL8 : AV_PIX_FMT_YUV420P;
  if (!gif) {  // HD colours (BT.709, limited range), tagged so that players do not guess BT.601
    c->colorspace = AVCOL_SPC_BT709;
    c->color_primaries = AVCOL_PRI_BT709;
    c->color_trc = AVCOL_TRC_BT709;
    c->color_range = AVCOL_RANGE_MPEG;
  }
  if (av.format->oformat->flags & AVFMT_GLOBALHEADER) c->flags |= AV_CODEC_FLAG_GLOBAL_HEADER;
  AVDictionary* options = nullptr;
  const QByteArray name = choice.codec->name;
  if (name == "libx264") {
    // Constant quality 20 (visually clean for line drawings and text); "veryfast" keeps a live
    // recording of a 1080p window near real time on a lecture laptop.
    av_dict_set(&options, "preset", "veryfast", 0);
    av_dict_set(&options, "crf", "20", 0);
  } else if (name == "libvpx-vp9" || name == "libvpx") {
    // Constant quality; libvpx's default "good" deadline is far slower than real time.
    av_dict_set(&options, "deadline", "realtime", 0);
    av_dict_set(&options, "cpu-used", "8", 0);
    av_dict_set(&options, "crf", "30", 0);
    if (name == "libvpx-vp9") {
      c->bit_rate = 0;  // VP9's pure constant-quality mode
      av_dict_set(&options, "row-mt", "1", 0);
    } else {
      c->bit_rate = int64_t(coded.width()) * coded.height() * fps / 4;  // VP8: a ceiling for its CQ mode
    }
  } else if (choice.codec->id == AV_CODEC_ID_MPEG4) {
    c->flags |= AV_CODEC_FLAG_QSCALE;
    c->global_quality = FF_QP2LAMBDA * 3;
  }
  const int opened = avcodec_open2(c, choice.codec, &options);
  av_dict_free(&options);
  if (opened < 0) return fail(QString("%1: the %2 encoder refused: %3").arg(path, m_codec, avError(opened)));

  av.stream = avformat_new_stream(av.format, nullptr);
  if (!av.stream) return fail("out of memory");
  av.stream->time_base = c->time_base;
  av.stream->avg_frame_rate = c->framerate;
  if (int e = avcodec_parameters_from_context(av.stream->codecpar, c); e < 0)
    return fail(QString("%1: %2").arg(path, avError(e)));
  if (!(av.format->oformat->flags & AVFMT_NOFILE))
    if (int e = avio_open(&av.format->pb, partName.constData(), AVIO_FLAG_WRITE); e < 0)
      return fail(QString("cannot write %1: %2").arg(path, avError(e)));
  AVDictionary* muxing = nullptr;
  if (format == Format::Mp4) av_dict_set(&muxing, "movflags", "+faststart", 0);  // plays while downloading
  const int started = avformat_write_header(av.format, &muxing);
  av_dict_free(&muxing);
  if (started < 0) return fail(QString("%1: could not start the file: %2").arg(path, avError(started)));
  av.headerWritten = true;

  av.frame->format = c->pix_fmt;
  av.frame->width = c->width;
  av.frame->height = c->height;
  if (int e = av_frame_get_buffer(av.frame, 0); e < 0) return fail(avError(e));
  if (!gif) {
    // QImage's RGB32 is B, G, R, A in memory on a little-endian machine (BGRA), 0xffRRGGBB in a word.
    const AVPixelFormat source = Q_BYTE_ORDER == Q_LITTLE_ENDIAN ? AV_PIX_FMT_BGRA : AV_PIX_FMT_ARGB;
    av.scale = sws_getContext(c->width, c->height, source, c->width, c->height, c->pix_fmt,
                              SWS_BICUBIC | SWS_ACCURATE_RND, nullptr, nullptr, nullptr);
    if (!av.scale) return fail("swscale: no conversion to YUV 4:2:0");
    // Rows aligned to 64 bytes and a spare row below: the SIMD loads stay inside the buffer.
    if (av_image_alloc(av.rgb, av.rgbStride, (c->width + 63) / 64 * 64, c->height + 1, source, 64) < 0)
      return fail("out of memory");
    const int* bt709 = sws_getCoefficients(SWS_CS_ITU709);
    sws_setColorspaceDetails(av.scale, bt709, 1, bt709, 0, 0, 1 << 16, 1 << 16);  // full-range RGB in, limited out
  }
  return true;
}

bool VideoEncoder::addFrame(const QImage& image) {
  if (!isOpen()) {
    if (m_error.isEmpty()) m_error = "the video is not open";
    return false;
  }
  if (image.isNull()) return fail(QString("%1: an empty picture (the view was not rendered)").arg(m_path));
  Av& av = *m_av;
  QImage rgb = image.size() == m_size ? image : image.scaled(m_size, Qt::IgnoreAspectRatio, Qt::SmoothTransformation);
  // Opaque 0xffRRGGBB words: RGB32 (an ARGB32 picture's alpha is dropped, as a player would show it).
  if (rgb.format() != QImage::Format_RGB32) rgb = rgb.convertToFormat(QImage::Format_RGB32);
  if (int e = av_frame_make_writable(av.frame); e < 0) return fail(avError(e));
  if (av.gif) {
    if (!av.palette.isBuilt()) av.palette.build(rgb);
    av.palette.map(rgb, av.frame->data[0], av.frame->linesize[0]);
    auto* palette = reinterpret_cast<uint32_t*>(av.frame->data[1]);
    std::copy(av.palette.colours().begin(), av.palette.colours().end(), palette);
  } else {
    // swscale's SIMD reads whole blocks of pixels: the rows are copied into its own padded and
    // aligned buffer first. The even frame takes the top-left part of the picture: an odd last
    // column or row is left out.
    const int bytes = av.codec->width * 4;
    for (int y = 0; y < av.codec->height; ++y)
      std::memcpy(av.rgb[0] + std::ptrdiff_t(y) * av.rgbStride[0], rgb.constScanLine(y), size_t(bytes));
    sws_scale(av.scale, av.rgb, av.rgbStride, 0, av.codec->height, av.frame->data, av.frame->linesize);
  }
  av.frame->pts = m_frames;
  int sent = avcodec_send_frame(av.codec, av.frame);
  if (sent < 0) return fail(QString("%1: the %2 encoder failed: %3").arg(m_path, m_codec, avError(sent)));
  ++m_frames;
  while (true) {
    const int got = avcodec_receive_packet(av.codec, av.packet);
    if (got == AVERROR(EAGAIN) || got == AVERROR_EOF) break;
    if (got < 0) return fail(QString("%1: the %2 encoder failed: %3").arg(m_path, m_codec, avError(got)));
    writeTimes(av);
    const int written = av_interleaved_write_frame(av.format, av.packet);  // takes the packet's data
    if (written < 0) return fail(QString("cannot write %1: %2").arg(m_path, avError(written)));
  }
  return true;
}

bool VideoEncoder::close() {
  if (!isOpen()) return m_error.isEmpty() ? fail("the video is not open") : false;
  if (m_frames == 0) return fail(QString("%1: no frames were recorded").arg(m_path));
  Av& av = *m_av;
  // Drain the encoder (H.264 and VP9 hold frames back for their look-ahead).
  if (int e = avcodec_send_frame(av.codec, nullptr); e < 0) return fail(avError(e));
  while (true) {
    const int got = avcodec_receive_packet(av.codec, av.packet);
    if (got == AVERROR_EOF) break;
    if (got < 0) return fail(QString("%1: the %2 encoder failed: %3").arg(m_path, m_codec, avError(got)));
    writeTimes(av);
    if (int e = av_interleaved_write_frame(av.format, av.packet); e < 0)
      return fail(QString("cannot write %1: %2").arg(m_path, avError(e)));
  }
  if (int e = av_write_trailer(av.format); e < 0) return fail(QString("cannot write %1: %2").arg(m_path, avError(e)));
  release();
  // rename(2) replaces an existing file at once: a player never sees a half-written one.
  if (std::rename(QFile::encodeName(m_partPath).constData(), QFile::encodeName(m_path).constData()) != 0) {
    QFile::remove(m_partPath);
    m_error = QString("cannot write %1: could not rename %2").arg(m_path, m_partPath);
    return false;
  }
  return true;
}
