"""A computed-torque controller written in Python, closing the loop around the module's simulator.

The UR5 (robots/ur5.urdf) starts 0.05 rad off a quintic reference through four waypoints. Every
millisecond the controller reads the state (q, qd) from the simulator and applies

    tau = M(q) (qdd_ref + Kp e + Kd ed) + C(q, qd) qd + g(q),    e = q_ref - q,  ed = qd_ref - qd,

with M(q) from dynscope.crba and C(q, qd) qd + g(q) from dynscope.nonlinear_effects (the same tau as
dynscope.rnea(q, qd, qdd_ref + Kp e + Kd ed): checked on the first step). If the model is exact the
closed loop is linear and decoupled, e'' + Kd e' + Kp e = 0 for every joint; with Kp = w^2, Kd = 2w
(critically damped) and e'(0) = 0 the error is e(t) = e(0) (1 + w t) exp(-w t), drawn dashed.

The torque is held between the controller's updates (a zero-order hold, as a digital controller's
output). The closed loop then lags the reference by about jerk_ref * dt / (2 Kp): up to 1.3e-4 rad
while the UR5 moves, 2.5e-6 rad at rest at the end; halving dt halves it. The module's own
dynscope.Controller.computed_torque, which the integrator evaluates at every RK4 stage (a
continuous-time controller), follows e(t) down to about 1e-8 rad (drawn in grey for comparison). With --unmodelled the simulator also applies the UR5's joint damping and friction,
which the controller does not know: the error then settles at a larger value.

Run (from any directory; the module on PYTHONPATH, e.g. PYTHONPATH=build/python):

    python3 docs/examples/python/computed_torque.py [--out DIR] [--show] [--omega W] [--unmodelled]

Writes computed_torque_error.png and computed_torque_tracking.png into DIR (default: the current
directory) and prints the final error in the line 'final tracking error: max |e_i| = X rad (bound B
rad): ok'. The robots are found next to this file (../../../robots) or in $DYNSCOPE_ROBOTS.
"""
import argparse
import os
import sys
from pathlib import Path

import numpy as np

try:
    import dynscope
except ImportError:  # run from a checkout without PYTHONPATH: try the build tree
    sys.path.insert(0, str(Path(__file__).resolve().parents[3] / "build" / "python"))
    try:
        import dynscope
    except ImportError:
        sys.exit("cannot import dynscope: set PYTHONPATH to the directory holding the built module "
                 "(e.g. build/python)")

#: The bound the final error of the exact-model run must stay below [rad].
ERROR_BOUND = 1e-4

# Waypoints of the reference [s], [rad]: rest to rest (quintic) through four poses, then held.
TIMES = [0.0, 1.5, 3.0, 4.5]
WAYPOINTS = [[0.0, -1.2, 1.5, -1.8, -1.57, 0.0],
             [0.8, -0.8, 1.0, -1.5, -1.2, 0.5],
             [1.5, -1.4, 1.8, -2.0, -1.57, 1.0],
             [0.3, -1.0, 1.2, -1.6, -1.4, 0.2]]
DURATION = 5.0   # [s]
DT = 1e-3        # [s], the controller's and the integrator's step
OFFSET = 0.05    # [rad], the initial error of every joint


def robots_dir() -> Path:
    """$DYNSCOPE_ROBOTS, else the checkout's robots/ folder (this file is docs/examples/python/)."""
    return Path(os.environ.get("DYNSCOPE_ROBOTS", Path(__file__).resolve().parents[3] / "robots"))


def pyplot(show: bool):
    """matplotlib with fonts readable on a projector (Agg unless the figures are to be shown)."""
    import matplotlib
    if not show:
        matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    plt.rcParams.update({"font.size": 16, "axes.titlesize": 17, "axes.labelsize": 16,
                         "xtick.labelsize": 14, "ytick.labelsize": 14, "legend.fontsize": 14,
                         "figure.titlesize": 19, "lines.linewidth": 2.5, "axes.grid": True,
                         "grid.alpha": 0.4})
    return plt


def run(model, omega: float, unmodelled: bool):
    """The Python control loop; returns the record and the built-in controller's final error."""
    kp, kd = omega ** 2, 2.0 * omega
    reference = dynscope.sample_waypoints(model, TIMES, np.array(WAYPOINTS), "quintic", rate=1.0 / DT)
    q0 = reference.q[0] + OFFSET
    passive = dict(damping=unmodelled, friction=unmodelled)  # what the controller does not model
    sim = dynscope.Simulator(model, q0, np.zeros(model.nv), integrator="rk4", dt=DT, **passive)
    data = dynscope.Data(model)

    steps = int(round(DURATION / DT))
    t = np.empty(steps + 1)
    q, e, tau = (np.empty((steps + 1, model.nv)) for _ in range(3))
    rnea_difference = None
    for k in range(steps + 1):
        q_ref, qd_ref, qdd_ref = reference.interpolate(sim.t)  # held after the last sample
        error = dynscope.difference(model, sim.q, q_ref)       # q_ref - q on the joint manifolds
        error_rate = qd_ref - sim.qd
        qdd_command = qdd_ref + kp * error + kd * error_rate
        M = dynscope.crba(model, data, sim.q)
        bias = dynscope.nonlinear_effects(model, data, sim.q, sim.qd)   # C(q, qd) qd + g(q)
        torque = M @ qdd_command + bias
        if rnea_difference is None:   # the same law in one call: tau = RNEA(q, qd, qdd_command)
            rnea_difference = float(np.abs(dynscope.rnea(model, data, sim.q, sim.qd, qdd_command) - torque).max())
        t[k], q[k], e[k], tau[k] = sim.t, sim.q, error, torque
        if k < steps:
            sim.step(torque)   # held for one step of DT (zero-order hold)

    builtin = dynscope.simulate(model, DURATION, q0=q0, integrator="rk4", dt=DT,
                                controller=dynscope.Controller.computed_torque(reference, kp, kd), **passive)
    builtin_e = np.array([dynscope.difference(model, qk, reference.interpolate(tk)[0])
                          for tk, qk in zip(builtin.t, builtin.q)])
    return {"t": t, "q": q, "e": e, "tau": tau, "reference": reference, "omega": omega,
            "final_error": float(np.abs(e[-1]).max()),
            "max_error_after_1s": float(np.abs(e[t > 1.0]).max()),
            "builtin_t": np.asarray(builtin.t), "builtin_e": builtin_e,
            "builtin_final_error": float(np.abs(builtin_e[-1]).max()),
            "rnea_difference": rnea_difference}


