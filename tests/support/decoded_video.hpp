// Reads a video file back with FFmpeg's libavformat / libavcodec (the recording tests' oracle):
// every frame decoded and counted, chosen frames converted to QImages, the container's duration.
#pragma once
#include <QFile>
#include <QImage>
#include <QString>
#include <map>
#include <set>

extern "C" {
#include <libavcodec/avcodec.h>
#include <libavformat/avformat.h>
#include <libswscale/swscale.h>
}

namespace dyn::testing {

struct DecodedVideo {
  QString error;  // empty when the file was read to its end
  QString codec;  // the decoder's name, e.g. "h264", "vp9", "gif"
  int frames = 0;
  int width = 0, height = 0;
  double containerSeconds = -1;  // the container's duration; -1 when it has none
  double streamEndSeconds = 0;   // the last frame's time plus its duration
  std::map<int, QImage> images;  // the frames asked for, by index
};

inline DecodedVideo decodeVideo(const QString& path, const std::set<int>& keep = {}) {
  DecodedVideo out;
  AVFormatContext* format = nullptr;
  const QByteArray name = QFile::encodeName(path);
  if (avformat_open_input(&format, name.constData(), nullptr, nullptr) < 0) {
    out.error = "cannot open " + path;
    return out;
  }
  AVCodecContext* codec = nullptr;
  AVPacket* packet = av_packet_alloc();
  AVFrame* frame = av_frame_alloc();
  SwsContext* scale = nullptr;
  const auto done = [&] {
    sws_freeContext(scale);
    av_frame_free(&frame);
    av_packet_free(&packet);
    avcodec_free_context(&codec);
    avformat_close_input(&format);
    return out;
  };
  if (avformat_find_stream_info(format, nullptr) < 0) {
    out.error = "no stream info";
    return done();
  }
  const AVCodec* decoder = nullptr;
  const int index = av_find_best_stream(format, AVMEDIA_TYPE_VIDEO, -1, -1, &decoder, 0);
  if (index < 0 || !decoder) {
    out.error = "no video stream";
    return done();
  }
  AVStream* stream = format->streams[index];
  codec = avcodec_alloc_context3(decoder);
  avcodec_parameters_to_context(codec, stream->codecpar);
  if (avcodec_open2(codec, decoder, nullptr) < 0) {
    out.error = "cannot open the decoder";
    return done();
  }
  out.codec = QString::fromLatin1(decoder->name);
  if (format->duration != AV_NOPTS_VALUE) out.containerSeconds = double(format->duration) / AV_TIME_BASE;
  const double tick = av_q2d(stream->time_base);
  const auto receive = [&] {
    while (avcodec_receive_frame(codec, frame) >= 0) {
      out.width = frame->width;
      out.height = frame->height;
      const int64_t pts = frame->best_effort_timestamp != AV_NOPTS_VALUE ? frame->best_effort_timestamp : frame->pts;
      if (pts != AV_NOPTS_VALUE)
        out.streamEndSeconds = std::max(out.streamEndSeconds, (pts + std::max<int64_t>(0, frame->pkt_duration)) * tick);
      if (keep.count(out.frames)) {
        // swscale's SIMD writes whole blocks of pixels: a destination wider than the frame (a multiple
        // of 64 pixels, a spare row) takes them, then the picture is cut out of it.
        QImage padded((frame->width + 63) / 64 * 64, frame->height + 1, QImage::Format_RGB32);
        scale = sws_getCachedContext(scale, frame->width, frame->height, AVPixelFormat(frame->format), frame->width,
                                     frame->height, AV_PIX_FMT_BGRA, SWS_BICUBIC, nullptr, nullptr, nullptr);
        if (frame->colorspace == AVCOL_SPC_BT709) {  // as tagged (swscale assumes BT.601 otherwise)
          const int* table = sws_getCoefficients(SWS_CS_ITU709);
          sws_setColorspaceDetails(scale, table, frame->color_range == AVCOL_RANGE_JPEG, table, 1, 0, 1 << 16, 1 << 16);
        }
        uint8_t* planes[1] = {padded.bits()};
        const int strides[1] = {int(padded.bytesPerLine())};
        sws_scale(scale, frame->data, frame->linesize, 0, frame->height, planes, strides);
        out.images[out.frames] = padded.copy(0, 0, frame->width, frame->height);
      }
      ++out.frames;
    }
  };
  while (av_read_frame(format, packet) >= 0) {
    if (packet->stream_index == index && avcodec_send_packet(codec, packet) >= 0) receive();
    av_packet_unref(packet);
  }
  avcodec_send_packet(codec, nullptr);  // the frames the decoder still holds
  receive();
  return done();
}

}  // namespace dyn::testing
