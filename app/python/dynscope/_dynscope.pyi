"""Type stubs of dynscope's native module (written by scripts/python-stubs; do not edit)."""
from typing import Any

import numpy as np
from numpy.typing import ArrayLike, NDArray

__version__: str

class ForwardDynamicsError(ArithmeticError):
    """
    Forward dynamics is undefined at this state: H(q) has a pivot that is not positive. The message names
    the joint (and its link); e.body is that body's index.
    """

class LoadError(ValueError):
    """
    A file that cannot be used as written: str(e) is 'file:line: element: message' (as the CLI prints);
    e.file, e.line (0 when unknown), e.element and e.message hold the parts.
    """

class SimulationDiverged(RuntimeError):
    """
    The simulation diverged (NaN, a velocity above velocity_bound, or forward dynamics
    refused at a state): str(e) says why and when; e.t [s] is the last good state's time,
    e.message the engine's message, e.result (simulate) the SimulationResult up to it.
    """

class Controller:
    """
    A torque source of the simulator (the engine's Controller): what the actuators apply at (t, q, qd);
    damping, friction, joint springs and limits come on top. Made by the static methods below;
    simulate and Simulator also take controller='passive' or 'gravity'.
    """
    @staticmethod
    def passive() -> Controller:
        """tau = 0"""

    @staticmethod
    def gravity_compensation() -> Controller:
        """tau = g(q) = RNEA(q, 0, 0): holds any pose at rest"""

    @staticmethod
    def constant(model: Model, tau: ArrayLike) -> Controller:
        """tau (nv) [N m or N], constant"""

    @staticmethod
    def pd(reference: Trajectory, kp: ArrayLike, kd: ArrayLike) -> Controller:
        """
        PD tracking of a Trajectory: tau = Kp e + Kd ed, e = q_ref (-) q, ed = qd_ref - qd; kp [N m/rad],
        kd [N m s/rad]: one number or nv. The reference is interpolated, held outside its range.
        """

    @staticmethod
    def computed_torque(reference: Trajectory, kp: ArrayLike, kd: ArrayLike) -> Controller:
        """
        Computed torque: tau = RNEA(q, qd, qdd_ref + Kp e + Kd ed), so e'' + Kd e' + Kp e = 0 (without
        damping, friction, limits); kp [1/s^2], kd [1/s]: one number or nv.
        """

    @staticmethod
    def replay(model: Model, t: ArrayLike, TAU: ArrayLike) -> Controller:
        """Replays torques TAU (N x nv) at times t (N, increasing) [s], linear between rows, held outside."""

    @staticmethod
    def replay_csv(model: Model, path: str) -> Controller:
        """Replays a torque CSV (t, tau_<v name> columns), as dynscope-cli simulate --controller replay."""

    @property
    def name(self) -> str:
        ...

    def __repr__(self) -> str:
        ...


class Data:
    """The algorithms' workspace for one model (one per thread), as in Pinocchio."""
    def __init__(self, model: Model) -> None:
        ...

    @property
    def tau(self) -> NDArray[np.float64]:
        """the last rnea result"""

    @property
    def qdd(self) -> NDArray[np.float64]:
        """the last aba / forward dynamics result"""

    @property
    def M(self) -> NDArray[np.float64]:
        """the last crba result (H)"""

    @property
    def nle(self) -> NDArray[np.float64]:
        ...

    @property
    def g(self) -> NDArray[np.float64]:
        ...

    @property
    def J(self) -> NDArray[np.float64]:
        """the last jacobian"""

    @property
    def com(self) -> NDArray[np.float64]:
        ...

    @property
    def kinetic_energy(self) -> float:
        ...

    @property
    def potential_energy(self) -> float:
        ...

    def frame_pose(self, frame: str | int) -> NDArray[np.float64]:
        """4x4 pose of a frame (name or index) in the world, after forward_kinematics"""

    def body_pose(self, body: int) -> NDArray[np.float64]:
        """4x4 pose of a body's frame in the world, after forward_kinematics"""

    def __repr__(self) -> str:
        ...


class Finding:
    """One finding of the model check (docs/model-check.md)."""
    @property
    def severity(self) -> str:
        """'info', 'warning' or 'error'"""

    @property
    def code(self) -> str:
        """e.g. 'inertia.triangle'"""

    @property
    def file(self) -> str:
        ...

    @property
    def line(self) -> int:
        """0 when unknown"""

    @property
    def element(self) -> str:
        ...

    @property
    def link(self) -> str:
        ...

    @property
    def joint(self) -> str:
        ...

    @property
    def message(self) -> str:
        """what is wrong and by how much"""

    @property
    def hint(self) -> str:
        """what it means for the dynamics and what to do"""

    def __str__(self) -> str:
        ...

    def __repr__(self) -> str:
        ...


class Formulation:
    """One entry of the engine's registry of formulations (docs/formulations.md)."""
    @property
    def name(self) -> str:
        """the name algorithm= takes, e.g. 'denoc'"""

    @property
    def problem(self) -> str:
        """'id', 'mass' or 'fd'"""

    @property
    def title(self) -> str:
        ...

    @property
    def description(self) -> str:
        ...

    @property
    def reference(self) -> str:
        """the paper, section and equations it implements"""

    @property
    def degree(self) -> int:
        """the cost grows as n^degree on a serial chain of n links"""

    @property
    def revolute_prismatic_only(self) -> bool:
        ...

    @property
    def paper_counts(self) -> list:
        """the operation counts the papers print for it"""

    def __repr__(self) -> str:
        ...


