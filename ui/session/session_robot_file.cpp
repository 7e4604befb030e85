// The session's File > Save robot as (issue 24): the robot shown, with its edits, as a URDF (the
// original URDF's elements Dynscope does not model kept as they were) or as a DH table (the table,
// or a serial chain turned into one). Written atomically; afterwards the robot comes from that file.
#include <QFile>
#include <QFileInfo>
#include <fstream>

#include "document/robot_document.hpp"
#include "dynscope/io/atomic_file.hpp"
#include "dynscope/io/dh_from_urdf.hpp"
#include "dynscope/io/dh_table.hpp"
#include "dynscope/io/urdf_parser.hpp"
#include "dynscope/io/urdf_writer.hpp"
#include "session/workbench_session.hpp"

bool WorkbenchSession::saveRobot(const QString& path) {
  if (!m_doc->hasModel() || !m_doc->description()) {
    emit error(tr("Save robot"), tr("Load or make a robot first."));
    return false;
  }
  const bool dh = QFileInfo(path).suffix().toLower() == "dh";
  dyn::RobotDescription edited = *m_doc->description();
  std::shared_ptr<const dyn::DhTable> table;
  std::string text;
  std::vector<std::string> notes;
  try {
    dyn::applyEdits(edited, m_doc->edits());
    if (dh) {
      // The table itself when the edits leave it a table; else (edits over it, a URDF chain) the
      // description turned into one.
      table = m_doc->dhTable() && m_doc->edits().empty()
                  ? std::make_shared<const dyn::DhTable>(*m_doc->dhTable())
                  : std::make_shared<const dyn::DhTable>(dyn::dhTableFromDescription(
                        edited, m_doc->dhTable() ? m_doc->dhTable()->convention : dyn::DhConvention::Standard, &notes));
      text = dyn::writeDhTable(*table);
      edited = dyn::dhTableToDescription(*table);
    } else {
      std::string original;  // a URDF source: its unmodelled elements are kept
      const QString source = m_doc->sourceFile();
      if (!m_doc->dhTable() && (source.endsWith(".urdf", Qt::CaseInsensitive))) {
        QFile f(source);
        if (f.open(QIODevice::ReadOnly)) original = f.readAll().toStdString();
      }
      dyn::rebaseMeshPaths(edited, path.toStdString());  // relative mesh names still name the same files
      text = dyn::writeUrdf(edited, original);
      for (const std::string& loss : dyn::urdfLosses(edited)) notes.push_back(loss);
      edited = dyn::parseUrdfString(text, path.toStdString());
    }
    dyn::writeFileAtomically(path.toStdString(), [&](std::ostream& out) { out << text; });
  } catch (const std::exception& e) {
    emit error(tr("Save robot"), QString::fromUtf8(e.what()));
    return false;
  }
  m_doc->adoptSavedFile(path, edited, table);
  markEditsSaved();
  for (const std::string& n : notes) say(tr("Save robot: %1").arg(QString::fromStdString(n)), Severity::Warning);
  say(tr("Saved robot %1").arg(QFileInfo(path).absoluteFilePath()));
  emit fileUsed(QFileInfo(path).absoluteFilePath());
  emit titleChanged();
  return true;
}
