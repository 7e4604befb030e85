"""The Python examples (docs/examples/python/) and the lecture notebook: they run, write their figures,
and their numbers hold (issue 39).

Each script runs in a subprocess from a scratch directory, as a student would run it, with the module
on PYTHONPATH and MPLBACKEND=Agg; its computations are also imported and checked in-process (those
need no matplotlib). The notebook's code cells run in order in one namespace, without Jupyter, once
with IPython and matplotlib blocked (the fallbacks) and once with whatever is installed.
"""
import importlib.util
import json
import os
import re
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest

import dynscope

SOURCE = Path(os.environ.get("DYNSCOPE_SOURCE_DIR", Path(__file__).resolve().parents[2]))
EXAMPLES = SOURCE / "docs" / "examples" / "python"
NOTEBOOK = EXAMPLES / "lecture_notebook.ipynb"
MODULE_DIR = os.environ.get("DYNSCOPE_PYTHON_DIR", str(Path(dynscope.__file__).resolve().parents[1]))

SCRIPTS = {
    "stanford_arm_torques.py": ["stanford_torques.png", "stanford_decomposition.png"],
    "computed_torque.py": ["computed_torque_error.png", "computed_torque_tracking.png"],
    "operation_counts.py": ["operation_counts.png", "operation_counts_n6.png"],
}


def load_example(name):
    """Imports an example script as a module (its main() is not run)."""
    spec = importlib.util.spec_from_file_location(f"example_{Path(name).stem}", EXAMPLES / name)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def run_example(name, cwd, robots, *args):
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([MODULE_DIR, *filter(None, [env.get("PYTHONPATH")])])
    env["MPLBACKEND"] = "Agg"
    env["DYNSCOPE_ROBOTS"] = str(robots)
    env["PYTHONDONTWRITEBYTECODE"] = "1"
    started = time.monotonic()
    p = subprocess.run([sys.executable, str(EXAMPLES / name), *args], cwd=cwd, env=env,
                       capture_output=True, text=True, timeout=300)
    return p, time.monotonic() - started


# ---------------------------------------------------------------------------------------------------
# The scripts as a student runs them


@pytest.mark.parametrize("name", sorted(SCRIPTS))
def test_script_runs_and_writes_its_figures(name, robots, tmp_path):
    pytest.importorskip("matplotlib")
    out = tmp_path / "figures"
    p, seconds = run_example(name, tmp_path, robots, "--out", str(out))
    assert p.returncode == 0, f"{name} failed:\n{p.stdout}\n{p.stderr}"
    assert "FAILED" not in p.stdout, p.stdout
    for png in SCRIPTS[name]:
        path = out / png
        assert path.exists(), f"{name} did not write {png}:\n{p.stdout}"
        head = path.read_bytes()[:24]
        assert head[:8] == b"\x89PNG\r\n\x1a\n", f"{png} is not a PNG"
        width, height = int.from_bytes(head[16:20], "big"), int.from_bytes(head[20:24], "big")
        assert width >= 1000 and height >= 600, f"{png} is {width} x {height}: too small for a projector"
    assert seconds < 60, f"{name} took {seconds:.0f} s"


def test_script_default_output_is_the_current_directory(robots, tmp_path):
    pytest.importorskip("matplotlib")
    p, _ = run_example("operation_counts.py", tmp_path, robots)
    assert p.returncode == 0, p.stderr
    assert sorted(f.name for f in tmp_path.glob("*.png")) == sorted(SCRIPTS["operation_counts.py"])


def test_computed_torque_prints_a_final_error_within_its_bound(robots, tmp_path):
    pytest.importorskip("matplotlib")
    p, _ = run_example("computed_torque.py", tmp_path, robots, "--out", str(tmp_path))
    assert p.returncode == 0, p.stderr
    m = re.search(r"final tracking error: max \|e_i\| = (\S+) rad \(bound (\S+) rad\): (\w+)", p.stdout)
    assert m, p.stdout
    error, bound, verdict = float(m.group(1)), float(m.group(2)), m.group(3)
    assert error < bound and verdict == "ok", p.stdout


