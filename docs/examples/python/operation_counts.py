"""Why the recursive algorithms won: the formulations' operation counts against the number of links n.

Hollerbach (1980), Tables I and II, compares the cost of inverse dynamics for an n-link arm: the
Lagrangian formulation of Uicker and Kahn (eq. 4) grows as n^4, Waters' backward recurrences (eq. 6)
as n^2, his own recursive Lagrangian forms with 4x4 and 3x3 matrices (eqs. 8-18) and the recursive
Newton-Euler formulation of Luh, Walker and Paul as n, and the evaluation of Horn and Raibert's
tabulated configuration-space method as n^3 (cheapest at n = 6, beaten by Newton-Euler "for n >= 9").
Saha (1999), Table 1, adds his DeNOC recursion (section 5.1), also O(n).

This script counts the multiplications and additions of one call of each formulation on the general
n-link revolute chain the papers assume (dynscope.general_chain(n): every DH length, offset and twist
non-zero), with the module's operation-counting scalar (dynscope.operation_counts), for n = 1..32,
and draws them on log-log axes beside the papers' polynomials (each result's 'paper' entry, dashed)
and the values Table II prints at n = 6 (open diamonds). Like Hollerbach, the counts leave out the
joint transforms (the sines and cosines of A_j); for the configuration-space method they count the
evaluation of the tables, not their filling (docs/operation-counts.md).

Run (from any directory; the module on PYTHONPATH, e.g. PYTHONPATH=build/python):

    python3 docs/examples/python/operation_counts.py [--out DIR] [--show] [--quantity muls|adds]

Writes operation_counts.png (count against n, log-log) and operation_counts_n6.png (measured against
the papers' tables at n = 6) into DIR (default: the current directory), and prints the n = 6 table,
each formulation's log-log slope between n = 16 and 32, and where the configuration-space
evaluation becomes dearer than Newton-Euler.
"""
import argparse
import sys
from pathlib import Path

import numpy as np

try:
    import dynscope
except ImportError:  # run from a checkout without PYTHONPATH: try the build tree
    sys.path.insert(0, str(Path(__file__).resolve().parents[3] / "build" / "python"))
    try:
        import dynscope
    except ImportError:
        sys.exit("cannot import dynscope: set PYTHONPATH to the directory holding the built module "
                 "(e.g. build/python)")

# The inverse-dynamics formulations, dearest first: name, label, colour, marker.
FORMULATIONS = [
    ("uicker-kahn", "Uicker/Kahn, 4x4: $O(n^4)$", "C3", "s"),
    ("waters", "Waters: $O(n^2)$", "C1", "^"),
    ("configuration-space", "Horn & Raibert, evaluation: $O(n^3)$", "C4", "v"),
    ("lagrange-4x4", "recursive Lagrangian 4x4: $O(n)$", "C5", "D"),
    ("lagrange-3x3", "recursive Lagrangian 3x3: $O(n)$", "C2", "P"),
    ("newton-euler-3", "Newton-Euler, 3-vectors: $O(n)$", "C0", "o"),
    ("denoc", "DeNOC (Saha 1999): $O(n)$", "C9", "X"),
    ("rnea", "spatial RNEA (Featherstone): $O(n)$", "black", "*"),
]
LINEAR = ["lagrange-4x4", "lagrange-3x3", "newton-euler-3", "denoc", "rnea"]   # O(n)
N = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 14, 16, 20, 24, 28, 32]


def pyplot(show: bool):
    """matplotlib with fonts readable on a projector (Agg unless the figures are to be shown)."""
    import matplotlib
    if not show:
        matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    plt.rcParams.update({"font.size": 16, "axes.titlesize": 17, "axes.labelsize": 16,
                         "xtick.labelsize": 14, "ytick.labelsize": 14, "legend.fontsize": 14,
                         "figure.titlesize": 19, "lines.linewidth": 2.5, "axes.grid": True,
                         "grid.alpha": 0.4})
    return plt


