// The global (6N) analysis of the review's §3.5 as sparsity pictures, beside H(q): the
// block-diagonal body inertias I, the joint motion subspaces S = P⁻¹ H, the incidence matrix P of
// eq. 29 and its inverse, and the matrix [I T; Tᵀ 0] of eq. 27 (loop-closure joints add columns
// to T). The lecture point: the global form is large (6N rows) but sparse, and CRBA's H is its
// reduction M = Sᵀ I S (checked and shown). The numbers are the engine's
// (dynscope/loops/global_analysis.hpp); this widget only paints their non-zero pattern.
#pragma once
#include <Eigen/Core>
#include <QString>
#include <QStringList>
#include <QWidget>
#include <vector>

#include "dynscope/model/data.hpp"

class GlobalMatricesView : public QWidget {
  Q_OBJECT

 public:
  struct Picture {
    QString name, title;  // "I", "I: body inertias (6N × 6N, block diagonal)"
    Eigen::Matrix<bool, Eigen::Dynamic, Eigen::Dynamic> nonZero;
    int nonZeros = 0;
  };

  explicit GlobalMatricesView(QWidget* parent = nullptr);

  // The matrices of `model` at q (at rest: the velocity terms do not change the pattern).
  // Returns false with `error` when the engine cannot build them.
  bool compute(const dyn::Model& model, const Eigen::VectorXd& q, QString* error = nullptr);
  void clear();
  const std::vector<Picture>& pictures() const { return m_pictures; }
  double reductionError() const { return m_reductionError; }  // max |Sᵀ I S − H_CRBA|
  QString summary() const { return m_summary; }

  // Readable: every caption in full and the smallest picture at least six lines (and a third of
  // a pixel an entry, up to 200 px) on a side; smaller, a "too small" hint is painted instead.
  QSize sizeHint() const override { return minimumSizeHint().expandedTo({520, 420}); }
  QSize minimumSizeHint() const override;
  struct Grid {
    int cols = 0;              // pictures per row
    double smallestSide = 0;   // the smallest picture's longer side, in pixels
    bool captionsFit = false;  // every title and count in full
    double top = 0;            // summary height
    int summaryLines = 1;
    bool readable = false;
  };
  Grid gridFor(QSize size) const;  // the grid of the largest pictures whose captions fit

 protected:
  void paintEvent(QPaintEvent* event) override;

 private:
  double minimumPictureSide() const;
  QSize estimatedMinimumSize() const;
  QStringList captions(const Picture& pic) const;

  std::vector<Picture> m_pictures;
  double m_reductionError = 0;
  QString m_summary;
};
