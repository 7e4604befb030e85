#include "viewport/vtk_viewport.hpp"

#include "viewport/render_scale.hpp"

#include <vtkCallbackCommand.h>
#include <vtkCamera.h>
#include <vtkCommand.h>
#include <vtkGenericOpenGLRenderWindow.h>
#include <vtkGenericRenderWindowInteractor.h>
#include <vtkImageData.h>
#include <vtkInteractorStyleTrackballCamera.h>
#include <vtkMath.h>
#include <vtkNew.h>
#include <vtkObjectFactory.h>
#include <vtkOpenGLState.h>
#include <vtkRenderer.h>
#include <vtkRendererCollection.h>
#include <vtkUnsignedCharArray.h>
#include <vtkWeakPointer.h>
#include <vtkWindowToImageFilter.h>

#include <QElapsedTimer>
#include <QKeyEvent>
#include <QMouseEvent>
#include <QOpenGLContext>
#include <QOpenGLExtraFunctions>
#include <QTimer>
#include <QWheelEvent>
#include <algorithm>
#include <cmath>
#include <cstring>
#include <utility>
#include <vector>

namespace {

// Trackball camera (left: orbit, Shift+left / middle: pan, wheel / right: zoom, Ctrl+left: spin)
// with the keyboard shortcuts reduced to the harmless ones: 'r' resets the camera, 'f' flies to
// the point under the cursor. VTK's others (wireframe, stereo, quit, ...) would surprise a user.
class ViewportStyle : public vtkInteractorStyleTrackballCamera {
 public:
  static ViewportStyle* New();
  vtkTypeMacro(ViewportStyle, vtkInteractorStyleTrackballCamera);
  void OnChar() override {
    switch (this->Interactor ? this->Interactor->GetKeyCode() : 0) {
      case 'r':
      case 'R':
      case 'f':
      case 'F':
        Superclass::OnChar();
        break;
      default:
        break;
    }
  }
};
vtkStandardNewMacro(ViewportStyle);

}  // namespace

struct VtkViewport::Impl {
  vtkNew<vtkGenericOpenGLRenderWindow> window;
  vtkNew<vtkRenderer> renderer;
  vtkNew<vtkGenericRenderWindowInteractor> iren;
  vtkNew<ViewportStyle> style;
  vtkNew<vtkCallbackCommand> windowCallback, renderCallback;
  bool inPaint = false;
  bool glReady = false;
  int wheelAccumulator = 0;
  QMetaObject::Connection contextConnection;
  std::vector<vtkWeakPointer<vtkRenderer>> hiddenInExports;
};

// VTK -> Qt: make the widget's context current, report whether it is, repaint after a frame.
struct ViewportCallbacks {
  static void onWindowEvent(vtkObject*, unsigned long id, void* clientData, void* callData) {
    auto* self = static_cast<VtkViewport*>(clientData);
    QOpenGLContext* ctx = self->context();
    switch (id) {
      case vtkCommand::WindowMakeCurrentEvent:
        // QOpenGLWidget::makeCurrent() also binds the widget's FBO: only do it when another
        // context is current, never in the middle of a VTK render.
        if (ctx && QOpenGLContext::currentContext() != ctx) self->makeCurrent();
        break;
      case vtkCommand::WindowIsCurrentEvent:
        *static_cast<bool*>(callData) = ctx && QOpenGLContext::currentContext() == ctx;
        break;
      case vtkCommand::WindowFrameEvent:
        if (!self->d_->inPaint) self->update();  // a render outside paintGL: show it
        break;
      default:
        break;
    }
  }
  static void onInteractorRender(vtkObject*, unsigned long, void* clientData, void*) {
    static_cast<VtkViewport*>(clientData)->requestRender();
  }
};