class Frame:
    """A named frame fixed to a body: every link (merged ones too) and tool frames."""
    @property
    def name(self) -> str:
        ...

    @property
    def body(self) -> int:
        """the index of the body it is fixed to (0: the base)"""

    @property
    def link(self) -> str:
        """the name of that body"""

    @property
    def placement(self) -> NDArray[np.float64]:
        """4x4 pose of the frame in its body's coordinates [m]"""

    def __repr__(self) -> str:
        ...


class Joint:
    """A joint of the model's spanning tree (body i's joint connects it to its parent)."""
    @property
    def name(self) -> str:
        ...

    @property
    def type(self) -> str:
        """'revolute', 'prismatic', 'helical', 'planar', 'spherical' or 'floating'"""

    @property
    def link(self) -> str:
        """the link (body) it moves"""

    @property
    def parent_link(self) -> str:
        ...

    @property
    def body(self) -> int:
        """the index of the body it moves (1..nbodies)"""

    @property
    def parent(self) -> int:
        """the index of the parent body (0: the fixed base)"""

    @property
    def idx_q(self) -> int:
        """its first entry in q"""

    @property
    def idx_v(self) -> int:
        """its first entry in qd, qdd and tau"""

    @property
    def nq(self) -> int:
        ...

    @property
    def nv(self) -> int:
        ...

    @property
    def continuous(self) -> bool:
        """a revolute joint without position limits"""

    @property
    def axis(self) -> NDArray[np.float64]:
        """in the body's (canonical) frame: z for revolute, prismatic, helical"""

    @property
    def pitch(self) -> float:
        """helical joints: metres per radian"""

    def __repr__(self) -> str:
        ...


class Model:
    """
    A robot model (immutable). Bodies 1..nbodies, body 0 the fixed base; joint i moves body i.
    q has nq entries (a spherical joint: quaternion x, y, z, w; a floating base: x, y, z, qx, qy, qz, qw),
    qd, qdd and tau have nv (a floating base: angular velocity before linear, [w; v], in body coordinates).
    """
    @property
    def name(self) -> str:
        ...

    @property
    def path(self) -> str:
        """the file it was loaded from ('' for a string)"""

    @property
    def source(self) -> str:
        """the text, when loaded from a string"""

    @property
    def format(self) -> str:
        """'urdf', 'mjcf' or 'dh'"""

    @property
    def fixups(self) -> list[str]:
        """the fix-ups applied at load, by name"""

    @property
    def nq(self) -> int:
        """configuration size"""

    @property
    def nv(self) -> int:
        """velocity size (degrees of freedom)"""

    @property
    def nbodies(self) -> int:
        """moving bodies (body 0, the base, not counted)"""

    @property
    def floating_base(self) -> bool:
        ...

    @property
    def body_names(self) -> list[str]:
        """nbodies + 1 names, the base first"""

    @property
    def joint_names(self) -> list[str]:
        """the joints of bodies 1..nbodies"""

    @property
    def parents(self) -> list[int]:
        """parent body of each body (-1 for the base)"""

    @property
    def q_names(self) -> list[str]:
        """one name per q entry"""

    @property
    def v_names(self) -> list[str]:
        """one name per qd, qdd or tau entry"""

    @property
    def joints(self) -> list[Joint]:
        ...

    @property
    def frames(self) -> list[Frame]:
        ...

    @property
    def frame_names(self) -> list[str]:
        ...

    @property
    def end_effector(self) -> str:
        """the default end-effector frame ('' when the model names none)"""

    @property
    def lower_limit(self) -> NDArray[np.float64]:
        """per q entry; -inf where unlimited"""

    @property
    def upper_limit(self) -> NDArray[np.float64]:
        """per q entry; +inf where unlimited"""

    @property
    def velocity_limit(self) -> NDArray[np.float64]:
        """per v entry; inf where not given"""

    @property
    def effort_limit(self) -> NDArray[np.float64]:
        """per v entry [N m or N]; inf where not given"""

    @property
    def damping(self) -> NDArray[np.float64]:
        """per v entry [N m s/rad or N s/m]"""

    @property
    def friction(self) -> NDArray[np.float64]:
        """per v entry"""

    @property
    def armature(self) -> NDArray[np.float64]:
        """rotor inertia per v entry (MJCF armature), added to H's diagonal"""

    @property
    def gravity(self) -> NDArray[np.float64]:
        """[m/s^2], world axes"""

    @property
    def total_mass(self) -> float:
        """[kg]"""

    @property
    def masses(self) -> NDArray[np.float64]:
        """per body 0..nbodies [kg] (a body includes the links fixed to it)"""

    @property
    def mimics(self) -> list:
        """the mimic relations: joint = multiplier * mimicked + offset"""

    @property
    def loops(self) -> list[str]:
        """the joints that close kinematic loops, by name (docs/loops.md)"""

    @property
    def keyframes(self) -> dict:
        """named configurations from the file (MJCF keyframes): name -> q"""

    @property
    def findings(self) -> list[Finding]:
        """the model check's findings"""

    def neutral(self) -> NDArray[np.float64]:
        """q of zeros with identity quaternions"""

    def home(self) -> NDArray[np.float64]:
        """the configuration to start from: an assembled closed loop, the file's initial q (MJCF qpos0), else neutral"""

    def joint(self, name: str) -> Joint:
        ...

    def frame_index(self, name: str) -> int:
        ...

    def body_index(self, name: str) -> int:
        ...

    def with_gravity(self, gravity: ArrayLike) -> Model:
        """a copy of the model with another gravity vector [m/s^2]"""

    def __repr__(self) -> str:
        ...


