#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-2-Clause
"""Growth benchmark (make bench-growth): every tool on inputs that double.

For each tool and input kind (DTB nodes and references, trace lines, dump
bytes, CSV rows) the input is made at 5 sizes, each twice the last. Each run
is timed by its CPU time (user + system, of the real binary, not libtool's
wrapper: on a shared machine wall-clock time is mostly other programs' share
of the cores), the best of RUNS runs (one when a run takes over LONG_S), and
its peak RSS GNU time's. Printed per size: the time, the RSS and the time
ratio to the size before; then per row the largest input, the ratio of the
last doubling (linear: 2.0x; the target is at most 2.5x) and the RSS growth
over the input growth between the smallest and the largest size (bytes of
memory per byte of input, so the program's fixed size does not count).
Exits 1 when a row is over the target.

Run from the build directory: bench/growth.py [--quick] [TOOL...]
(--quick: one doubling fewer; TOOL...: only the rows whose tool starts so)
"""
import os
import struct
import subprocess
import sys
import tempfile

BUILD = os.getcwd()
SRC = os.environ.get("top_srcdir", os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
RUNS = 3
LONG_S = 4.0  # a run this long is timed once: other programs' noise is a small part of it
TARGET = 2.5
TIME = "/usr/bin/time"


def binary(path):
    """The real program behind a libtool wrapper, with its library path."""
    d, name = os.path.split(path)
    real = os.path.join(BUILD, d, ".libs", name)
    return real if os.path.exists(real) else os.path.join(BUILD, path)


ENV = dict(os.environ, LD_LIBRARY_PATH=os.path.join(BUILD, "libcore", ".libs") +
           (":" + os.environ["LD_LIBRARY_PATH"] if os.environ.get("LD_LIBRARY_PATH") else ""))


def run_once(argv):
    """CPU time (s, user + system) and peak RSS (KiB) of one run.

    The CPU time is wait4's for GNU time's process (package time), which
    counts the program it ran. The peak RSS is GNU time's for the program
    alone: wait4's ru_maxrss would also hold the high-water mark of this
    Python process, which a child forked from it records when it execs.
    """
    with tempfile.NamedTemporaryFile() as peak, tempfile.TemporaryFile() as err:
        p = subprocess.Popen([TIME, "-f", "%M", "-o", peak.name] + argv,
                             stdout=subprocess.DEVNULL, stderr=err, env=ENV)
        _, status, usage = os.wait4(p.pid, 0)
        p.returncode = os.waitstatus_to_exitcode(status)
        if p.returncode not in (0, 1):
            err.seek(0)
            sys.exit("growth: %s exited %d: %s" % (" ".join(argv), p.returncode,
                                                   err.read().decode(errors="replace")[:300]))
        return usage.ru_utime + usage.ru_stime, int(open(peak.name).read().split()[-1])


def measure(argv):
    """Best CPU time of RUNS runs (of 1 when a run takes over LONG_S) and the largest peak RSS."""
    best, rss = None, 0
    for i in range(RUNS):
        t, peak = run_once(argv)
        best = t if best is None else min(best, t)
        rss = max(rss, peak)
        if t > LONG_S:
            break
    return best, rss


BUS_NODES = 500


def targets(i, refs):
    """The nodes device i references: spread over the whole tree before it."""
    return [((i * 2654435761 + r * 40503) >> 7) % i for r in range(refs)]


class Blob:
    """A flattened device tree (version 17) written token by token."""

    def __init__(self):
        self.struct = bytearray()
        self.strings = bytearray()
        self.offsets = {}

    def begin(self, name):
        self.struct += struct.pack(">I", 1) + name.encode() + b"\0"
        self.struct += b"\0" * (-len(self.struct) % 4)

    def prop(self, name, value):
        if name not in self.offsets:
            self.offsets[name] = len(self.strings)
            self.strings += name.encode() + b"\0"
        self.struct += struct.pack(">III", 3, len(value), self.offsets[name]) + value
        self.struct += b"\0" * (-len(self.struct) % 4)

    def end(self):
        self.struct += struct.pack(">I", 2)

    def bytes(self):
        self.struct += struct.pack(">I", 9)
        rsv = 40
        off_struct = rsv + 16
        off_strings = off_struct + len(self.struct)
        total = off_strings + len(self.strings)
        head = struct.pack(">10I", 0xd00dfeed, total, off_struct, off_strings, rsv, 17, 16, 0,
                           len(self.strings), len(self.struct))
        return head + bytes(16) + bytes(self.struct) + bytes(self.strings)


def cells(*values):
    return struct.pack(">%dI" % len(values), *values)


def dtb_nodes(n, refs):
    """A DTB of n devices on buses, clock providers each consuming refs clocks of earlier ones.

    Each is a device (compatible), so the boot model looks its references up.
    Phandles are given as dtc gives them to labels: in the order of their first
    reference, each in a phandle property after the node's own.
    """
    phandle = {}
    for i in range(1, n if refs else 0):
        for t in targets(i, refs):
            phandle.setdefault(t, len(phandle) + 1)
    fdt = Blob()
    fdt.begin("")
    for i in range(n):
        if i % BUS_NODES == 0:
            if i:
                fdt.end()
            fdt.begin("bus%d" % (i // BUS_NODES))
            fdt.prop("#address-cells", cells(1))
            fdt.prop("#size-cells", cells(0))
        fdt.begin("clk@%x" % i)
        fdt.prop("compatible", b"vendor,dev\0")
        fdt.prop("reg", cells(i))
        fdt.prop("#clock-cells", cells(1))
        if i and refs:
            ts = targets(i, refs)
            fdt.prop("clocks", cells(*[v for r, t in enumerate(ts) for v in (phandle[t], r)]))
        if i in phandle:
            fdt.prop("phandle", cells(phandle[i]))
        fdt.end()
    fdt.end()
    fdt.end()
    return fdt.bytes()


def make_dtb(tmp, n, refs):
    path = os.path.join(tmp, "nodes-%d-%d.dtb" % (n, refs))
    if not os.path.exists(path):
        with open(path, "wb") as f:
            f.write(dtb_nodes(n, refs))
    return path


def make_trace(tmp, lines):
    path = os.path.join(tmp, "trace-%d.trace" % lines)
    src = open(os.path.join(SRC, "fixtures", "traces", "board-500.trace")).read().splitlines()
    body = [l for l in src if l.strip() and not l.startswith("#") and not l.startswith("@")]
    with open(path, "w") as f:
        for i in range(lines):
            f.write(body[i % len(body)] + "\n")
    return path


def make_image(tmp, mib):
    """A well-filled partition of mib MiB in 64 KiB sectors, written by the engine."""
    path = os.path.join(tmp, "image-%d.bin" % mib)
    if not os.path.exists(path):
        subprocess.run([os.path.join(BUILD, "bench", "inspect_mkimage"), path, str(mib * 16),
                        "65536"], stdout=subprocess.DEVNULL, check=True)
    return path


def make_csv(tmp, rows):
    path = os.path.join(tmp, "rows-%d.csv" % rows)
    if os.path.exists(path):
        return path
    one = os.path.join(tmp, "one.csv")
    subprocess.run([binary("tools/nvs-bench/nvs-bench"), "seq", "-G", "ram", "-D", "sectors=2",
                    "-D", "entries=2", "-f", "none", "-o", one], env=ENV,
                   stderr=subprocess.DEVNULL, check=True)
    header, first = open(one).read().splitlines()[:2]
    names = header.split(",")
    col = {n: i for i, n in enumerate(names)}
    base = first.split(",")
    with open(path, "w") as f:
        f.write(header + "\n")
        for i in range(rows):
            base[col["seed"]] = str(i)
            base[col["tick_ns"]] = str(i + 1)
            base[col["entries"]] = str(1 + i % 16383)
            f.write(",".join(base) + "\n")
    return path


def cases(tmp, quick):
    """(tool, input kind, [(size, make)]): make() writes the input, returns (its bytes, argv)."""
    steps = 4 if quick else 5
    trace = binary("tools/fdtcache-trace")
    bench = binary("tools/fdtcache-bench")
    inspect = binary("tools/nvs-inspect/nvs-inspect")
    nvsbench = binary("tools/nvs-bench/nvs-bench")
    board = os.path.join(BUILD, "fixtures", "dt", "board-500.dtb")

    def doubling(start, make):
        return [(start << i, (lambda n: lambda: make(n))(start << i)) for i in range(steps)]

    def dtb(tool, refs):
        def make(n):
            path = make_dtb(tmp, n, refs)
            return os.path.getsize(path), [tool, path]
        return make

    def replay(lines):
        path = make_trace(tmp, lines)
        return os.path.getsize(path), [bench, "--trace", path, board]

    def dump(view):
        def make(size):
            path = make_image(tmp, size >> 20)
            return os.path.getsize(path), [inspect] + view + [path]
        return make

    def rows(view):
        def make(n):
            path = make_csv(tmp, n)
            return os.path.getsize(path), [nvsbench, "--input", path] + view
        return make

    plot = ["-f", "none", "--plot", os.path.join(tmp, "p.svg"), "--plot-x", "seed"]
    return [
        ("fdtcache-trace", "DTB nodes x 10 refs", doubling(2500, dtb(trace, 10))),
        ("fdtcache-trace", "DTB nodes, no refs", doubling(10000, dtb(trace, 0))),
        ("fdtcache-bench", "DTB nodes x 10 refs*", doubling(5000, dtb(bench, 10))),
        ("fdtcache-bench --trace", "trace lines", doubling(3125, replay)),
        ("nvs-inspect", "dump bytes", doubling(8 << 20, dump([]))),
        ("nvs-inspect --check", "dump bytes", doubling(8 << 20, dump(["--check"]))),
        ("nvs-inspect --ates -f json", "dump bytes",
         doubling(1 << 20, dump(["--ates", "--format", "json"]))),
        ("nvs-bench --input -f table", "CSV rows", doubling(20000, rows(["-f", "table"]))),
        ("nvs-bench --input -f json", "CSV rows", doubling(20000, rows(["-f", "json"]))),
        ("nvs-bench --input --plot", "CSV rows", doubling(20000, rows(plot))),
    ]


def verdict(ratio):
    return "ok" if ratio <= TARGET else "OVER %.1fx" % TARGET


def main():
    quick = "--quick" in sys.argv
    only = [a for a in sys.argv[1:] if not a.startswith("--")]
    summary = []
    with tempfile.TemporaryDirectory(prefix="fdtcache-growth-") as tmp:
        print("%-26s %-21s %10s %10s %8s %8s %6s" %
              ("tool", "input", "size", "input_B", "cpu_s", "rss_MiB", "ratio"))
        for tool, kind, sizes in cases(tmp, quick):
            if only and not any(tool.startswith(o) for o in only):
                continue
            results = []
            for size, make in sizes:
                in_bytes, argv = make()
                t, rss = measure(argv)
                ratio = "%.2fx" % (t / results[-1][2]) if results else "-"
                print("%-26s %-21s %10d %10d %8.3f %8.1f %6s" %
                      (tool, kind, size, in_bytes, t, rss / 1024, ratio), flush=True)
                results.append((size, in_bytes, t, rss))
            (_, b0, _, r0), (size, b1, t1, r1) = results[0], results[-1]
            summary.append((tool, kind, size, b1, t1, t1 / results[-2][2],
                            max(0, r1 - r0) * 1024 / max(1, b1 - b0), r1))
    print("\nper row: the largest input, its CPU time, the time ratio of the last doubling")
    print("(linear: 2.00x; target <= %.1fx) and the peak RSS growth per input byte grown" % TARGET)
    print("%-26s %-21s %10s %9s %8s %6s %9s %8s" %
          ("tool", "input", "largest", "input_MiB", "cpu_s", "ratio", "rss_B/B", "rss_MiB"))
    for tool, kind, size, b1, t1, last, per_byte, r1 in summary:
        print("%-26s %-21s %10d %9.1f %8.3f %5.2fx %9.2f %8.1f %s" %
              (tool, kind, size, b1 / 1048576, t1, last, per_byte, r1 / 1024, verdict(last)))
    worst = max(row[5] for row in summary)
    print("worst last-doubling ratio: %.2fx (target %.1fx): %s" % (worst, TARGET, verdict(worst)))
    print("* fdtcache-bench times libfdt's scans on windows of the trace visiting about 2^18 nodes")
    return 0 if worst <= TARGET else 1


if __name__ == "__main__":
    sys.exit(main())
