// Runs dynscope-cli (DYNSCOPE_CLI) with arguments and collects its exit status and output, for
// the suites that test the command-line program.
#pragma once
#include <QByteArray>
#include <QProcess>
#include <QStringList>

namespace dyn::testing {

struct CliRun {
  int status = -1;
  bool crashed = true;  // also when it did not start or finish in time
  QByteArray out, err;
};

inline CliRun runCli(const QStringList& args) {
  QProcess p;
  p.start(DYNSCOPE_CLI, args);
  CliRun r;
  if (!p.waitForStarted(10000) || !p.waitForFinished(120000)) return r;
  r.crashed = p.exitStatus() != QProcess::NormalExit;
  r.status = p.exitCode();
  r.out = p.readAllStandardOutput();
  r.err = p.readAllStandardError();
  return r;
}

}  // namespace dyn::testing