def test_scripts_say_how_to_run_them():
    for name in SCRIPTS:
        doc = load_example(name).__doc__
        assert f"python3 docs/examples/python/{name}" in doc and "--out DIR" in doc, name


# ---------------------------------------------------------------------------------------------------
# Their numbers (imported: no matplotlib needed)


def test_stanford_arm_torques_match_the_record_of_saha_figures_8(robots):
    example = load_example("stanford_arm_torques.py")
    model = dynscope.load(str(robots / "stanford_arm.dh"))
    traj, t, tau, inertial, coriolis, gravity, c = example.compute(model)
    assert traj.samples == 1001 and t[0] == 0.0 and t[-1] == pytest.approx(10.0)
    # docs/formulations.md: tau_2 from 13.3 to 16.8 N m, tau_3 from 0 to -29.9 N, |tau_1| <= 0.10 N m,
    # wrist torques below 1e-3 N m.
    assert c["tau2_min"] == pytest.approx(13.3, abs=0.05) and c["tau2_max"] == pytest.approx(16.8, abs=0.05)
    assert c["tau3_start"] == pytest.approx(0.0, abs=1e-9) and c["tau3_min"] == pytest.approx(-29.9, abs=0.05)
    assert 0.09 < c["tau1_max_abs"] < 0.105
    assert c["wrist_max_abs"] < 1e-3
    # DeNOC = RNEA, the parts sum to tau, and the curves start and end at the static torques.
    assert c["denoc_minus_rnea"] < 1e-9 and c["parts_minus_tau"] < 1e-9
    assert c["start_minus_static"] < 1e-9 and c["end_minus_static"] < 1e-9
    np.testing.assert_allclose(inertial[0], 0, atol=1e-12)
    np.testing.assert_allclose(coriolis[[0, -1]], 0, atol=1e-12)
    # The boom is horizontal at the start: gravity does not load it.
    assert gravity[0, 2] == pytest.approx(0.0, abs=1e-9)


def test_computed_torque_converges_as_the_linear_error_dynamics_say(robots):
    example = load_example("computed_torque.py")
    model = dynscope.load(str(robots / "ur5.urdf"))
    r = example.run(model, omega=10.0, unmodelled=False)
    assert r["rnea_difference"] < 1e-9   # M (qdd_ref + Kp e + Kd ed) + C qd + g = RNEA(q, qd, qdd_command)
    assert r["final_error"] < example.ERROR_BOUND
    assert r["max_error_after_1s"] < 5e-4   # the zero-order hold's lag stays small while moving
    assert r["builtin_final_error"] < 1e-6
    # The transient: e(t) = e0 (1 + w t) exp(-w t) for every joint while the lag is negligible
    # (q starts OFFSET above the reference: e0 = -OFFSET).
    t, e, w = r["t"], r["e"], 10.0
    np.testing.assert_allclose(e[0], -example.OFFSET, rtol=1e-9)
    for time_ in (0.1, 0.2, 0.3):
        k = int(np.argmin(np.abs(t - time_)))
        expected = -example.OFFSET * (1 + w * t[k]) * np.exp(-w * t[k])
        np.testing.assert_allclose(e[k], expected, rtol=0.05)


def test_computed_torque_with_unmodelled_friction_tracks_worse(robots):
    example = load_example("computed_torque.py")
    model = dynscope.load(str(robots / "ur5.urdf"))
    r = example.run(model, omega=10.0, unmodelled=True)
    assert r["final_error"] > 100 * example.ERROR_BOUND