def count(quantity: str = "muls"):
    """measured[name][k], paper[name][k] (the first paper source with a polynomial; NaN if none) at N[k],
    and the values the papers tabulate: table[name] = (n, count, source)."""
    measured = {name: [] for name, *_ in FORMULATIONS}
    paper = {name: [] for name, *_ in FORMULATIONS}
    for n in N:
        chain = dynscope.general_chain(n)
        for name, *_ in FORMULATIONS:
            (result,) = dynscope.operation_counts(chain, name, "id")
            measured[name].append(result[quantity])
            values = [p[quantity] for p in result["paper"] if p[quantity] is not None]
            paper[name].append(values[0] if values else np.nan)
    table = {}
    for f in dynscope.formulations("id"):
        for source in f.paper_counts:
            for row in source["tabulated"]:
                if row["n"] == 6 and f.name not in table:
                    table[f.name] = (6, row[quantity], source["source"])
    return ({k: np.array(v, dtype=float) for k, v in measured.items()},
            {k: np.array(v, dtype=float) for k, v in paper.items()}, table)


def slope(values, n0=16, n1=32):
    """d log(count) / d log(n) between n0 and n1: the degree the count grows with."""
    i0, i1 = N.index(n0), N.index(n1)
    return float(np.log(values[i1] / values[i0]) / np.log(n1 / n0))


def crossover(a, b):
    """The smallest n from which count a exceeds count b (None if never within N)."""
    for k, n in enumerate(N):
        if a[k] > b[k] and all(a[j] > b[j] for j in range(k, len(N))):
            return n
    return None


def plot_growth(plt, measured, paper, table, quantity):
    from matplotlib.lines import Line2D
    fig, ax = plt.subplots(figsize=(13, 8.5), layout="constrained")
    for name, label, color, marker in FORMULATIONS:
        ax.loglog(N, measured[name], color=color, marker=marker, ms=7, label=label)
        if np.isfinite(paper[name]).any():
            ax.loglog(N, paper[name], color=color, ls="--", lw=1.8)
        if name in table:
            n, value, _ = table[name]
            ax.loglog([n], [value], color=color, marker="D", ms=13, mfc="none", mew=2.5, ls="none")
    what = "multiplications" if quantity == "muls" else "additions"
    ax.set_xlabel("number of links n")
    ax.set_ylabel(f"{what} per inverse-dynamics call")
    ax.set_xticks([1, 2, 4, 6, 8, 16, 32])
    ax.set_xticklabels(["1", "2", "4", "6", "8", "16", "32"])
    ax.set_xlim(0.9, 36)
    ax.set_title(f"Inverse dynamics of an n-link arm: {what} (Hollerbach 1980, Tables I-II)")
    formulations = ax.legend(loc="upper left", title="formulation", ncol=2)
    ax.add_artist(formulations)
    style = [Line2D([], [], color="gray", lw=2.5, marker="o", label="measured (dynscope)"),
             Line2D([], [], color="gray", lw=1.8, ls="--", label="paper's polynomial (Hollerbach, Table I; Saha, Table 1)"),
             Line2D([], [], color="gray", marker="D", ms=13, mfc="none", mew=2.5, ls="none",
                    label="paper's value at n = 6 (Table II)")]
    ax.legend(handles=style, loc="lower right")
    return fig


