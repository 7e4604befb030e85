// The legend of our plots, drawn in the chart's scene beside or below the axes. Unlike QLegend it
// wraps into aligned columns, so 32 joint names stay readable, and it is part of PNG/SVG exports.
// Names are never elided while the legend gets its natural column width (PlotCanvas sees to it,
// or shows its "too small" hint). Clicks are hit-tested by PlotCanvas (entryAt).
#pragma once
#include <QColor>
#include <QFont>
#include <QGraphicsObject>
#include <QList>

#include "plots/plot_palette.hpp"

class PlotLegend : public QGraphicsObject {
  Q_OBJECT

 public:
  enum class Swatch { Line, Area };
  struct Entry {
    QString name;
    QColor color;
    Swatch swatch = Swatch::Line;
    bool shown = true;    // false: greyed out (its series is hidden)
    QList<qreal> dashes;  // the line's dash pattern (empty: solid)
    plots::Marker marker = plots::Marker::None;
  };

  explicit PlotLegend(QGraphicsItem* parent = nullptr);

  void setEntries(const QList<Entry>& entries);
  void setEntryShown(int i, bool shown);
  const QList<Entry>& entries() const { return m_entries; }
  void setFont(const QFont& font);

  // Natural sizes: a column as wide as the longest name (with swatch and spacing), a row's height.
  qreal columnWidth() const;
  qreal rowHeight() const;
  // Arranges the entries in `columns` columns of the natural width (filled row by row); returns
  // the size taken.
  QSizeF layoutColumns(int columns);
  QSizeF sizeFor(int columns) const;  // what layoutColumns(columns) would take
  // As many natural columns as fit in `width` (at least one); returns the height this needs.
  qreal layoutFor(qreal width);
  int columns() const { return m_columns; }
  QRectF entryRect(int i) const;              // item coordinates
  int entryAt(const QPointF& itemPos) const;  // -1 if none
  bool entryElided(int i) const;              // its name does not fit its rectangle

  QRectF boundingRect() const override;
  void paint(QPainter* painter, const QStyleOptionGraphicsItem* option, QWidget* widget) override;

 private:
  QRectF textRect(const QRectF& entry) const;

  QList<Entry> m_entries;
  QList<QRectF> m_rects;
  QFont m_font;
  QRectF m_bounds;
  int m_columns = 1;
};
