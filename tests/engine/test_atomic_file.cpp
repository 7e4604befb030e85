// Every file the engine and the CLI write is replaced atomically (dynscope/io/atomic_file.hpp): a
// reader sees the old file or the whole new one. A failing write (a writer that throws, a file
// size limit standing in for a full disk) leaves the old file byte for byte and no temporary
// behind, and the error names the path.
#include <sys/stat.h>

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QtTest>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "dynscope/dynscope.hpp"
#include "dynscope/io/atomic_file.hpp"
#include "dynscope/io/trajectory_csv.hpp"
#include "dynscope/trajectory/demo_trajectories.hpp"
#include "file_size_limit.hpp"
#include "run_cli.hpp"

namespace {

std::string readAll(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

// Files in dir other than the given ones (temporaries left behind).
QStringList others(const QTemporaryDir& dir, const QStringList& expected) {
  QStringList extra;
  for (const QString& f : QDir(dir.path()).entryList(QDir::Files | QDir::Hidden))
    if (!expected.contains(f)) extra << f;
  return extra;
}

}  // namespace

class TestAtomicFile : public QObject {
  Q_OBJECT

 private slots:
  void writesAndReplaces() {
    QTemporaryDir dir;
    const std::string path = dir.filePath("out.txt").toStdString();
    dyn::writeFileAtomically(path, [](std::ostream& out) { out << "first\n"; });
    QCOMPARE(readAll(path), std::string("first\n"));
    dyn::writeFileAtomically(path, [](std::ostream& out) { out << "second, longer\n"; });
    QCOMPARE(readAll(path), std::string("second, longer\n"));
    QCOMPARE(others(dir, {"out.txt"}), QStringList());
  }

  void aThrowingWriterLeavesTheOldFile() {
    QTemporaryDir dir;
    const std::string path = dir.filePath("keep.csv").toStdString();
    std::ofstream(path) << "old content\n";
    bool threw = false;
    try {
      dyn::writeFileAtomically(path, [](std::ostream& out) {
        out << "half of the new";
        throw std::runtime_error("interrupted");
      });
    } catch (const std::runtime_error& e) {
      threw = std::string(e.what()) == "interrupted";
    }
    QVERIFY(threw);
    QCOMPARE(readAll(path), std::string("old content\n"));
    QCOMPARE(others(dir, {"keep.csv"}), QStringList());
  }

  void aFullDiskLeavesTheOldFileAndSaysSo() {
    QTemporaryDir dir;
    const std::string path = dir.filePath("big.csv").toStdString();
    std::ofstream(path) << "the good old file\n";
    std::string message;
    dyn::testing::withFileSizeLimit(4096, [&] {
      try {
        dyn::writeFileAtomically(path, [](std::ostream& out) {
          for (int k = 0; k < 20000; ++k) out << "0.12345678901234567,";
        });
      } catch (const std::runtime_error& e) {
        message = e.what();
      }
    });
    QVERIFY2(message.starts_with(path + ": write error"), message.c_str());
    QCOMPARE(readAll(path), std::string("the good old file\n"));
    QCOMPARE(others(dir, {"big.csv"}), QStringList());
  }

  void errorsNameThePath() {
    QTemporaryDir dir;
    const std::string missing = dir.filePath("no/such/dir/out.csv").toStdString();
    std::string message;
    try {
      dyn::writeFileAtomically(missing, [](std::ostream& out) { out << "x"; });
    } catch (const std::runtime_error& e) {
      message = e.what();
    }
    QVERIFY2(message.starts_with(missing + ": cannot create"), message.c_str());
    try {
      dyn::writeFileAtomically(dir.path().toStdString(), [](std::ostream& out) { out << "x"; });
      QFAIL("a directory was replaced");
    } catch (const std::runtime_error& e) {
      QVERIFY2(std::string(e.what()).find("is a directory") != std::string::npos, e.what());
    }
  }

