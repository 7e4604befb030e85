// Shared by the Trajectory dock's boxes (payload, external wrench): a number box that changes once
// per finished edit, and a list of the links a load can act on.
#pragma once
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QSignalBlocker>

#include "dynscope/model/model.hpp"

inline QDoubleSpinBox* numberBox(double lo, double hi, int decimals, const QString& suffix, QWidget* parent) {
  auto* s = new QDoubleSpinBox(parent);
  s->setRange(lo, hi);
  s->setDecimals(decimals);
  s->setSuffix(suffix);
  s->setKeyboardTracking(false);  // one change per finished edit, not per digit typed
  return s;
}

// The model's links on moving bodies (one fixed to the base takes no load); the one chosen before
// stays chosen, else the default end effector, else the last. No signal while filling.
inline void fillLinkBox(QComboBox* box, const dyn::Model& model) {
  const QSignalBlocker block(box);
  const QString before = box->currentText();
  box->clear();
  for (const auto& f : model.frames)
    if (f.body > 0) box->addItem(QString::fromStdString(f.name));
  const int keep = box->findText(before);
  const int tip = box->findText(QString::fromStdString(model.defaultEndEffector));
  box->setCurrentIndex(keep >= 0 ? keep : tip >= 0 ? tip : box->count() - 1);
}
