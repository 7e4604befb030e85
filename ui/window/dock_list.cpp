#include "window/dock_list.hpp"

#include <QDockWidget>

#include "algorithms/algorithms_dock.hpp"
#include "dh/dh_table_dock.hpp"
#include "ik/ik_dock.hpp"
#include "lecture/algorithm_inspector_dock.hpp"
#include "lecture/equations_dock.hpp"
#include "massmatrix/mass_matrix_dock.hpp"
#include "session/workbench_session.hpp"
#include "simulation/simulation_dock.hpp"
#include "timeline/timeline_dock.hpp"
#include "trajectory/plots_dock.hpp"
#include "trajectory/trajectory_dock.hpp"
#include "window/joints_dock.hpp"
#include "window/log_dock.hpp"
#include "window/model_check_dock.hpp"
#include "window/model_tree_dock.hpp"
#include "window/properties_dock.hpp"

namespace docks {

namespace {

// Each dock checks that it was given the name the table says (the workspaces place it by that name).
template <class Dock>
QDockWidget* named(Dock* dock, const char* name) {
  Q_ASSERT(dock->objectName() == QLatin1String(name));
  return dock;
}

}  // namespace

const std::vector<Entry>& all() {
  static const std::vector<Entry> list = {
      {"modelTreeDock", true,
       [](const Sources& s) { return named(new ModelTreeDock(s.session->robot(), s.parent), "modelTreeDock"); }},
      {"jointsDock", true,
       [](const Sources& s) { return named(new JointsDock(s.session->robot(), s.parent), "jointsDock"); }},
      {"propertiesDock", true,
       [](const Sources& s) {
         return named(new PropertiesDock(s.session->robot(), s.session->undoStack(), s.parent), "propertiesDock");
       }},
      {"logDock", true, [](const Sources& s) { return named(new LogDock(s.parent), "logDock"); }},
      {"trajectoryDock", true,
       [](const Sources& s) {
         return named(new TrajectoryDock(s.session->trajectory(), s.session->undoStack(), s.parent), "trajectoryDock");
       }},
      {"timelineDock", true, [](const Sources& s) { return named(new TimelineDock(s.parent), "timelineDock"); }},
      {"plotsDock", true,
       [](const Sources& s) { return named(new PlotsDock(s.session->trajectory(), s.parent), "plotsDock"); }},
      {"simulationDock", true,
       [](const Sources& s) {
         return named(new SimulationDock(s.session->robot(), s.session->trajectory(), s.parent), "simulationDock");
       }},
      {"massMatrixDock", true,
       [](const Sources& s) { return named(new MassMatrixDock(s.session->robot(), s.parent), "massMatrixDock"); }},
      {"ikDock", true,
       [](const Sources& s) { return named(new IkDock(s.ik, s.session->robot(), s.parent), "ikDock"); }},
      {"modelCheckDock", true,
       [](const Sources& s) { return named(new ModelCheckDock(s.session->robot(), s.parent), "modelCheckDock"); }},
      {"dhTableDock", true,
       [](const Sources& s) {
         return named(new DhTableDock(s.session->robot(), s.session->undoStack(), s.parent), "dhTableDock");
       }},
      {"algorithmsDock", false,  // View > Algorithms shows and raises it (main_window_algorithms.cpp)
       [](const Sources& s) { return named(new AlgorithmsDock(s.session->trajectory(), s.parent), "algorithmsDock"); }},
      {"algorithmInspectorDock", false,  // Lecture > Algorithm inspector
       [](const Sources& s) {
         return named(new AlgorithmInspectorDock(s.session->lecture(), s.parent), "algorithmInspectorDock");
       }},
      {"equationsDock", false,  // Lecture > Equations of motion
       [](const Sources& s) { return named(new EquationsDock(s.session->equations(), s.parent), "equationsDock"); }},
  };
  return list;
}

}  // namespace docks
