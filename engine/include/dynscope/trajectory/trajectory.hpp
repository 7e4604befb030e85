// Everything about trajectories in one include: time scalings, splines, waypoint and sampled
// trajectories, Saha's demonstrations, payloads, batch inverse dynamics and the CSV format.
#pragma once
#include "../io/trajectory_csv.hpp"
#include "cubic_spline.hpp"
#include "demo_trajectories.hpp"
#include "payload.hpp"
#include "sampled_trajectory.hpp"
#include "time_scaling.hpp"
#include "trajectory_dynamics.hpp"
#include "waypoint_trajectory.hpp"
