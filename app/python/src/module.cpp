// The native part of the Python package `dynscope` (app/python/dynscope/__init__.py re-exports it).
#include "dynscope/algorithms/pivot_check.hpp"
#include "dynscope/io/load_error.hpp"
#include "py_types.hpp"

namespace pyd {

void bindErrors(py::module_& m) {
  static py::exception<dyn::LoadError> loadError(m, "LoadError", PyExc_ValueError);
  loadError.doc() =
      "A file that cannot be used as written: str(e) is 'file:line: element: message' (as the CLI prints);\n"
      "e.file, e.line (0 when unknown), e.element and e.message hold the parts.";
  static py::exception<dyn::ForwardDynamicsError> fdError(m, "ForwardDynamicsError", PyExc_ArithmeticError);
  fdError.doc() =
      "Forward dynamics is undefined at this state: H(q) has a pivot that is not positive. The message names\n"
      "the joint (and its link); e.body is that body's index.";
  py::register_exception_translator([](std::exception_ptr p) {
    try {
      if (p) std::rethrow_exception(p);
    } catch (const dyn::LoadError& e) {
      py::object exc = py::handle(loadError.ptr())(e.what());
      exc.attr("file") = e.file();
      exc.attr("line") = e.line();
      exc.attr("element") = e.element();
      exc.attr("message") = e.message();
      PyErr_SetObject(loadError.ptr(), exc.ptr());
    } catch (const dyn::ForwardDynamicsError& e) {
      py::object exc = py::handle(fdError.ptr())(e.what());
      exc.attr("body") = e.body();
      PyErr_SetObject(fdError.ptr(), exc.ptr());
    }
  });
}

}  // namespace pyd

PYBIND11_MODULE(_dynscope, m) {
  m.doc() = "Dynscope's engine: robot models and the rigid-body dynamics algorithms of the seed papers.";
  m.attr("__version__") = DYNSCOPE_VERSION;
  pyd::bindErrors(m);
  pyd::bindModel(m);
  pyd::bindAlgorithms(m);
  pyd::bindBatch(m);
  pyd::bindFormulations(m);
  pyd::bindIk(m);
  pyd::bindTrace(m);
  pyd::bindLoops(m);
  pyd::bindTrajectory(m);
  pyd::bindSimulation(m);
}