class SimulationResult:
    """
    What a simulation recorded, one row per recorded step (the columns of dynscope-cli simulate's CSV):
    t (N) [s], q (N x nq), qd, qdd, tau (N x nv; tau: every joint force applied, actuators, damping,
    friction, limits and from outside). Entries not recorded are None. status 'ok' or 'diverged'
    (error says why; the record ends at the last good state).
    """
    @property
    def t(self) -> ArrayLike:
        ...

    @property
    def q(self) -> NDArray[np.float64]:
        ...

    @property
    def qd(self) -> NDArray[np.float64]:
        ...

    @property
    def qdd(self) -> NDArray[np.float64]:
        ...

    @property
    def tau(self) -> NDArray[np.float64]:
        ...

    @property
    def tau_external(self) -> ArrayLike:
        """J^T f of the wrenches and the ground (N x nv), the part of tau from outside; None when nothing acted"""

    @property
    def energy(self) -> ArrayLike:
        """kinetic + potential + what the springs hold (N) [J]"""

    @property
    def energy_drift(self) -> ArrayLike:
        """(E_k - E_0) / |E_0| (E_k - E_0 when |E_0| < 1e-12) per sample"""

    @property
    def fd_difference(self) -> ArrayLike:
        """compare: max |qdd_aba - qdd_crba| per sample [rad/s^2]"""

    @property
    def constraint_error(self) -> ArrayLike:
        """closed loops: |phi(q)| per sample"""

    @property
    def constraint_rate_error(self) -> ArrayLike:
        """closed loops: |phi'(q) qd| per sample"""

    @property
    def contact_normal(self) -> ArrayLike:
        """ground: sum of the normal forces per sample [N]"""

    @property
    def contact_friction(self) -> ArrayLike:
        """ground: sum of the friction forces' magnitudes per sample [N]"""

    @property
    def penetration(self) -> ArrayLike:
        """ground: the deepest penetration per sample [m]"""

    @property
    def limit_events(self) -> list:
        """every entry into a joint limit: dicts t [s], dof (v index), joint (name), upper, position, limit"""

    @property
    def status(self) -> str:
        """'ok' or 'diverged'"""

    @property
    def error(self) -> str:
        """why it diverged ('' when ok)"""

    @property
    def q_names(self) -> list[str]:
        ...

    @property
    def v_names(self) -> list[str]:
        ...

    @property
    def stats(self) -> dict:
        """steps, sub_steps, rejected (rk45), evaluations, projection_failures, worst_projection_residual"""

    @property
    def max_relative_energy_drift(self) -> float:
        ...

    @property
    def samples(self) -> int:
        ...

    def trajectory(self) -> Trajectory:
        """
        The recorded motion as a Trajectory (t, q, qd, qdd), e.g. for trajectory_dynamics (with
        tau_external=result.tau_external when wrenches or the ground acted).
        """

    def __repr__(self) -> str:
        ...


class Simulator:
    """
    A forward-dynamics simulation you step yourself (the engine's Simulator; MuJoCo's mj_step):
        sim = dynscope.Simulator(model, q0, qd0, integrator='rk4', dt=1e-3)
        for k in range(1000):
            tau = ...  # from sim.t, sim.q, sim.qd
            sim.step(tau)
        result = sim.result()
    qdd = FD(q, qd, tau) with tau = controller (or the torque given to step) + damping, friction, joint
    springs and limits + wrenches and ground. q0 defaults to the model's home pose, qd0 to rest.
    Divergence raises SimulationDiverged (sim.status is then 'diverged' until reset).
    Options (keywords; defaults as dynscope-cli simulate):
      integrator='euler' (symplectic) | 'rk4' | 'rk45' (adaptive Dormand-Prince); dt=1e-3 [s] (rk45: the
      output interval and largest sub-step); tolerance=1e-8 (rk45); min_step=1e-12 [s] (rk45);
      algorithm='aba' | 'crba'; compare=False (also run the other algorithm: fd_difference);
      damping=True (-b qd, model.damping), friction=True (model.friction), friction_velocity=1e-2;
      limits=True, limit_stiffness=1e4 [N m/rad], limit_damping=1e2 [N m s/rad];
      velocity_bound=1e3 (|qd_i| above it: diverged); record_every=1; record_limit=0; energy=True;
      ground=None or the height [m] of the plane z = ground; ground_friction=0.8 (Coulomb mu);
      contact_time=0.01 [s], contact_damping_ratio=1, or contact_stiffness [N/m] (> 0 replaces the rule)
      with contact_damping [N s/m];
      loop_method='1'|'2'|'3', baumgarte=(alpha, beta) [1/s] or None (off), projection=True (closed loops);
      controller='passive' | 'gravity' | a Controller; wrenches=[Wrench, ...] (pushes).
    """
    def __init__(self, model: Model, q0: ArrayLike | None = ..., qd0: ArrayLike | None = ..., **kwargs) -> None:
        ...

    def reset(self, q0: ArrayLike | None = ..., qd0: ArrayLike | None = ...) -> None:
        """Back to t = 0 at (q0, qd0) (defaults: home pose, rest); clears the record."""

    def step(self, tau: ArrayLike | None = ..., n: int = ...) -> None:
        """
        n steps of dt. tau (nv) [N m or N]: the actuator torque, held over the steps (zero-order hold, as
        MuJoCo's ctrl); it replaces the controller and stays until the next tau (sim.controller is then
        'constant'). Without tau the controller acts. Raises SimulationDiverged.
        """

    def advance(self, duration: float) -> None:
        """
        Steps for round(duration / dt) steps [s] with the GIL released and records the final state.
        Raises SimulationDiverged.
        """

    def set_controller(self, controller: ArrayLike) -> None:
        """'passive', 'gravity' or a Controller; the state and record are kept."""

    def set_wrenches(self, wrenches: list[Wrench]) -> None:
        """The wrenches (pushes) from now on: a list of Wrench (times as for simulate)."""

    def evaluate(self, t: float, q: ArrayLike, qd: ArrayLike) -> tuple:
        """(tau, qdd) the simulation applies at (t, q, qd): the integrators' right-hand side."""

    def result(self) -> SimulationResult:
        """The record so far as a SimulationResult (a copy)."""

    @property
    def t(self) -> float:
        """[s]"""

    @property
    def q(self) -> NDArray[np.float64]:
        ...

    @property
    def qd(self) -> NDArray[np.float64]:
        ...

    @property
    def qdd(self) -> NDArray[np.float64]:
        """at the current state"""

    @property
    def tau(self) -> NDArray[np.float64]:
        """every joint force at the current state: H qdd + C = tau"""

    @property
    def external_tau(self) -> NDArray[np.float64]:
        """J^T f of the wrenches and the ground at the current state (part of tau)"""

    @property
    def energy(self) -> float:
        """kinetic + potential + springs [J]"""

    @property
    def status(self) -> str:
        ...

    @property
    def error(self) -> str:
        ...

    @property
    def controller(self) -> str:
        ...

    @property
    def dt(self) -> float:
        """[s]"""

    @property
    def stats(self) -> dict:
        ...

    @property
    def contact_forces(self) -> list:
        """the ground's forces at the current state: dicts body, position [m], force [N] (world), penetration [m], sliding"""

    def __repr__(self) -> str:
        ...