QSurfaceFormat VtkViewport::defaultFormat() {
  QSurfaceFormat fmt;
  fmt.setRenderableType(QSurfaceFormat::OpenGL);
  fmt.setVersion(3, 2);
  fmt.setProfile(QSurfaceFormat::CoreProfile);
  fmt.setSwapBehavior(QSurfaceFormat::DoubleBuffer);
  fmt.setRedBufferSize(8);
  fmt.setGreenBufferSize(8);
  fmt.setBlueBufferSize(8);
  fmt.setAlphaBufferSize(8);
  fmt.setDepthBufferSize(8);
  fmt.setStencilBufferSize(0);
  fmt.setSamples(0);  // VTK renders into its own framebuffer (multisampled if asked)
  return fmt;
}

VtkViewport::VtkViewport(QWidget* parent) : QOpenGLWidget(parent), d_(new Impl) {
  setFormat(defaultFormat());
  setFocusPolicy(Qt::StrongFocus);
  setUpdateBehavior(QOpenGLWidget::NoPartialUpdate);
  setMinimumSize(64, 64);

  auto& w = d_->window;
  w->SetReadyForRendering(false);  // until initializeGL: no context yet
  w->SetFrameBlitModeToNoBlit();   // paintGL blits into the widget's framebuffer itself
  w->SetOwnContext(0);
  // No multisampling: depth peeling (correct translucency) needs single-sampled buffers, and
  // MSAA is expensive on software OpenGL. Exported images get FXAA instead (grabImage).
  w->SetMultiSamples(0);
  w->AddRenderer(d_->renderer);
  d_->windowCallback->SetClientData(this);
  d_->windowCallback->SetCallback(&ViewportCallbacks::onWindowEvent);
  for (auto ev : {vtkCommand::WindowMakeCurrentEvent, vtkCommand::WindowIsCurrentEvent, vtkCommand::WindowFrameEvent})
    w->AddObserver(ev, d_->windowCallback);

  // The interactor never renders synchronously: its Render() requests a Qt repaint.
  d_->iren->SetRenderWindow(w);
  d_->iren->EnableRenderOff();
  d_->iren->SetInteractorStyle(d_->style);
  d_->renderCallback->SetClientData(this);
  d_->renderCallback->SetCallback(&ViewportCallbacks::onInteractorRender);
  d_->iren->AddObserver(vtkCommand::RenderEvent, d_->renderCallback);
  d_->iren->Initialize();

  d_->renderer->SetBackground(0.93, 0.94, 0.96);   // bottom
  d_->renderer->SetBackground2(0.55, 0.62, 0.72);  // top
  d_->renderer->GradientBackgroundOn();

  stillTimer_ = new QTimer(this);
  stillTimer_->setSingleShot(true);
  stillTimer_->setInterval(kStillDelayMs);
  connect(stillTimer_, &QTimer::timeout, this, [this] {
    stillPending_ = true;
    update();
  });
}

VtkViewport::~VtkViewport() {
  // The context outlives this class (QOpenGLWidget destroys it): no callback into us then.
  QObject::disconnect(d_->contextConnection);
  if (d_->glReady) {
    makeCurrent();
    releaseVtkResources();
    doneCurrent();
  }
  d_->iren->RemoveObserver(d_->renderCallback);
  d_->window->RemoveObserver(d_->windowCallback);
  delete d_;
}

void VtkViewport::releaseVtkResources() {
  if (!d_->glReady) return;
  d_->window->Finalize();  // releases every prop's OpenGL resources while the context is current
  d_->window->SetReadyForRendering(false);
  d_->glReady = false;
}

vtkRenderer* VtkViewport::renderer() const { return d_->renderer; }
vtkGenericOpenGLRenderWindow* VtkViewport::renderWindow() const { return d_->window; }
vtkGenericRenderWindowInteractor* VtkViewport::interactor() const { return d_->iren; }

void VtkViewport::requestRender() { update(); }

void VtkViewport::setHiddenInExports(vtkRenderer* renderer, bool hidden) {
  auto& list = d_->hiddenInExports;
  list.erase(std::remove_if(list.begin(), list.end(), [renderer](const auto& r) { return !r || r == renderer; }),
             list.end());
  if (hidden && renderer) list.emplace_back(renderer);
}

bool VtkViewport::isHiddenInExports(vtkRenderer* renderer) const {
  return renderer && std::any_of(d_->hiddenInExports.begin(), d_->hiddenInExports.end(),
                                 [renderer](const auto& r) { return r == renderer; });
}

