#!/usr/bin/env python3
"""Run the README's "I want to..." walkthroughs and compare their output.

Each indented `$ command` (with `\\` continuations) runs in a scratch folder
laid out like an in-tree build (tools/ from the build, fixtures/ and tests/
from the source); every output line the README shows must appear in the
command's output, in order. "..." in the README elides lines; decimals (this
host's times) and runs of blanks compare loosely. Exit 1 on any difference.
"""
import os
import re
import subprocess
import sys
import tempfile


def walkthrough_blocks(readme):
    """(line number, command, expected output lines) for each command shown."""
    lines = open(readme, encoding="utf-8").read().split("\n")
    try:
        start = lines.index("## I want to...")
    except ValueError:
        sys.exit(f"{readme}: no '## I want to...' section")
    cmds = []
    i = start + 1
    while i < len(lines) and not lines[i].startswith("# "):
        line = lines[i]
        if line.startswith("    $ "):
            lineno, cmd = i + 1, line[6:]
            while cmd.endswith("\\"):
                i += 1
                cmd = cmd[:-1] + " " + lines[i].strip()
            want = []
            i += 1
            while i < len(lines) and (lines[i].startswith("    ") or lines[i] == ""):
                if lines[i].startswith("    $ "):
                    break
                want.append((i + 1, lines[i][4:]))
                i += 1
            cmds.append((lineno, cmd, want))
            continue
        i += 1
    return cmds


def loose(line):
    return re.sub(r"\s+", " ", re.sub(r"\d+\.\d+", "#", line)).strip()


def main():
    src = os.environ.get("top_srcdir", ".")
    build = os.environ.get("top_builddir", ".")
    readme = os.path.join(src, "README.md")
    cmds = walkthrough_blocks(readme)
    if len(cmds) < 3:
        sys.exit(f"{readme}: {len(cmds)} walkthrough commands found, expected at least 3")
    fail = 0
    with tempfile.TemporaryDirectory() as tmp:
        os.symlink(os.path.abspath(os.path.join(build, "tools")), os.path.join(tmp, "tools"))
        for d in ("fixtures", "tests"):
            os.symlink(os.path.abspath(os.path.join(src, d)), os.path.join(tmp, d))
        for lineno, cmd, want in cmds:
            run = subprocess.run(cmd, shell=True, cwd=tmp, capture_output=True, text=True)
            if run.returncode != 0:
                print(f"FAIL: README.md:{lineno}: exit {run.returncode}: {cmd}\n{run.stderr}")
                fail = 1
                continue
            got = [loose(g) for g in run.stdout.split("\n") if g.strip()]
            at = 0
            for wline, w in want:
                if not w.strip() or w.strip() == "...":
                    continue
                w = loose(w)
                while at < len(got) and got[at] != w:
                    at += 1
                if at == len(got):
                    print(f"FAIL: README.md:{wline}: not in the output (in order) of: {cmd}\n  {w}")
                    fail = 1
                    break
                at += 1
            else:
                shown = sum(1 for _, w in want if w.strip() not in ("", "..."))
                print(f"ok: README.md:{lineno}: {shown} lines shown, all in the output")
    return fail


if __name__ == "__main__":
    sys.exit(main())