class Trajectory:
    """
    A sampled joint trajectory: t (N) [s], q (N x nq), qd, qdd (N x nv) [rad, m; /s; /s^2], one row per
    sample; qd and qdd in the engine's v coordinates (body rates for spherical and floating joints).
    Made by sample_waypoints, WaypointTrajectory.sample, demo_trajectory, read_trajectory_csv,
    SimulationResult.trajectory(), or from arrays: Trajectory(model, t, Q, QD=None, QDD=None).
    """
    def __init__(self, model: Model, t: ArrayLike, Q: ArrayLike, QD: ArrayLike | None = ..., QDD: ArrayLike | None = ...) -> None:
        """
        t (N) strictly increasing [s], Q (N x nq). Missing QD / QDD are the derivatives of the C2 cubic
        spline through the samples (not-a-knot ends), as read_trajectory_csv derives them; QD given and
        QDD not: QDD is the derivative of the spline through QD.
        """

    @property
    def t(self) -> NDArray[np.float64]:
        """sample times (N) [s]"""

    @property
    def q(self) -> NDArray[np.float64]:
        """N x nq configurations"""

    @property
    def qd(self) -> NDArray[np.float64]:
        """N x nv velocities"""

    @property
    def qdd(self) -> NDArray[np.float64]:
        """N x nv accelerations (N x 0 when read with accelerations=False)"""

    @property
    def q_names(self) -> list[str]:
        """the names of q's columns (as the CSV header)"""

    @property
    def v_names(self) -> list[str]:
        """the names of qd's, qdd's (and tau's) columns"""

    @property
    def samples(self) -> int:
        ...

    @property
    def start_time(self) -> float:
        """[s]"""

    @property
    def end_time(self) -> float:
        """[s]"""

    @property
    def velocities_from_spline(self) -> bool:
        """qd was derived from the spline through q (not given)"""

    @property
    def accelerations_from_spline(self) -> bool:
        """qdd was derived from a spline (not given)"""

    @property
    def ignored_columns(self) -> list[str]:
        """read from a CSV: the columns not used"""

    @property
    def model_name(self) -> str:
        """the model it was made for"""

    def interpolate(self, t: float) -> tuple:
        """
        (q, qd, qdd) at time t [s], clamped to the sample range: q on the joint manifolds between the
        neighbouring samples (slerp for quaternions), qd and qdd linear; exact at the samples.
        """

    def nearest_sample(self, t: float) -> int:
        """The index of the sample nearest to t (ties: the earlier one)."""

    def __repr__(self) -> str:
        ...


class TrajectoryDynamics:
    """
    Inverse dynamics along a trajectory, one row per sample (N x nv arrays [N m or N], N arrays [J]):
    tau = M(q) qdd + c(q, qd) + g(q) (+ external). Entries not computed are None.
    """
    @property
    def t(self) -> ArrayLike:
        """sample times (N) [s]"""

    @property
    def tau(self) -> ArrayLike:
        """RNEA(q, qd, qdd) (minus J^T f of tau_external)"""

    @property
    def power(self) -> ArrayLike:
        """tau_i qd_i per joint [W]"""

    @property
    def inertial(self) -> ArrayLike:
        """M(q) qdd = tau - RNEA(q, qd, 0) (decompose)"""

    @property
    def coriolis(self) -> ArrayLike:
        """Coriolis and centrifugal c(q, qd) = RNEA(q, qd, 0) - g (decompose)"""

    @property
    def gravity(self) -> ArrayLike:
        """g(q) = RNEA(q, 0, 0) (decompose)"""

    @property
    def external(self) -> ArrayLike:
        """-J^T f (decompose with tau_external)"""

    @property
    def kinetic(self) -> ArrayLike:
        """kinetic energy (N) [J] (energy)"""

    @property
    def potential(self) -> ArrayLike:
        """potential energy (N) [J] (energy)"""

    @property
    def total(self) -> ArrayLike:
        """kinetic + potential (N) [J] (energy)"""

    @property
    def effort_limit_violations(self) -> list:
        """per dof (nv lists) the sample indices where |tau| exceeds model.effort_limit"""


