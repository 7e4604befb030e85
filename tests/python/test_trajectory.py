"""dynscope's trajectories against dynscope-cli (trajectory, id --trajectory, fd --trajectory) and identities."""
import numpy as np
import pytest

import dynscope
from conftest import columns, csv_table, numbers


@pytest.fixture(scope="module")
def stanford(robots):
    return dynscope.load(str(robots / "stanford_arm.dh"))


@pytest.fixture(scope="module")
def saha(stanford):
    return dynscope.demo_trajectory(stanford, "saha-stanford", rate=100)


def test_demo_matches_cli(cli, robots, stanford, saha):
    table = csv_table(cli("trajectory", robots / "stanford_arm.dh", "--demo", "saha-stanford", "--rate", "100"))
    assert saha.q.shape == (1001, 6) and saha.qd.shape == (1001, 6) and len(saha) == 1001
    np.testing.assert_allclose(saha.t, table["t"], rtol=0, atol=1e-12)
    np.testing.assert_allclose(saha.q, columns(table, "", stanford.q_names), rtol=0, atol=1e-12)
    np.testing.assert_allclose(saha.qd, columns(table, "qd_", stanford.v_names), rtol=0, atol=1e-12)
    np.testing.assert_allclose(saha.qdd, columns(table, "qdd_", stanford.v_names), rtol=0, atol=1e-12)
    # Saha's cycloid: theta_2 from 90 deg to 60 deg, b_3 to 0.1 m, at rest at both ends.
    assert saha.q[0, 1] == pytest.approx(np.pi / 2) and saha.q[-1, 2] == pytest.approx(0.1)
    assert np.abs(saha.qd[[0, -1]]).max() < 1e-12


def test_saha_torques_match_cli_and_rnea(cli, robots, stanford, saha, tmp_path):
    path = tmp_path / "saha.csv"
    dynscope.write_trajectory_csv(stanford, saha, str(path))
    table = csv_table(cli("id", robots / "stanford_arm.dh", "--trajectory", path, "--decompose"))
    dyn = dynscope.trajectory_dynamics(stanford, saha, decompose=True)
    for name, block in [("tau_", dyn.tau), ("inertial_", dyn.inertial), ("coriolis_", dyn.coriolis),
                        ("gravity_", dyn.gravity)]:
        np.testing.assert_allclose(block, columns(table, name, stanford.v_names), rtol=0, atol=1e-12)
    # tau row by row is rnea; the decomposition sums to tau; gravity is rnea(q, 0, 0).
    data = dynscope.Data(stanford)
    z = np.zeros(6)
    for k in range(0, len(saha), 97):
        np.testing.assert_allclose(dyn.tau[k], dynscope.rnea(stanford, data, saha.q[k], saha.qd[k], saha.qdd[k]),
                                   rtol=0, atol=1e-12)
        np.testing.assert_allclose(dyn.gravity[k], dynscope.rnea(stanford, data, saha.q[k], z, z), rtol=0, atol=1e-12)
        M = dynscope.crba(stanford, data, saha.q[k])
        np.testing.assert_allclose(dyn.inertial[k], M @ saha.qdd[k], rtol=0, atol=1e-10)
    np.testing.assert_allclose(dyn.inertial + dyn.coriolis + dyn.gravity, dyn.tau, rtol=0, atol=1e-12)
    np.testing.assert_allclose(dyn.power, dyn.tau * saha.qd, rtol=0, atol=1e-12)
    np.testing.assert_allclose(dyn.total, dyn.kinetic + dyn.potential, rtol=0, atol=1e-12)
    assert len(dyn.effort_limit_violations) == 6
    plain = dynscope.trajectory_dynamics(stanford, saha, energy=False)
    assert plain.inertial is None and plain.kinetic is None


def test_qd_is_the_derivative_of_q(stanford, saha):
    fd = (saha.q[2:] - saha.q[:-2]) / (saha.t[2:] - saha.t[:-2])[:, None]
    np.testing.assert_allclose(saha.qd[1:-1], fd, rtol=0, atol=1e-4)
    fdd = (saha.qd[2:] - saha.qd[:-2]) / (saha.t[2:] - saha.t[:-2])[:, None]
    np.testing.assert_allclose(saha.qdd[1:-1], fdd, rtol=0, atol=1e-4)


@pytest.mark.parametrize("kind", ["quintic", "trapezoidal", "cubic-spline"])
def test_waypoints(stanford, kind):
    times = [0.0, 1.0, 2.5]
    Q = np.array([[0, 1.5708, 0, 0, 0, 0], [1, 1.0, 0.1, 0.2, 0, 0], [0.5, 1.2, 0.05, 0, 0.3, 0]])
    wt = dynscope.WaypointTrajectory(stanford, times, Q, interpolation=kind)
    tr = wt.sample(200)
    assert wt.interpolation == kind and tr.t[-1] == 2.5
    np.testing.assert_allclose(dynscope.sample_waypoints(stanford, times, Q, kind, rate=200).q, tr.q, atol=0)
    for k, t in enumerate(times):  # through the waypoints, at rest at the ends
        q, qd, qdd = wt.evaluate(t)
        np.testing.assert_allclose(q, Q[k], atol=1e-12)
    assert np.abs(wt.evaluate(0.0)[1]).max() < 1e-12 and np.abs(wt.evaluate(2.5)[1]).max() < 1e-12
    h = 1e-6  # qd and qdd are the exact derivatives
    for t in [0.3, 1.7]:
        q, qd, qdd = wt.evaluate(t)
        np.testing.assert_allclose(qd, (wt.evaluate(t + h)[0] - wt.evaluate(t - h)[0]) / (2 * h), atol=1e-5)
        np.testing.assert_allclose(qdd, (wt.evaluate(t + h)[1] - wt.evaluate(t - h)[1]) / (2 * h), atol=1e-3)


