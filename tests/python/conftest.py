"""Shared fixtures of the Python suites: the module from the build tree, the CLI, the sample robots.

ctest sets DYNSCOPE_PYTHON_DIR, DYNSCOPE_CLI and DYNSCOPE_ROBOTS (tests/python/CMakeLists.txt); run
by hand, `PYTHONPATH=build/python python3 -m pytest tests/python` works from the checkout's root.
"""
import io
import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

_root = Path(__file__).resolve().parents[2]
if os.environ.get("DYNSCOPE_PYTHON_DIR"):
    sys.path.insert(0, os.environ["DYNSCOPE_PYTHON_DIR"])


@pytest.fixture(scope="session")
def robots() -> Path:
    return Path(os.environ.get("DYNSCOPE_ROBOTS", _root / "robots"))


@pytest.fixture(scope="session")
def cli_path() -> str:
    return os.environ.get("DYNSCOPE_CLI", str(_root / "build" / "app" / "dynscope-cli"))


@pytest.fixture(scope="session")
def cli(cli_path):
    """Runs dynscope-cli with the arguments; returns the parsed JSON (or the text for CSV output)."""

    def run(*args, check=True):
        p = subprocess.run([cli_path, *map(str, args)], capture_output=True, text=True)
        if check and p.returncode != 0:
            raise AssertionError(f"dynscope-cli {' '.join(map(str, args))} failed: {p.stderr}")
        out = p.stdout.strip()
        return json.loads(out) if out.startswith("{") else out

    return run


def numbers(xs) -> str:
    """A vector as the CLI's comma-separated list (shortest exact form)."""
    return ",".join(repr(float(x)) for x in xs)


def csv_table(text: str) -> dict:
    """A CSV with a header row (the CLI's trajectories and simulations) as {column: array}."""
    lines = [l for l in text.splitlines() if l and not l.startswith("#")]
    header = lines[0].split(",")
    values = np.loadtxt(io.StringIO("\n".join(lines[1:])), delimiter=",", ndmin=2)
    return {name: values[:, k] for k, name in enumerate(header)}


def columns(table: dict, prefix: str, names) -> np.ndarray:
    """The columns prefix + name of a csv_table, side by side (one row per sample)."""
    return np.column_stack([table[prefix + n] for n in names])
