"""The type stubs editors read (app/python/dynscope/_dynscope.pyi) are those scripts/python-stubs writes
from the built module: a binding added or changed without its stubs fails here."""
import ast
import inspect
import os
import subprocess
import sys
from pathlib import Path

import dynscope

SOURCE = Path(os.environ.get("DYNSCOPE_SOURCE_DIR", Path(__file__).resolve().parents[2]))


def test_stubs_are_current():
    build = Path(dynscope.__file__).resolve().parents[2]  # <build>/python/dynscope/__init__.py
    written = subprocess.run([sys.executable, str(SOURCE / "scripts" / "python-stubs"), str(build), "--check"],
                             capture_output=True, text=True, check=True).stdout
    committed = (SOURCE / "app" / "python" / "dynscope" / "_dynscope.pyi").read_text()
    assert written == committed, "the stubs are out of date: run scripts/python-stubs"
    tree = ast.parse(committed)
    names = {n.name for n in tree.body if isinstance(n, (ast.FunctionDef, ast.ClassDef))}
    public = {n for n in dir(dynscope._dynscope) if not n.startswith("_")}
    assert public <= names, f"no stubs for {sorted(public - names)}"


def test_every_function_has_a_docstring():
    undocumented = [n for n, f in inspect.getmembers(dynscope._dynscope, inspect.isbuiltin)
                    if len((f.__doc__ or "").splitlines()) < 3]
    assert not undocumented, f"functions without a docstring beyond their signature: {undocumented}"
