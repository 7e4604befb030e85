// The command line of `dynscope`: [MODEL] [--screenshot out.png] [--q a,b,...] [--size WxH].
#pragma once
#include <QSize>
#include <QString>
#include <QStringList>
#include <vector>

struct LaunchOptions {
  QString model;       // empty: the default robot
  QString screenshot;  // non-empty: headless render to this PNG, then exit
  bool hasQ = false;
  std::vector<double> q;  // --q, radians / metres, nq values
  QSize size;             // --size; empty = the viewport's size
  bool showHelp = false, showVersion = false;
  QString helpText;
};

// `arguments` includes the program name (as QCoreApplication::arguments()).
bool parseLaunchOptions(const QStringList& arguments, LaunchOptions* options, QString* error);
