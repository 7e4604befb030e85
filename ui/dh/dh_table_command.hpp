// One change of a DH robot's table on the undo stack (issue 24): the whole table before and after
// (a cell, a row added, deleted or moved, the convention switched). Tables are small; whole copies
// keep undo exact.
#pragma once
#include <QUndoCommand>

#include "document/robot_command_ids.hpp"
#include "document/robot_document.hpp"
#include "dynscope/io/dh_table.hpp"

class DhTableCommand : public QUndoCommand {
 public:
  DhTableCommand(RobotDocument* doc, dyn::DhTable before, dyn::DhTable after, const QString& text)
      : m_doc(doc), m_before(std::move(before)), m_after(std::move(after)) {
    setText(text);
  }
  void undo() override { m_doc->setDhTable(m_before); }
  void redo() override { m_doc->setDhTable(m_after); }
  int id() const override { return kDhTableCommandId; }  // (no merging: mergeWith is QUndoCommand's)

 private:
  RobotDocument* m_doc;
  dyn::DhTable m_before, m_after;
};
