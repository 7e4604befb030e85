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

def difference(model: Model, q0: ArrayLike, q1: ArrayLike) -> NDArray[np.float64]:
    """The velocity v (nv) that takes q0 to q1 in unit time."""

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
    'lagrangian-4x4', 'lagrangian-3x3', 'configuration-space', ... (dynscope.formulations('id') lists them).
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
