"""numpy in and out: float64 C arrays read in place, other numbers converted, nonsense refused with the
argument's name and the size it expected (the CLI's wording)."""
import numpy as np
import pytest

import dynscope


@pytest.fixture(scope="module")
def ur5(robots):
    model = dynscope.load(str(robots / "ur5.urdf"))
    return model, dynscope.Data(model)


def reference(model, data):
    q = np.array([0.125, -0.5, 0.75, 0.25, -0.375, 0.5])  # exact in float32 too
    return q, dynscope.rnea(model, data, q, q, q)


def test_every_numeric_form_gives_the_same_result(ur5):
    model, data = ur5
    q, tau = reference(model, data)
    forms = [list(q), tuple(q), q.astype(np.float32), q.reshape(6, 1), q.reshape(1, 6),
             np.asfortranarray(q.reshape(6, 1)), np.repeat(q, 2)[::2]]
    for x in forms:
        assert np.array_equal(dynscope.rnea(model, data, x, q, q), tau)
    ints = np.array([0, 1, 2, 3, 4, 5])
    assert np.array_equal(dynscope.rnea(model, data, ints, q, q), dynscope.rnea(model, data, ints.astype(float), q, q))
    big = np.zeros((5, 6), order="F")  # Fortran-ordered batches are converted to rows
    big[:] = q
    assert np.array_equal(dynscope.rnea_batch(model, big, big, big), np.tile(tau, (5, 1)))


def test_results_are_new_float64_arrays(ur5):
    model, data = ur5
    q, tau = reference(model, data)
    a = dynscope.rnea(model, data, q, q, q)
    b = dynscope.rnea(model, data, q, q, q)
    assert a.dtype == np.float64 and a.flags.c_contiguous and a.flags.writeable and a.shape == (6,)
    a[0] = 1e9  # the caller owns the result: nothing else changes
    assert np.array_equal(b, tau)
    H = dynscope.crba(model, data, q)
    assert H.shape == (6, 6) and H.flags.c_contiguous


def test_sizes_and_shapes_refused_in_the_clis_words(ur5):
    model, data = ur5
    q = model.neutral()
    with pytest.raises(ValueError, match=r"^q has 5 values, the model has nq = 6: shoulder_pan_joint, "):
        dynscope.rnea(model, data, q[:5], q, q)
    with pytest.raises(ValueError, match=r"^qdd has 7 values, the model has nv = 6"):
        dynscope.rnea(model, data, q, q, np.zeros(7))
    with pytest.raises(ValueError, match=r"q must be a vector of 6 values \(nq\); got an array of shape \(2, 3\)"):
        dynscope.rnea(model, data, q.reshape(2, 3), q, q)
    with pytest.raises(ValueError, match=r"Q has 5 columns, the model has nq = 6"):
        dynscope.rnea_batch(model, np.zeros((3, 5)))
    with pytest.raises(ValueError, match=r"QD has 2 rows, Q has 3"):
        dynscope.rnea_batch(model, np.zeros((3, 6)), np.zeros((2, 6)))


def test_non_numbers_refused(ur5):
    model, data = ur5
    q = model.neutral()
    with pytest.raises(TypeError, match="q must hold real numbers; got an array of dtype complex128"):
        dynscope.rnea(model, data, q + 1j, q, q)
    with pytest.raises(TypeError, match="qd must hold real numbers; got an array of dtype bool"):
        dynscope.rnea(model, data, q, q > 0, q)
    with pytest.raises(TypeError, match="q must be a sequence of numbers"):
        dynscope.rnea(model, data, "0,0,0,0,0,0", q, q)
    with pytest.raises(TypeError, match="q must be a sequence of numbers"):
        dynscope.rnea(model, data, None, q, q)
    with pytest.raises(TypeError):
        dynscope.rnea(model, data, ["a", 1, 2, 3, 4, 5], q, q)


def test_nan_and_infinity_named(ur5):
    model, data = ur5
    q = model.neutral()
    bad = q.copy()
    bad[2] = np.nan
    with pytest.raises(ValueError, match=r"q\[2\] \(elbow_joint\) is NaN"):
        dynscope.rnea(model, data, bad, q, q)
    Q = np.zeros((4, 6))
    Q[3, 1] = np.inf
    with pytest.raises(ValueError, match=r"Q\[3, 1\] \(shoulder_lift_joint\) is infinite"):
        dynscope.rnea_batch(model, Q)


def test_input_read_in_place(ur5):
    """A float64 C array is not copied on the way in: a view of a larger buffer works, and its writes are seen."""
    model, data = ur5
    buf = np.zeros((3, 6))
    q = buf[1]  # a C-contiguous row view
    t0 = dynscope.gravity_vector(model, data, q)
    buf[1, 1] = 0.5
    assert not np.array_equal(dynscope.gravity_vector(model, data, q), t0)
