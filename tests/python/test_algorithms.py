"""The algorithms on one state: against dynscope-cli on the same inputs (the same engine, bit for bit
through the shortest-exact JSON numbers) and against identities that hold whatever the engine does."""
import numpy as np
import pytest

import dynscope
from conftest import numbers

MODELS = ["ur5.urdf", "panda.urdf", "stanford_arm.dh", "puma560.dh", "quadruped.urdf", "humanoid.urdf"]


def state(model, seed):
    rng = np.random.default_rng(seed)
    q = dynscope.random_configuration(model, seed)
    return q, rng.uniform(-1, 1, model.nv), rng.uniform(-1, 1, model.nv)


@pytest.fixture(params=MODELS)
def model(request, robots):
    return dynscope.load(str(robots / request.param))


def test_rnea_crba_aba_bias_equal_the_cli(model, cli):
    q, qd, qdd = state(model, 1)
    data = dynscope.Data(model)
    path = model.path
    tau = dynscope.rnea(model, data, q, qd, qdd)
    assert np.array_equal(tau, cli("id", path, "--no-mimic", "--q", numbers(q), "--qd", numbers(qd), "--qdd", numbers(qdd))["tau"])
    H = dynscope.crba(model, data, q)
    assert np.array_equal(H, np.array(cli("mass", path, "--no-mimic", "--q", numbers(q))["mass_matrix"]))
    bias = cli("bias", path, "--no-mimic", "--q", numbers(q), "--qd", numbers(qd))
    assert np.array_equal(dynscope.nonlinear_effects(model, data, q, qd), bias["nonlinear_effects"])
    assert np.array_equal(dynscope.gravity_vector(model, data, q), bias["gravity_vector"])
    qdd_fd = dynscope.aba(model, data, q, qd, tau)
    assert np.array_equal(qdd_fd, cli("fd", path, "--no-mimic", "--q", numbers(q), "--qd", numbers(qd), "--tau", numbers(tau))["qdd"])


def test_identities(model):
    q, qd, qdd = state(model, 2)
    data = dynscope.Data(model)
    tau = dynscope.rnea(model, data, q, qd, qdd)
    H = dynscope.crba(model, data, q)
    assert np.allclose(H, H.T, atol=0) and np.linalg.eigvalsh(H).min() > 0  # symmetric positive definite
    nle = dynscope.nonlinear_effects(model, data, q, qd)
    assert np.allclose(H @ qdd + nle, tau, rtol=0, atol=1e-9 * max(1, np.abs(tau).max()))
    for fd in (dynscope.aba, dynscope.forward_dynamics_crba):  # FD(ID(qdd)) = qdd
        assert np.allclose(fd(model, data, q, qd, tau), qdd, rtol=0, atol=1e-8)
    assert np.allclose(dynscope.rnea(model, data, q, np.zeros(model.nv), np.zeros(model.nv)),
                       dynscope.gravity_vector(model, data, q), atol=1e-12)


def test_jacobian_is_the_derivative_of_forward_kinematics(model):
    q, qd, _ = state(model, 3)
    data = dynscope.Data(model)
    frame = model.end_effector or model.frame_names[-1]
    J = dynscope.jacobian(model, data, q, frame, "local_world_aligned")
    h = 1e-6  # central differences of the frame's origin and orientation along qd
    T1 = dynscope.frame_pose(model, data, dynscope.integrate(model, q, qd, h), frame)
    T0 = dynscope.frame_pose(model, data, dynscope.integrate(model, q, qd, -h), frame)
    v = (T1[:3, 3] - T0[:3, 3]) / (2 * h)
    W = (T1[:3, :3] - T0[:3, :3]) / (2 * h) @ dynscope.frame_pose(model, data, q, frame)[:3, :3].T
    w = np.array([W[2, 1], W[0, 2], W[1, 0]])
    assert np.allclose(J @ qd, np.concatenate([w, v]), atol=1e-6)
    # The other references: world = Plücker coordinates of F0, local = the frame's own axes.
    T = dynscope.frame_pose(model, data, q, frame)
    R, p = T[:3, :3], T[:3, 3]
    Jw = dynscope.jacobian(model, data, q, frame, "world")
    assert np.allclose(Jw[:3], J[:3], atol=1e-12)
    assert np.allclose(Jw[3:] + np.cross(Jw[:3].T, p).T, J[3:], atol=1e-12)  # v_O = v_p - w x p
    Jl = dynscope.jacobian(model, data, q, frame, "local")
    assert np.allclose(np.vstack([R @ Jl[:3], R @ Jl[3:]]), J, atol=1e-12)