def plot_error(plt, model, r, unmodelled):
    t, e, w = r["t"], r["e"], r["omega"]
    fig, ax = plt.subplots(figsize=(12, 7), layout="constrained")
    for i in range(model.nv):
        ax.semilogy(t, np.abs(e[:, i]), color=f"C{i}", lw=2, label=f"joint {i + 1}")
    ax.semilogy(r["builtin_t"], np.abs(r["builtin_e"]).max(axis=1), color="0.55", lw=2,
                label="built-in controller, max over joints")
    ax.semilogy(t, OFFSET * (1 + w * t) * np.exp(-w * t), "k--", lw=2.5,
                label=r"$e_0(1+\omega t)\,e^{-\omega t}$")
    ax.hlines(ERROR_BOUND, DURATION - 0.6, DURATION, colors="black", linestyles=":", lw=3,
              label="bound on the final error")
    ax.set_ylim(1e-9, max(0.2, 3 * np.abs(e).max()))
    ax.set_xlim(0, DURATION)
    ax.set_xlabel("time t [s]")
    ax.set_ylabel(r"tracking error $|e_i|$ [rad]")
    what = "unmodelled damping and friction" if unmodelled else f"exact model, torque held {DT * 1e3:g} ms"
    ax.set_title(rf"UR5, computed torque, $\omega$ = {w:g} rad/s: {what}")
    ax.legend(loc="lower left" if unmodelled else "upper right", ncol=2, framealpha=0.95)
    return fig


def plot_tracking(plt, model, r):
    t, q, tau, ref = r["t"], r["q"], r["tau"], r["reference"]
    fig, (top, bottom) = plt.subplots(2, 1, figsize=(12, 9), sharex=True, layout="constrained")
    for i in range(model.nv):
        top.plot(ref.t, ref.q[:, i], color=f"C{i}", ls="--", lw=2)
        top.plot(t, q[:, i], color=f"C{i}", lw=2, label=f"joint {i + 1}")
        bottom.plot(t, tau[:, i], color=f"C{i}", lw=2)
    top.set_ylabel("joint angle q [rad]")
    top.set_title("UR5: q (solid) follows the quintic reference (dashed)")
    top.legend(loc="center left", bbox_to_anchor=(1.0, 0.5))
    bottom.set_ylabel(r"torque $\tau$ [N m]")
    bottom.set_xlabel("time t [s]")
    bottom.set_title(r"$\tau = M(q)(\ddot q_{ref} + K_p e + K_d \dot e) + C(q,\dot q)\dot q + g(q)$")
    for ax in (top, bottom):
        ax.locator_params(axis="y", nbins=6, min_n_ticks=4)
    return fig


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--out", type=Path, default=Path("."), help="folder for the PNG files (default: .)")
    parser.add_argument("--show", action="store_true", help="also show the figures in a window")
    parser.add_argument("--omega", type=float, default=10.0, help="closed-loop bandwidth w [rad/s] (default 10)")
    parser.add_argument("--unmodelled", action="store_true",
                        help="the simulator applies the UR5's joint damping and friction, the controller ignores them")
    args = parser.parse_args(argv)

    model = dynscope.load(str(robots_dir() / "ur5.urdf"))
    r = run(model, args.omega, args.unmodelled)
    print(f"{model.name}: {len(r['t']) - 1} steps of {DT * 1e3:g} ms, Kp = {args.omega ** 2:g} 1/s^2, "
          f"Kd = {2 * args.omega:g} 1/s, initial error {OFFSET} rad per joint")
    print(f"M qdd_command + C qd + g - RNEA(q, qd, qdd_command) at the first step: {r['rnea_difference']:.1e} N m")
    print(f"largest error after the initial transient (t > 1 s): {r['max_error_after_1s']:.1e} rad")
    print(f"built-in Controller.computed_torque (every RK4 stage): final max |e_i| = {r['builtin_final_error']:.1e} rad")
    ok = r["final_error"] < ERROR_BOUND
    print(f"final tracking error: max |e_i| = {r['final_error']:.3e} rad (bound {ERROR_BOUND:g} rad): "
          f"{'ok' if ok else 'exceeded'}")

    plt = pyplot(args.show)
    args.out.mkdir(parents=True, exist_ok=True)
    files = []
    for fig, name in ((plot_error(plt, model, r, args.unmodelled), "computed_torque_error.png"),
                      (plot_tracking(plt, model, r), "computed_torque_tracking.png")):
        fig.savefig(args.out / name, dpi=100)
        files.append(args.out / name)
        print(f"wrote {args.out / name}")
    if args.show:
        plt.show()
    plt.close("all")
    r["files"] = files
    return r


if __name__ == "__main__":
    main()
