"""Looking inside: traces, operation counts, IK, closed loops and the mimic reduction, against the CLI on
the same inputs and against identities (FD(ID) = qdd on loops, H_y = G^T H G, IK reaches reachable poses)."""
import warnings

import numpy as np
import pytest

import dynscope
from conftest import numbers


@pytest.mark.parametrize("algorithm", ["rnea", "crba", "aba", "denoc-id", "newton-euler-3"])
def test_trace_equals_the_cli(robots, cli, algorithm):
    model = dynscope.load(str(robots / "stanford_arm.dh"))
    q, qd = dynscope.random_configuration(model, 3), np.linspace(-1, 1, model.nv)
    values = {"q": q, "qd": qd, "qdd": qd[::-1].copy(), "tau": qd * 10}
    inputs = {a["name"]: a["inputs"] for a in dynscope.traceable_algorithms()}[algorithm]
    kwargs = {k: values[k] for k in inputs}
    args = [x for k in inputs for x in (f"--{k}", numbers(values[k]))]
    t = dynscope.trace(model, algorithm, **kwargs)
    c = cli("trace", model.path, "--algorithm", algorithm, *args)
    assert [p["name"] for p in t["passes"]] == [p["name"] for p in c["passes"]]
    assert len(t["steps"]) == len(c["steps"]) > model.nv
    for ts, cs in zip(t["steps"], c["steps"]):
        assert (ts["pass"], ts["body"], ts["kind"]) == (cs["pass"], cs["body"], cs["kind"])
        assert [e["equation"] for e in ts["equations"]] == [e["equation"] for e in cs["equations"]]
        assert all(e["latex"] and "**" not in e["latex"] for e in ts["equations"])  # TeX, not the markup
        for tw, cw in zip(ts["written"], cs["written"]):
            value = np.asarray(cw["value"], dtype=float)  # JSON nulls: entries not computed yet (NaN here)
            assert tw["symbol"] == cw["symbol"] and np.array_equal(np.asarray(tw["value"]), value, equal_nan=True)
        assert ts["operations_so_far"]["muls"] == cs["operations_so_far"]["muls"]
    for key in ("muls", "adds", "functions"):
        assert t["operations"][key] == c["operations"][key]
    for key in ("muls", "adds"):
        assert t["operations"]["joint_transforms"][key] == c["operations"]["joint_transforms"][key]
    key = t["result_key"]
    assert np.array_equal(t["result"], np.array(c[key] if key in c else c["M"]))


def test_trace_result_is_the_plain_algorithm(robots):
    model = dynscope.load(str(robots / "puma560.dh"))
    data = dynscope.Data(model)
    q, qd, qdd = dynscope.random_configuration(model, 1), np.ones(model.nv), np.arange(model.nv) * 0.1
    assert np.array_equal(dynscope.trace(model, "rnea", q, qd, qdd)["result"], dynscope.rnea(model, data, q, qd, qdd))
    assert np.array_equal(dynscope.trace(model, "crba", q)["result"], dynscope.crba(model, data, q))
    with pytest.raises(ValueError, match=r"tau is not an input of rnea \(inverse dynamics: give qdd\)"):
        dynscope.trace(model, "rnea", q, qd, qdd, tau=qd)
    with pytest.raises(ValueError, match="unknown traceable algorithm 'rnae'.*rnea"):
        dynscope.trace(model, "rnae")


def test_operation_counts_equal_the_cli_and_grow_as_the_papers_say(robots, cli):
    model = dynscope.load(str(robots / "puma560.dh"))
    for name in ("rnea", "denoc", "uicker-kahn"):
        mine = dynscope.operation_counts(model, name)
        theirs = cli("opcount", model.path, "--algorithm", name)["results"]
        assert [(r["problem"], r["muls"], r["adds"]) for r in mine] == [(r["problem"], r["muls"], r["adds"]) for r in theirs]
        for a, b in zip(mine, theirs):  # the papers' counts, as the CLI prints them
            assert [(p["muls"], p["adds"], p["tabulated"]) for p in a["paper"]] == \
                [(p["muls"], p["adds"], p["tabulated"]) for p in b["paper"]]
    # On the general chain: the O(n) formulation's count grows linearly, Uicker/Kahn's as n^4.
    rnea = [dynscope.operation_counts(dynscope.general_chain(n), "rnea", "id")[0]["muls"] for n in (4, 8, 12)]
    assert rnea[2] - rnea[1] == rnea[1] - rnea[0]
    uk = [dynscope.operation_counts(dynscope.general_chain(n), "uicker-kahn", "id")[0]["muls"] for n in (4, 8, 16)]
    assert 8 < uk[2] / uk[1] < 20  # ~ 2^4 = 16 for the leading term
    with pytest.raises(ValueError, match="valid:.*denoc"):
        dynscope.operation_counts(model, "nothing")


