// Data rows of robots for the identity suites: every shipped robot (the quadruped and the humanoid
// also with a floating base) and seeded random trees "random:<seed>:<links>", as columns
// `source` (a file, or the random tree's spec) and `floating`; modelFor builds a row's model.
#pragma once
#include <QDir>
#include <QString>
#include <QStringList>
#include <QTest>

#include "dynscope/io/model_builder.hpp"
#include "random_tree.hpp"

namespace dyn::testing {

inline Model modelFor(const QString& source, bool floating) {
  if (source.startsWith("random:")) {
    const QStringList p = source.split(':');
    return buildModel(randomTree(p[1].toUInt(), p[2].toInt()), {.floatingBase = floating});
  }
  return loadModel(source.toStdString(), {.floatingBase = floating});
}

// The shipped robots, then `randomTrees` random trees of 2..15 links.
inline void addShippedRobotRows(unsigned randomTrees) {
  QTest::addColumn<QString>("source");
  QTest::addColumn<bool>("floating");
  const QDir dir(DYNSCOPE_ROBOTS_DIR);
  const QStringList files = dir.entryList({"*.urdf", "*.dh"}, QDir::Files, QDir::Name);
  QVERIFY2(!files.isEmpty(), "no robots in " DYNSCOPE_ROBOTS_DIR);
  for (const QString& f : files) {
    QTest::newRow(qPrintable(f)) << dir.filePath(f) << false;
    if (f == "quadruped.urdf" || f == "humanoid.urdf")
      QTest::newRow(qPrintable(f + " floating")) << dir.filePath(f) << true;
  }
  for (unsigned seed = 1; seed <= randomTrees; ++seed) {
    const QString src = QString("random:%1:%2").arg(seed).arg(2 + int(seed * 5) % 14);
    QTest::newRow(qPrintable(src)) << src << false;
  }
}

}  // namespace dyn::testing
