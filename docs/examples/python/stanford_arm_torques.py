"""Saha's Stanford arm: the joint torques along his cycloidal trajectory, and what they are made of.

Saha (1999), section 6.2, drives the six joints of the Stanford arm (Table 3; robots/stanford_arm.dh)
along the cycloid of eq. 39a,

    theta_i(t) = theta_i(0) + (theta_i(T) - theta_i(0)) / T * [t - T/(2 pi) sin(2 pi t / T)],  T = 10 s,

from theta_i(0) = 0 (theta_2(0) = 90 deg, b_3(0) = 0) to theta_i(T) = 60 deg (b_3(T) = 0.1 m), and
plots the joint torques his DeNOC inverse dynamics (section 5.1) gives in Figs. 8(a)-(f). This
script computes the same torques with the module (RNEA at every sample, checked against DeNOC) and
splits them, as tau = M(q) qdd + c(q, qd) + g(q), into the inertial, the Coriolis/centrifugal and
the gravity parts.

What the paper gives to check against: its figures are images whose values cannot be read from the
text (docs/formulations.md, "How they are tested"); the project's record of this trajectory is
tau_2 from 13.3 to 16.8 N m, tau_3 (the boom force) from 0 to -29.9 N, |tau_1| <= 0.10 N m and wrist
torques below 1e-3 N m. The script prints these numbers and checks them, and that the curves start
and end at the static gravity torques (qd = qdd = 0 at both ends of eq. 39a).

Run (from any directory; the module on PYTHONPATH, e.g. PYTHONPATH=build/python):

    python3 docs/examples/python/stanford_arm_torques.py [--out DIR] [--show]

Writes stanford_torques.png (Figs. 8(a)-(f) redrawn) and stanford_decomposition.png into DIR
(default: the current directory). The robots are found next to this file (../../../robots) or in
$DYNSCOPE_ROBOTS.
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


def compute(model):
    """The demonstration and its inverse dynamics, with the checks the docs record."""
    traj = dynscope.demo_trajectory(model, "saha-stanford", rate=100.0)
    dyn = dynscope.trajectory_dynamics(model, traj, decompose=True)
    t = np.asarray(dyn.t)
    tau, inertial, coriolis, gravity = (np.asarray(x) for x in (dyn.tau, dyn.inertial, dyn.coriolis, dyn.gravity))

    # Saha's own formulation, DeNOC (section 5.1), at every 10th sample: the same torques.
    data = dynscope.Data(model)
    rows = range(0, traj.samples, 10)
    denoc = np.array([dynscope.inverse_dynamics(model, traj.q[k], traj.qd[k], traj.qdd[k], algorithm="denoc")
                      for k in rows])
    static = [dynscope.rnea(model, data, traj.q[k], np.zeros(model.nv), np.zeros(model.nv)) for k in (0, -1)]
    checks = {
        "denoc_minus_rnea": float(np.abs(denoc - tau[list(rows)]).max()),
        "parts_minus_tau": float(np.abs(inertial + coriolis + gravity - tau).max()),
        "start_minus_static": float(np.abs(tau[0] - static[0]).max()),
        "end_minus_static": float(np.abs(tau[-1] - static[1]).max()),
        "tau1_max_abs": float(np.abs(tau[:, 0]).max()),
        "tau2_min": float(tau[:, 1].min()), "tau2_max": float(tau[:, 1].max()),
        "tau3_min": float(tau[:, 2].min()), "tau3_start": float(tau[0, 2]),
        "wrist_max_abs": float(np.abs(tau[:, 3:]).max()),
    }
    return traj, t, tau, inertial, coriolis, gravity, checks


def unit(model, i):
    return "N" if model.joints[i].type == "prismatic" else "N m"


def plot_torques(plt, model, t, tau):
    """Figs. 8(a)-(f): one panel per joint. The wrist torques are tiny: drawn in mN m."""
    fig, axes = plt.subplots(2, 3, figsize=(15, 8.5), sharex=True, layout="constrained")
    for i, ax in enumerate(axes.flat):
        scale, u = (1.0, unit(model, i)) if i < 3 else (1e3, "mN m")
        ax.plot(t, scale * tau[:, i], color=f"C{i}")
        symbol = r"$f_3$" if unit(model, i) == "N" else rf"$\tau_{i + 1}$"
        ax.set_title(f"({'abcdef'[i]}) joint {i + 1}: {symbol}")
        ax.set_ylabel(f"{symbol} [{u}]")
        ax.locator_params(axis="y", nbins=5, min_n_ticks=4)
        if i >= 3:
            ax.set_xlabel("time t [s]")
    axes[0, 0].set_xticks([0, 2, 4, 6, 8, 10])
    fig.suptitle("Stanford arm along Saha's cycloid (Saha 1999, eq. 39, Figs. 8(a)-(f))")
    return fig


def plot_decomposition(plt, model, t, tau, inertial, coriolis, gravity):
    """tau = M(q) qdd + c(q, qd) + g(q) for the three arm joints (the wrist's torques are ~1e-4 N m).

    Top row: tau and its gravity part; bottom row: the dynamic parts, which are small on this slow
    10 s motion (on their own scale).
    """
    fig, axes = plt.subplots(2, 3, figsize=(16, 9.5), sharex=True, layout="constrained")
    for i in range(3):
        top, bottom = axes[0, i], axes[1, i]
        u = unit(model, i)
        top.plot(t, tau[:, i], color="black", label=r"$\tau$ (total)")
        top.plot(t, gravity[:, i], color="C2", ls="--", label=r"gravity $g(q)$")
        bottom.plot(t, inertial[:, i], color="C0", label=r"inertial $M\ddot q$")
        bottom.plot(t, coriolis[:, i], color="C1", ls="--", label=r"Coriolis, centrifugal $c$")
        top.set_title(f"joint {i + 1} ({model.joints[i].type})")
        top.set_ylabel(f"force [{u}]")
        bottom.set_ylabel(f"force [{u}]")
        bottom.set_xlabel("time t [s]")
        bottom.set_xticks([0, 2, 4, 6, 8, 10])
        for ax in (top, bottom):
            ax.locator_params(axis="y", nbins=6, min_n_ticks=4)
    axes[0, 0].legend(loc="lower left")
    lo, hi = axes[1, 0].get_ylim()   # room for the legend under the curves
    axes[1, 0].set_ylim(lo - 0.4 * (hi - lo), hi)
    axes[1, 0].legend(loc="lower left")
    fig.suptitle(r"Stanford arm: $\tau = M(q)\ddot q + c(q,\dot q) + g(q)$ along Saha's cycloid (eq. 39)")
    return fig


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--out", type=Path, default=Path("."), help="folder for the PNG files (default: .)")
    parser.add_argument("--show", action="store_true", help="also show the figures in a window")
    args = parser.parse_args(argv)

    model = dynscope.load(str(robots_dir() / "stanford_arm.dh"))
    traj, t, tau, inertial, coriolis, gravity, c = compute(model)

    print(f"{model.name}: {traj.samples} samples over {t[-1]:.1f} s (Saha 1999, eq. 39a)")
    print(f"tau_1: |tau_1| <= {c['tau1_max_abs']:.3f} N m")
    print(f"tau_2: {c['tau2_min']:.2f} .. {c['tau2_max']:.2f} N m")
    print(f"f_3 (boom): {abs(c['tau3_start']):.2f} .. {c['tau3_min']:.2f} N")
    print(f"wrist: |tau_4..6| <= {c['wrist_max_abs']:.1e} N m")
    print(f"DeNOC - RNEA: {c['denoc_minus_rnea']:.1e}; inertial + coriolis + gravity - tau: "
          f"{c['parts_minus_tau']:.1e}; tau - g at the ends: {max(c['start_minus_static'], c['end_minus_static']):.1e}")

    # The project's record of these curves (docs/formulations.md), to plotting accuracy.
    expected = [("tau_2 min 13.3 N m", abs(c["tau2_min"] - 13.3) < 0.05),
                ("tau_2 max 16.8 N m", abs(c["tau2_max"] - 16.8) < 0.05),
                ("f_3 from 0 N", abs(c["tau3_start"]) < 1e-9),
                ("f_3 down to -29.9 N", abs(c["tau3_min"] + 29.9) < 0.05),
                ("|tau_1| about 0.10 N m", c["tau1_max_abs"] < 0.105),
                ("wrist below 1e-3 N m", c["wrist_max_abs"] < 1e-3),
                ("DeNOC = RNEA", c["denoc_minus_rnea"] < 1e-9),
                ("parts sum to tau", c["parts_minus_tau"] < 1e-9),
                ("static torques at both ends", max(c["start_minus_static"], c["end_minus_static"]) < 1e-9)]
    for name, ok in expected:
        print(f"check: {name}: {'ok' if ok else 'FAILED'}")

    plt = pyplot(args.show)
    args.out.mkdir(parents=True, exist_ok=True)
    files = []
    for fig, name in ((plot_torques(plt, model, t, tau), "stanford_torques.png"),
                      (plot_decomposition(plt, model, t, tau, inertial, coriolis, gravity), "stanford_decomposition.png")):
        fig.savefig(args.out / name, dpi=100)
        files.append(args.out / name)
        print(f"wrote {args.out / name}")
    if args.show:
        plt.show()
    plt.close("all")
    if not all(ok for _, ok in expected):
        sys.exit(1)
    return {"checks": c, "files": files}


if __name__ == "__main__":
    main()