def test_inverse_kinematics_reaches_a_reachable_pose(robots, cli):
    model = dynscope.load(str(robots / "ur5.urdf"))
    data = dynscope.Data(model)
    goal = dynscope.random_configuration(model, 11)
    T = dynscope.frame_pose(model, data, goal, model.end_effector)
    r = dynscope.inverse_kinematics(model, T, q0=model.neutral())
    assert r["converged"] and r["position_error"] < 1e-8 and r["rotation_error"] < 1e-8
    assert np.allclose(dynscope.frame_pose(model, data, r["q"], model.end_effector), T, atol=1e-8)
    assert np.allclose(r["pose"], T, atol=1e-8)
    target = T[:3, 3]
    mine = dynscope.inverse_kinematics(model, target, locks=["wrist_3_joint"])
    theirs = cli("ik", model.path, "--target", numbers(target), "--lock", "wrist_3_joint")
    assert np.array_equal(mine["q"], theirs["q"]) and mine["converged"] == theirs["converged"]
    assert mine["q"][5] == model.home()[5]  # locked
    with pytest.raises(ValueError, match="unknown joint 'wrist'"):
        dynscope.inverse_kinematics(model, target, locks=["wrist"])
    with pytest.raises(ValueError, match="target must be"):
        dynscope.inverse_kinematics(model, [1, 2])


def test_closed_loops(robots, cli):
    model = dynscope.load(str(robots / "fourbar.urdf"))
    info = dynscope.loop_info(model)
    assert info["mobility"] == 1 and info["constraint_rank"] == model.nv - 1
    a = dynscope.assemble(model, model.home() + 0.3, hold=[info["independent"][0]])
    assert a["converged"] and a["residual"] <= 1e-12
    c = cli("assemble", model.path, "--q", numbers(model.home() + 0.3), "--hold", info["independent"][0])
    assert np.array_equal(a["q"], c["q"])
    phi = dynscope.loop_constraints(model, a["q"])
    assert np.abs(phi["phi"]).max() < 1e-12 and phi["jacobian"].shape == (len(phi["rows"]), model.nv)
    # A velocity in phi's null space, then FD of the tau that ID gives: the same motion back.
    J = phi["jacobian"]
    qd = np.linalg.svd(J)[2][-1]
    qdd = np.zeros(model.nv)
    inv = dynscope.loop_inverse_dynamics(model, a["q"], qd, qdd)
    tau = inv["tau"]
    for method in ("1", "2", "3", "global"):
        fd = dynscope.loop_forward_dynamics(model, inv["q"], inv["qd"], tau, method=method)
        assert np.allclose(fd["qdd"], inv["qdd"], atol=1e-8), method
    c = cli("fd", model.path, "--q", numbers(inv["q"]), "--qd", numbers(inv["qd"]), "--tau", numbers(tau), "--loop-method", "3")
    assert np.array_equal(dynscope.loop_forward_dynamics(model, inv["q"], inv["qd"], tau, method="3")["qdd"], c["qdd"])
    with pytest.raises(ValueError, match="no closed kinematic loops"):
        dynscope.loop_forward_dynamics(dynscope.load(str(robots / "ur5.urdf")))


def test_mimic_reduction(robots, cli):
    model = dynscope.load(str(robots / "panda_gripper.urdf"))
    data = dynscope.Data(model)
    c = dynscope.mimic_coupling(model)
    G = c["G"]
    assert G.shape == (model.nv, c["ny"]) and c["ny"] == model.nv - 1
    y = np.array([0.1, 0.2, 0.3, -1.4, 0.5, 0.6, 0.7, 0.01])
    q = dynscope.mimic_expand(model, y)
    assert q[-1] == q[-2] == 0.01
    Hy = dynscope.reduced_mass_matrix(model, y)
    assert np.allclose(Hy, G.T @ dynscope.crba(model, data, q) @ G, atol=1e-14)
    yd, ydd = np.linspace(-1, 1, 8), np.linspace(1, -1, 8)
    tau_y = dynscope.reduced_inverse_dynamics(model, y, yd, ydd)
    theirs = cli("id", model.path, "--q", numbers(y), "--qd", numbers(yd), "--qdd", numbers(ydd))
    assert np.array_equal(tau_y, theirs["tau"])
    assert np.allclose(dynscope.reduced_forward_dynamics(model, y, yd, tau_y), ydd, atol=1e-9)
    with pytest.raises(ValueError, match="y has 9 values.*8"):
        dynscope.reduced_mass_matrix(model, q)
    with pytest.raises(ValueError, match="no mimic joints"):
        dynscope.mimic_coupling(dynscope.load(str(robots / "ur5.urdf")))
