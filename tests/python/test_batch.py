"""Batched forms: each row equals the one-state call bit for bit, errors name the row, and the GIL is
released (two Python threads' batches overlap in time)."""
import threading
import time

import numpy as np
import pytest

import dynscope


@pytest.fixture(scope="module")
def panda(robots):
    return dynscope.load(str(robots / "panda.urdf"))


def states(model, n, seed=0):
    rng = np.random.default_rng(seed)
    Q = np.array([dynscope.random_configuration(model, seed + k) for k in range(n)])
    return Q, rng.uniform(-1, 1, (n, model.nv)), rng.uniform(-1, 1, (n, model.nv))


def test_rows_equal_single_calls(panda):
    model, data = panda, dynscope.Data(panda)
    Q, QD, QDD = states(model, 100)
    frame = model.end_effector or model.frame_names[-1]
    TAU = dynscope.rnea_batch(model, Q, QD, QDD)
    H = dynscope.crba_batch(model, Q)
    for k in (0, 37, 99):
        assert np.array_equal(TAU[k], dynscope.rnea(model, data, Q[k], QD[k], QDD[k]))
        assert np.array_equal(H[k], dynscope.crba(model, data, Q[k]))
        assert np.array_equal(dynscope.aba_batch(model, Q, QD, TAU)[k], dynscope.aba(model, data, Q[k], QD[k], TAU[k]))
        assert np.array_equal(dynscope.forward_dynamics_crba_batch(model, Q, QD, TAU)[k],
                              dynscope.forward_dynamics_crba(model, data, Q[k], QD[k], TAU[k]))
        assert np.array_equal(dynscope.nonlinear_effects_batch(model, Q, QD)[k], dynscope.nonlinear_effects(model, data, Q[k], QD[k]))
        assert np.array_equal(dynscope.gravity_batch(model, Q)[k], dynscope.gravity_vector(model, data, Q[k]))
        assert np.array_equal(dynscope.frame_pose_batch(model, Q, frame)[k], dynscope.frame_pose(model, data, Q[k], frame))
        assert np.array_equal(dynscope.jacobian_batch(model, Q, frame, "world")[k], dynscope.jacobian(model, data, Q[k], frame, "world"))
    assert np.array_equal(dynscope.rnea_batch(model, Q, QD, QDD, threads=1), TAU)
    assert np.array_equal(dynscope.rnea_batch(model, Q), dynscope.gravity_batch(model, Q))  # QD, QDD default to zeros
    assert dynscope.rnea_batch(model, np.zeros((0, model.nq))).shape == (0, model.nv)


@pytest.mark.filterwarnings("ignore::dynscope.ModelWarning")
def test_errors_name_the_state(robots):
    bad = dynscope.load_string("""<robot name="r"><link name="a"/><link name="b"/>
      <joint name="j" type="revolute"><parent link="a"/><child link="b"/><axis xyz="0 0 1"/>
      <limit lower="-1" upper="1" effort="1" velocity="1"/></joint></robot>""")  # b has no mass: a warning
    with pytest.raises(ValueError, match=r"^Q\[2, 0\] \(j\) is NaN"):
        dynscope.aba_batch(bad, np.array([[0.0], [1.0], [np.nan]]))
    with pytest.raises(dynscope.ForwardDynamicsError, match=r"^state 0 \(row of the input\): .*'j'"):
        dynscope.aba_batch(bad, np.zeros((3, 1)))


def test_gil_released_batches_overlap(panda):
    Q, QD, QDD = states(panda, 20000, 3)
    spans = []

    def work():
        t0 = time.perf_counter()
        dynscope.rnea_batch(panda, Q, QD, QDD, threads=1)
        spans.append((t0, time.perf_counter()))

    threads = [threading.Thread(target=work) for _ in range(2)]
    for t in threads:
        t.start()
    ticks = 0  # the main thread keeps running Python while both batches compute
    while any(t.is_alive() for t in threads):
        ticks += 1
        time.sleep(0.0005)
    for t in threads:
        t.join()
    (a0, a1), (b0, b1) = sorted(spans)
    assert b0 < a1, "the second batch started only after the first ended: the GIL was held"
    assert ticks > 3