void VtkViewport::setAdaptiveQuality(bool on) {
  adaptiveQuality_ = on;
  interactiveScale_ = 1.0;
  update();
}

void VtkViewport::setFullQuality(bool on) {
  vtkRendererCollection* renderers = d_->window->GetRenderers();
  renderers->InitTraversal();
  while (vtkRenderer* r = renderers->GetNextItem()) {
    r->SetUseFXAA(on);
    r->SetUseDepthPeeling(on);  // VTK peels only when there is translucent geometry
  }
}

// Moving frames in software GL: the resolution that keeps VTK's render near the budget. The
// render time grows about with the pixel count, hence the square root. Half-way steps of 0.05 and
// a dead band: frame times are noisy and the picture should not change size on every frame.
void VtkViewport::adaptInteractiveScale(double vtkRenderMs) {
  if (!(vtkRenderMs > 0)) return;
  const double ideal = std::clamp(interactiveScale_ * std::sqrt(kInteractiveBudgetMs / vtkRenderMs), 0.5, 1.0);
  if (std::abs(ideal - interactiveScale_) < 0.1) return;
  interactiveScale_ = std::clamp(std::round((interactiveScale_ + ideal) / 2 / 0.05) * 0.05, 0.5, 1.0);
}

void VtkViewport::initializeGL() {
  auto* state = d_->window->GetState();
  state->Reset();
  state->vtkglDepthFunc(GL_LEQUAL);  // Qt leaves GL_LESS
  d_->window->SetForceMaximumHardwareLineWidth(1);
  d_->window->SetReadyForRendering(true);
  d_->window->OpenGLInitContext();
  d_->glReady = true;
  // Software rasterisers: Mesa's llvmpipe/softpipe/swrast, Microsoft's GDI generic, SwiftShader.
  const auto* name = reinterpret_cast<const char*>(context()->functions()->glGetString(GL_RENDERER));
  glRenderer_ = QString::fromLatin1(name ? name : "");
  software_ = false;
  for (const char* s : {"llvmpipe", "softpipe", "swrast", "software", "gdi generic", "swiftshader"})
    if (glRenderer_.contains(QLatin1String(s), Qt::CaseInsensitive)) software_ = true;
  const qreal dpr = devicePixelRatioF();
  d_->iren->UpdateSize(qRound(width() * dpr), qRound(height() * dpr));
  // Reparenting (e.g. a floating dock) replaces the context: release VTK's resources with it.
  QObject::disconnect(d_->contextConnection);
  d_->contextConnection = connect(
      context(), &QOpenGLContext::aboutToBeDestroyed, this,
      [this] {
        makeCurrent();
        releaseVtkResources();
      },
      Qt::DirectConnection);
}

void VtkViewport::resizeGL(int w, int h) {
  const qreal dpr = devicePixelRatioF();
  d_->iren->UpdateSize(qRound(w * dpr), qRound(h * dpr));  // also sizes the render window
  emit resized();
}

