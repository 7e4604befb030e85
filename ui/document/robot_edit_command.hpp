// One change of the robot's parameters on the undo stack (issue 24): the document's whole edit list
// before and after. Successive changes of the same field (a value dragged in a spin box) merge into
// one step.
#pragma once
#include <QUndoCommand>
#include <vector>

#include "document/robot_document.hpp"
#include "dynscope/io/robot_edit.hpp"

class RobotEditCommand : public QUndoCommand {
 public:
  RobotEditCommand(RobotDocument* doc, std::vector<dyn::RobotEdit> before, const dyn::RobotEdit& edit)
      : m_doc(doc), m_before(std::move(before)), m_after(dyn::withEdit(m_before, edit)), m_edit(edit) {
    setText(QObject::tr("Edit %1 of %2")
                .arg(QString::fromLatin1(dyn::editFieldName(edit.field)).replace('_', ' '),
                     QString::fromStdString(edit.element)));
  }
  void undo() override { m_doc->setEdits(m_before); }
  void redo() override { m_doc->setEdits(m_after); }
  int id() const override { return 2401; }
  bool mergeWith(const QUndoCommand* other) override {
    const auto* o = static_cast<const RobotEditCommand*>(other);
    if (o->m_edit.joint != m_edit.joint || o->m_edit.element != m_edit.element || o->m_edit.field != m_edit.field)
      return false;
    m_after = o->m_after;
    return true;
  }

 private:
  RobotDocument* m_doc;
  std::vector<dyn::RobotEdit> m_before, m_after;
  dyn::RobotEdit m_edit;
};