  void keepsPermissionsAndFollowsLinks() {
    QTemporaryDir dir;
    const std::string target = dir.filePath("target.csv").toStdString(), link = dir.filePath("link.csv").toStdString();
    std::ofstream(target) << "old";
    chmod(target.c_str(), 0640);
    std::filesystem::create_symlink(target, link);
    dyn::writeFileAtomically(link, [](std::ostream& out) { out << "new"; });
    QVERIFY(std::filesystem::is_symlink(link));  // the link stays a link
    QCOMPARE(readAll(target), std::string("new"));
    struct stat st {};
    QCOMPARE(stat(target.c_str(), &st), 0);
    QCOMPARE(int(st.st_mode & 0777), 0640);
  }

  void devicesAreWrittenInPlace() {
    // /dev/null cannot be renamed over: it is written directly (and must survive).
    dyn::writeFileAtomically("/dev/null", [](std::ostream& out) { out << "discarded"; });
    QVERIFY(std::filesystem::is_character_file("/dev/null"));
  }

  void trajectoryCsvIsAtomic() {
    const dyn::Model m = dyn::loadModel(std::string(DYNSCOPE_ROBOTS_DIR) + "/planar3.dh");
    const dyn::SampledTrajectory s = dyn::demoTrajectory(m, dyn::DemoTrajectory::SahaPlanar3, 500);
    QTemporaryDir dir;
    const std::string path = dir.filePath("traj.csv").toStdString();
    std::ofstream(path) << "previous export\n";
    std::string message;
    dyn::testing::withFileSizeLimit(2048, [&] {
      try {
        dyn::writeTrajectoryCsv(path, m, s);
      } catch (const std::runtime_error& e) {
        message = e.what();
      }
    });
    QVERIFY2(message.starts_with(path + ":"), message.c_str());
    QCOMPARE(readAll(path), std::string("previous export\n"));
    dyn::writeTrajectoryCsv(path, m, s);
    QCOMPARE(dyn::readTrajectoryCsv(m, path).trajectory.samples(), s.samples());
    QCOMPARE(others(dir, {"traj.csv"}), QStringList());
  }

  // The CLI's --out: a failed write (here the file size limit, inherited by the child) keeps the
  // old file and exits non-zero naming it; a good run replaces it.
  void cliOutputIsAtomic() {
    QTemporaryDir dir;
    const QString out = dir.filePath("saha.csv");
    const std::string old = "an earlier result\n";
    std::ofstream(out.toStdString()) << old;
    const QStringList args{"trajectory", QString(DYNSCOPE_ROBOTS_DIR) + "/stanford_arm.dh",
                           "--demo",     "saha-stanford",
                           "--rate",     "1000",
                           "--out",      out};
    dyn::testing::CliRun failed;
    dyn::testing::withFileSizeLimit(8192, [&] { failed = dyn::testing::runCli(args); });
    QCOMPARE(failed.status, 1);
    QVERIFY2(failed.err.contains(out.toUtf8() + ": write error"), failed.err.constData());
    QCOMPARE(readAll(out.toStdString()), old);
    QCOMPARE(others(dir, {"saha.csv"}), QStringList());
    const dyn::testing::CliRun ok = dyn::testing::runCli(args);
    QCOMPARE(ok.status, 0);
    QVERIFY(readAll(out.toStdString()).starts_with("t,"));
    // simulate writes through the same path
    const QString run = dir.filePath("run.csv");
    std::ofstream(run.toStdString()) << old;
    dyn::testing::CliRun simFailed;
    dyn::testing::withFileSizeLimit(4096, [&] {
      simFailed = dyn::testing::runCli(
          {"simulate", QString(DYNSCOPE_ROBOTS_DIR) + "/planar3.dh", "--duration", "1", "--dt", "0.001", "--out", run});
    });
    QCOMPARE(simFailed.status, 1);
    QCOMPARE(readAll(run.toStdString()), old);
  }
};

QTEST_APPLESS_MAIN(TestAtomicFile)
#include "test_atomic_file.moc"