def test_waypoint_errors(stanford):
    with pytest.raises(ValueError, match="interpolation must be"):
        dynscope.sample_waypoints(stanford, [0, 1], np.zeros((2, 6)), interpolation="cubic")
    with pytest.raises(ValueError, match="Q has 5 columns, the model has nq = 6"):
        dynscope.sample_waypoints(stanford, [0, 1], np.zeros((2, 5)))
    with pytest.raises(ValueError, match="waypoint 2"):
        dynscope.sample_waypoints(stanford, [0, 0], np.zeros((2, 6)))
    with pytest.raises(ValueError, match="Q has 3 rows, times has 2"):
        dynscope.sample_waypoints(stanford, [0, 1], np.zeros((3, 6)))


def test_csv_roundtrip_and_spline(stanford, saha, tmp_path):
    path = tmp_path / "saha.csv"
    dynscope.write_trajectory_csv(stanford, saha, str(path))
    back = dynscope.read_trajectory_csv(stanford, str(path))
    assert np.array_equal(back.q, saha.q) and np.array_equal(back.qdd, saha.qdd)  # 17 digits: bit-exact
    assert not back.velocities_from_spline
    dynscope.write_trajectory_csv(stanford, saha, str(path), velocities=False, accelerations=False)
    spline = dynscope.read_trajectory_csv(stanford, str(path))
    assert spline.velocities_from_spline and spline.accelerations_from_spline
    arrays = dynscope.Trajectory(stanford, saha.t, saha.q)  # the same spline from arrays
    np.testing.assert_allclose(arrays.qd, spline.qd, rtol=0, atol=1e-12)
    np.testing.assert_allclose(arrays.qdd, spline.qdd, rtol=0, atol=1e-12)
    np.testing.assert_allclose(spline.qd, saha.qd, rtol=0, atol=1e-5)


def test_csv_errors_name_file_and_line(stanford, tmp_path):
    path = tmp_path / "bad.csv"
    path.write_text("t,j1,j2,j3,j4,j5,j6\n0,0,0,0,0,0,0\n1,0,0,x,0,0,0\n")
    with pytest.raises(dynscope.LoadError) as e:
        dynscope.read_trajectory_csv(stanford, str(path))
    assert e.value.file == str(path) and e.value.line == 3 and str(e.value).startswith(f"{path}:3: ")
    path.write_text("t,j1,j2\n0,0,0\n1,0,0\n")
    with pytest.raises(dynscope.LoadError, match=":1: missing column"):
        dynscope.read_trajectory_csv(stanford, str(path))
    with pytest.raises(FileNotFoundError, match="nothere.csv"):
        dynscope.read_trajectory_csv(stanford, str(tmp_path / "nothere.csv"))


def test_trajectory_from_arrays_errors(stanford):
    with pytest.raises(ValueError, match="QD has 5 columns, the model has nv = 6"):
        dynscope.Trajectory(stanford, [0, 1], np.zeros((2, 6)), np.zeros((2, 5)))
    with pytest.raises(ValueError, match="increase strictly"):
        dynscope.Trajectory(stanford, [0, 0], np.zeros((2, 6)))
    with pytest.raises(ValueError, match="demo must be"):
        dynscope.demo_trajectory(stanford, "saha")


def test_demo_on_the_wrong_robot(robots, stanford):
    planar = dynscope.load(str(robots / "planar3.dh"))
    with pytest.raises(ValueError, match="saha-stanford"):
        dynscope.demo_trajectory(planar, "saha-stanford")
    tr = dynscope.demo_trajectory(planar, "saha-planar3", rate=50)
    assert tr.q[-1] == pytest.approx([np.pi] * 3)
    with pytest.raises(ValueError, match="nq = 3"):
        dynscope.trajectory_dynamics(stanford, tr)


def test_fd_along_the_trajectory_matches_cli(cli, robots, stanford, saha, tmp_path):
    dyn = dynscope.trajectory_dynamics(stanford, saha)
    path = tmp_path / "saha_tau.csv"
    header = ["t"] + stanford.q_names + ["qd_" + n for n in stanford.v_names] + ["tau_" + n for n in stanford.v_names]
    rows = np.column_stack([saha.t, saha.q, saha.qd, dyn.tau])
    path.write_text(",".join(header) + "\n" + "\n".join(",".join(repr(float(x)) for x in r) for r in rows) + "\n")
    table = csv_table(cli("fd", robots / "stanford_arm.dh", "--trajectory", path))
    t, TAU = dynscope.read_torque_csv(stanford, str(path))
    qdd = dynscope.aba_batch(stanford, saha.q, saha.qd, TAU)
    np.testing.assert_allclose(qdd, columns(table, "qdd_", stanford.v_names), rtol=0, atol=1e-12)
    np.testing.assert_allclose(qdd, saha.qdd, rtol=0, atol=1e-9)  # fd undoes id


def test_payload_matches_project(cli, stanford, saha, tmp_path):
    loaded = dynscope.with_payload(stanford, "tool", 2.0, [0, 0, 0.1])
    dyn = dynscope.trajectory_dynamics(loaded, saha)
    plain = dynscope.trajectory_dynamics(stanford, saha)
    assert np.abs(dyn.tau - plain.tau).max() > 1e-3
    with pytest.raises(ValueError):
        dynscope.with_payload(stanford, "nolink", 1.0)


def test_interpolate(stanford, saha):
    q, qd, qdd = saha.interpolate(saha.t[37])
    assert np.array_equal(q, saha.q[37]) and saha.nearest_sample(0.371) == 37
