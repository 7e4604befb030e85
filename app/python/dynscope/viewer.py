"""The Dynscope window as a live view of a script or notebook (docs/python-viewer.md).

``Viewer(model)`` opens the workbench window, or attaches to one already running, and shows what
the script computes: ``display(q)`` a pose, ``play(t, Q)`` a trajectory on the timeline,
``plot(t, Y, names)`` a time-series plot. The window runs in its own process and answers on a
local socket, one JSON object per line each way (ui/session/script_link.hpp): the script's calls
never stall the window, and a call waits for no more than the window's reply. Once the window is
closed, the next call raises :class:`ViewerClosedError`.

Pure Python (the standard library and numpy), so that it works before and without ``_dynscope``.
"""

from __future__ import annotations

import base64
import itertools
import json
import os
import shutil
import socket as _socket
import subprocess
import tempfile
import time

import numpy as np

__all__ = ["Viewer", "ViewerClosedError", "default_socket_path"]

PROTOCOL = 1
_SUFFIX = {"urdf": ".urdf", "mjcf": ".xml", "dh": ".dh"}


class ViewerClosedError(RuntimeError):
    """The Dynscope window was closed (by the user, by ``close()``, or it ended)."""

    def __init__(self, message: str = "the Dynscope window was closed"):
        super().__init__(message)


def default_socket_path() -> str:
    """Where a window started by hand answers scripts, and where ``Viewer()`` looks first.

    $DYNSCOPE_SOCKET, else $XDG_RUNTIME_DIR/dynscope.sock, else dynscope-<uid>/viewer.sock in the
    temporary folder ($TMPDIR or /tmp): the same rule as the window's (ScriptLink::defaultSocketPath).
    """
    chosen = os.environ.get("DYNSCOPE_SOCKET")
    if chosen:
        return chosen
    runtime = os.environ.get("XDG_RUNTIME_DIR")
    if runtime and os.path.isdir(runtime):
        return os.path.join(runtime, "dynscope.sock")
    tmp = os.environ.get("TMPDIR") or "/tmp"
    return os.path.join(tmp.rstrip("/") or "/", f"dynscope-{os.getuid()}", "viewer.sock")


def _packed(array: np.ndarray) -> dict:
    """An array as the window reads large data: its shape and little-endian doubles in base64."""
    data = np.ascontiguousarray(array, dtype="<f8")
    return {"shape": list(data.shape), "float64": base64.b64encode(data.tobytes()).decode("ascii")}


def _as_float(name: str, value, ndim: int) -> np.ndarray:
    try:
        array = np.asarray(value, dtype=float)
    except (TypeError, ValueError) as e:
        raise ValueError(f"{name} must hold numbers: {e}") from None
    if ndim == 2 and array.ndim == 1:
        array = array[:, None]  # one series, or one coordinate
    if array.ndim != ndim:
        shape = "a vector" if ndim == 1 else "a matrix (one row per time)"
        raise ValueError(f"{name} must be {shape}, got an array of shape {array.shape}")
    return array


def _executable(explicit: str | None) -> str:
    """The window's program: the argument, $DYNSCOPE_EXECUTABLE, the build tree's, or the PATH's."""
    tried = []
    if explicit:
        if os.path.isfile(explicit) and os.access(explicit, os.X_OK):
            return explicit
        raise FileNotFoundError(f"the Dynscope window program {explicit!r} does not exist or cannot run")
    env = os.environ.get("DYNSCOPE_EXECUTABLE")
    if env:
        if os.path.isfile(env) and os.access(env, os.X_OK):
            return env
        tried.append(f"$DYNSCOPE_EXECUTABLE={env} (not a program)")
    else:
        tried.append("$DYNSCOPE_EXECUTABLE (not set)")
    try:
        from . import _locations  # written into the build tree's package; absent when installed

        if os.path.isfile(_locations.WINDOW) and os.access(_locations.WINDOW, os.X_OK):
            return _locations.WINDOW
        tried.append(f"the build tree's {_locations.WINDOW} (not built)")
    except ImportError:
        tried.append("the build tree's window (this is not a build tree)")
    found = shutil.which("dynscope")
    if found:
        return found
    tried.append("'dynscope' on the PATH (not found)")
    raise FileNotFoundError(
        "cannot find the Dynscope window program; tried " + ", ".join(tried) +
        ". Build it (scripts/setup dynscope), install it, or set DYNSCOPE_EXECUTABLE")


