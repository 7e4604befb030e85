// MainWindow's side of the script link (session/script_link.hpp, docs/python-viewer.md): what a
// Python script's requests need of the window's widgets (the timeline, the plots dock, the window's
// picture, closing), installed as the link's hooks. The link itself knows only the documents.
#include <QImage>
#include <QTimer>

#include "document/save_file.hpp"
#include "session/script_link.hpp"
#include "timeline/timeline_dock.hpp"
#include "trajectory/plots_dock.hpp"
#include "window/log_dock.hpp"
#include "window/main_window.hpp"

void MainWindow::connectScriptLink(ScriptLink* link) {
  ScriptLink::Window hooks;
  hooks.play = [this](bool loop) {
    if (m_workspace != "trajectory" && m_workspace != "simulate") setWorkspace("trajectory");
    frameMotion();  // every script's trajectory is a new motion (a loaded one is framed once per source)
    m_timelineDock->setLoop(loop);
    m_timelineDock->goToStart();
    m_timelineDock->play();
  };
  hooks.pause = [this] { m_timelineDock->pause(); };
  hooks.playing = [this] { return m_timelineDock->isPlaying(); };
  hooks.workspace = [this] { return m_workspace; };
  hooks.plot = [this](const QString& title, const std::vector<double>& t, const Eigen::MatrixXd& values,
                      const QStringList& names, const QString& yLabel) {
    // Explore and Mass matrix lay out no plots: the Trajectory workspace does, below the 3D view.
    if (m_workspace == "explore" || m_workspace == "massmatrix") setWorkspace("trajectory");
    QString error;
    if (!m_plotsDock->showScriptPlot(title, t, values, names, yLabel, &error)) return error;
    m_plotsDock->show();
    m_plotsDock->raise();  // in front of the tabs it shares a place with (Log, Algorithms)
    return QString();
  };
  hooks.plotTitles = [this] { return m_plotsDock->scriptPlotTitles(); };
  hooks.screenshot = [this](const QString& path, QSize size, std::function<void(const QString&)> done) {
    if (size.isValid() && size != this->size()) {
      if (isMaximized() || isFullScreen()) showNormal();
      resize(size);
    }
    // The picture --window-screenshot takes (window_screenshot_command.cpp), once the new pose,
    // layout and plots have painted; the event loop runs meanwhile.
    QTimer::singleShot(size.isValid() ? 600 : 200, this, [this, path, done = std::move(done)] {
      const QImage image = grab().toImage();
      if (image.isNull()) return done(tr("the window could not be rendered (no OpenGL context?)"));
      QString error;
      savePngAtomically(path, image, &error);
      done(error);
    });
  };
  hooks.close = [this] { close(); };
  link->setWindow(std::move(hooks));
  connect(link, &ScriptLink::message, this, [this](const QString& text) { m_logDock->append(text); });
}
