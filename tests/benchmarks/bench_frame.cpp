// Frame time of the workbench while a joint slider is dragged, on the 32-DOF humanoid, in the real
// window (MainWindow with its docks). Needs an X display with OpenGL 3.2:
//
//   xvfb-run -a -s "-screen 0 1920x1080x24" bench_frame [--benchmark_min_time=2]
//
// Without a display it says so and exits with status 0. Names:
//   slider_step/kinematics        forwardKinematics + updateFrames (what the document runs per step)
//   slider_step/scene             the same + RobotScene::updatePose (every actor matrix), no render
//   slider_step/window            a slider step through the joints dock: every listener (document,
//                                 scene, joints and properties docks, status bar), no render
//   frame/default_window/...      as below, in the window at the size the application opens with
//   frame/<W>x<H>                 a slider step until the frame is on screen (QOpenGLWidget::frameSwapped):
//                                 the above + VTK render + Qt's composition of the window + swap.
//                                 Counter statusbar_ms: what the status bar showed (mean)
//   frame/<W>x<H>/qt_composition_floor  the same window size with a QOpenGLWidget that only clears:
//                                 Qt's composition of the window + swap, the floor of any frame
//   frame/<W>x<H>/window_container_floor  the same with a QOpenGLWindow in a window container
//                                 (not composed with the window: what that design would cost)
//   render/<W>x<H>/<variant>      VTK's render alone (VtkViewport::paintGL), manual time, for
//                                 several scene settings and anti-aliasing choices
// The viewport is resized to <W>x<H> (device pixels) before each frame/render benchmark.
#include <benchmark/benchmark.h>

#include <sys/resource.h>

#include <vtkGenericOpenGLRenderWindow.h>
#include <vtkRenderer.h>
#include <QApplication>
#include <QDockWidget>
#include <QElapsedTimer>
#include <QFileInfo>
#include <QLabel>
#include <QMainWindow>
#include <QOpenGLFunctions>
#include <QOpenGLWindow>
#include <QSlider>
#include <QSurfaceFormat>
#include <cstdio>
#include <functional>
#include <memory>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

#include "document/robot_document.hpp"
#include "dynscope/dynscope.hpp"
#include "scene/robot_scene.hpp"
#include "viewport/vtk_viewport.hpp"
#include "window/joint_row.hpp"
#include "window/joints_dock.hpp"
#include "window/main_window.hpp"

