#!/usr/bin/env python3
"""The Python module's cost over the C++ engine (docs/benchmarks.md), on the UR5:
  1. one dynscope.rnea(model, data, q, qd, qdd) call against the same call in C++ (goal: <= 1 us more);
  2. dynscope.rnea_batch over 10,000 states on one thread against the C++ loop (goal: >= 90 % of its rate),
     and on every core.
A benchmark, not a test: it prints numbers and asserts nothing.

  PYTHONPATH=build/python /usr/bin/python3 tests/benchmarks/bench_python.py build/tests/benchmarks/bench_python_reference
"""
import json
import subprocess
import sys
import timeit
from pathlib import Path

import numpy as np

import dynscope


def best(stmt, number, repeat=7):
    return min(timeit.repeat(stmt, number=number, repeat=repeat)) / number


def main() -> int:
    reference = sys.argv[1] if len(sys.argv) > 1 else None
    robots = Path(__file__).resolve().parents[2] / "robots"
    model = dynscope.load(str(robots / "ur5.urdf"))
    data = dynscope.Data(model)
    rng = np.random.default_rng(7)
    n = 10_000
    Q = np.array([dynscope.random_configuration(model, k) for k in range(n)])
    QD, QDD = rng.uniform(-1, 1, (n, model.nv)), rng.uniform(-1, 1, (n, model.nv))
    q, qd, qdd = Q[0].copy(), QD[0].copy(), QDD[0].copy()

    call = best(lambda: dynscope.rnea(model, data, q, qd, qdd), 100_000)
    batch1 = best(lambda: dynscope.rnea_batch(model, Q, QD, QDD, threads=1), 20)
    batch_all = best(lambda: dynscope.rnea_batch(model, Q, QD, QDD), 20)
    print(f"python: rnea call {call * 1e9:.0f} ns; rnea_batch 10,000 states: {batch1 * 1e3:.2f} ms on one thread, "
          f"{batch_all * 1e3:.2f} ms on every core")
    if not reference:
        return 0
    out = subprocess.run([reference, "--benchmark_format=json", "--benchmark_repetitions=5",
                          "--benchmark_report_aggregates_only=true"], capture_output=True, text=True, check=True).stdout
    rows = {b["name"]: b for b in json.loads(out)["benchmarks"] if b.get("aggregate_name") == "min" or
            b["name"].endswith("_min")}
    if not rows:  # Google Benchmark without a 'min' aggregate: take the medians
        rows = {b["name"]: b for b in json.loads(out)["benchmarks"] if b.get("aggregate_name") == "median"}
    scale = {"ns": 1e-9, "us": 1e-6, "ms": 1e-3}
    cpp_call = next(b["real_time"] * scale[b["time_unit"]] for k, b in rows.items() if "rnea_call" in k)
    cpp_loop = next(b["real_time"] * scale[b["time_unit"]] for k, b in rows.items() if "rnea_loop" in k)
    print(f"C++:    rnea call {cpp_call * 1e9:.0f} ns; the loop over 10,000 states {cpp_loop * 1e3:.2f} ms")
    print(f"overhead of a Python call: {(call - cpp_call) * 1e9:.0f} ns (goal <= 1000 ns)")
    print(f"rnea_batch on one thread: {cpp_loop / batch1 * 100:.0f} % of the C++ loop's rate (goal >= 90 %); "
          f"on every core: {batch1 / batch_all:.2f}x one thread")
    return 0


if __name__ == "__main__":
    sys.exit(main())
