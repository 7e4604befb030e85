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


from ._dynscope import *  # noqa: E402,F401,F403
from ._dynscope import __version__, LoadError, ForwardDynamicsError  # noqa: E402,F401

try:
    from .viewer import Viewer, ViewerClosedError  # noqa: F401
except ImportError:  # pragma: no cover - the viewer is optional
    pass