class WaypointTrajectory:
    """
    A joint trajectory through waypoints (t_k, q_k) (the engine's WaypointTrajectory), evaluated exactly
    at any t. interpolation: 'quintic' (rest to rest per segment, qd = qdd = 0 at every waypoint, C2),
    'trapezoidal' (trapezoidal velocity per segment, accelerating for trapezoid_fraction of it; C1) or
    'cubic-spline' (one C2 spline through all waypoints, qd = 0 at the ends only; qdd there is not 0).
    Spherical and floating joints move on their manifolds; revolute angles are not wrapped.
    """
    def __init__(self, model: Model, times: ArrayLike, Q: ArrayLike, interpolation: str = ..., trapezoid_fraction: float = ...) -> None:
        """
        times (K) strictly increasing [s], Q (K x nq) one waypoint per row, K >= 2. ValueError names the
        waypoint (1-based) that is wrong.
        """

    def evaluate(self, t: float) -> tuple:
        """(q, qd, qdd) at time t [s] (clamped to [start_time, end_time]), exact derivatives."""

    def sample(self, rate: float = ...) -> Trajectory:
        """
        A Trajectory sampled at start_time + k / rate [Hz], plus end_time when the duration is not a
        multiple of 1/rate (at most 10^7 samples).
        """

    @property
    def interpolation(self) -> str:
        ...

    @property
    def start_time(self) -> float:
        """[s]"""

    @property
    def end_time(self) -> float:
        """[s]"""

    @property
    def times(self) -> NDArray[np.float64]:
        """the waypoints' times (K) [s]"""

    @property
    def Q(self) -> NDArray[np.float64]:
        """the waypoints (K x nq)"""

    def __repr__(self) -> str:
        ...


class Wrench:
    """
    A push or load on a link (docs/external-forces.md), held in world axes while the robot moves:
    force [N] and moment [N m] in world axes, the force acting at point [m] in the link's frame
    (any URDF link or DH frame). It acts while start <= t < end [s] (default: always), on the
    steps whose middle lies in that window: a push.
    """
    def __init__(self, link: str, force: ArrayLike = ..., moment: ArrayLike = ..., point: ArrayLike = ..., start: float = ..., end: float = ...) -> None:
        ...

    @property
    def link(self) -> str:
        ...

    @property
    def force(self) -> NDArray[np.float64]:
        ...

    @property
    def moment(self) -> NDArray[np.float64]:
        ...

    @property
    def point(self) -> NDArray[np.float64]:
        ...

    @property
    def start(self) -> float:
        ...

    @property
    def end(self) -> float:
        ...

    def __repr__(self) -> str:
        ...


def aba(model: Model, data: Data, q: ArrayLike, qd: ArrayLike, tau: ArrayLike, fext: ArrayLike | None = ...) -> NDArray[np.float64]:
    """
    Forward dynamics, Featherstone's articulated-body algorithm: qdd = H(q)^-1 (tau - C(q, qd) qd - g(q)).
    Raises ForwardDynamicsError naming the joint where a pivot is not positive (a joint that moves no mass).
    """

def aba_batch(model: Model, Q: ArrayLike, QD: ArrayLike | None = ..., TAU: ArrayLike | None = ..., threads: int = ...) -> NDArray[np.float64]:
    """
    qdd for every row (articulated-body algorithm): Q (N x nq), QD, TAU (N x nv) -> N x nv.
    threads: how many threads (0: every core); each takes at least 16 states.
    """

def assemble(model: Model, q: ArrayLike | None = ..., *, hold: list[str] = ..., hold_independent: bool = ...) -> dict:
    """
    The assembled configuration (phi(q) = 0) nearest to q by Newton's method, as dynscope-cli assemble;
    hold: joints kept at q's values. Raises RuntimeError naming the loop when it cannot close.
    """

def center_of_mass(model: Model, data: Data, q: ArrayLike) -> NDArray[np.float64]:
    """The whole robot's centre of mass in the world [m]."""

def crba(model: Model, data: Data, q: ArrayLike) -> NDArray[np.float64]:
    """
    The joint-space inertia matrix H(q) (nv x nv, symmetric positive definite), composite-rigid-body algorithm.
    Structural zeros (branch-induced sparsity) are exactly 0.
    """

def crba_batch(model: Model, Q: ArrayLike, threads: int = ...) -> NDArray[np.float64]:
    """
    H(q) for every row -> N x nv x nv.
    threads: how many threads (0: every core); each takes at least 16 states.
    """

def demo_trajectory(model: Model, demo: str, rate: float = ...) -> Trajectory:
    """
    Saha's cycloidal demonstration (ASME J. Appl. Mech. 1999, eq. 39) sampled at rate [Hz] over T = 10 s,
    with analytic qd and qdd (zero at both ends), as dynscope-cli trajectory --demo:
    'saha-stanford' (robots/stanford_arm.dh: theta_i 0 -> 60 deg, theta_2 from 90 deg, b_3 0 -> 0.1 m) or
    'saha-planar3' (robots/planar3.dh: every theta_i 0 -> pi). ValueError when the model's joints differ.
    """

def difference(model: Model, q0: ArrayLike, q1: ArrayLike) -> NDArray[np.float64]:
    """The velocity v (nv) that takes q0 to q1 in unit time."""

def effort_limit_violations(model: Model, tau: ArrayLike) -> list:
    """Per dof (nv lists), the row indices of tau (N x nv) where |tau| exceeds a finite model.effort_limit."""

def energy(model: Model, data: Data, q: ArrayLike, qd: ArrayLike) -> tuple:
    """(kinetic, potential) energy [J]: T = 1/2 qd^T H qd (armature included), V = -m g . c (springs included)."""

def formulations(problem: str | None = ...) -> list[Formulation]:
    """The registry's formulations (all, or those of 'inverse_dynamics', 'mass_matrix', 'forward_dynamics')."""

