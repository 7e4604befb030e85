// `dynscope MODEL --window-screenshot out.png [--size WxH] [--workspace ID] [--algorithm NAME]
// [--step N] [--present] [--demo NAME] [--time T] [--q ...]`: the whole window as a user sees it (docks, equations, plots),
// for slides, docs and tests. 0 = saved; 1 = a load, option or write failed, message in *error.
// Needs a display (Xvfb is enough).
#pragma once
#include <QString>

struct LaunchOptions;

int runWindowScreenshot(const LaunchOptions& options, const QString& modelPath, QString* error);