def test_operation_counts_grow_as_hollerbach_says():
    example = load_example("operation_counts.py")
    measured, paper, table = example.count("muls")
    n = np.array(example.N, dtype=float)
    # The O(n) formulations: exactly a + b n over every n counted, slope 1 on log-log axes.
    for name in example.LINEAR:
        b, a = np.polyfit(n, measured[name], 1)
        np.testing.assert_allclose(a + b * n, measured[name], atol=1e-6, err_msg=name)
        assert b > 0, name
        assert example.slope(measured[name]) == pytest.approx(1.0, abs=0.06), name
    # Uicker/Kahn approaches n^4, Waters n^2, the configuration-space evaluation n^3.
    assert 3.5 < example.slope(measured["uicker-kahn"]) <= 4.0
    assert 1.6 < example.slope(measured["waters"]) <= 2.0
    assert 2.8 < example.slope(measured["configuration-space"]) <= 3.0
    # The papers' side: Hollerbach's Table II at n = 6, and his polynomials.
    assert {k: v[1] for k, v in table.items() if k in ("uicker-kahn", "waters", "lagrange-4x4", "lagrange-3x3",
                                                       "newton-euler-3", "configuration-space")} == {
        "uicker-kahn": 66271, "waters": 7051, "lagrange-4x4": 4388, "lagrange-3x3": 2195,
        "newton-euler-3": 852, "configuration-space": 468}
    assert table["denoc"][1] == 676   # Saha (1999), Table 1
    k6 = example.N.index(6)
    assert paper["newton-euler-3"][k6] == 150 * 6 - 48
    assert paper["lagrange-3x3"][k6] == 412 * 6 - 277
    # The ranking of Table II holds for the measured counts at n = 6.
    order = ["configuration-space", "newton-euler-3", "lagrange-3x3", "lagrange-4x4", "waters", "uicker-kahn"]
    values = [measured[name][k6] for name in order]
    assert values == sorted(values)
    # Hollerbach: the configuration-space method is beaten by Newton-Euler "for n >= 9".
    assert example.crossover(paper["configuration-space"], paper["newton-euler-3"]) == 9


# ---------------------------------------------------------------------------------------------------
# The notebook


def code_cells(notebook):
    return ["".join(c["source"]) for c in notebook["cells"] if c["cell_type"] == "code"]


def test_notebook_is_stored_clean():
    nb = json.loads(NOTEBOOK.read_text(encoding="utf-8"))
    assert nb["nbformat"] == 4
    assert any(c["cell_type"] == "markdown" for c in nb["cells"])
    for c in nb["cells"]:
        if c["cell_type"] == "code":
            assert c["outputs"] == [] and c["execution_count"] is None, "store the notebook without outputs"
    source = "\n".join("".join(c["source"]) for c in nb["cells"])
    for needed in ("dynscope.trace", "operation_counts", "trajectory_dynamics", "crba", "Exercises"):
        assert needed in source, needed


@pytest.mark.parametrize("setting", ["bare", "installed"])
def test_notebook_runs_cell_by_cell(setting, robots, tmp_path, monkeypatch, capsys):
    if setting == "bare":   # no IPython, no matplotlib: the notebook's fallbacks
        for blocked in ("IPython", "IPython.display", "matplotlib", "matplotlib.pyplot"):
            monkeypatch.setitem(sys.modules, blocked, None)
    else:
        pytest.importorskip("matplotlib")
        monkeypatch.setenv("MPLBACKEND", "Agg")
        import matplotlib
        matplotlib.use("Agg")
    monkeypatch.setenv("DYNSCOPE_ROBOTS", str(robots))
    monkeypatch.chdir(tmp_path)
    nb = json.loads(NOTEBOOK.read_text(encoding="utf-8"))
    namespace = {"__name__": "__main__"}
    started = time.monotonic()
    try:
        for i, source in enumerate(code_cells(nb)):
            try:
                exec(compile(source, f"{NOTEBOOK.name}, code cell {i + 1}", "exec"), namespace)
            except Exception as e:  # name the cell
                raise AssertionError(f"code cell {i + 1} raised {type(e).__name__}: {e}\n{source}") from e
    finally:
        if setting == "installed":
            import matplotlib.pyplot as plt
            plt.close("all")
    assert time.monotonic() - started < 30
    printed = capsys.readouterr().out
    assert "equal to rnea: True" in printed
    if setting == "bare":
        assert namespace["plt"] is None and namespace["Math"] is None
        assert "v_i = ^iX_λ(i) v_λ(i) + v_J" in printed   # the trace's equations as plain text