class _Connection:
    """One line-delimited JSON conversation with the window."""

    def __init__(self, path: str, timeout: float):
        self.sock = _socket.socket(_socket.AF_UNIX, _socket.SOCK_STREAM)
        self.sock.settimeout(timeout)
        try:
            self.sock.connect(path)
        except OSError:
            self.sock.close()
            raise
        self.buffer = b""
        self.ids = itertools.count(1)

    def request(self, message: dict, timeout: float) -> dict:
        message = dict(message, id=next(self.ids))
        line = json.dumps(message, separators=(",", ":"), allow_nan=False).encode() + b"\n"
        try:
            self.sock.settimeout(timeout)
            self.sock.sendall(line)
            while True:
                while b"\n" not in self.buffer:
                    chunk = self.sock.recv(1 << 16)
                    if not chunk:
                        raise ViewerClosedError()
                    self.buffer += chunk
                end = self.buffer.index(b"\n")
                reply, self.buffer = json.loads(self.buffer[:end]), self.buffer[end + 1:]
                if reply.get("id") == message["id"]:
                    return reply  # (a reply to an earlier request that timed out is dropped)
        except (BrokenPipeError, ConnectionResetError, ConnectionAbortedError):
            raise ViewerClosedError() from None
        except _socket.timeout:
            raise TimeoutError(f"the Dynscope window did not answer {message['cmd']!r} within {timeout:g} s") from None

    def close(self):
        try:
            self.sock.close()
        except OSError:
            pass


