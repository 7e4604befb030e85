"""dynscope's simulation against dynscope-cli simulate, and the identities a simulation must keep."""
import numpy as np
import pytest

import dynscope
from conftest import columns, csv_table, numbers


def same_as_cli(result, table, model):
    np.testing.assert_allclose(result.t, table["t"], rtol=0, atol=1e-12)
    np.testing.assert_allclose(result.q, columns(table, "", model.q_names), rtol=0, atol=1e-12)
    for prefix, block in [("qd_", result.qd), ("qdd_", result.qdd), ("tau_", result.tau)]:
        np.testing.assert_allclose(block, columns(table, prefix, model.v_names), rtol=0, atol=1e-12)
    np.testing.assert_allclose(result.energy, table["energy"], rtol=0, atol=1e-12)
    np.testing.assert_allclose(result.energy_drift, table["energy_drift"], rtol=0, atol=1e-12)


@pytest.fixture(scope="module")
def planar(robots):
    return dynscope.load(str(robots / "planar3.dh"))


@pytest.fixture(scope="module")
def stanford(robots):
    return dynscope.load(str(robots / "stanford_arm.dh"))


@pytest.mark.parametrize("integrator", ["euler", "rk4", "rk45"])
def test_falling_arm_matches_cli(cli, robots, planar, integrator):
    q0 = [0.3, -0.2, 0.1]
    r = dynscope.simulate(planar, 1.0, q0, integrator=integrator)
    table = csv_table(cli("simulate", robots / "planar3.dh", "--duration", 1, "--integrator", integrator, "--q0",
                          numbers(q0)))
    assert r.status == "ok" and r.q.shape == (1001, 3)
    same_as_cli(r, table, planar)


def test_controllers_and_push_match_cli(cli, robots, stanford, tmp_path):
    ref = dynscope.demo_trajectory(stanford, "saha-stanford", rate=100)
    path = tmp_path / "saha.csv"
    dynscope.write_trajectory_csv(stanford, ref, str(path))
    q0 = ref.q[0]
    r = dynscope.simulate(stanford, 0.5, q0, integrator="rk4", dt=2e-3, record_every=5,
                          controller=dynscope.Controller.computed_torque(ref, 100.0, 20.0),
                          wrenches=[dynscope.Wrench("tool", force=[5, 0, -3], moment=[0, 1, 0], point=[0, 0, 0.1])])
    table = csv_table(cli("simulate", robots / "stanford_arm.dh", "--duration", 0.5, "--integrator", "rk4", "--dt",
                          0.002, "--record-every", 5, "--controller", "computed-torque", "--trajectory", path, "--kp",
                          100, "--kd", 20, "--q0", numbers(q0), "--wrench", "tool:5,0,-3,0,1,0@0,0,0.1"))
    same_as_cli(r, table, stanford)
    np.testing.assert_allclose(r.tau_external, columns(table, "tau_ext_", stanford.v_names), rtol=0, atol=1e-12)
    g = dynscope.simulate(stanford, 0.3, q0, controller="gravity")
    table = csv_table(cli("simulate", robots / "stanford_arm.dh", "--duration", 0.3, "--controller", "gravity", "--q0",
                          numbers(q0)))
    same_as_cli(g, table, stanford)


def test_undamped_energy_is_conserved(planar):
    r = dynscope.simulate(planar, 2.0, [0.5, -0.4, 0.3], integrator="rk45", tolerance=1e-10, damping=False,
                          friction=False, limits=False)
    assert r.max_relative_energy_drift < 1e-6
    data = dynscope.Data(planar)  # the recorded energy is the model's
    k = 700
    T, V = dynscope.energy(planar, data, r.q[k], r.qd[k])
    assert T + V == pytest.approx(r.energy[k], abs=1e-9)


def test_python_computed_torque_loop_tracks(stanford):
    ref = dynscope.demo_trajectory(stanford, "saha-stanford", rate=200)
    data = dynscope.Data(stanford)
    kp, kd = 400.0, 40.0
    q0 = ref.q[0] + 0.02
    sim = dynscope.Simulator(stanford, q0, integrator="rk4", dt=1e-3, damping=False, friction=False)
    errors = []
    for _ in range(3000):
        qr, qdr, qddr = ref.interpolate(sim.t)
        e = dynscope.difference(stanford, sim.q, qr)
        tau = dynscope.rnea(stanford, data, sim.q, sim.qd, qddr + kp * e + kd * (qdr - sim.qd))
        sim.step(tau)
        errors.append(np.abs(e).max())
    assert sim.t == pytest.approx(3.0) and sim.controller == "constant"
    assert errors[0] == pytest.approx(0.02) and errors[-1] < 1e-4
    assert sim.result().q.shape == (3001, 6)


def test_step_and_advance_agree_with_simulate(planar):
    sim = dynscope.Simulator(planar, [0.3, 0, 0], integrator="rk4")
    sim.step(n=100)
    sim.advance(0.1)
    r = dynscope.simulate(planar, 0.2, [0.3, 0, 0], integrator="rk4")
    np.testing.assert_array_equal(sim.q, r.q[-1])
    tau, qdd = sim.evaluate(sim.t, sim.q, sim.qd)
    np.testing.assert_allclose(qdd, sim.qdd, rtol=0, atol=1e-12)


def test_timed_push(stanford):
    push = dynscope.Wrench("tool", force=[20, 0, 0], point=[0, 0, 0.1], start=0.1, end=0.2)
    r = dynscope.simulate(stanford, 0.4, controller="gravity", wrenches=[push])
    ext = np.abs(r.tau_external).max(axis=1)
    assert ext[50] == 0 and ext[150] > 0 and ext[300] == 0
    still = dynscope.simulate(stanford, 0.4, controller="gravity")
    assert np.abs(r.q[-1] - still.q[-1]).max() > 1e-4


def test_divergence_raises_with_the_record(planar):
    with pytest.raises(dynscope.SimulationDiverged) as e:
        dynscope.simulate(planar, 1.0, [0.5, 0, 0], velocity_bound=0.5)
    assert e.value.result.status == "diverged" and e.value.result.t[-1] == pytest.approx(e.value.t)
    r = dynscope.simulate(planar, 1.0, [0.5, 0, 0], velocity_bound=0.5, raise_on_divergence=False)
    assert r.status == "diverged" and r.error and r.t[-1] < 1.0


def test_errors_name_the_argument(planar):
    with pytest.raises(ValueError, match="q0 has 2 values, the model has nq = 3"):
        dynscope.simulate(planar, 1.0, [0, 0])
    with pytest.raises(ValueError, match="integrator must be"):
        dynscope.simulate(planar, 1.0, integrator="verlet")
    with pytest.raises(TypeError, match="unknown simulation option 'dtt'"):
        dynscope.simulate(planar, 1.0, dtt=1e-3)
    with pytest.raises(ValueError, match="tau has 2 values, the model has nv = 3"):
        dynscope.Simulator(planar).step([0, 0])
    with pytest.raises(ValueError, match="no frame named 'hand'"):
        dynscope.simulate(planar, 0.1, wrenches=[dynscope.Wrench("hand", force=[1, 0, 0])])