def test_kinematics_and_energy_equal_the_cli(model, cli):
    q, qd, _ = state(model, 4)
    data = dynscope.Data(model)
    fk = cli("fk", model.path, "--q", numbers(q))
    poses = dynscope.frame_poses(model, q)
    for frame in fk["frames"]:
        T = poses[frame["name"]]
        assert np.array_equal(T[:3, 3], frame["position"]) and np.array_equal(T[:3, :3], frame["rotation"])
        assert np.allclose(dynscope.rotation_to_quaternion(T[:3, :3]), frame["quaternion"], atol=1e-15)
        assert np.allclose(dynscope.rotation_to_rpy(T[:3, :3]), frame["rpy"], atol=1e-15)
    assert np.array_equal(dynscope.center_of_mass(model, data, q), fk["com"])
    e = cli("energy", model.path, "--q", numbers(q), "--qd", numbers(qd))
    assert dynscope.energy(model, data, q, qd) == (e["kinetic"], e["potential"])
    H = dynscope.crba(model, data, q)
    assert np.isclose(dynscope.energy(model, data, q, qd)[0], 0.5 * qd @ H @ qd, rtol=1e-12)
    frame = model.frame_names[-1]
    jac = cli("jacobian", model.path, "--q", numbers(q), "--link", frame, "--frame", "world")
    assert np.array_equal(dynscope.jacobian(model, data, q, frame, "world"), np.array(jac["jacobian"]))


def test_every_formulation_by_name(robots):
    model = dynscope.load(str(robots / "stanford_arm.dh"))
    q, qd, qdd = state(model, 5)
    data = dynscope.Data(model)
    tau = dynscope.rnea(model, data, q, qd, qdd)
    H = dynscope.crba(model, data, q)
    names = {p: [f.name for f in dynscope.formulations(p)] for p in ("inverse_dynamics", "mass_matrix", "forward_dynamics")}
    assert "denoc" in names["inverse_dynamics"] and len(names["inverse_dynamics"]) >= 6
    for name in names["inverse_dynamics"]:
        assert np.allclose(dynscope.inverse_dynamics(model, q, qd, qdd, algorithm=name), tau, atol=1e-9), name
    for name in names["mass_matrix"]:
        assert np.allclose(dynscope.mass_matrix(model, q, algorithm=name), H, atol=1e-10), name
    for name in names["forward_dynamics"]:
        assert np.allclose(dynscope.forward_dynamics(model, q, qd, tau, algorithm=name), qdd, atol=1e-8), name
    with pytest.raises(ValueError, match="denoc"):  # the message lists the valid names
        dynscope.inverse_dynamics(model, q, algorithm="no-such")
    f = dynscope.formulations("id")[1]
    assert f.reference and f.title and f.problem == "id"


def test_teaching_formulations_refuse_other_joints_naming_the_joint(robots):
    model = dynscope.load(str(robots / "ur5.urdf"), floating_base=True)
    with pytest.raises(ValueError, match="floating|free|joint"):
        dynscope.inverse_dynamics(model, model.neutral(), algorithm="waters")


def test_external_forces(robots):
    model = dynscope.load(str(robots / "ur5.urdf"))
    data = dynscope.Data(model)
    q, qd, qdd = state(model, 6)
    fext = np.zeros((model.nbodies + 1, 6))
    fext[-1] = [0.1, -0.2, 0.3, 1.0, 2.0, -3.0]  # [n; f] on the last body, its coordinates
    tau = dynscope.rnea(model, data, q, qd, qdd, fext)
    tau0 = dynscope.rnea(model, data, q, qd, qdd)
    # The wrench's joint torques are J^T f with the body's local Jacobian (n first, as J's rows).
    frame = [f for f in model.frames if f.body == model.nbodies][0]
    R, p = frame.placement[:3, :3], frame.placement[:3, 3]  # the frame's pose in the body
    skew = np.array([[0, -p[2], p[1]], [p[2], 0, -p[0]], [-p[1], p[0], 0]])
    X = np.block([[R, np.zeros((3, 3))], [skew @ R, R]])  # motion from frame to body coordinates
    J = X @ dynscope.jacobian(model, data, q, frame.name, "local")
    assert np.allclose(tau0 - tau, J.T @ fext[-1], atol=1e-12)
    assert np.allclose(dynscope.aba(model, data, q, qd, tau, fext), qdd, atol=1e-9)
    with pytest.raises(ValueError, match="fext has 2 rows"):
        dynscope.rnea(model, data, q, qd, qdd, np.zeros((2, 6)))


def test_floating_base_layout(robots):
    model = dynscope.load(str(robots / "quadruped.urdf"), floating_base=True)
    assert model.floating_base and model.nq == model.nv + 1
    base = model.joints[0]
    assert base.type == "floating" and (base.nq, base.nv) == (7, 6)
    assert model.q_names[:7] == [base.name + s for s in ("_x", "_y", "_z", "_qx", "_qy", "_qz", "_qw")]
    assert model.v_names[:6] == [base.name + s for s in ("_wx", "_wy", "_wz", "_vx", "_vy", "_vz")]
    q = model.neutral()
    assert q[6] == 1.0  # identity quaternion x, y, z, w
    data = dynscope.Data(model)
    g = dynscope.gravity_vector(model, data, q)
    assert np.isclose(g[5], model.total_mass * 9.81, rtol=1e-12)  # [w; v]: the base's vertical force
