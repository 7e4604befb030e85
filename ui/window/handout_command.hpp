// `dynscope MODEL --handout out.html|out.pdf [--algorithm NAME] [--size WxH] [--q ...] [--demo NAME]
// [--time T]`: the lecture handout written without a window on screen (for slides, course pages and
// tests): every step of the algorithm with its equations, the numbers substituted and a picture of
// the robot with the arrows, as the Algorithm inspector's Export handout writes it. 0 = written;
// 1 = a load, option or write failed, message in *error. Needs a display (Xvfb is enough).
#pragma once
#include <QString>

struct LaunchOptions;

int runHandout(const LaunchOptions& options, const QString& modelPath, QString* error);
