#!/usr/bin/env python3
"""Writes the binary STL meshes of mesh_quadruped.urdf (tests/data/contact): a rounded trunk, hip
drums, and capsule-shaped thighs and shanks that end in a ball foot, tessellated finely enough that
each gives its hull some 40-100 support points, as a real robot's meshes do. Run it again after
changing a size; the test reads the committed files."""
import math
import os
import struct

HERE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "meshes")


def write_stl(name, triangles):
    with open(os.path.join(HERE, name), "wb") as f:
        f.write(b"dynscope test mesh".ljust(80, b" "))
        f.write(struct.pack("<I", len(triangles)))
        for a, b, c in triangles:
            u = [b[i] - a[i] for i in range(3)]
            v = [c[i] - a[i] for i in range(3)]
            n = [u[1] * v[2] - u[2] * v[1], u[2] * v[0] - u[0] * v[2], u[0] * v[1] - u[1] * v[0]]
            length = math.sqrt(sum(x * x for x in n)) or 1.0
            f.write(struct.pack("<3f", *[x / length for x in n]))
            for p in (a, b, c):
                f.write(struct.pack("<3f", *p))
            f.write(b"\0\0")


def grid(point, rings, segments):
    """Triangles of a closed surface given point(i, j), i = 0..rings (poles), j around."""
    tris = []
    for i in range(rings):
        for j in range(segments):
            a, b = point(i, j), point(i + 1, j)
            c, d = point(i + 1, j + 1), point(i, j + 1)
            if i > 0:
                tris.append((a, b, d))
            if i < rings - 1:
                tris.append((b, c, d))
    return tris


def rounded_box(hx, hy, hz, e=0.25, rings=14, segments=28):
    """A superellipsoid |x/hx|^(2/e) + ... = 1: a box with rounded edges."""
    def sgnpow(x, p):
        return math.copysign(abs(x) ** p, x)

    def point(i, j):
        th = -math.pi / 2 + math.pi * i / rings
        ph = -math.pi + 2 * math.pi * j / segments
        return (hx * sgnpow(math.cos(th), e) * sgnpow(math.cos(ph), e),
                hy * sgnpow(math.cos(th), e) * sgnpow(math.sin(ph), e),
                hz * sgnpow(math.sin(th), e))
    return grid(point, rings, segments)


def capsule_z(radius, z0, z1, rings=8, segments=16):
    """A capsule along z from z0 to z1 (the cap centres), hemispheres of `radius`."""
    def point(i, j):
        # i = 0..2*rings: the lower hemisphere, then the upper one
        if i <= rings:
            th = -math.pi / 2 + (math.pi / 2) * i / rings
            zc = z0
        else:
            th = (math.pi / 2) * (i - rings) / rings
            zc = z1
        ph = 2 * math.pi * j / segments
        return (radius * math.cos(th) * math.cos(ph), radius * math.cos(th) * math.sin(ph),
                zc + radius * math.sin(th))
    return grid(point, 2 * rings + 1, segments)


def drum_y(radius, half, segments=20):
    """A cylinder along y: the hip actuator."""
    tris = []
    for j in range(segments):
        a0 = 2 * math.pi * j / segments
        a1 = 2 * math.pi * (j + 1) / segments
        p = lambda a, y: (radius * math.cos(a), y, radius * math.sin(a))
        tris += [(p(a0, -half), p(a1, -half), p(a1, half)), (p(a0, -half), p(a1, half), p(a0, half))]
        tris += [((0, -half, 0), p(a1, -half), p(a0, -half)), ((0, half, 0), p(a0, half), p(a1, half))]
    return tris


if __name__ == "__main__":
    os.makedirs(HERE, exist_ok=True)
    write_stl("trunk.stl", rounded_box(0.22, 0.09, 0.06))
    write_stl("hip.stl", drum_y(0.045, 0.04))
    write_stl("thigh.stl", capsule_z(0.025, -0.2, 0.0))
    write_stl("shank.stl", capsule_z(0.018, -0.2, 0.0) + capsule_z(0.022, -0.2, -0.2, rings=6, segments=14))
