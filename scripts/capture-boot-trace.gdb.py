# capture-boot-trace.gdb.py - the gdb side of scripts/capture-boot-trace.
#
# Run as `gdb-multiarch -nx -batch -x capture-boot-trace.gdb.py` with the
# environment set by capture-boot-trace: it attaches to QEMU's gdb stub (QEMU
# started paused with -S), puts breakpoints on of_find_node_by_phandle,
# of_find_node_opts_by_path (of_find_node_by_path is an inline wrapper of
# it), of_alias_get_id, of_alias_get_highest_id, of_core_init and
# free_initmem, and writes one line per hit to FDTCACHE_GDB_OUT until QEMU
# goes away:
#     lookup 0x0000001c 0xc0a1b2c4        (argument, return address)
#     path "/soc/serial@2020000" 0xc0a1b2c4
#     path "PATH_BOUND bytes..."... 0xc0a1b2c4   (no NUL within the bound)
#     path unreadable 0xc1234567 0xc0a1b2c4     (the string's address)
#     alias-id "serial" 0xc0a1b2c4       (of_alias_get_id's stem)
#     alias-highest "i2c" 0xc0a1b2c4     (of_alias_get_highest_id's stem)
#     mark core_init
#     mark user
# Strings are the kernel's bytes between double quotes, each byte outside
# '!'..'~' and each '"' and '\' written as \xNN. Return addresses are
# symbolised afterwards, from the kernel's /proc/kallsyms.
import os
import time

import gdb

env = os.environ
out = open(env["FDTCACHE_GDB_OUT"], "w", buffering=1)
if env["FDTCACHE_GDB_ARCH"] == "arm":
    # No symbols: force ARM-mode breakpoints and read registers by name.
    gdb.execute("set architecture armv7")
    gdb.execute("set arm force-mode arm")
    ARG, ARG1, RET, ADDR_MASK = "$r0", "$r1", "$lr", 0xFFFFFFFF
else:
    gdb.execute("set architecture aarch64")
    ARG, ARG1, RET, ADDR_MASK = "$x0", "$x1", "$x30", 0xFFFFFFFFFFFFFFFF
# The longest string read; fdtcache-trace --import refuses longer ones.
PATH_BOUND = 1024
PAGE = 4096
gdb.execute("set pagination off")
gdb.execute("set confirm off")


def register(name):
    return int(gdb.parse_and_eval(name))


class Lookup(gdb.Breakpoint):
    """One of_find_node_by_phandle() call: its 32-bit argument, its caller."""

    def stop(self):
        phandle = register(ARG) & 0xFFFFFFFF  # gdb sign-extends on arm
        out.write("lookup 0x%08x 0x%x\n" % (phandle, register(RET) & ADDR_MASK))
        return False


def read_string(addr):
    """The bytes at addr up to its NUL: (bytes, True), or (PATH_BOUND bytes,
    False) when no NUL comes within the bound, or None when unreadable. Reads
    in pieces that never cross a page, so a short string next to an unmapped
    page reads."""
    inferior, data = gdb.selected_inferior(), b""
    while len(data) < PATH_BOUND + 1:
        at = addr + len(data)
        size = min(64, PAGE - (at & (PAGE - 1)), PATH_BOUND + 1 - len(data))
        try:
            piece = bytes(inferior.read_memory(at, size))
        except gdb.MemoryError:
            return None
        nul = piece.find(b"\0")
        if nul >= 0:
            return data + piece[:nul], True
        data += piece
    return data[:PATH_BOUND], False


def quoted(data):
    return '"%s"' % "".join(chr(b) if 0x21 <= b <= 0x7E and b not in b'"\\' else
                            "\\x%02x" % b for b in data)


class StringCall(gdb.Breakpoint):
    """A call taking a string: the line's word, the string's argument
    register, its caller."""

    def __init__(self, spec, word, arg):
        super().__init__(spec, internal=True)
        self.word, self.arg = word, arg

    def stop(self):
        addr = register(self.arg) & ADDR_MASK
        got = read_string(addr)
        if got is None:
            text = "unreadable 0x%x" % addr
        else:
            text = quoted(got[0]) + ("" if got[1] else "...")
        out.write("%s %s 0x%x\n" % (self.word, text, register(RET) & ADDR_MASK))
        return False


class Mark(gdb.Breakpoint):
    """A point of the boot, written once (init memory is freed later)."""

    def __init__(self, spec, name):
        super().__init__(spec, internal=True)
        self.name, self.seen = name, False

    def stop(self):
        if not self.seen:
            self.seen = True
            out.write("mark %s\n" % self.name)
        return False


def connect(port, tries=50):
    for _ in range(tries):
        try:
            gdb.execute("target remote 127.0.0.1:%s" % port)
            return
        except gdb.error:
            time.sleep(0.2)
    raise SystemExit("capture-boot-trace.gdb.py: no gdb stub on port %s" % port)


connect(env["FDTCACHE_GDB_PORT"])
Lookup("*" + env["FDTCACHE_GDB_LOOKUP"], internal=True)
StringCall("*" + env["FDTCACHE_GDB_PATH"], "path", ARG)
StringCall("*" + env["FDTCACHE_GDB_ALIAS_ID"], "alias-id", ARG1)
StringCall("*" + env["FDTCACHE_GDB_ALIAS_HIGHEST"], "alias-highest", ARG)
Mark("*" + env["FDTCACHE_GDB_CORE_INIT"], "core_init")
Mark("*" + env["FDTCACHE_GDB_USER"], "user")
out.write("started\n")
try:
    gdb.execute("continue")
except gdb.error:
    pass  # QEMU exited (poweroff) or was stopped after the DONE marker
out.write("ended\n")
out.close()
