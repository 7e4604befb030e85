// PlotCanvas: context menu, and rendering to PNG and SVG at any size.
#include <QBuffer>
#include <QFileDialog>
#include <QFileInfo>
#include <QGraphicsLayout>
#include <QImage>
#include <QMenu>
#include <QMessageBox>
#include <QPainter>
#include <QSvgGenerator>
#include <QValueAxis>

#include "plots/plot_canvas.hpp"
#include "plots/plot_failure.hpp"

#include "document/save_file.hpp"

namespace {

bool validExportSize(QSize size) {
  return size.width() >= 16 && size.height() >= 16 && size.width() <= 16384 && size.height() <= 16384;
}

}  // namespace

QMenu* PlotCanvas::createContextMenu() {
  auto* menu = new QMenu(this);
  QAction* autoRangeAction = menu->addAction(tr("Auto-range"), this, &PlotCanvas::autoRange);
  autoRangeAction->setObjectName("autoRangeAction");
  autoRangeAction->setShortcut(Qt::Key_Home);
  menu->addSeparator();
  auto exportAction = [&](const QString& text, const QString& name, const QString& filter, const QString& suffix,
                          auto write) {
    QAction* action = menu->addAction(text, this, [this, text, filter, suffix, write] {
      QString path = QFileDialog::getSaveFileName(this, text, QString(), filter);
      if (path.isEmpty()) return;
      if (QFileInfo(path).suffix().isEmpty()) path += suffix;
      QString error;
      if (!write(path, &error)) QMessageBox::warning(this, tr("Export failed"), error);
    });
    action->setObjectName(name);
  };
  const QSize size = chart()->size().toSize();
  exportAction(tr("Export PNG…"), "exportPngAction", tr("PNG image (*.png)"), ".png",
               [this, size](const QString& path, QString* error) {
                 return exportPng(path, size, 2.0, error);  // twice the screen resolution, for slides
               });
  exportAction(tr("Export SVG…"), "exportSvgAction", tr("SVG drawing (*.svg)"), ".svg",
               [this, size](const QString& path, QString* error) { return exportSvg(path, size, error); });
  exportAction(tr("Export CSV…"), "exportCsvAction", tr("CSV table (*.csv)"), ".csv",
               [this](const QString& path, QString* error) { return m_content && m_content->exportCsv(path, error); });
  menu->addSeparator();
  menu->addAction(tr("Show all series"), this,
                  [this] {
                    if (m_content) m_content->setAllSeriesVisible(true);
                  })
      ->setObjectName("showAllAction");
  menu->addAction(tr("Hide all series"), this,
                  [this] {
                    if (m_content) m_content->setAllSeriesVisible(false);
                  })
      ->setObjectName("hideAllAction");
  return menu;
}

void PlotCanvas::showContextMenu(const QPoint& globalPos) {
  hideHover();
  QMenu* menu = createContextMenu();
  menu->setAttribute(Qt::WA_DeleteOnClose);
  menu->popup(globalPos);
}

void PlotCanvas::renderChart(QPainter* painter, QSize size) {
  hideHover();
  QChart* c = chart();
  const QSizeF old = c->size();
  const bool resized = QSizeF(size) != old;
  // Lay the chart out at the export size (legend columns, ticks and decimation follow), render, restore.
  if (resized) {
    c->resize(size);
    c->layout()->activate();
  }
  painter->setRenderHint(QPainter::Antialiasing);
  painter->setRenderHint(QPainter::TextAntialiasing);
  painter->fillRect(QRectF(QPointF(0, 0), QSizeF(size)), Qt::white);
  scene()->render(painter, QRectF(QPointF(0, 0), QSizeF(size)), c->mapRectToScene(QRectF(QPointF(0, 0), QSizeF(size))));
  if (resized) {
    c->resize(old);
    c->layout()->activate();
  }
}

bool PlotCanvas::exportPng(const QString& path, QSize size, double scale, QString* error) {
  if (!validExportSize(size) || !(scale >= 0.25 && scale <= 8))
    return plotFailure(error, tr("Cannot export %1: invalid image size %2 x %3 (scale %4)")
                           .arg(path)
                           .arg(size.width())
                           .arg(size.height())
                           .arg(scale));
  QImage image((QSizeF(size) * scale).toSize(), QImage::Format_ARGB32_Premultiplied);
  if (image.isNull()) return plotFailure(error, tr("Cannot export %1: out of memory for the image").arg(path));
  image.setDevicePixelRatio(scale);
  {
    QPainter painter(&image);
    renderChart(&painter, size);
  }
  return savePngAtomically(path, image, error);  // QSaveFile, every short write checked
}

bool PlotCanvas::exportSvg(const QString& path, QSize size, QString* error) {
  if (!validExportSize(size))
    return plotFailure(error, tr("Cannot export %1: invalid size %2 x %3").arg(path).arg(size.width()).arg(size.height()));
  QBuffer buffer;  // the SVG in memory, then one atomic write
  buffer.open(QIODevice::WriteOnly);
  QSvgGenerator svg;
  svg.setOutputDevice(&buffer);
  svg.setSize(size);
  svg.setViewBox(QRect(QPoint(0, 0), size));
  svg.setResolution(logicalDpiX());  // fonts in points come out as large as on screen
  svg.setTitle(m_axisY->titleText() + " vs " + m_axisX->titleText());
  svg.setDescription(QStringLiteral("Dynscope plot"));
  QPainter painter;
  if (!painter.begin(&svg)) return plotFailure(error, tr("Cannot write %1: the SVG generator failed").arg(path));
  renderChart(&painter, size);
  painter.end();
  return saveFileAtomically(path, buffer.data(), error);
}