def forward_dynamics(model: Model, q: ArrayLike, qd: ArrayLike | None = ..., tau: ArrayLike | None = ..., algorithm: str = ...) -> NDArray[np.float64]:
    """
    qdd (nv) by the named formulation ('aba', 'crba', 'denoc', ...; dynscope.formulations('fd')).
    Raises ForwardDynamicsError naming the joint where H(q) has no positive pivot.
    """

def forward_dynamics_crba(model: Model, data: Data, q: ArrayLike, qd: ArrayLike, tau: ArrayLike, fext: ArrayLike | None = ...) -> NDArray[np.float64]:
    """Forward dynamics by CRBA and the sparse L^T L factorisation (Featherstone's branch-induced sparsity)."""

def forward_dynamics_crba_batch(model: Model, Q: ArrayLike, QD: ArrayLike | None = ..., TAU: ArrayLike | None = ..., threads: int = ...) -> NDArray[np.float64]:
    """
    qdd for every row by CRBA + L^T L -> N x nv.
    threads: how many threads (0: every core); each takes at least 16 states.
    """

def forward_kinematics(model: Model, data: Data, q: ArrayLike, qd: ArrayLike | None = ...) -> None:
    """Forward kinematics: every body's and frame's pose (data.body_pose, data.frame_pose), and with qd their velocities."""

def frame_pose(model: Model, data: Data, q: ArrayLike, frame: str | int) -> NDArray[np.float64]:
    """The 4x4 pose of a frame (name or index) in the world at q: rotation (columns = the frame's axes) and origin [m]."""

def frame_pose_batch(model: Model, Q: ArrayLike, frame: str | int, threads: int = ...) -> NDArray[np.float64]:
    """
    A frame's 4x4 world pose for every row -> N x 4 x 4.
    threads: how many threads (0: every core); each takes at least 16 states.
    """

def frame_poses(model: Model, q: ArrayLike) -> dict:
    """Every frame's 4x4 world pose at q, by name (as dynscope-cli fk)."""

def general_chain(n: int, seed: int = ...) -> Model:
    """The general n-link revolute chain the papers count operations on (dynscope-cli opcount --chain n)."""

def gravity_batch(model: Model, Q: ArrayLike, threads: int = ...) -> NDArray[np.float64]:
    """
    g(q) for every row -> N x nv.
    threads: how many threads (0: every core); each takes at least 16 states.
    """

def gravity_vector(model: Model, data: Data, q: ArrayLike) -> NDArray[np.float64]:
    """The gravity torques g(q) (nv)."""

def integrate(model: Model, q: ArrayLike, v: ArrayLike, dt: float = ...) -> NDArray[np.float64]:
    """q (+) v dt on the configuration space (quaternions stay unit)."""

def inverse_dynamics(model: Model, q: ArrayLike, qd: ArrayLike | None = ..., qdd: ArrayLike | None = ..., algorithm: str = ...) -> NDArray[np.float64]:
    """
    tau (nv) by the named formulation: 'rnea', 'denoc', 'newton-euler-3', 'uicker-kahn', 'waters',
    'lagrange-4x4', 'lagrange-3x3', 'configuration-space' (dynscope.formulations('id') lists them).
    qd, qdd default to zeros. Every formulation gives the same tau (to rounding); they differ in cost.
    The teaching formulations handle revolute and prismatic joints only (others: ValueError naming the joint).
    """

def inverse_kinematics(model: Model, target: ArrayLike, *, frame: str | int | None = ..., q0: ArrayLike | None = ..., pins: list[str] = ..., locks: list[str] = ..., position_only: bool = ..., restarts: int = ..., max_iterations: int = ..., tolerance: float = ...) -> dict:
    """
    A configuration putting `frame` (default: the model's end effector) at `target`, from q0 (default:
    model.home()), by damped least squares within the joint limits, as dynscope-cli ik.
    target: [x, y, z] (position only), [x, y, z, qx, qy, qz, qw] or a 4x4 pose, world coordinates [m].
    pins: frames held where they are at q0; locks: joints that do not move. Closed loops stay closed.
    Returns a dict: q, converged, reachable, iterations, restarts, position_error [m], rotation_error [rad],
    pin_error, at_limit (names of dofs resting at a limit), pose (the frame's 4x4 pose at q).
    """

def jacobian(model: Model, data: Data, q: ArrayLike, frame: str | int, reference: str = ...) -> NDArray[np.float64]:
    """
    The 6 x nv Jacobian of a frame, rows [w; v] (angular first).
    reference: 'local' (the frame's axes), 'world' (Plücker coordinates of the world frame) or
    'local_world_aligned' (world axes, v of the frame's origin; the default, as the CLI).
    """

def jacobian_batch(model: Model, Q: ArrayLike, frame: str | int, reference: str = ..., threads: int = ...) -> NDArray[np.float64]:
    """
    A frame's 6 x nv Jacobian for every row -> N x 6 x nv.
    threads: how many threads (0: every core); each takes at least 16 states.
    """

def load(path: str, *, floating_base: bool = ..., fixups: list[str] = ..., gravity: ArrayLike | None = ...) -> Model:
    """
    Loads a URDF (.urdf, .xml), MuJoCo MJCF (.xml, .mjcf) or DH table (.dh) file.

    floating_base: add a 6-DOF free joint between the world and the root link.
    fixups: names of fix-ups to apply ('balance-inertias', 'unlimited-degenerate-limits',
    'mass-massless-links', or 'all'), as the CLI's --fix.
    gravity: [x, y, z] in m/s^2 (default: the file's, else -9.81 along z).
    Raises LoadError (file:line: element: message) when the file cannot be used; implausible but
    usable input loads with findings (model.findings) and one ModelWarning.
    """

def load_string(text: str, *, format: str = ..., floating_base: bool = ..., fixups: list[str] = ..., gravity: ArrayLike | None = ..., name: str = ...) -> Model:
    """
    Loads a model from text: format 'urdf', 'mjcf' or 'dh' ('' tells from the text).
    name: what error messages call it (instead of a file name).
    """

