// The command line of `dynscope`: [MODEL] [--screenshot out.png | --window-screenshot out.png]
// [--q a,b,...] [--size WxH] [--workspace ID] [--algorithm NAME] [--step N] [--present]
// [--record out.mp4 [--trajectory NAME|FILE] [--fps N] [--duration S]] [--handout out.html|out.pdf]
// [--listen PATH].
#pragma once
#include <QSize>
#include <QString>
#include <QStringList>
#include <vector>

struct LaunchOptions {
  QString model;       // empty: the default robot
  QString screenshot;  // non-empty: headless render to this PNG, then exit
  bool hasQ = false;
  std::vector<double> q;     // --q, radians / metres, nq values
  QSize size;                // --size; empty = the viewport's size (the window's for --window-screenshot)
  QString windowScreenshot;  // non-empty: the whole window to this PNG, then exit
  QString workspace;         // --workspace: explore, trajectory, simulate, massmatrix, lecture
  QString algorithm;         // --algorithm: a traceable algorithm shown in the inspector (lecture mode)
  int step = -1;             // --step: the inspector's position (steps taken); -1: its start
  bool present = false;      // --present: presentation mode (F11)
  QString demo;              // --demo: a built-in demonstration trajectory (saha-stanford, saha-planar3)
  double time = -1;          // --time: the trajectory's time shown [s]; -1: its middle
  QString record;            // --record: the trajectory's timeline to this video (.mp4, .webm, .gif), then exit
  QString trajectory;        // --trajectory: a demonstration's name or a CSV file (for --record)
  int fps = 30;              // --fps: frames per second of --record
  double duration = -1;      // --duration: seconds of video; -1: the whole trajectory
  QString equations;         // --equations: the Equations of motion view on this part (all, M, c, g, tau, ...)
  QString handout;           // --handout: the lecture handout of --algorithm to this HTML or PDF, then exit
  QString listen;            // --listen: answer Python scripts on this socket (session/script_link.hpp)
  bool showHelp = false, showVersion = false;
  QString helpText;
};

// `arguments` includes the program name (as QCoreApplication::arguments()).
bool parseLaunchOptions(const QStringList& arguments, LaunchOptions* options, QString* error);
