// `dynscope MODEL --record out.mp4 [--trajectory NAME|FILE.csv | --demo NAME] [--fps N] [--size WxH]
// [--duration S] [--q ...]`: renders the trajectory's timeline offscreen to a video (the 3D view,
// frame k at trajectory time t0 + k/fps; docs/recording.md) and exits. 0 = written; 1 = a load,
// option, render or write failed, message in *error. Needs a display (Xvfb is enough).
#pragma once
#include <QString>

struct LaunchOptions;

int runRecord(const LaunchOptions& options, const QString& modelPath, QString* error);