namespace {

MainWindow* window = nullptr;

// A slider in the middle of the leg: moving it moves the shank and the foot.
JointRow* draggedRow() { return window->jointsDock()->row("left_knee_joint"); }

// One step of a drag: the slider moves by a few positions back and forth, as a hand does. The
// phase carries over between runs, so every step is a change (an unchanged value draws nothing).
void sliderStep(JointRow* row) {
  static int k = 0;
  QSlider* s = row->slider();
  const int phase = k++ % 200, offset = phase < 100 ? phase : 200 - phase;  // a triangle wave
  s->setValue(s->minimum() + (s->maximum() - s->minimum()) / 4 + 5 * offset);
}

// CPU time of the whole process (every thread: the GUI thread and llvmpipe's rasterisers), ms.
double processCpuMs() {
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  return (u.ru_utime.tv_sec + u.ru_stime.tv_sec) * 1e3 + (u.ru_utime.tv_usec + u.ru_stime.tv_usec) * 1e-3;
}

// Process events until the viewport's window (a QOpenGLWidget or QOpenGLWindow) has presented a frame.
template <class Surface>
bool waitForFrame(Surface* viewport, int timeoutMs = 5000) {
  bool swapped = false;
  const auto c = QObject::connect(viewport, &Surface::frameSwapped, [&] { swapped = true; });
  QElapsedTimer t;
  t.start();
  while (!swapped && t.elapsed() < timeoutMs) QCoreApplication::processEvents(QEventLoop::WaitForMoreEvents, 50);
  QObject::disconnect(c);
  return swapped;
}

QSize defaultWindowSize;  // the main window's size as the application opens it

// Resizes the main window so that the viewport is w x h device pixels (when the screen allows);
// 0 x 0: the window at the size the application opens it with, the viewport what is left.
void setViewportSize(int w, int h) {
  VtkViewport* v = window->viewport();
  const qreal dpr = v->devicePixelRatioF();
  const QSize want(qRound(w / dpr), qRound(h / dpr));
  window->resize(w > 0 ? window->size() + want - v->size() : defaultWindowSize);
  for (int i = 0; i < 20 && (w > 0 ? v->size() != want : window->size() != defaultWindowSize); ++i)
    QCoreApplication::processEvents(QEventLoop::AllEvents, 20);
  window->viewport()->update();
  waitForFrame(v);
}

std::string sizeLabel() {
  const VtkViewport* v = window->viewport();
  const qreal dpr = v->devicePixelRatioF();
  return std::to_string(qRound(v->width() * dpr)) + "x" + std::to_string(qRound(v->height() * dpr));
}

void kinematics(benchmark::State& st) {
  const dyn::Model& m = window->document()->model();
  dyn::Data d(m);
  std::mt19937 rng(5);
  std::vector<Eigen::VectorXd> qs;
  for (int k = 0; k < 64; ++k) qs.push_back(dyn::randomConfiguration(m, rng));
  size_t k = 0;
  for (auto _ : st) {
    dyn::forwardKinematics(m, d, qs[k++ % qs.size()]);
    dyn::updateFrames(m, d);
    benchmark::DoNotOptimize(d.oMf.back());
  }
  st.counters["nv"] = m.nv;
}

void scene(benchmark::State& st) {
  const dyn::Model& m = window->document()->model();
  dyn::Data d(m);
  std::mt19937 rng(5);
  std::vector<Eigen::VectorXd> qs;
  for (int k = 0; k < 64; ++k) qs.push_back(dyn::randomConfiguration(m, rng));
  size_t k = 0;
  for (auto _ : st) {
    dyn::forwardKinematics(m, d, qs[k++ % qs.size()]);
    dyn::updateFrames(m, d);
    window->scene()->updatePose(m, d);
  }
  st.counters["actors"] = double(window->scene()->geometryActors().size());
  // Leave the scene at the document's pose again.
  window->scene()->updatePose(m, window->document()->data());
  waitForFrame(window->viewport());
}

void windowStep(benchmark::State& st) {
  JointRow* row = draggedRow();
  for (auto _ : st) sliderStep(row);
  waitForFrame(window->viewport());
}

void frame(benchmark::State& st, int w, int h, bool adaptive) {
  window->viewport()->setAdaptiveQuality(adaptive);
  setViewportSize(w, h);
  JointRow* row = draggedRow();
  double shown = 0, scale = 0;
  int64_t frames = 0;
  const double cpu0 = processCpuMs();
  for (auto _ : st) {
    sliderStep(row);
    if (!waitForFrame(window->viewport())) {
      st.SkipWithError("no frame within 5 s");
      break;
    }
    shown += window->lastFrameMs();
    scale += window->viewport()->lastRenderScale();
    ++frames;
  }
  if (frames > 0) {
    st.counters["statusbar_ms"] = shown / double(frames);
    st.counters["cpu_ms"] = (processCpuMs() - cpu0) / double(frames);
    st.counters["scale"] = scale / double(frames);
  }
  st.SetLabel(sizeLabel());
  window->viewport()->setAdaptiveQuality(true);
}

// The same frames in a window that holds nothing but the viewport: what the 3D view costs without
// the rest of the main window (which Qt composes into every frame of a QOpenGLWidget).
void bareFrame(benchmark::State& st, int w, int h) {
  if (w <= 0) {  // the viewport's size in the default window
    setViewportSize(0, 0);
    const qreal dpr = window->viewport()->devicePixelRatioF();
    w = qRound(window->viewport()->width() * dpr);
    h = qRound(window->viewport()->height() * dpr);
  }
  const dyn::Model& m = window->document()->model();
  dyn::Data d(m);
  VtkViewport viewport;
  RobotScene scene(viewport.renderer());
  scene.setModel(m, window->document()->sourceFile());
  const qreal dpr = viewport.devicePixelRatioF();
  viewport.resize(qRound(w / dpr), qRound(h / dpr));
  viewport.show();
  Eigen::VectorXd q = window->document()->q();
  const int iq = draggedRow()->coordinate().qIndex;
  dyn::forwardKinematics(m, d, q);
  scene.updatePose(m, d);
  waitForFrame(&viewport);
  const double cpu0 = processCpuMs();
  int k = 0;
  for (auto _ : st) {
    const int phase = k++ % 200;
    q[iq] = 0.5 + 0.005 * (phase < 100 ? phase : 200 - phase);
    dyn::forwardKinematics(m, d, q);
    dyn::updateFrames(m, d);
    scene.updatePose(m, d);
    if (!waitForFrame(&viewport)) {
      st.SkipWithError("no frame within 5 s");
      break;
    }
  }
  st.counters["cpu_ms"] = (processCpuMs() - cpu0) / double(st.iterations());
  st.SetLabel(std::to_string(qRound(viewport.width() * dpr)) + "x" + std::to_string(qRound(viewport.height() * dpr)));
}

// Qt's own cost of a frame: a window of the main window's size whose QOpenGLWidget (where the
// viewport is) only clears. Every frame of a QOpenGLWidget makes Qt compose the whole window and swap
// it; with software OpenGL that alone can exceed a 60 fps budget, whatever the 3D view draws.
template <class Surface>
class Clearing : public Surface {
  void paintGL() override {
    QOpenGLFunctions* f = this->context()->functions();
    f->glClearColor(0.5f, 0.5f, float(++frames_ % 2), 1.f);
    f->glClear(GL_COLOR_BUFFER_BIT);
  }
  int frames_ = 0;
};
using ClearingWidget = Clearing<QOpenGLWidget>;
// For comparison: a QOpenGLWindow in QWidget::createWindowContainer, which Qt does not compose
// with the rest of the window (a native child window that swaps on its own).
using ClearingWindow = Clearing<QOpenGLWindow>;

template <class Surface>
void compositionFloor(benchmark::State& st, int w, int h) {
  setViewportSize(w, h);  // the main window's size for this viewport size
  QMainWindow frame;
  auto* gl = new Surface;
  if constexpr (std::is_base_of_v<QWidget, Surface>)
    frame.setCentralWidget(gl);
  else
    frame.setCentralWidget(QWidget::createWindowContainer(gl));
  auto* dock = new QDockWidget(QStringLiteral("docks"));
  dock->setWidget(new QLabel(QStringLiteral("the main window's docks")));
  frame.addDockWidget(Qt::LeftDockWidgetArea, dock);
  frame.resize(window->size());
  frame.show();
  const qreal dpr = frame.devicePixelRatioF();
  frame.resizeDocks({dock}, {frame.width() - window->viewport()->width()}, Qt::Horizontal);
  gl->update();
  waitForFrame(gl);
  for (auto _ : st) {
    gl->update();
    if (!waitForFrame(gl)) {
      st.SkipWithError("no frame within 5 s");
      break;
    }
  }
  st.SetLabel("window " + std::to_string(qRound(frame.width() * dpr)) + "x" +
              std::to_string(qRound(frame.height() * dpr)));
}

// One scene setting for the render benchmarks: applied before, undone after.
struct Variant {
  const char* name;
  std::function<void()> apply, undo;
};

void render(benchmark::State& st, int w, int h, const Variant& v) {
  setViewportSize(w, h);
  if (v.apply) v.apply();
  VtkViewport* viewport = window->viewport();
  const double cpu0 = processCpuMs();
  double scale = 0;
  for (auto _ : st) {
    viewport->update();
    if (!waitForFrame(viewport)) {
      st.SkipWithError("no frame within 5 s");
      break;
    }
    st.SetIterationTime(viewport->lastRenderMs() * 1e-3);
    scale += viewport->lastRenderScale();
  }
  st.counters["scale"] = scale / double(st.iterations());
  st.counters["cpu_ms"] = (processCpuMs() - cpu0) / double(st.iterations());
  if (v.undo) v.undo();
  st.SetLabel(sizeLabel());
}

std::vector<Variant> variants() {
  RobotScene* s = window->scene();
  vtkRenderer* r = window->viewport()->renderer();
  vtkGenericOpenGLRenderWindow* rw = window->viewport()->renderWindow();
  const auto aids = [s](bool on) {
    s->setShowFrames(on);
    s->setShowJointAxes(on);
    s->setShowCom(on);
    s->setShowLinkNames(on);
  };
  VtkViewport* v = window->viewport();
  return {
      {"adaptive", nullptr, nullptr},
      {"full_quality", [v] { v->setAdaptiveQuality(false); }, [v] { v->setAdaptiveQuality(true); }},
      {"full_quality_msaa8", [v, rw] { v->setAdaptiveQuality(false), rw->SetMultiSamples(8); },
       [v, rw] { v->setAdaptiveQuality(true), rw->SetMultiSamples(0); }},
      {"adaptive_aids", [aids] { aids(true); }, [aids] { aids(false); }},
      {"adaptive_translucent", [s] { s->setOpacity(0.5); }, [s] { s->setOpacity(1.0); }},
      {"full_quality_translucent", [v, s] { v->setAdaptiveQuality(false), s->setOpacity(0.5); },
       [v, s] { v->setAdaptiveQuality(true), s->setOpacity(1.0); }},
      {"adaptive_no_gradient", [r] { r->GradientBackgroundOff(); }, [r] { r->GradientBackgroundOn(); }},
      {"adaptive_empty", [s] { s->setShowGrid(false), s->setShowWorldAxes(false), s->setShowVisual(false); },
       [s] { s->setShowGrid(true), s->setShowWorldAxes(true), s->setShowVisual(true); }},
  };
}

// Xvfb and X servers on this machine listen on /tmp/.X11-unix/X<n>; a DISPLAY that names no
// such socket would make QApplication abort.
bool haveDisplay(std::string* why) {
  const QByteArray display = qgetenv("DISPLAY");
  if (display.isEmpty() && qEnvironmentVariableIsEmpty("WAYLAND_DISPLAY")) {
    *why = "no DISPLAY";
    return false;
  }
  if (display.startsWith(':')) {
    const QByteArray n = display.mid(1).split('.').first();
    if (!QFileInfo::exists("/tmp/.X11-unix/X" + QString::fromLatin1(n))) {
      *why = "DISPLAY=" + display.toStdString() + " has no X server socket";
      return false;
    }
  }
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  benchmark::Initialize(&argc, argv);
  std::string why;
  if (!haveDisplay(&why)) {
    std::fprintf(stderr, "bench_frame: skipped (%s). Run it under xvfb-run -a -s \"-screen 0 1920x1080x24\".\n",
                 why.c_str());
    return 0;
  }
  QSurfaceFormat::setDefaultFormat(VtkViewport::defaultFormat());
  QApplication app(argc, argv);

  MainWindow main(MainWindow::Settings::Ephemeral);
  window = &main;
  defaultWindowSize = main.size();
  main.resize(1600, 1000);
  main.show();
  QString error;
  const QString robot = QStringLiteral(DYNSCOPE_ROBOTS_DIR "/humanoid.urdf");
  if (!main.document()->load(robot, &error)) {
    std::fprintf(stderr, "bench_frame: cannot load %s: %s\n", qPrintable(robot), qPrintable(error));
    return 1;
  }
  main.viewport()->update();
  if (!waitForFrame(main.viewport()) || !main.viewport()->isValid()) {
    std::fprintf(stderr, "bench_frame: skipped (no OpenGL frame from the viewport; needs OpenGL 3.2).\n");
    return 0;
  }
  if (!draggedRow()) {
    std::fprintf(stderr, "bench_frame: the humanoid has no left_knee_joint row\n");
    return 1;
  }

  benchmark::RegisterBenchmark("slider_step/kinematics", kinematics);
  benchmark::RegisterBenchmark("slider_step/scene", scene);
  benchmark::RegisterBenchmark("slider_step/window", windowStep);
  const std::pair<int, int> sizes[] = {{0, 0}, {1280, 720}, {960, 540}};
  for (const auto& [w, h] : sizes) {
    const std::string size = w > 0 ? std::to_string(w) + "x" + std::to_string(h) : "default_window";
    benchmark::RegisterBenchmark(("frame/" + size).c_str(),
                                 [w = w, h = h](benchmark::State& st) { frame(st, w, h, true); })
        ->UseRealTime()
        ->Unit(benchmark::kMillisecond);
    benchmark::RegisterBenchmark(("frame/" + size + "/full_quality").c_str(),
                                 [w = w, h = h](benchmark::State& st) { frame(st, w, h, false); })
        ->UseRealTime()
        ->Unit(benchmark::kMillisecond);
    benchmark::RegisterBenchmark(("frame/" + size + "/qt_composition_floor").c_str(),
                                 [w = w, h = h](benchmark::State& st) { compositionFloor<ClearingWidget>(st, w, h); })
        ->UseRealTime()
        ->Unit(benchmark::kMillisecond);
    benchmark::RegisterBenchmark(("frame/" + size + "/window_container_floor").c_str(),
                                 [w = w, h = h](benchmark::State& st) { compositionFloor<ClearingWindow>(st, w, h); })
        ->UseRealTime()
        ->Unit(benchmark::kMillisecond);
    benchmark::RegisterBenchmark(("frame/" + size + "/bare_viewport").c_str(),
                                 [w = w, h = h](benchmark::State& st) { bareFrame(st, w, h); })
        ->UseRealTime()
        ->Unit(benchmark::kMillisecond);
  }
  for (const Variant& v : variants())
    benchmark::RegisterBenchmark((std::string("render/1280x720/") + v.name).c_str(),
                                 [v](benchmark::State& st) { render(st, 1280, 720, v); })
        ->UseManualTime()
        ->Unit(benchmark::kMillisecond);

  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  window = nullptr;
  return 0;
}
