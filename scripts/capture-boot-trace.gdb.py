# capture-boot-trace.gdb.py - the gdb side of scripts/capture-boot-trace.
#
# Run as `gdb-multiarch -nx -batch -x capture-boot-trace.gdb.py` with the
# environment set by capture-boot-trace: it attaches to QEMU's gdb stub (QEMU
# started paused with -S), puts breakpoints on of_find_node_by_phandle,
# of_core_init and free_initmem, and writes one line per hit to
# FDTCACHE_GDB_OUT until QEMU goes away:
#     lookup 0x0000001c 0xc0a1b2c4     (argument, return address)
#     mark core_init
#     mark user
# Addresses are symbolised afterwards, from the kernel's /proc/kallsyms.
import os
import time

import gdb

env = os.environ
out = open(env["FDTCACHE_GDB_OUT"], "w", buffering=1)
if env["FDTCACHE_GDB_ARCH"] == "arm":
    # No symbols: force ARM-mode breakpoints and read registers by name.
    gdb.execute("set architecture armv7")
    gdb.execute("set arm force-mode arm")
    ARG, RET, ADDR_MASK = "$r0", "$lr", 0xFFFFFFFF
else:
    gdb.execute("set architecture aarch64")
    ARG, RET, ADDR_MASK = "$x0", "$x30", 0xFFFFFFFFFFFFFFFF
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
Mark("*" + env["FDTCACHE_GDB_CORE_INIT"], "core_init")
Mark("*" + env["FDTCACHE_GDB_USER"], "user")
out.write("started\n")
try:
    gdb.execute("continue")
except gdb.error:
    pass  # QEMU exited (poweroff) or was stopped after the DONE marker
out.write("ended\n")
out.close()
