#!/usr/bin/env python3
"""Independent model of Linux's phandle lookups, for fdtcache-bench's tests.

linux-phandle-model.py DTB TRACE prints the counter columns of
`fdtcache-bench --format csv` (every column but ns_per_lookup) for none,
mask (Linux's size), hash32 64/128/256 and index. It reads the DTB's
structure block itself (no libfdt, no dtc) and replays the trace as Linux
v4.17-v5.5 (mask) and v5.6+ (hash32) do; see the README's fdtcache-bench
section for the rules.

TRACE is a trace file or a raw capture log of scripts/capture-boot-trace
("# fdtcache-capture 1" or 2: `lookup 0x1c CALLER` and `mark core_init|user`
lines; version 2's path and alias lines are no phandle lookups), read directly so that the log's conversion to a trace is checked
too. A "# dtb: NAME sha256 HEX" header must match the DTB's bytes.

linux-phandle-model.py --reference DTB prints, one per line in hex, the
lookups of the one-lookup-per-reference trace of spec/phandle-caches.md
(the rules of `fdtcache-trace --model reference`, written again from the
spec): per node in tree order but the overlay metadata, per property in
order, each non-zero phandle of its references.
"""
import hashlib
import re
import struct
import sys

GOLDEN = 0x61C88647


def node_phandles(blob):
    """Per node in tree order: its phandle ('phandle', else 'linux,phandle'), or 0.

    As in fdtcache (and libfdt's fdt_get_phandle), 'phandle' wins over
    'linux,phandle' wherever they appear; 0xffffffff (-1) is not a phandle.
    """
    magic, _, off_struct, off_strings = struct.unpack_from(">IIII", blob, 0)
    if magic != 0xD00DFEED:
        raise SystemExit("not a DTB")
    pos, stack, found = off_struct, [], []

    def prop_name(nameoff):
        end = blob.index(b"\0", off_strings + nameoff)
        return blob[off_strings + nameoff:end].decode()

    while True:
        (token,) = struct.unpack_from(">I", blob, pos)
        pos += 4
        if token == 1:  # begin node: skip the NUL-terminated name, 4-aligned
            end = blob.index(b"\0", pos)
            pos = (end + 4) & ~3
            found.append({})
            stack.append(len(found) - 1)
        elif token == 2:
            stack.pop()
        elif token == 3:
            length, nameoff = struct.unpack_from(">II", blob, pos)
            pos += 8
            name = prop_name(nameoff)
            if name in ("phandle", "linux,phandle") and length == 4:
                found[stack[-1]][name] = struct.unpack_from(">I", blob, pos)[0]
            pos = (pos + length + 3) & ~3
        elif token == 4:
            continue
        elif token == 9:
            break
        else:
            raise SystemExit("bad token %d at %d" % (token, pos - 4))
    phandles = [p.get("phandle", p.get("linux,phandle", 0)) for p in found]
    return [0 if q == 0xFFFFFFFF else q for q in phandles]


def check_dtb_header(path, line, blob):
    named = re.match(r"# dtb: (\S+) sha256 ([0-9a-f]{64})$", line)
    if named and named.group(2) != hashlib.sha256(blob).hexdigest():
        raise SystemExit("%s: made for %s, not this DTB (sha256 differs)" % (path, named.group(1)))


def read_capture(path, lines, blob):
    lookups, core_init = [], 0
    for line in lines:
        check_dtb_header(path, line, blob)
        words = line.split()
        if words[:1] == ["lookup"]:
            lookups.append(int(words[1], 16))
        elif words == ["mark", "core_init"]:
            core_init = len(lookups)
    return lookups, core_init


def read_trace(path, blob):
    with open(path) as f:
        lines = f.read().splitlines()
    if lines[:1] in (["# fdtcache-capture 1"], ["# fdtcache-capture 2"]):
        return read_capture(path, lines, blob)
    lookups, core_init = [], 0
    for line in lines:
        check_dtb_header(path, line, blob)
        text = line.split("#", 1)[0].strip()
        if text == "@core_init":
            core_init = len(lookups)
        elif text and text != "@user":
            hexa = text[:2].lower() == "0x"
            lookups.append(int(text[2:], 16) if hexa else int(text, 10))
    return lookups, core_init


def pow2_at_least(n):
    size = 1
    while size < n:
        size <<= 1
    return size


def direct_mapped(ph, lookups, core_init, policy, size):
    bits = size.bit_length() - 1

    def home(p):
        if policy == "mask":
            return p & (size - 1)
        return ((p * GOLDEN) & 0xFFFFFFFF) >> (32 - bits) if bits else 0

    slot = [None] * size  # node number
    hits = misses = unresolved = evictions = steps = 0

    def store(i, node):
        nonlocal evictions
        if slot[i] is not None and ph[slot[i]] != ph[node]:
            evictions += 1
        slot[i] = node

    for k, p in enumerate(lookups):
        if k == core_init:  # of_core_init(): mask overwrites, hash32 fills empty slots
            for node, q in enumerate(ph):
                if q and (policy == "mask" or slot[home(q)] is None):
                    store(home(q), node)
        live = policy == "hash32" or k >= core_init
        i = home(p)
        if live and slot[i] is not None and ph[slot[i]] == p:
            hits += 1
            continue
        misses += 1
        node = ph.index(p) if p in ph else None
        if node is None:
            unresolved += 1
            steps += len(ph)
        else:
            steps += node + 1
            if live:
                store(i, node)
    return [policy, size, len(lookups), hits, misses, unresolved, evictions, steps, size * 8]


