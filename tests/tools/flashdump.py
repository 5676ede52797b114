#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-2-Clause
"""Wrap a raw NVS partition image into a whole-flash dump as programmers and
debuggers write them, and a devicetree that places the partition.

flashdump.py PART OUTDIR --base ADDR --prefix N --suffix N --pad random|erased
             --sector-size N --write-block N [--seed N]

OUTDIR gets flash.bin (raw, from the flash base), flash.hex (Intel HEX: type 02
segment records below 1 MiB, type 04 linear records above, a type 05 start
address, 16 data bytes per record, erased records left out when the padding is
erased), flash.srec (S0 header, S3 data, S5 count, S7 start), flash.elf (ELF32
LE, one PT_LOAD per block at its physical address, virtual addresses elsewhere)
and board.dts (the flash node at ADDR, storage_partition after the prefix).
"""
import argparse
import os
import random
import struct


def ihex(blocks, erased_skip):
    out = []
    upper = None

    def rec(addr, typ, data):
        b = bytes([len(data), (addr >> 8) & 0xff, addr & 0xff, typ]) + data
        out.append(':' + b.hex().upper() + '%02X' % ((-sum(b)) & 0xff))

    for base, data in blocks:
        for i in range(0, len(data), 16):
            chunk = data[i:i + 16]
            if erased_skip and chunk == b'\xff' * len(chunk):
                continue
            addr = base + i
            if (addr >> 16) != upper:
                upper = addr >> 16
                if addr < 0x100000:
                    rec(0, 0x02, struct.pack('>H', (upper << 16) >> 4))
                else:
                    rec(0, 0x04, struct.pack('>H', upper))
            rec(addr & 0xffff, 0x00, chunk)
    rec(0, 0x05, struct.pack('>I', blocks[0][0]))
    rec(0, 0x01, b'')
    return '\r\n'.join(out) + '\r\n'


def srec(blocks):
    out = []
    n = 0

    def rec(typ, addr, alen, data):
        b = bytes([alen + len(data) + 1]) + addr.to_bytes(alen, 'big') + data
        out.append('S%d' % typ + b.hex().upper() + '%02X' % (~sum(b) & 0xff))

    rec(0, 0, 2, b'flashdump')
    for base, data in blocks:
        for i in range(0, len(data), 32):
            rec(3, base + i, 4, data[i:i + 32])
            n += 1
    rec(5, n & 0xffff, 2, b'')
    rec(7, blocks[0][0], 4, b'')
    return '\n'.join(out) + '\n'


def elf(blocks):
    ehsize, phentsize = 52, 32
    phoff = ehsize
    off = phoff + phentsize * len(blocks)
    phdrs, body = b'', b''
    for base, data in blocks:
        phdrs += struct.pack('<IIIIIIII', 1, off + len(body), 0x20000000 + base, base,
                             len(data), len(data), 5, 4)
        body += data
    ident = b'\x7fELF' + bytes([1, 1, 1]) + bytes(9)
    hdr = ident + struct.pack('<HHIIIIIHHHHHH', 2, 40, 1, blocks[0][0], phoff, 0, 0x5000000,
                              ehsize, phentsize, len(blocks), 40, 0, 0)
    return hdr + phdrs + body


def dts(base, total, prefix, size, sector, wb):
    return f'''/dts-v1/;

/ {{
	#address-cells = <1>;
	#size-cells = <1>;

	soc {{
		#address-cells = <1>;
		#size-cells = <1>;

		flash_controller: flash-controller@4001e000 {{
			compatible = "test,flash-controller";
			reg = <0x4001e000 0x1000>;
			#address-cells = <1>;
			#size-cells = <1>;

			flash0: flash@{base:x} {{
				compatible = "soc-nv-flash";
				reg = <{base:#x} {total:#x}>;
				erase-block-size = <{sector}>;
				write-block-size = <{wb}>;

				partitions {{
					compatible = "fixed-partitions";
					#address-cells = <1>;
					#size-cells = <1>;

					boot_partition: partition@0 {{
						label = "mcuboot";
						reg = <0x0 {prefix:#x}>;
					}};
					storage_partition: partition@{prefix:x} {{
						label = "storage";
						reg = <{prefix:#x} {size:#x}>;
					}};
				}};
			}};
		}};
	}};
}};
'''


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('part')
    ap.add_argument('outdir')
    ap.add_argument('--base', type=lambda s: int(s, 0), default=0)
    ap.add_argument('--prefix', type=lambda s: int(s, 0), default=0x10000)
    ap.add_argument('--suffix', type=lambda s: int(s, 0), default=0x10000)
    ap.add_argument('--pad', choices=['random', 'erased'], default='random')
    ap.add_argument('--sector-size', type=int, default=4096)
    ap.add_argument('--write-block', type=int, default=4)
    ap.add_argument('--seed', type=int, default=1)
    a = ap.parse_args()
    part = open(a.part, 'rb').read()
    rng = random.Random(a.seed)

    def pad(n):
        return rng.randbytes(n) if a.pad == 'random' else b'\xff' * n

    whole = pad(a.prefix) + part + pad(a.suffix)
    # two blocks: what comes before the partition, and the rest
    blocks = [(a.base, whole[:a.prefix]), (a.base + a.prefix, whole[a.prefix:])]
    blocks = [b for b in blocks if b[1]]
    w = lambda name, data, mode='wb': open(os.path.join(a.outdir, name), mode).write(data)
    w('flash.bin', whole)
    w('flash.hex', ihex(blocks, a.pad == 'erased'), 'w')
    w('flash.srec', srec(blocks), 'w')
    w('flash.elf', elf(blocks))
    w('board.dts', dts(a.base, len(whole), a.prefix, len(part), a.sector_size, a.write_block), 'w')


if __name__ == '__main__':
    main()
