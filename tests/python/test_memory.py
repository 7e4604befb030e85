"""No growth in memory over 10^5 calls: every result array and every converted input is freed."""
import os

import numpy as np

import dynscope


def rss_bytes():
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")


def test_no_growth_over_a_hundred_thousand_calls(robots):
    model = dynscope.load(str(robots / "ur5.urdf"))
    data = dynscope.Data(model)
    q = model.neutral()
    as_list = list(q)  # converted on every call
    fext = np.zeros((model.nbodies + 1, 6))

    def calls(n):
        for _ in range(n):
            dynscope.rnea(model, data, q, q, q)
            dynscope.rnea(model, data, as_list, q, q, fext)
            dynscope.crba(model, data, q)
            dynscope.aba(model, data, q, q, q)
            dynscope.frame_pose(model, data, q, "tool0")
            dynscope.inverse_dynamics(model, q, algorithm="denoc")
            try:
                dynscope.rnea(model, data, q[:5], q, q)  # an error, with its message, each time
            except ValueError:
                pass

    calls(10_000)  # warm-up: allocator pools, the bound formulation
    before = rss_bytes()
    calls(100_000)
    grown = rss_bytes() - before
    assert grown < 2 << 20, f"memory grew by {grown / 1e6:.1f} MB over 10^5 rounds of calls"