void VtkViewport::paintGL() {
  if (!d_->glReady) return;
  QElapsedTimer timer;
  timer.start();
  const qreal dpr = devicePixelRatioF();
  const int W = qRound(width() * dpr), H = qRound(height() * dpr);
  if (d_->window->GetSize()[0] != W || d_->window->GetSize()[1] != H) d_->iren->UpdateSize(W, H);

  // This frame's quality (see the class comment): a moving frame in software GL is drawn into the
  // lower-left w x h of VTK's framebuffer (text at a matching DPI) and scaled up by the blit.
  const bool still = stillPending_;
  stillPending_ = false;
  const bool degrade = adaptiveQuality_ && software_ && !still;
  const double scale = degrade ? interactiveScale_ : 1.0;
  const int w = std::clamp(qRound(W * scale), 1, W), h = std::clamp(qRound(H * scale), 1, H);
  setFullQuality(!degrade);
  struct SavedViewport {
    vtkRenderer* r;
    double v[4];
  };
  std::vector<SavedViewport> viewports;
  const int dpi = d_->window->GetDPI();
  if (w != W || h != H) {
    vtkRendererCollection* renderers = d_->window->GetRenderers();
    renderers->InitTraversal();
    while (vtkRenderer* r = renderers->GetNextItem()) {
      SavedViewport s{r, {}};
      r->GetViewport(s.v);
      viewports.push_back(s);
      const double fx = double(w) / W, fy = double(h) / H;
      r->SetViewport(s.v[0] * fx, s.v[1] * fy, s.v[2] * fx, s.v[3] * fy);
    }
    d_->window->SetDPI(std::max(1, qRound(dpi * double(w) / W)));
  }

  auto* state = d_->window->GetState();
  state->Reset();  // Qt changed bindings (its FBO) behind VTK's cache
  state->Push();
  state->vtkglDepthFunc(GL_LEQUAL);
  d_->inPaint = true;
  d_->renderer->ResetCameraClippingRange();  // the robot moves: keep all of it between the planes
  viewport::setRenderScale(double(h) / H);
  d_->window->Render();
  viewport::setRenderScale(1.0);
  d_->inPaint = false;
  if (QOpenGLContext::currentContext() != context()) makeCurrent();
  // Software GL renders when the commands are flushed: wait, so that the time is the real cost.
  if (software_) context()->functions()->glFinish();
  lastVtkRenderMs_ = timer.nsecsElapsed() * 1e-6;
  for (const SavedViewport& s : viewports) s.r->SetViewport(s.v[0], s.v[1], s.v[2], s.v[3]);
  if (!viewports.empty()) d_->window->SetDPI(dpi);

  // Blit VTK's display framebuffer into the widget's framebuffer.
  QOpenGLExtraFunctions* f = context()->extraFunctions();
  f->glBindFramebuffer(GL_DRAW_FRAMEBUFFER, defaultFramebufferObject());
  const GLenum buffer = GL_COLOR_ATTACHMENT0;
  f->glDrawBuffers(1, &buffer);
  const bool scissor = f->glIsEnabled(GL_SCISSOR_TEST);
  if (scissor) {
    state->vtkglDisable(GL_SCISSOR_TEST);
    f->glDisable(GL_SCISSOR_TEST);
  }
  d_->window->BlitDisplayFramebuffer(0, 0, 0, w, h, 0, 0, W, H, GL_COLOR_BUFFER_BIT, GL_LINEAR);
  // Opaque alpha, otherwise Mesa composes the widget with what is behind it.
  f->glColorMask(GL_FALSE, GL_FALSE, GL_FALSE, GL_TRUE);
  f->glClearColor(0, 0, 0, 1);
  f->glViewport(0, 0, W, H);
  f->glClear(GL_COLOR_BUFFER_BIT);
  f->glColorMask(GL_TRUE, GL_TRUE, GL_TRUE, GL_TRUE);
  if (scissor) {
    state->vtkglEnable(GL_SCISSOR_TEST);
    f->glEnable(GL_SCISSOR_TEST);
  }
  state->Pop();
  lastRenderMs_ = timer.nsecsElapsed() * 1e-6;
  lastScale_ = scale;
  lastStill_ = !degrade;
  if (degrade) {  // adapt the resolution, and redraw at full quality once things stop moving
    adaptInteractiveScale(lastVtkRenderMs_);
    stillTimer_->start();
  }
  emit rendered(lastRenderMs_);
}

