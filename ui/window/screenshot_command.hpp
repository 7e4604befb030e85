// `dynscope MODEL --screenshot out.png [--q ...] [--size WxH]`: load, pose, render, save, and
// report (0 = saved; 1 = load, pose or write failed, message in *error). Needs a display (Xvfb).
#pragma once
#include <QString>

class MainWindow;
struct LaunchOptions;

int runScreenshot(const LaunchOptions& options, const QString& modelPath, QString* error);

// For both picture commands (this one and --window-screenshot): loads `modelPath` into the window
// (on this thread) and applies --q; the error message, or empty when the robot is loaded and posed.
QString loadAndPose(MainWindow& window, const LaunchOptions& options, const QString& modelPath);