def plot_n6(plt, measured, table, quantity):
    k = N.index(6)
    names = [name for name, *_ in FORMULATIONS]
    labels = [label.split(":")[0].split(" (")[0] for _, label, *_ in FORMULATIONS]
    x = np.arange(len(names))
    fig, ax = plt.subplots(figsize=(14, 7.5), layout="constrained")
    ax.bar(x - 0.2, [measured[n][k] for n in names], 0.4, color=[c for *_, c, _ in FORMULATIONS],
           label="measured (dynscope)")
    ax.bar(x + 0.2, [table[n][1] if n in table else 0 for n in names], 0.4, color="white",
           edgecolor=[c for *_, c, _ in FORMULATIONS], lw=2.5, hatch="//",
           label="Hollerbach (1980), Table II; Saha (1999), Table 1 (DeNOC)")
    for i, n in enumerate(names):
        ax.text(i - 0.2, measured[n][k] * 1.15, f"{measured[n][k]:,.0f}", ha="center", fontsize=14, rotation=90,
                va="bottom")
        if n in table:
            ax.text(i + 0.2, table[n][1] * 1.15, f"{table[n][1]:,.0f}", ha="center", fontsize=14, rotation=90,
                    va="bottom")
    ax.set_yscale("log")
    ax.set_ylim(100, 1e6)
    ax.set_xticks(x)
    ax.set_xticklabels(labels, rotation=25, ha="right")
    what = "multiplications" if quantity == "muls" else "additions"
    ax.set_ylabel(f"{what} at n = 6")
    ax.set_title(f"A six-link arm: {what}, measured and as the papers count them")
    from matplotlib.patches import Patch
    ax.legend(handles=[Patch(color="gray", label="measured (dynscope)"),
                       Patch(facecolor="white", edgecolor="gray", hatch="//", lw=2.5,
                             label="Hollerbach (1980), Table II; Saha (1999), Table 1 (DeNOC)")], loc="upper right")
    return fig


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--out", type=Path, default=Path("."), help="folder for the PNG files (default: .)")
    parser.add_argument("--show", action="store_true", help="also show the figures in a window")
    parser.add_argument("--quantity", choices=["muls", "adds"], default="muls",
                        help="multiplications (default) or additions")
    args = parser.parse_args(argv)

    measured, paper, table = count(args.quantity)
    k6 = N.index(6)
    print(f"{args.quantity} of one inverse-dynamics call on general_chain(n), without the joint transforms")
    print(f"{'formulation':<22} {'n = 6':>8} {'paper at 6':>11} {'slope 16..32':>13}")
    slopes = {}
    for name, *_ in FORMULATIONS:
        slopes[name] = slope(measured[name])
        ref = table[name][1] if name in table else paper[name][k6]
        ref = "-" if np.isnan(ref) else f"{ref:,.0f}"
        print(f"{name:<22} {measured[name][k6]:>8,.0f} {ref:>11} {slopes[name]:>13.2f}")
    linear = {}
    for name in LINEAR:   # an O(n) count is exactly a + b n: zero second differences on n = 1..8
        c = measured[name][:8]
        linear[name] = bool(np.all(np.diff(c, 2) == 0))
        print(f"{name}: {c[1] - c[0]:.0f} per link, exactly linear in n: {linear[name]}")
    cross_measured = crossover(measured["configuration-space"], measured["newton-euler-3"])
    cross_paper = crossover(paper["configuration-space"], paper["newton-euler-3"])
    print(f"configuration-space evaluation dearer than Newton-Euler from n = {cross_measured} (measured), "
          f"n = {cross_paper} (the papers' polynomials; Hollerbach: 'for n >= 9')")

    plt = pyplot(args.show)
    args.out.mkdir(parents=True, exist_ok=True)
    files = []
    for fig, name in ((plot_growth(plt, measured, paper, table, args.quantity), "operation_counts.png"),
                      (plot_n6(plt, measured, table, args.quantity), "operation_counts_n6.png")):
        fig.savefig(args.out / name, dpi=100)
        files.append(args.out / name)
        print(f"wrote {args.out / name}")
    if args.show:
        plt.show()
    plt.close("all")
    return {"n": list(N), "measured": measured, "paper": paper, "table": table, "slopes": slopes,
            "linear": linear, "crossover_measured": cross_measured, "crossover_paper": cross_paper, "files": files}


if __name__ == "__main__":
    main()
