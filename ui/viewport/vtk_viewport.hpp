// The 3D viewport: a QOpenGLWidget hosting a vtkGenericOpenGLRenderWindow (VTK's Qt module is
// built against Qt 5 on Debian, so the embedding is done here). VTK renders into its own
// framebuffer inside paintGL(); the result is blitted into the widget's framebuffer. Mouse,
// wheel and key events go to a vtkGenericRenderWindowInteractor with a trackball-camera style:
// orbit with the left button, pan with the middle button or Shift+left, zoom with the wheel
// (or the right button). A left click without drag emits clicked().
//
// Scene changes: call requestRender() (or update()). Whoever calls
// renderWindow()->GetInteractor()->Render() (RobotScene does) schedules a repaint too; direct
// renderWindow()->Render() calls work but render twice.
//
// Quality (adaptive, default on). With hardware OpenGL every frame gets FXAA anti-aliasing and
// depth-peeled translucency. With software OpenGL (Mesa's llvmpipe, e.g. under Xvfb or in a VM)
// both cost several frames' time, so frames drawn while something moves skip them, and when such
// a frame takes longer than kInteractiveBudgetMs the view is drawn at a lower resolution (down to
// half) and scaled up; kStillDelayMs after the last change a still frame redraws the view at full
// resolution and quality. Exported images (grabImage) are always full quality.
#pragma once
#include <QImage>
#include <QOpenGLWidget>
#include <QPoint>
#include <QString>
#include <QSurfaceFormat>

class QTimer;
class vtkRenderer;
class vtkGenericOpenGLRenderWindow;
class vtkGenericRenderWindowInteractor;

class VtkViewport : public QOpenGLWidget {
  Q_OBJECT
 public:
  explicit VtkViewport(QWidget* parent = nullptr);
  ~VtkViewport() override;

  vtkRenderer* renderer() const;
  vtkGenericOpenGLRenderWindow* renderWindow() const;
  vtkGenericRenderWindowInteractor* interactor() const;

  // Renders the scene offscreen at width x height pixels (0 = the widget's size in device
  // pixels) and returns it (Format_RGB888), anti-aliased. Works on a hidden, never-shown
  // viewport too (its OpenGL context is created on demand) as long as there is an X display
  // (Xvfb is fine; Qt's "offscreen" platform has no QOpenGLWidget). Null image on failure.
  // See setExportQuality() and setHiddenInExports().
  QImage grabImage(int width = 0, int height = 0);

  // The OpenGL format VTK needs (3.2 core). The constructor applies it to the widget; an app may
  // also call QSurfaceFormat::setDefaultFormat(VtkViewport::defaultFormat()) before QApplication.
  static QSurfaceFormat defaultFormat();

  // grabImage() renders with FXAA anti-aliasing and depth-peeled translucency (default on).
  void setExportQuality(bool on) { exportQuality_ = on; }

  // Renderers of this window that grabImage() skips (e.g. an overlay of interaction handles):
  // exported images show the scene only, the widget still draws them. Held weakly.
  void setHiddenInExports(vtkRenderer* renderer, bool hidden = true);
  bool isHiddenInExports(vtkRenderer* renderer) const;

  // See the class comment. Off: every frame full resolution and quality.
  void setAdaptiveQuality(bool on);
  bool adaptiveQuality() const { return adaptiveQuality_; }
  // Known once the OpenGL context exists (after the first paint or grab).
  bool softwareRendering() const { return software_; }
  QString glRenderer() const { return glRenderer_; }
  // Resolution factor of the last frame (1: full; below 1 only for moving frames in software GL).
  double lastRenderScale() const { return lastScale_; }
  bool lastFrameWasStill() const { return lastStill_; }

  static constexpr double kInteractiveBudgetMs = 12.0;  // VTK render time a moving frame aims for
  static constexpr int kStillDelayMs = 180;

  // Pixels a press may move and still count as a click.
  void setClickTolerance(int pixels) { clickTolerance_ = pixels; }

  // Time the last paintGL took (VTK render + blit), in milliseconds.
  double lastRenderMs() const { return lastRenderMs_; }
  // Of that, VTK's render alone.
  double lastVtkRenderMs() const { return lastVtkRenderMs_; }

 public slots:
  void requestRender();  // schedule a repaint (coalesced by Qt)

 signals:
  void clicked(QPoint pos);            // left button pressed and released without dragging (widget coords)
  void rendered(double milliseconds);  // after every paintGL
  void resized();                      // the GL surface has a new size (before the next paint)

 protected:
  void initializeGL() override;
  void resizeGL(int w, int h) override;
  void paintGL() override;

  void mousePressEvent(QMouseEvent* e) override;
  void mouseReleaseEvent(QMouseEvent* e) override;
  void mouseMoveEvent(QMouseEvent* e) override;
  void wheelEvent(QWheelEvent* e) override;
  void keyPressEvent(QKeyEvent* e) override;
  void keyReleaseEvent(QKeyEvent* e) override;
  void enterEvent(QEnterEvent* e) override;
  void leaveEvent(QEvent* e) override;

 private:
  struct Impl;
  Impl* d_;
  int clickTolerance_ = 4;
  bool exportQuality_ = true;
  bool adaptiveQuality_ = true;
  bool software_ = false;
  QString glRenderer_;
  double interactiveScale_ = 1.0;  // adapted to kInteractiveBudgetMs in software GL
  double lastScale_ = 1.0;
  bool lastStill_ = false;
  bool stillPending_ = false;
  QTimer* stillTimer_ = nullptr;
  double lastRenderMs_ = 0, lastVtkRenderMs_ = 0;
  bool pressed_ = false;
  QPoint pressPos_;
  void setEventInfo(const QPointF& pos, Qt::KeyboardModifiers mods, int repeat = 0);
  void releaseVtkResources();
  void setFullQuality(bool on);  // FXAA and depth peeling on every renderer
  void adaptInteractiveScale(double vtkRenderMs);
  friend struct ViewportCallbacks;
};