def loop_constraints(model: Model, q: ArrayLike | None = ..., qd: ArrayLike | None = ...) -> dict:
    """
    The loop constraints (review eqs. 16–17): phi(q), its Jacobian phi' (rows x nv, relative motion [w; v]
    across each loop joint) and phi' qd, with each row's name ('joint:vx').
    """

def loop_forward_dynamics(model: Model, q: ArrayLike | None = ..., qd: ArrayLike | None = ..., tau: ArrayLike | None = ..., method: str = ..., baumgarte: tuple[float, float] = ...) -> dict:
    """
    Forward dynamics of a closed-loop mechanism, as dynscope-cli fd --loop-method: method '1' (augmented
    system), '2' (Lagrange multipliers, eq. 18–19), '3' (null space), or the review's global (6N) analysis
    'global', 'global-26', 'global-28' (§3.5). baumgarte = (alpha, beta) [1/s] stabilises drift.
    Returns qdd, the constraint forces lambda with their rows' names, and max |phi|, |phi' qd| at the state.
    """

def loop_info(model: Model) -> dict:
    """
    The closed loops (review §3.4): loop joints, constraint rows and rank, mobility, which dofs are
    actuated, independent and dependent (by name), and an assembled reference configuration.
    """

def loop_inverse_dynamics(model: Model, q: ArrayLike | None = ..., qd: ArrayLike | None = ..., qdd: ArrayLike | None = ...) -> dict:
    """
    Inverse dynamics of a closed-loop mechanism, as dynscope-cli id: the actuated joints' tau for the
    independent coordinates' motion (q assembled and the dependent qd, qdd solved from the loops),
    tau_tree = RNEA of the spanning tree = tau + phi'^T lambda, the constraint forces and the residual.
    """

def mass_matrix(model: Model, q: ArrayLike, algorithm: str = ...) -> NDArray[np.float64]:
    """H(q) (nv x nv) by the named formulation ('crba', 'denoc', ...; dynscope.formulations('mass'))."""

def mimic_coupling(model: Model) -> dict:
    """
    The mimic reduction (docs/mimic.md): qd = G yd with G (nv x ny) one non-zero per row, and the names of
    the independent coordinates y (positions) and yd (velocities).
    """

def mimic_expand(model: Model, y: ArrayLike) -> NDArray[np.float64]:
    """Every joint's q from the independent coordinates y (followers = multiplier * master + offset)."""

def nonlinear_effects(model: Model, data: Data, q: ArrayLike, qd: ArrayLike) -> NDArray[np.float64]:
    """The bias forces C(q, qd) qd + g(q) (nv), gravity included: RNEA with qdd = 0."""

def nonlinear_effects_batch(model: Model, Q: ArrayLike, QD: ArrayLike | None = ..., threads: int = ...) -> NDArray[np.float64]:
    """
    C(q, qd) qd + g(q) for every row -> N x nv.
    threads: how many threads (0: every core); each takes at least 16 states.
    """

def operation_counts(model: Model, algorithm: str, problem: ArrayLike | None = ...) -> list:
    """
    Multiplications and additions of one call of a formulation on this model (the operation-counting
    scalar runs the same code), next to the seed paper's count at n = nv, as dynscope-cli opcount.
    A list with one dict per problem the name has ('denoc' has id, mass and fd).
    """

def random_configuration(model: Model, seed: int = ...) -> NDArray[np.float64]:
    """A random q within the limits (unlimited joints within +-pi)."""

def read_torque_csv(model: Model, path: str) -> tuple:
    """
    Reads a torque CSV (t and tau_<v name> for every dof; other columns ignored), as the replay
    controller and dynscope-cli fd --trajectory read it: returns (t (N) [s], TAU (N x nv) [N m or N]).
    Errors: LoadError naming file and line.
    """

def read_trajectory_csv(model: Model, path: str, accelerations: bool = ...) -> Trajectory:
    """
    Reads a trajectory CSV (header t, q names, optionally qd_<v name> and qdd_<v name> columns; any
    order, '#' comments), as dynscope-cli id --trajectory. Missing qd / qdd are the derivatives of the
    not-a-knot C2 cubic spline through the samples (trajectory.velocities_from_spline says so); other
    columns are listed in trajectory.ignored_columns. accelerations=False: qdd is neither read nor
    derived (N x 0). Errors: LoadError 'file:line: column ...: message' (e.file, e.line),
    FileNotFoundError for a missing file.
    """

def reduced_forward_dynamics(model: Model, y: ArrayLike, yd: ArrayLike, tau_y: ArrayLike) -> NDArray[np.float64]:
    """ydd = H_y^-1 (tau_y - G^T C(q, qd)), as dynscope-cli fd on a mimic model (NaN where H_y is singular)."""

def reduced_inverse_dynamics(model: Model, y: ArrayLike, yd: ArrayLike, ydd: ArrayLike) -> NDArray[np.float64]:
    """tau_y = G^T ID(q(y), G yd, G ydd): the independent coordinates' forces (dynscope-cli id on a mimic model)."""

def reduced_mass_matrix(model: Model, y: ArrayLike) -> NDArray[np.float64]:
    """H_y = G^T H(q(y)) G (ny x ny), as dynscope-cli mass on a mimic model."""

def rnea(model: Model, data: Data, q: ArrayLike, qd: ArrayLike, qdd: ArrayLike, fext: ArrayLike | None = ...) -> NDArray[np.float64]:
    """
    Inverse dynamics, Featherstone's recursive Newton-Euler algorithm: tau = H(q) qdd + C(q, qd) qd + g(q) - J^T fext.
    q (nq), qd and qdd (nv) in rad, rad/s, rad/s^2 (m for prismatic joints); returns tau (nv) [N m or N].
    fext: optional (nbodies + 1) x 6 external spatial forces [n; f] per body in the body's coordinates.
    """

