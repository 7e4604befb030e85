// The legend of our plots, drawn in the chart's scene below the axes. Unlike QLegend it wraps
// into aligned columns, so 32 joint names stay readable, and it is part of PNG/SVG exports.
// Clicks are hit-tested by PlotCanvas (entryAt) and reported as legendEntryClicked.
#pragma once
#include <QColor>
#include <QFont>
#include <QGraphicsObject>
#include <QList>

class PlotLegend : public QGraphicsObject {
  Q_OBJECT

 public:
  enum class Swatch { Line, Area };
  struct Entry {
    QString name;
    QColor color;
    Swatch swatch = Swatch::Line;
    bool shown = true;  // false: greyed out (its series is hidden)
  };

  explicit PlotLegend(QGraphicsItem* parent = nullptr);

  void setEntries(const QList<Entry>& entries);
  void setEntryShown(int i, bool shown);
  const QList<Entry>& entries() const { return m_entries; }
  void setFont(const QFont& font);

  // Arranges the entries in equal columns within `width`; returns the height this needs. Above
  // `maxHeight`, the columns get narrower (names elided) until the rows fit or names would be
  // unreadable.
  qreal layoutFor(qreal width, qreal maxHeight = 1e9);
  QRectF entryRect(int i) const;              // item coordinates
  int entryAt(const QPointF& itemPos) const;  // -1 if none

  QRectF boundingRect() const override;
  void paint(QPainter* painter, const QStyleOptionGraphicsItem* option, QWidget* widget) override;

 private:
  QList<Entry> m_entries;
  QList<QRectF> m_rects;
  QFont m_font;
  QRectF m_bounds;
  qreal m_width = 0;
  qreal m_maxHeight = 1e9;
};