def uncached(ph, lookups):
    absent = [p for p in lookups if p not in ph]
    steps = sum(ph.index(p) + 1 if p in ph else len(ph) for p in lookups)
    return ["none", 0, len(lookups), 0, len(lookups), len(absent), 0, steps, 0]


def index(ph, lookups):
    size = pow2_at_least(2 * sum(1 for q in ph if q))  # fc_dt_index_slots(nphandles)
    absent = sum(1 for p in lookups if p not in ph)
    # the first lookup builds the index (one miss, a walk of every node);
    # after it an absent phandle is a miss known without a scan
    misses = absent + (1 if lookups and lookups[0] in ph else 0)
    return ["index", size, len(lookups), len(lookups) - misses, misses, absent, 0,
            len(ph) if lookups else 0, size * 8]


ARGS = {
    "clocks": "#clock-cells", "resets": "#reset-cells", "power-domains": "#power-domain-cells",
    "phys": "#phy-cells", "dmas": "#dma-cells", "iommus": "#iommu-cells", "pwms": "#pwm-cells",
    "mboxes": "#mbox-cells", "interconnects": "#interconnect-cells",
    "thermal-sensors": "#thermal-sensor-cells", "io-channels": "#io-channel-cells",
    "interrupts-extended": "#interrupt-cells",
}
LISTS = ("cpu-idle-states", "operating-points-v2", "memory-region")
SINGLES = ("interrupt-parent", "cpu", "remote-endpoint", "phy-handle")
METADATA = ("__symbols__", "__fixups__", "__local_fixups__")


def parse_nodes(blob):
    """The structure block as nodes in tree order: (name, parent, [(prop, bytes)])."""
    _, _, off_struct, off_strings = struct.unpack_from(">IIII", blob, 0)
    pos, stack, nodes = off_struct, [], []
    while True:
        (token,) = struct.unpack_from(">I", blob, pos)
        pos += 4
        if token == 1:
            end = blob.index(b"\0", pos)
            nodes.append((blob[pos:end].decode("utf-8", "replace"),
                          stack[-1] if stack else None, []))
            stack.append(len(nodes) - 1)
            pos = (end + 4) & ~3
        elif token == 2:
            stack.pop()
        elif token == 3:
            length, nameoff = struct.unpack_from(">II", blob, pos)
            name_end = blob.index(b"\0", off_strings + nameoff)
            name = blob[off_strings + nameoff:name_end].decode("utf-8", "replace")
            nodes[stack[-1]][2].append((name, blob[pos + 8:pos + 8 + length]))
            pos = (pos + 8 + length + 3) & ~3
        elif token == 4:
            continue
        elif token == 9:
            return nodes
        else:
            raise SystemExit("bad token %d at %d" % (token, pos - 4))


def kind_of(name, props):
    """('args', #cells) / ('list',) / ('single',) / None for a property name."""
    if name in ARGS:
        return ("args", ARGS[name])
    if name == "gpios" and "gpio-hog" not in props:
        return ("args", "#gpio-cells")
    if name.endswith("-gpios") and not name.endswith(",nr-gpios"):
        return ("args", "#gpio-cells")
    if re.fullmatch(r"pinctrl-[0-9]+", name) or name in LISTS:
        return ("list",)
    if name.endswith("-supply") or name in SINGLES:
        return ("single",)
    return None


def reference_lookups(blob):
    nodes = parse_nodes(blob)
    ph = node_phandles(blob)
    node_of = {}
    for i, q in enumerate(ph):
        node_of.setdefault(q, i)
    node_of.pop(0, None)

    def cells(target, name):
        for prop, value in nodes[target][2]:
            if prop == name and len(value) >= 4:
                return struct.unpack_from(">I", value, 0)[0]
        return 0

    meta = [False] * len(nodes)
    out = []
    for i, (name, parent, props) in enumerate(nodes):
        meta[i] = name in METADATA or (parent is not None and meta[parent])
        if meta[i]:
            continue
        names = {prop for prop, _ in props}
        for prop, value in props:
            kind = kind_of(prop, names)
            if kind is None:
                continue
            words = [struct.unpack_from(">I", value, 4 * k)[0] for k in range(len(value) // 4)]
            if kind[0] == "single":
                words = words[:1]
            k = 0
            while k < len(words):
                p, k = words[k], k + 1
                if p:
                    out.append(p)
                if kind[0] != "args" or not p:
                    continue
                if p not in node_of:
                    break  # where its args end is unknown
                k += cells(node_of[p], kind[1])
    return out


def main():
    if len(sys.argv) == 3 and sys.argv[1] == "--reference":
        with open(sys.argv[2], "rb") as f:
            for p in reference_lookups(f.read()):
                print("0x%x" % p)
        return
    if len(sys.argv) != 3:
        raise SystemExit("usage: linux-phandle-model.py DTB TRACE | --reference DTB")
    with open(sys.argv[1], "rb") as f:
        blob = f.read()
    ph = node_phandles(blob)
    lookups, core_init = read_trace(sys.argv[2], blob)
    nph = sum(1 for q in ph if q)
    rows = [uncached(ph, lookups),
            direct_mapped(ph, lookups, core_init, "mask", pow2_at_least(nph))]
    rows += [direct_mapped(ph, lookups, core_init, "hash32", s) for s in (64, 128, 256)]
    rows.append(index(ph, lookups))
    print("policy,size,lookups,hits,misses,unresolved,evictions,scan_steps,memory_bytes")
    for row in rows:
        print(",".join(str(v) for v in row))


if __name__ == "__main__":
    main()