QImage VtkViewport::grabImage(int width, int height) {
  if (!d_->glReady) (void)grabFramebuffer();  // a never-shown widget: this creates its context
  if (!d_->glReady) return {};
  const qreal dpr = devicePixelRatioF();
  const int W = width > 0 ? width : qRound(this->width() * dpr);
  const int H = height > 0 ? height : qRound(this->height() * dpr);
  if (W <= 0 || H <= 0) return {};
  makeCurrent();
  auto* state = d_->window->GetState();
  state->Reset();
  state->Push();
  state->vtkglDepthFunc(GL_LEQUAL);
  const int oldW = d_->window->GetSize()[0], oldH = d_->window->GetSize()[1];
  d_->inPaint = true;              // no repaint request from this offscreen frame
  d_->window->SetSize(W, H);       // VTK's framebuffers follow; the widget keeps its size
  setFullQuality(exportQuality_);  // FXAA and exact translucency (paintGL sets its own each frame)
  // VTK's view angle is vertical: an image narrower than the view would cut off its sides. Widen
  // the field for this frame so that everything in the view is in the image too.
  const double widen = oldW > 0 && oldH > 0 ? std::max(1.0, (double(oldW) / oldH) / (double(W) / H)) : 1.0;
  struct SavedCamera {
    vtkCamera* camera;
    double angle, scale;
  };
  std::vector<SavedCamera> cameras;
  if (widen > 1.0) {
    vtkRendererCollection* renderers = d_->window->GetRenderers();
    renderers->InitTraversal();
    while (vtkRenderer* r = renderers->GetNextItem()) {
      vtkCamera* c = r->GetActiveCamera();
      cameras.push_back({c, c->GetViewAngle(), c->GetParallelScale()});
      const double half = vtkMath::RadiansFromDegrees(c->GetViewAngle() / 2);
      c->SetViewAngle(2 * vtkMath::DegreesFromRadians(std::atan(std::tan(half) * widen)));
      c->SetParallelScale(c->GetParallelScale() * widen);
      r->ResetCameraClippingRange();
    }
  }
  // Renderers asked to stay out of exports draw nothing in this frame (vtkRenderer's Draw flag).
  std::vector<std::pair<vtkRenderer*, vtkTypeBool>> skipped;
  for (const auto& r : d_->hiddenInExports)
    if (r) {
      skipped.emplace_back(r, r->GetDraw());
      r->DrawOff();
    }
  d_->window->Render();
  for (const auto& [r, draw] : skipped) r->SetDraw(draw);
  for (const SavedCamera& c : cameras) {
    c.camera->SetViewAngle(c.angle);
    c.camera->SetParallelScale(c.scale);
  }
  vtkNew<vtkWindowToImageFilter> grab;
  grab->SetInput(d_->window);
  grab->SetInputBufferTypeToRGB();
  grab->ShouldRerenderOff();
  grab->Update();
  d_->window->SetSize(oldW, oldH);
  d_->inPaint = false;
  state->Pop();
  doneCurrent();

  vtkImageData* img = grab->GetOutput();
  int dims[3];
  img->GetDimensions(dims);
  QImage out(dims[0], dims[1], QImage::Format_RGB888);
  auto* px = static_cast<const unsigned char*>(img->GetScalarPointer());
  if (!px || dims[0] != W || dims[1] != H) return {};
  for (int y = 0; y < H; ++y)  // VTK's rows run bottom-up
    std::memcpy(out.scanLine(H - 1 - y), px + size_t(y) * W * 3, size_t(W) * 3);
  update();  // the next paint renders at the widget size again
  return out;
}

// ---- events -------------------------------------------------------------------------------

void VtkViewport::setEventInfo(const QPointF& pos, Qt::KeyboardModifiers mods, int repeat) {
  const qreal dpr = devicePixelRatioF();
  d_->iren->SetEventInformationFlipY(qRound(pos.x() * dpr), qRound(pos.y() * dpr), (mods & Qt::ControlModifier) ? 1 : 0,
                                     (mods & Qt::ShiftModifier) ? 1 : 0, 0, repeat);
  d_->iren->SetAltKey((mods & Qt::AltModifier) ? 1 : 0);
}

void VtkViewport::mousePressEvent(QMouseEvent* e) {
  setEventInfo(e->position(), e->modifiers(), e->type() == QEvent::MouseButtonDblClick ? 1 : 0);
  switch (e->button()) {
    case Qt::LeftButton:
      pressed_ = true;
      pressPos_ = e->position().toPoint();
      d_->iren->InvokeEvent(vtkCommand::LeftButtonPressEvent, e);
      break;
    case Qt::MiddleButton:
      d_->iren->InvokeEvent(vtkCommand::MiddleButtonPressEvent, e);
      break;
    case Qt::RightButton:
      d_->iren->InvokeEvent(vtkCommand::RightButtonPressEvent, e);
      break;
    default:
      break;
  }
  e->accept();
}

