// One IK drag on the undo stack: the configuration before and after ("Drag <link>").
#pragma once
#include <Eigen/Core>
#include <QPointer>
#include <QUndoCommand>

#include "document/robot_document.hpp"

class IkDragCommand : public QUndoCommand {
 public:
  IkDragCommand(RobotDocument* doc, Eigen::VectorXd before, Eigen::VectorXd after, const QString& link)
      : QUndoCommand(QObject::tr("Drag %1").arg(link)),
        doc_(doc),
        before_(std::move(before)),
        after_(std::move(after)) {}
  // setQ refuses a configuration of another size (a different robot was loaded meanwhile).
  void undo() override {
    if (doc_) doc_->setQ(before_);
  }
  void redo() override {
    if (doc_) doc_->setQ(after_);
  }

 private:
  QPointer<RobotDocument> doc_;
  Eigen::VectorXd before_, after_;
};
