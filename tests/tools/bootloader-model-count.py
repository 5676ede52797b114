#!/usr/bin/env python3
# An independent count of the bootloader model's typed lookups for a DTB,
# from its own walk of the structure block (not libfdt, not the tools):
# prints "kind count" lines that fdtcache-trace --model bootloader's trace
# must match (tests/tools/fdtcache-trace-bootloader.sh).
import struct
import sys

BEGIN, END, PROP, NOP, FINISH = 1, 2, 3, 4, 9
META = {"__symbols__", "__fixups__", "__local_fixups__"}


def word(s):
    return s != "" and all(0x21 <= ord(c) <= 0x7E and c != "#" for c in s)


def walk(blob):
    _, _, off_struct, off_strings = struct.unpack(">IIII", blob[:16])
    nodes, stack, pos = [], [], off_struct
    while True:
        (tok,) = struct.unpack(">I", blob[pos:pos + 4])
        pos += 4
        if tok == BEGIN:
            end = blob.index(b"\0", pos)
            name = blob[pos:end].decode("latin-1")
            pos = (end + 4) & ~3
            parent = stack[-1] if stack else None
            path = "/" if parent is None else (nodes[parent]["path"].rstrip("/") + "/" + name)
            nodes.append({"name": name, "parent": parent, "path": path, "props": {}})
            stack.append(len(nodes) - 1)
        elif tok == END:
            stack.pop()
        elif tok == PROP:
            ln, nameoff = struct.unpack(">II", blob[pos:pos + 8])
            pos += 8
            pname = blob[off_strings + nameoff:blob.index(b"\0", off_strings + nameoff)]
            nodes[stack[-1]]["props"][pname.decode("latin-1")] = blob[pos:pos + ln]
            pos = (pos + ln + 3) & ~3
        elif tok == FINISH:
            return nodes


def enabled(nodes, i):
    while i is not None:
        n = nodes[i]
        st = n["props"].get("status")
        if n["name"] in META or (st is not None and st.rstrip(b"\0") not in (b"okay", b"ok")):
            return False
        i = n["parent"]
    return True


def main():
    nodes = walk(open(sys.argv[1], "rb").read())
    by_ph = {}
    for i, n in enumerate(nodes):
        v = n["props"].get("phandle")
        if v is not None and len(v) == 4:
            by_ph.setdefault(struct.unpack(">I", v)[0], i)
    count = {"alias": 0, "path": 3, "reg-cells": 0, "parent-reg": 0, "parent-climb": 0,
             "irq-cells": 0}
    for n in nodes:
        if n["path"] == "/aliases":
            count["alias"] = sum(1 for p in n["props"] if word(p) and "/" not in p)
        if n["path"] == "/chosen" and len(n["props"].get("stdout-path", b"")) > 1:
            out = n["props"]["stdout-path"].split(b"\0")[0].split(b":")[0].decode("latin-1")
            count["path"] += 1 if word(out) else 0
    for i, n in enumerate(nodes):
        if not enabled(nodes, i):
            continue
        if n["parent"] is not None and "reg" in n["props"] and word(n["path"]):
            count["reg-cells"] += 1
            count["parent-reg"] += 1
        if "interrupts" not in n["props"]:
            continue
        j = i
        while j is not None:
            ip = nodes[j]["props"].get("interrupt-parent")
            if ip is not None and len(ip) == 4:
                ctrl = by_ph.get(struct.unpack(">I", ip)[0])
                if ctrl is not None and word(nodes[ctrl]["path"]):
                    count["irq-cells"] += 1
                break
            if nodes[j]["parent"] is not None and word(nodes[j]["path"]):
                count["parent-climb"] += 1
            j = nodes[j]["parent"]
    for k in sorted(count):
        print(k, count[k])


main()
