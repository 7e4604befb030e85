// `dynscope MODEL --screenshot out.png [--q ...] [--size WxH]`: load, pose, render, save, and
// report (0 = saved; 1 = load, pose or write failed, message in *error). Needs a display (Xvfb).
#pragma once
#include <QString>

struct LaunchOptions;

int runScreenshot(const LaunchOptions& options, const QString& modelPath, QString* error);