void VtkViewport::mouseReleaseEvent(QMouseEvent* e) {
  setEventInfo(e->position(), e->modifiers());
  switch (e->button()) {
    case Qt::LeftButton: {
      d_->iren->InvokeEvent(vtkCommand::LeftButtonReleaseEvent, e);
      const QPoint pos = e->position().toPoint();
      if (pressed_ && (pos - pressPos_).manhattanLength() <= clickTolerance_) emit clicked(pos);
      pressed_ = false;
      break;
    }
    case Qt::MiddleButton:
      d_->iren->InvokeEvent(vtkCommand::MiddleButtonReleaseEvent, e);
      break;
    case Qt::RightButton:
      d_->iren->InvokeEvent(vtkCommand::RightButtonReleaseEvent, e);
      break;
    default:
      break;
  }
  e->accept();
}

void VtkViewport::mouseMoveEvent(QMouseEvent* e) {
  if (pressed_ && (e->position().toPoint() - pressPos_).manhattanLength() > clickTolerance_) pressed_ = false;
  setEventInfo(e->position(), e->modifiers());
  d_->iren->InvokeEvent(vtkCommand::MouseMoveEvent, e);
  e->accept();
}

void VtkViewport::wheelEvent(QWheelEvent* e) {
  setEventInfo(e->position(), e->modifiers());
  // One VTK wheel step per 120 units (a mouse notch); touchpads deliver smaller deltas.
  d_->wheelAccumulator += e->angleDelta().y();
  while (d_->wheelAccumulator >= 120) {
    d_->iren->InvokeEvent(vtkCommand::MouseWheelForwardEvent, e);
    d_->wheelAccumulator -= 120;
  }
  while (d_->wheelAccumulator <= -120) {
    d_->iren->InvokeEvent(vtkCommand::MouseWheelBackwardEvent, e);
    d_->wheelAccumulator += 120;
  }
  e->accept();
}

static const char* keySym(int key) {
  switch (key) {
    case Qt::Key_Left:
      return "Left";
    case Qt::Key_Right:
      return "Right";
    case Qt::Key_Up:
      return "Up";
    case Qt::Key_Down:
      return "Down";
    case Qt::Key_Escape:
      return "Escape";
    case Qt::Key_Return:
      return "Return";
    case Qt::Key_Space:
      return "space";
    case Qt::Key_Shift:
      return "Shift_L";
    case Qt::Key_Control:
      return "Control_L";
    case Qt::Key_Alt:
      return "Alt_L";
    default:
      return nullptr;
  }
}

void VtkViewport::keyPressEvent(QKeyEvent* e) {
  const QString text = e->text();
  const char code = text.size() == 1 && text[0].unicode() < 128 ? char(text[0].unicode()) : 0;
  char sym[2] = {code, 0};
  const char* s = keySym(e->key());
  d_->iren->SetKeyEventInformation((e->modifiers() & Qt::ControlModifier) ? 1 : 0,
                                   (e->modifiers() & Qt::ShiftModifier) ? 1 : 0, code, e->isAutoRepeat() ? 1 : 0,
                                   s ? s : sym);
  d_->iren->InvokeEvent(vtkCommand::KeyPressEvent, e);
  if (code) d_->iren->InvokeEvent(vtkCommand::CharEvent, e);
  QOpenGLWidget::keyPressEvent(e);  // unhandled: let the window's shortcuts see it
}

void VtkViewport::keyReleaseEvent(QKeyEvent* e) {
  d_->iren->InvokeEvent(vtkCommand::KeyReleaseEvent, e);
  QOpenGLWidget::keyReleaseEvent(e);
}

void VtkViewport::enterEvent(QEnterEvent* e) {
  d_->iren->InvokeEvent(vtkCommand::EnterEvent, e);
  QOpenGLWidget::enterEvent(e);
}

void VtkViewport::leaveEvent(QEvent* e) {
  d_->iren->InvokeEvent(vtkCommand::LeaveEvent, e);
  QOpenGLWidget::leaveEvent(e);
}