class Viewer:
    """The Dynscope window showing a script's robot, poses, trajectories and plots.

    ``model``: a ``dynscope.Model`` (or anything with ``path``, ``source``, ``format``,
    ``floating_base`` and ``fixups``), a robot file's path, or None (the window keeps what it
    shows). ``socket``: where the window answers (default: :func:`default_socket_path`); a window
    already answering there is used, otherwise ``executable`` (default: $DYNSCOPE_EXECUTABLE, the
    build tree's window, ``dynscope`` on the PATH) is started with ``--listen socket``. ``timeout``:
    seconds to wait for the window to start and for each reply (a load gets four times as long).

    The window outlives the script; ``close()`` (or leaving a ``with`` block) closes a window this
    Viewer started and only disconnects from one it attached to.
    """

    def __init__(self, model=None, *, executable: str | None = None, socket: str | None = None,
                 timeout: float = 30.0):
        self.timeout = float(timeout)
        self.socket_path = os.fspath(socket) if socket is not None else default_socket_path()
        self._process = None
        self._connection = None
        self._closed = False
        self._tmpdir = None
        self._log = None
        self.model_info = {}
        try:
            self._connection = _Connection(self.socket_path, self.timeout)
        except OSError:
            self._start(executable, model)
        hello = self._request({"cmd": "hello"})
        if hello.get("program") != "dynscope":
            raise RuntimeError(f"{self.socket_path} is not a Dynscope window")
        if model is not None:
            self.open(model)

    # --- the window's life -------------------------------------------------------------------

    def _start(self, executable, model):
        program = _executable(executable)
        folder = os.path.dirname(self.socket_path)
        if folder and not os.path.isdir(folder):
            os.makedirs(folder, mode=0o700, exist_ok=True)
        arguments = [program, "--listen", self.socket_path]
        path = self._model_path(model) if model is not None else None
        if path:
            arguments.append(path)  # opened at start: no default robot loaded first
        # The window's messages go to a file read back when it fails to start: a pipe nobody reads
        # would fill up and stall it.
        self._log = tempfile.TemporaryFile()
        self._process = subprocess.Popen(arguments, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                         stderr=self._log, start_new_session=True)
        deadline = time.monotonic() + self.timeout
        while True:
            status = self._process.poll()
            if status is not None:
                self._log.seek(0)
                said = self._log.read().decode(errors="replace").strip()
                raise RuntimeError(f"the Dynscope window ({program}) ended at start with status {status}" +
                                   (f": {said}" if said else ""))
            try:
                self._connection = _Connection(self.socket_path, self.timeout)
                return
            except OSError:
                pass
            if time.monotonic() > deadline:
                self._process.terminate()
                raise TimeoutError(f"the Dynscope window ({program}) did not answer on {self.socket_path} "
                                   f"within {self.timeout:g} s")
            time.sleep(0.05)

    @property
    def is_open(self) -> bool:
        """Whether the window still answers (asks it; False once closed)."""
        if self._closed:
            return False
        try:
            self._request({"cmd": "hello"})
            return True
        except (ViewerClosedError, TimeoutError):
            return False

    def close(self):
        """Closes the window if this Viewer started it; disconnects in any case. Idempotent."""
        if self._closed:
            return
        try:
            if self._process is not None and self._connection is not None:
                self._request({"cmd": "close"})
        except (ViewerClosedError, TimeoutError):
            pass
        finally:
            self._closed = True
            if self._connection is not None:
                self._connection.close()
            if self._process is not None:
                try:
                    self._process.wait(timeout=min(self.timeout, 10.0))
                except subprocess.TimeoutExpired:
                    pass  # the user still answers a question of the window's (unsaved work)
            if self._tmpdir is not None:
                self._tmpdir.cleanup()
                self._tmpdir = None
            if self._log is not None:
                self._log.close()
                self._log = None

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
        return False

    def __del__(self):
        connection = getattr(self, "_connection", None)
        if connection is not None:
            connection.close()

    # --- requests ------------------------------------------------------------------------------

    def _request(self, message: dict, timeout: float | None = None) -> dict:
        if self._closed or self._connection is None:
            raise ViewerClosedError()
        try:
            reply = self._connection.request(message, self.timeout if timeout is None else timeout)
        except ViewerClosedError:
            self._closed = True
            self._connection.close()
            raise
        if "error" in reply:
            kind = reply.get("kind")
            error = {"value": ValueError, "file": FileNotFoundError}.get(kind, RuntimeError)
            raise error(reply["error"])
        return reply

    def _model_path(self, model) -> str:
        if isinstance(model, (str, os.PathLike)):
            return os.path.abspath(os.fspath(model))
        path = getattr(model, "path", "") or ""
        if path and os.path.isfile(path):
            return os.path.abspath(path)
        source, kind = getattr(model, "source", None), getattr(model, "format", None)
        if not source or kind not in _SUFFIX:
            raise ValueError("model must be a dynscope.Model, a robot file's path, or None")
        # A model read from a string: the window reads files, so it gets one (removed by close()).
        if self._tmpdir is None:
            self._tmpdir = tempfile.TemporaryDirectory(prefix="dynscope-viewer-")
        name = (getattr(model, "name", "") or "model") + _SUFFIX[kind]
        file = os.path.join(self._tmpdir.name, os.path.basename(name))
        with open(file, "w", encoding="utf-8") as f:
            f.write(source)
        return file

    def open(self, model) -> dict:
        """Shows ``model`` (see the class); nothing is read again when the window already shows it."""
        request = {"cmd": "open", "path": self._model_path(model),
                   "floating_base": bool(getattr(model, "floating_base", False)),
                   "fixups": [str(f) for f in (getattr(model, "fixups", None) or [])]}
        self.model_info = self._request(request, timeout=4 * self.timeout)
        return self.model_info

    def display(self, q):
        """Shows configuration ``q`` (nq values, rad and m); playback pauses."""
        q = _as_float("q", q, 1)
        return np.asarray(self._request({"cmd": "display", "q": _packed(q)})["q"])

    def play(self, t, Q, *, loop: bool = False):
        """Plays the sampled trajectory ``Q`` (N x nq, one row per time of ``t``) on the timeline."""
        t = _as_float("t", t, 1)
        Q = _as_float("Q", Q, 2)
        if Q.shape[0] != t.shape[0]:
            raise ValueError(f"t has {t.shape[0]} times but Q has {Q.shape[0]} rows (one row of nq values per time)")
        self._request({"cmd": "play", "t": _packed(t), "q": _packed(Q), "loop": bool(loop)},
                      timeout=4 * self.timeout)

    def plot(self, t, Y, names=None, *, title: str | None = None, unit: str | None = None):
        """A time-series plot of ``Y`` (N x k) against ``t`` in the window's Plots dock.

        One tab per ``title``: a second plot with the same title replaces the first.
        """
        t = _as_float("t", t, 1)
        Y = _as_float("Y", Y, 2)
        if Y.shape[0] != t.shape[0]:
            raise ValueError(f"t has {t.shape[0]} times but Y has {Y.shape[0]} rows (one row per time)")
        request = {"cmd": "plot", "t": _packed(t), "y": _packed(Y)}
        if names is not None:
            names = [str(n) for n in names]
            if len(names) != Y.shape[1]:
                raise ValueError(f"{len(names)} names for the {Y.shape[1]} columns of Y")
            request["names"] = names
        if title is not None:
            request["title"] = str(title)
        if unit is not None:
            request["unit"] = str(unit)
        return self._request(request)["title"]

    def state(self) -> dict:
        """What the window shows: the model (path, name, nq, names), q, the time, playing, the plots."""
        reply = self._request({"cmd": "state"})
        reply.pop("ok", None)
        reply.pop("id", None)
        reply["q"] = np.asarray(reply.get("q", []), dtype=float)
        return reply

    def screenshot(self, path, size=None) -> str:
        """Saves the whole window as a PNG; ``size`` = (width, height) resizes the window first."""
        path = os.path.abspath(os.fspath(path))
        request = {"cmd": "screenshot", "path": path}
        if size is not None:
            request["width"], request["height"] = (int(v) for v in size)
        self._request(request)
        return path
