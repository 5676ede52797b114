#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-2-Clause
"""Growth benchmark (make bench-growth): every tool on inputs that double.

For each tool and input kind (DTB nodes and references, trace lines, dump
bytes, CSV rows) the input is made at SIZES doublings, each run is timed
(best of RUNS CPU times, user + system, of the real binary, not libtool's
wrapper: on a shared machine wall-clock time is mostly other programs'
share of the cores) and its peak RSS read by GNU time. Printed per case:
the time and RSS at each size, the time ratio of the last doubling (linear: 2.0x; the
target is at most 2.5x) and the RSS growth over the input growth between the
smallest and the largest size (bytes of memory per byte of input, against
the smallest run, so the program's fixed size does not count).

Run from the build directory: bench/growth.py [--quick] [TOOL...]
(--quick: one doubling fewer; TOOL...: only the cases whose tool starts so)
"""
import os
import subprocess
import sys
import tempfile

BUILD = os.getcwd()
SRC = os.environ.get("top_srcdir", os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
RUNS = 3
TARGET = 2.5
TIME = "/usr/bin/time"


def binary(path):
    """The real program behind a libtool wrapper, with its library path."""
    d, name = os.path.split(path)
    real = os.path.join(BUILD, d, ".libs", name)
    return real if os.path.exists(real) else os.path.join(BUILD, path)


ENV = dict(os.environ, LD_LIBRARY_PATH=os.path.join(BUILD, "libcore", ".libs") +
           (":" + os.environ["LD_LIBRARY_PATH"] if os.environ.get("LD_LIBRARY_PATH") else ""))


def measure(argv):
    """Best CPU time (s, user + system) of RUNS runs and the largest peak RSS (KiB).

    The CPU time is wait4's for GNU time's process, which counts the program
    it ran. The peak RSS comes from GNU time (package time): a child forked
    from this Python process would count the interpreter's pages in its own peak.
    """
    best, rss = None, 0
    for _ in range(RUNS):
        with tempfile.NamedTemporaryFile() as peak, tempfile.TemporaryFile() as err:
            p = subprocess.Popen([TIME, "-f", "%M", "-o", peak.name] + argv,
                                 stdout=subprocess.DEVNULL, stderr=err, env=ENV)
            _, status, usage = os.wait4(p.pid, 0)
            p.returncode = os.waitstatus_to_exitcode(status)
            t = usage.ru_utime + usage.ru_stime
            if p.returncode not in (0, 1):
                err.seek(0)
                sys.exit("growth: %s exited %d: %s" % (" ".join(argv), p.returncode,
                                                       err.read().decode(errors="replace")[:300]))
            rss = max(rss, int(open(peak.name).read().split()[-1]))
        best = t if best is None else min(best, t)
    return best, rss


BUS_NODES = 500  # dtc's parser runs out of stack with ~10,000 siblings


def dts_nodes(n, refs):
    """A DTS of n devices on buses, clock providers each consuming refs clocks of earlier ones.

    Each is a device (compatible), so the boot model looks its references up.
    """
    lines = ["/dts-v1/;", "/ {"]
    for i in range(n):
        if i % BUS_NODES == 0:
            if i:
                lines.append("\t};")
            lines += ["\tbus%d {" % (i // BUS_NODES), "\t\t#address-cells = <1>;",
                      "\t\t#size-cells = <0>;"]
        lines.append("\t\tn%d: clk@%x {" % (i, i))
        lines.append("\t\t\tcompatible = \"vendor,dev\";")
        lines.append("\t\t\treg = <0x%x>;" % i)
        lines.append("\t\t\t#clock-cells = <1>;")
        if i and refs:
            cells = " ".join("&n%d %d" % ((i * 7 + r * 13) % i, r) for r in range(refs))
            lines.append("\t\t\tclocks = <%s>;" % cells)
        lines.append("\t\t};")
    lines += ["\t};", "};"]
    return "\n".join(lines) + "\n"


def make_dtb(tmp, n, refs):
    path = os.path.join(tmp, "nodes-%d-%d.dtb" % (n, refs))
    if not os.path.exists(path):
        subprocess.run(["dtc", "-q", "-I", "dts", "-O", "dtb", "-o", path, "-"],
                       input=dts_nodes(n, refs).encode(), check=True)
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
    """(tool, input kind, unit, [(size, input bytes, argv)])"""
    k = 1 if quick else 2
    trace = binary("tools/fdtcache-trace")
    bench = binary("tools/fdtcache-bench")
    inspect = binary("tools/nvs-inspect/nvs-inspect")
    nvsbench = binary("tools/nvs-bench/nvs-bench")
    board = os.path.join(BUILD, "fixtures", "dt", "board-500.dtb")
    out = []

    def doubling(start, steps):
        return [start << i for i in range(steps)]

    def dtb_case(argv_of, refs, start):
        sizes = []
        for n in doubling(start, 3 + k):
            dtb = make_dtb(tmp, n, refs)
            sizes.append((n, os.path.getsize(dtb), argv_of(dtb)))
        return sizes

    out.append(("fdtcache-trace", "DTB nodes x 10 refs", "nodes",
                dtb_case(lambda d: [trace, d], 10, 1250)))
    out.append(("fdtcache-trace", "DTB nodes, no refs", "nodes",
                dtb_case(lambda d: [trace, d], 0, 5000)))
    out.append(("fdtcache-bench", "DTB nodes x 10 refs", "nodes",
                dtb_case(lambda d: [bench, d], 10, 1250)))
    sizes = []
    for lines in doubling(50000, 3 + k):
        t = make_trace(tmp, lines)
        sizes.append((lines, os.path.getsize(t), [bench, "--trace", t, board]))
    out.append(("fdtcache-bench", "trace lines", "lines", sizes))
    for view, first in (([], 8), (["--check"], 8), (["--ates", "--format", "json"], 1)):
        sizes = []
        for mib in doubling(first, 3 + k):
            img = make_image(tmp, mib)
            sizes.append((mib << 20, os.path.getsize(img), [inspect] + view + [img]))
        out.append(("nvs-inspect " + " ".join(view), "dump bytes", "bytes", sizes))
    for view in (["-f", "table"], ["-f", "json"], ["-f", "none", "--plot",
                                                    os.path.join(tmp, "p.svg"), "--plot-x",
                                                    "seed"]):
        sizes = []
        for rows in doubling(20000, 2 + k):
            csv = make_csv(tmp, rows)
            sizes.append((rows, os.path.getsize(csv), [nvsbench, "--input", csv] + view))
        out.append(("nvs-bench --input " + " ".join(view[:2]), "CSV rows", "rows", sizes))
    return out


def main():
    quick = "--quick" in sys.argv
    only = [a for a in sys.argv[1:] if not a.startswith("--")]
    worst = 0.0
    with tempfile.TemporaryDirectory(prefix="fdtcache-growth-") as tmp:
        print("%-28s %-20s %10s %10s %9s %9s %7s %9s" %
              ("tool", "input", "size", "input_B", "cpu_s", "rss_MiB", "ratio", "rss/input"))
        for tool, kind, unit, sizes in cases(tmp, quick):
            if only and not any(tool.startswith(o) for o in only):
                continue
            results = []
            for size, in_bytes, argv in sizes:
                t, rss = measure(argv)
                results.append((size, in_bytes, t, rss))
            for i, (size, in_bytes, t, rss) in enumerate(results):
                ratio = "%.2fx" % (t / results[i - 1][2]) if i else "-"
                print("%-28s %-20s %10d %10d %9.3f %9.1f %7s" %
                      (tool, kind, size, in_bytes, t, rss / 1024, ratio))
            (_, b0, t0, r0), (_, b1, t1, r1) = results[0], results[-1]
            last = t1 / results[-2][2]
            per_byte = max(0, r1 - r0) * 1024 / max(1, b1 - b0)
            worst = max(worst, last)
            print("%-28s %-20s last doubling %.2fx time (%s), memory %.2f B per input byte "
                  "(%.1f MiB for %.1f MiB)\n" %
                  (tool, kind, last, "ok" if last <= TARGET else "OVER %.1fx" % TARGET, per_byte,
                   r1 / 1024, b1 / 1048576))
    print("worst last-doubling ratio: %.2fx (target %.1fx)" % (worst, TARGET))
    return 0


if __name__ == "__main__":
    sys.exit(main())
