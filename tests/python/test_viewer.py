"""dynscope.Viewer against the real window (issue 39, docs/python-viewer.md), under Xvfb: a script
opens the UR5, shows three poses and reads them back, plays a trajectory, plots, takes pictures of
the window, and sees the window close. The pictures stay in pytest's temporary folder (or in
$DYNSCOPE_SCREENSHOT_DIR) for a human to look at.

The window program: $DYNSCOPE_EXECUTABLE, else the build tree's (dynscope._locations).
"""

import json
import os
import pathlib
import socket
import tempfile
import time

import numpy as np
import pytest

import dynscope

ROBOTS = pathlib.Path(__file__).resolve().parents[2] / "robots"
UR5 = str(ROBOTS / "ur5.urdf")
POSES = [
    [0.0, -1.57, 0.0, -1.57, 0.0, 0.0],  # upright
    [0.8, -0.6, 1.4, -0.8, 1.57, 0.0],  # reaching forward
    [-1.2, -2.2, -1.0, 0.5, -1.0, 1.0],  # folded back
]


@pytest.fixture(scope="module")
def pictures(tmp_path_factory):
    chosen = os.environ.get("DYNSCOPE_SCREENSHOT_DIR")
    if chosen:
        os.makedirs(chosen, exist_ok=True)
        return pathlib.Path(chosen)
    return tmp_path_factory.mktemp("pictures")


@pytest.fixture(scope="module")
def isolated(tmp_path_factory):
    """The window's settings, autosave and default socket in a temporary home, not the user's."""
    home = tmp_path_factory.mktemp("home")
    saved = {k: os.environ.get(k) for k in ("XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_CACHE_HOME", "DYNSCOPE_SOCKET")}
    for k in ("XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_CACHE_HOME"):
        os.environ[k] = str(home / k.lower())
    # A short path: a socket's name has at most 107 bytes.
    folder = tempfile.mkdtemp(prefix="dsv-")
    os.environ["DYNSCOPE_SOCKET"] = os.path.join(folder, "default.sock")
    yield folder
    for k, v in saved.items():
        if v is None:
            os.environ.pop(k, None)
        else:
            os.environ[k] = v


def raw_request(path, message):
    """One request on a connection of its own, as another script (or a user's click) would."""
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as s:
        s.settimeout(30)
        s.connect(path)
        s.sendall(json.dumps(message).encode() + b"\n")
        data = b""
        while not data.endswith(b"\n"):
            chunk = s.recv(4096)
            if not chunk:
                break
            data += chunk
    return json.loads(data)


def view_region(png):
    """The 3D view's part of a window picture (top left), as an array; None without PIL."""
    try:
        from PIL import Image
    except ImportError:
        return None
    image = np.asarray(Image.open(png).convert("RGB"), dtype=int)
    h, w = image.shape[:2]
    return image[int(0.1 * h):int(0.5 * h), : int(0.55 * w)]