def rnea_batch(model: Model, Q: ArrayLike, QD: ArrayLike | None = ..., QDD: ArrayLike | None = ..., threads: int = ...) -> NDArray[np.float64]:
    """
    tau for every row: Q (N x nq), QD and QDD (N x nv; None: zeros) -> N x nv.
    threads: how many threads (0: every core); each takes at least 16 states.
    """

def rotation_to_quaternion(R: NDArray[np.float64]) -> NDArray[np.float64]:
    """A rotation matrix as a unit quaternion (x, y, z, w)."""

def rotation_to_rpy(R: NDArray[np.float64]) -> NDArray[np.float64]:
    """A rotation matrix as roll, pitch, yaw [rad] (URDF's convention: R = Rz(yaw) Ry(pitch) Rx(roll))."""

def sample_waypoints(model: Model, times: ArrayLike, Q: ArrayLike, interpolation: str = ..., rate: float = ..., trapezoid_fraction: float = ...) -> Trajectory:
    """
    WaypointTrajectory(model, times, Q, interpolation, trapezoid_fraction).sample(rate): the Trajectory
    through the waypoints (times [s], Q one waypoint per row) sampled at rate [Hz], as a project's
    waypoints in dynscope-cli trajectory --project.
    """

def simulate(model: Model, duration: float, q0: ArrayLike | None = ..., qd0: ArrayLike | None = ..., raise_on_divergence: bool = ..., **kwargs) -> SimulationResult:
    """
    Simulates duration [s] from (q0, qd0) (defaults: home pose, rest) and returns a
    SimulationResult: the numbers of dynscope-cli simulate with the same options. The engine runs
    with the GIL released. Divergence raises SimulationDiverged (e.result holds the record up to the
    last good state), or with raise_on_divergence=False returns it with status 'diverged'.
    Options (keywords; defaults as dynscope-cli simulate):
      integrator='euler' (symplectic) | 'rk4' | 'rk45' (adaptive Dormand-Prince); dt=1e-3 [s] (rk45: the
      output interval and largest sub-step); tolerance=1e-8 (rk45); min_step=1e-12 [s] (rk45);
      algorithm='aba' | 'crba'; compare=False (also run the other algorithm: fd_difference);
      damping=True (-b qd, model.damping), friction=True (model.friction), friction_velocity=1e-2;
      limits=True, limit_stiffness=1e4 [N m/rad], limit_damping=1e2 [N m s/rad];
      velocity_bound=1e3 (|qd_i| above it: diverged); record_every=1; record_limit=0; energy=True;
      ground=None or the height [m] of the plane z = ground; ground_friction=0.8 (Coulomb mu);
      contact_time=0.01 [s], contact_damping_ratio=1, or contact_stiffness [N/m] (> 0 replaces the rule)
      with contact_damping [N s/m];
      loop_method='1'|'2'|'3', baumgarte=(alpha, beta) [1/s] or None (off), projection=True (closed loops);
      controller='passive' | 'gravity' | a Controller; wrenches=[Wrench, ...] (pushes).
    """

def trace(model: Model, algorithm: str, q: ArrayLike | None = ..., qd: ArrayLike | None = ..., qdd: ArrayLike | None = ..., tau: ArrayLike | None = ...) -> dict:
    """
    An algorithm step by step, as the lecture mode and dynscope-cli trace show it: a dict with 'passes',
    'initial', 'steps' (each: pass, kind, body, 'equations' (plain 'equation', 'latex' as the papers set
    it, 'label' = the paper's equation), 'written' (quantity, symbol, latex, coordinates, value) and
    'operations_so_far'), 'operations' and 'result' (bit for bit the plain algorithm's).
    q defaults to model.home(); qd, qdd, tau (as the algorithm needs them) to zeros.
    """

def traceable_algorithms() -> list:
    """The algorithms trace() can step through (as the lecture mode's inspector), with their sources."""

def trajectory_dynamics(model: Model, trajectory: Trajectory, *, decompose: bool = ..., energy: bool = ..., fext: ArrayLike | None = ..., tau_external: ArrayLike | None = ..., threads: int = ...) -> TrajectoryDynamics:
    """
    Inverse dynamics (RNEA) at every sample, in parallel with the GIL released: the numbers of
    dynscope-cli id --trajectory (with --decompose).
    decompose: also inertial M(q) qdd, coriolis c(q, qd) and gravity g(q), which sum to tau.
    energy: kinetic, potential, total per sample.
    fext: constant (nbodies + 1) x 6 external forces [n; f] per body in body coordinates (as rnea's;
    not with decompose). tau_external: N x nv joint forces from outside (J^T f per sample, e.g.
    SimulationResult.tau_external): tau is the joints' share and, with decompose, external = -J^T f.
    threads: 0 = every core. The model may differ from the trajectory's (a payload) if nq, nv match.
    """

def with_payload(model: Model, link: str, mass: float, com: ArrayLike = ...) -> Model:
    """
    A copy of the model carrying a point mass [kg] at com [m] in the frame of link (any URDF link or a
    DH frame such as 'tool'), as a project's payload. ValueError for an unknown link, one fixed to the
    base, or a negative mass.
    """

def write_trajectory_csv(model: Model, trajectory: Trajectory, path: str, velocities: bool = ..., accelerations: bool = ...) -> None:
    """
    Writes t, q and (when asked) qd_, qdd_ columns with 17 significant digits (reads back bit-exact),
    atomically: on an error the old file stays as it was.
    """
