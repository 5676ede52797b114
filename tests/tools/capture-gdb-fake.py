#!/usr/bin/env python3
"""capture-gdb-fake.py SCRIPT OUT ARCH: run scripts/capture-boot-trace.gdb.py
with a stand-in for gdb's Python module, on a made-up boot, and write what
the script wrote to OUT.

The stand-in's memory has mapped and unmapped pages; every read the script
makes must stay within one page and 64 bytes, and no string may cost more
than the bound + 1 bytes of reads (otherwise this exits 1). The boot's
breakpoint hits, in order: a phandle lookup, a path ending right before an
unmapped page, bytes that need escapes, a string of exactly the bound, one
past it, an unreadable pointer, of_alias_get_id's stem in the second
argument, of_alias_get_highest_id's in the first, and the two marks. On arm
the registers read back sign-extended, as gdb gives them without symbols.
"""
import os
import sys
import types

PAGE = 4096
BOUND = 1024
script, out_path, arch = sys.argv[1:4]
addr_bits = 32 if arch == "arm" else 64
base = 0xC0800000 if arch == "arm" else 0xFFFF800008000000

memory = {}  # page number -> bytearray
reads = []


def put(addr, data):
    for i, b in enumerate(data):
        memory.setdefault((addr + i) // PAGE, bytearray(PAGE))[(addr + i) % PAGE] = b


def fail(why):
    print("capture-gdb-fake: " + why, file=sys.stderr)
    sys.exit(1)


gdb = types.ModuleType("gdb")


class GdbError(Exception):
    pass


class MemoryError_(GdbError):
    pass


gdb.error, gdb.MemoryError = GdbError, MemoryError_


class Inferior:
    def read_memory(self, addr, size):
        if size > 64 or addr // PAGE != (addr + size - 1) // PAGE:
            fail("a read of %d bytes at 0x%x crosses a page or is over 64 bytes" % (size, addr))
        reads.append(size)
        if addr // PAGE not in memory:
            raise MemoryError_("Cannot access memory at address 0x%x" % addr)
        return memoryview(bytes(memory[addr // PAGE][addr % PAGE:addr % PAGE + size]))


registers = {}
breakpoints = {}


def signed(value):
    """A register as gdb reads it: sign-extended on arm."""
    if addr_bits == 32 and value & 0x80000000:
        return value - (1 << 32)
    return value


class Value(int):
    pass


def parse_and_eval(name):
    return Value(signed(registers[name]))


class Breakpoint:
    def __init__(self, spec, internal=False):
        breakpoints[int(spec.lstrip("*"), 16)] = self


events = []


def execute(command):
    if command != "continue":
        return
    for where, regs in events:
        registers.clear()
        registers.update(regs)
        del reads[:]
        breakpoints[where].stop()
        if sum(reads) > BOUND + 1:
            fail("%d bytes read for one string (bound %d)" % (sum(reads), BOUND))
    raise GdbError("Remote connection closed")


gdb.execute, gdb.parse_and_eval, gdb.Breakpoint = execute, parse_and_eval, Breakpoint
gdb.selected_inferior = Inferior
sys.modules["gdb"] = gdb

funcs = dict(LOOKUP=0x100, PATH=0x200, ALIAS_ID=0x300, ALIAS_HIGHEST=0x400, CORE_INIT=0x500,
             USER=0x600)
os.environ.update({"FDTCACHE_GDB_" + k: "0x%x" % (base + v) for k, v in funcs.items()})
os.environ.update(FDTCACHE_GDB_OUT=out_path, FDTCACHE_GDB_ARCH=arch, FDTCACHE_GDB_PORT="1")
arg0, arg1, ret = ("$r0", "$r1", "$lr") if arch == "arm" else ("$x0", "$x1", "$x30")
caller = base + 0x9000

data = base + 0x100000  # strings: pages from here on are mapped as written
edge = data + PAGE - len(b"/cpus\0")  # ends on the last byte of its page
put(edge, b"/cpus\0")
escapes = data + 2 * PAGE  # 2 * PAGE + PAGE: an unmapped page
put(escapes, b'/a b"c\\d\x80\x7f:opt\0')
exact = data + 4 * PAGE + 100
put(exact, b"/" + b"e" * (BOUND - 1) + b"\0")
longer = data + 6 * PAGE
put(longer, b"/" + b"f" * BOUND + b"\0")
stem = data + 8 * PAGE
put(stem, b"serial\0i2c\0")


def hit(name, **regs):
    events.append((base + funcs[name], {ret: caller, **regs}))


hit("LOOKUP", **{arg0: 0xFFFFFFFF})
hit("PATH", **{arg0: edge})
hit("PATH", **{arg0: escapes})
hit("PATH", **{arg0: exact})
hit("PATH", **{arg0: longer})
hit("PATH", **{arg0: data + 3 * PAGE})
hit("CORE_INIT")
hit("ALIAS_ID", **{arg0: 0x1234, arg1: stem})
hit("ALIAS_HIGHEST", **{arg0: stem + 7})
hit("USER")
hit("CORE_INIT")  # a mark is written once

sys.argv = [script]
with open(script) as f:
    code = compile(f.read(), script, "exec")
exec(code, {"__name__": "__main__", "__file__": script})
