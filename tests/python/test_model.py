"""Loading: the Model's contents against `dynscope-cli info`, strings and files alike, fix-ups, findings,
and load errors with the CLI's messages (file:line: element: message)."""
import warnings

import numpy as np
import pytest

import dynscope


@pytest.mark.parametrize("name", ["panda_gripper.urdf", "puma560.dh", "fourbar.urdf", "quadruped.urdf"])
def test_model_equals_cli_info(robots, cli, name):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", dynscope.ModelWarning)
        model = dynscope.load(str(robots / name))
    info = cli("info", robots / name)
    assert (model.name, model.nq, model.nv, model.nbodies) == (info["model"], info["nq"], info["nv"], info["bodies"])
    assert model.q_names == info["q_names"] and model.v_names == info["v_names"]
    assert model.total_mass == info["total_mass"] and list(model.gravity) == info["gravity"]
    assert model.end_effector == info.get("default_end_effector", "")
    for joint, j in zip(model.joints, info["joints"]):
        assert (joint.name, joint.type, joint.parent_link, joint.link) == (j["name"], j["type"], j["parent"], j["child"])
        assert (joint.idx_q, joint.idx_v, joint.nq, joint.nv) == (j["idx_q"], j["idx_v"], j["nq"], j["nv"])
        sl = slice(joint.idx_q, joint.idx_q + joint.nq)
        lim = j.get("limits", {})
        unlimited = {"lower": -np.inf, "upper": np.inf}  # JSON writes infinity as null
        for side, values in (("lower", model.lower_limit[sl]), ("upper", model.upper_limit[sl])):
            assert list(values) == [unlimited[side] if x is None else x for x in lim[side]]
    assert model.loops == [loop["name"] for loop in info.get("loops", [])]


def test_mimic_relations_and_keyframes(robots):
    model = dynscope.load(str(robots / "panda_gripper.urdf"))
    assert model.mimics == [{"joint": "panda_finger_joint2", "mimicked": "panda_finger_joint1", "multiplier": 1.0, "offset": 0.0}]
    mjcf = """<mujoco model="pendulum"><worldbody><body name="b"><joint name="j" type="hinge" axis="0 1 0"/>
      <geom type="capsule" fromto="0 0 0 0 0 -1" size="0.05" mass="1"/></body></worldbody>
      <keyframe><key name="up" qpos="3.14159"/></keyframe></mujoco>"""
    m = dynscope.load_string(mjcf)
    assert m.format == "mjcf" and m.path == "" and m.source == mjcf
    assert list(m.keyframes) == ["up"] and m.keyframes["up"][0] == 3.14159


def test_load_string_equals_load_file(robots):
    for name, fmt in (("ur5.urdf", "urdf"), ("stanford_arm.dh", "dh")):
        text = (robots / name).read_text()
        a, b = dynscope.load(str(robots / name)), dynscope.load_string(text)
        assert b.format == fmt and a.format == fmt
        q = dynscope.random_configuration(a, 7)
        assert np.array_equal(dynscope.crba(a, dynscope.Data(a), q), dynscope.crba(b, dynscope.Data(b), q))


def test_findings_warn_once_and_fixups_apply(tmp_path):
    urdf = tmp_path / "bad.urdf"  # an inertia that breaks the triangle inequality: loads, with a warning
    urdf.write_text("""<robot name="bad"><link name="base"/>
  <link name="l"><inertial><mass value="1"/><inertia ixx="1" iyy="0.1" izz="0.1" ixy="0" ixz="0" iyz="0"/></inertial></link>
  <joint name="j" type="revolute"><parent link="base"/><child link="l"/><axis xyz="0 0 1"/>
    <limit lower="-1" upper="1" effort="1" velocity="1"/></joint></robot>""")
    with pytest.warns(dynscope.ModelWarning, match="bad.urdf"):
        model = dynscope.load(str(urdf))
    codes = [f.code for f in model.findings if f.severity != "info"]
    assert any(c.startswith("inertia") for c in codes)
    f = next(f for f in model.findings if f.code.startswith("inertia"))
    assert f.line > 0 and f.hint and "bad.urdf" in str(f)
    with warnings.catch_warnings():
        warnings.simplefilter("error", dynscope.ModelWarning)  # balanced: nothing left to warn about
        fixed = dynscope.load(str(urdf), fixups=["balance-inertias"])
    assert fixed.fixups == ["balance-inertias"]
    with pytest.raises(ValueError, match="balance-inertias"):
        dynscope.load(str(urdf), fixups=["balance"])


def test_load_errors_name_file_line_and_element(tmp_path):
    bad = tmp_path / "broken.urdf"
    bad.write_text('<robot name="r">\n<link name="a"/>\n<joint name="j" type="revolute">\n<parent link="a"/>\n'
                   '<child link="missing"/>\n</joint>\n</robot>\n')
    with pytest.raises(dynscope.LoadError) as e:
        dynscope.load(str(bad))
    assert e.value.file == str(bad) and e.value.line > 0 and "missing" in str(e.value)
    assert str(e.value).startswith(f"{bad}:{e.value.line}: ")
    assert isinstance(e.value, ValueError)
    binary = tmp_path / "robot.urdf"
    binary.write_bytes(bytes(range(256)) * 4)
    with pytest.raises(dynscope.LoadError, match="not a text file"):
        dynscope.load(str(binary))
    with pytest.raises(dynscope.LoadError, match="nope.urdf"):
        dynscope.load(str(tmp_path / "nope.urdf"))
    with pytest.raises(dynscope.LoadError, match="<string>"):
        dynscope.load_string("<robot name='x'><joint/></robot>")


def test_gravity_and_with_gravity(robots):
    model = dynscope.load(str(robots / "ur5.urdf"), gravity=[0, 0, -1.62])
    assert list(model.gravity) == [0, 0, -1.62]
    earth = model.with_gravity([0, 0, -9.81])
    q = model.neutral()
    g_moon = dynscope.gravity_vector(model, dynscope.Data(model), q)
    g_earth = dynscope.gravity_vector(earth, dynscope.Data(earth), q)
    assert np.allclose(g_moon * 9.81 / 1.62, g_earth, atol=1e-12)
    with pytest.raises(ValueError, match="another model"):
        dynscope.rnea(earth, dynscope.Data(model), q, q, q)


def test_names_and_lookups(robots):
    model = dynscope.load(str(robots / "ur5.urdf"))
    assert model.joint("elbow_joint").idx_q == model.q_names.index("elbow_joint")
    with pytest.raises(ValueError, match="elbow_joint"):  # lists the valid names
        model.joint("elbow")
    with pytest.raises(ValueError, match="no frame named 'tool'"):
        dynscope.frame_pose(model, dynscope.Data(model), model.neutral(), "tool")
    assert model.frame_index(model.frame_names[2]) == 2
    assert "ur5" in repr(model) and "nq=6" in repr(model)