def test_a_script_shows_poses_a_trajectory_and_plots(isolated, pictures):
    path = os.path.join(isolated, "window.sock")
    started = time.monotonic()
    viewer = dynscope.Viewer(UR5, socket=path, timeout=60)
    print(f"window started and UR5 open in {time.monotonic() - started:.1f} s")
    assert viewer.is_open
    assert viewer.model_info["name"] == "ur5" and viewer.model_info["nq"] == 6

    # Three poses, each reported back by the window and pictured.
    shots = []
    for k, q in enumerate(POSES):
        shown = viewer.display(q)
        np.testing.assert_allclose(shown, q, atol=1e-12)
        np.testing.assert_allclose(viewer.state()["q"], q, atol=1e-12)
        shots.append(viewer.screenshot(pictures / f"pose_{k + 1}.png"))
    regions = [view_region(s) for s in shots]
    if regions[0] is not None:  # the robot moved in the 3D view between the pictures
        assert np.abs(regions[0] - regions[1]).mean() > 0.5
        assert np.abs(regions[1] - regions[2]).mean() > 0.5

    # Sizes are checked by the window, with its robot's name and nq.
    with pytest.raises(ValueError, match=r"q has 5 entries; the robot ur5 has nq = 6"):
        viewer.display(POSES[0][:5])
    with pytest.raises(ValueError, match=r"Q has 4 columns; the robot ur5 has nq = 6"):
        viewer.play([0, 1], np.zeros((2, 4)))
    with pytest.raises(ValueError, match=r"t must increase"):
        viewer.play([0, 1, 1], np.zeros((3, 6)))
    with pytest.raises(ValueError, match=r"not a finite number"):
        viewer.display([0, 0, float("nan"), 0, 0, 0])

    # A trajectory through the three poses, played on the timeline.
    t = np.linspace(0.0, 3.0, 301)
    s = 0.5 - 0.5 * np.cos(np.pi * t / 3.0)  # 0 → 1, at rest at both ends
    Q = np.array(POSES[0]) + np.outer(s, np.array(POSES[2]) - np.array(POSES[0]))
    viewer.play(t, Q)
    state = viewer.state()
    assert state["samples"] == 301 and state["trajectory"] == "Python script"
    assert state["playing"] and state["workspace"] == "trajectory"
    time.sleep(1.0)
    assert 0.0 < viewer.state()["time"] <= 3.0
    viewer.screenshot(pictures / "trajectory.png")

    # A plot of the script's own numbers, readable at a desk's and a laptop's size.
    tau = np.stack([np.sin((k + 1) * t) * (10.0 * (k + 1)) for k in range(6)], axis=1)
    names = state["v_names"]
    assert viewer.plot(t, tau, names, title="script torque", unit="N·m") == "script torque"
    assert "script torque" in viewer.state()["plots"]
    with pytest.raises(ValueError, match="5 names for the 6 columns"):
        viewer.plot(t, tau, names[:5])
    viewer.screenshot(pictures / "plot_1920.png", size=(1920, 1080))
    viewer.screenshot(pictures / "plot_1366.png", size=(1366, 768))

    # Large data goes through quickly: 10,000 samples of 30 series, a 10,000-sample trajectory.
    big_t = np.linspace(0.0, 100.0, 10_000)
    big_y = np.sin(np.outer(big_t, np.linspace(0.1, 3.0, 30)))
    started = time.monotonic()
    viewer.plot(big_t, big_y, title="10,000 × 30")
    plot_seconds = time.monotonic() - started
    big_Q = np.array(POSES[1]) + 0.3 * np.sin(np.outer(big_t, np.linspace(0.2, 1.2, 6)))
    started = time.monotonic()
    viewer.play(big_t, big_Q, loop=True)
    play_seconds = time.monotonic() - started
    print(f"plot 10,000 x 30: {plot_seconds:.2f} s; play 10,000 x 6: {play_seconds:.2f} s")
    assert plot_seconds < 10 and play_seconds < 10
    assert viewer.state()["samples"] == 10_000

    # A second script attaches to the same window; its close() only disconnects.
    other = dynscope.Viewer(socket=path)
    assert other.state()["samples"] == 10_000
    other.close()
    with pytest.raises(dynscope.ViewerClosedError):
        other.state()
    assert viewer.is_open

    # The user closes the window: the next call raises promptly, naming what happened.
    assert raw_request(path, {"cmd": "close"})["ok"]
    started = time.monotonic()
    with pytest.raises(dynscope.ViewerClosedError, match="the Dynscope window was closed"):
        while time.monotonic() - started < 20:
            viewer.display(POSES[0])
            time.sleep(0.05)
    print(f"closed seen after {time.monotonic() - started:.2f} s")
    assert time.monotonic() - started < 10
    assert not viewer.is_open
    with pytest.raises(dynscope.ViewerClosedError):
        viewer.plot(t, tau)
    viewer.close()  # idempotent
    assert viewer._process.wait(timeout=30) == 0


def test_a_model_from_text_and_the_with_block(isolated):
    path = os.path.join(isolated, "text.sock")

    model = dynscope.load_string(pathlib.Path(UR5).read_text())  # no file: the viewer writes one
    assert model.path == "" and model.format == "urdf"
    with dynscope.Viewer(model, socket=path, timeout=60) as viewer:
        info = viewer.model_info
        assert info["name"] == "ur5" and info["nq"] == 6 and info["path"].endswith(".urdf")
        assert viewer.open(UR5)["loaded"] is True
        assert viewer.open(UR5)["loaded"] is False  # already shown: not read again
        with pytest.raises(FileNotFoundError, match="no such file"):
            viewer.open("/nonexistent/robot.urdf")
        process = viewer._process
    assert process.wait(timeout=30) == 0  # the with block closed the window it started
    assert not os.path.exists(path)


def test_clear_errors_without_a_window(isolated, tmp_path):
    path = os.path.join(isolated, "none.sock")
    with pytest.raises(FileNotFoundError, match="does not exist"):
        dynscope.Viewer(socket=path, executable=str(tmp_path / "no-such-program"))
    with pytest.raises(RuntimeError, match="ended at start with status 1"):
        dynscope.Viewer(socket=path, executable="/bin/false", timeout=10)
