// `dynscope MODEL --window-screenshot out.png [--size WxH] [--workspace ID] [--algorithm NAME]
// [--step N] [--present] [--demo NAME] [--time T] [--q ...]`: the whole window as a user sees it (docks, equations,
// plots), for slides, docs and tests. 0 = saved; 1 = a load, option or write failed, message in *error. Needs a display
// (Xvfb is enough).
#pragma once
#include <QString>

struct LaunchOptions;

int runWindowScreenshot(const LaunchOptions& options, const QString& modelPath, QString* error);

class MainWindow;
// For the headless window commands (this one and --handout): the --algorithm refusal naming the
// known ones, empty when `name` is traceable; --demo loaded and the timeline at --time (default:
// the trajectory's middle), the error message or empty.
QString unknownAlgorithm(const QString& name);
QString playDemoAt(MainWindow& window, const LaunchOptions& options);
