"""Dynscope: robot models and rigid-body dynamics, the engine of the Dynscope workbench.

    import dynscope, numpy as np
    model = dynscope.load("robots/ur5.urdf")
    data = dynscope.Data(model)
    q = model.neutral(); qd = np.zeros(model.nv); qdd = np.zeros(model.nv)
    tau = dynscope.rnea(model, data, q, qd, qdd)

Conventions: SI units (m, kg, s, rad); q has model.nq entries (quaternions x, y, z, w), velocities,
accelerations and torques model.nv; spatial vectors put the angular part first ([w; v], [n; f]).
Every function takes numpy float64 arrays (other numbers are converted) and returns new arrays.
See docs/python.md.
"""

import warnings as _warnings


class ModelWarning(UserWarning):
    """A loaded model has findings of the model check (warnings or errors it could still load with)."""


try:
    import numpy as _numpy  # noqa: F401  (every function takes and returns numpy arrays)
except ImportError as _error:  # pragma: no cover
    import sys as _sys

    raise ImportError(f"dynscope needs numpy, which this Python ({_sys.executable}) does not have: use "
                      "Debian's python3 with python3-numpy (scripts/setup installs it)") from _error
try:
    from ._dynscope import *  # noqa: E402,F401,F403
except ModuleNotFoundError as _error:  # pragma: no cover
    raise ImportError("dynscope's native module is not built yet: scripts/run builds it behind the window "
                      "(build/dynscope-cli-build.log), or `cmake --build build --target _dynscope`") from _error
from ._dynscope import __version__, LoadError, ForwardDynamicsError  # noqa: E402,F401

from .viewer import Viewer, ViewerClosedError, default_socket_path  # noqa: E402,F401
