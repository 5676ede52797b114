#!/bin/sh
# nvs-inspect when the given range does not fit the layout: a devicetree
# partition whose size ends mid-sector (or mid erase block) is warned about
# with both sizes and the likely right ones, close ATEs pointing beyond the
# sectors read from the range are warned about with the likely sector size,
# and --check counts both; --ates
# shows printable values as escaped text under their row, within 80 columns.
set -u
. "${top_srcdir:-.}/tests/tools/nvs-inspect-common.sh"
wrap=$top_srcdir/tests/tools/flashdump.py

# 8 sectors of 4096 bytes between 64 KiB of other data on each side; the
# devicetree says 0x7c00 bytes (31744, 3 KiB short of the 8th sector)
python3 "$wrap" "$vec/nvs_rpl_2pass.bin" "$tmp" --prefix 0x10000 --suffix 0x10000 --seed 3 ||
	bad "flashdump.py failed"
sed 's/reg = <0x10000 0x8000>/reg = <0x10000 0x7c00>/' "$tmp/board.dts" > "$tmp/cut.dts"
grep -q 'reg = <0x10000 0x7c00>' "$tmp/cut.dts" || bad "the DTS was not edited"
# the size is 31 KiB: whole 1024-byte sectors, but not whole 4096-byte erase blocks
timeout 60 "$tool" --dts "$tmp/cut.dts" --check "$tmp/flash.bin" > "$tmp/check" 2>&1
grep -Eq '^warning +partition-mid-sector +image offset 0x17000: .* is 31744 bytes, not a multiple of the 4096-byte erase block: it ends 3072 bytes into erase block 7 \(likely size 28672 or 32768\)' "$tmp/check" ||
	bad "size mid erase block: $(grep -v '^error' "$tmp/check" | head -c 600)"
# the summary says it too
timeout 60 "$tool" --dts "$tmp/cut.dts" "$tmp/flash.bin" > "$tmp/out" 2>&1
tr '\n' ' ' < "$tmp/out" | grep -Eq 'warning: the partition .* is 31744 +bytes, not a multiple' ||
	bad "summary: no partition-mid-sector warning"
# the 1024-byte sectors read from that size: the close ATE of the real
# sector 0 points beyond them, so the likely sector size is said too
grep -Eq '^warning +layout-close-outside +sector 3 offset 0x03f8: 1 close ATE, the first in sector 3 \(image offset 0x10ff8\), points up to offset 0x0558, outside their 1024-byte sectors: the sectors are probably 4096 bytes \(--sector-size 4096\), and the partition.s size is no whole number of them$' "$tmp/check" ||
	bad "close ATE outside: $(grep layout "$tmp/check")"
# a raw vector with too small a --sector-size: the same warning, counted by --check
timeout 60 "$tool" --sector-size 1024 --check "$vec/nvs_rpl_2pass.bin" > "$tmp/check2" 2>&1
grep -Eq '^warning +layout-close-outside +sector 3 offset 0x03f8: .* \(image offset 0xff8\), .* probably 4096 bytes \(--sector-size 4096\)$' "$tmp/check2" ||
	bad "raw, --sector-size 1024: $(grep layout "$tmp/check2")"
# with the sector size given, the sector is named and --check counts the warning
timeout 60 "$tool" --dts "$tmp/cut.dts" --sector-size 4096 --check "$tmp/flash.bin" > "$tmp/check" 2>&1
grep -Eq '^warning +partition-mid-sector .* not a multiple of the 4096-byte sector: it ends 3072 bytes into sector 7 ' "$tmp/check" ||
	bad "size mid sector: $(head -c 600 "$tmp/check")"
grep -q ': 0 errors, 3 warnings$' "$tmp/check" || bad "--check count: $(tail -n 1 "$tmp/check")"
# the true size: no such warning
timeout 60 "$tool" --dts "$tmp/board.dts" --check "$tmp/flash.bin" > "$tmp/check" 2>&1
! grep -q 'partition-mid-sector' "$tmp/check" || bad "whole sectors warned about"

# --ates: settings names readable as text, every line within 80 columns
timeout 60 "$tool" --ates "$vec/kvss_settings_rpl.bin" > "$tmp/ates" 2>&1 || bad "--ates: exit $?"
grep -A1 '^0:0x0fd8  0x8001 0x0008 16 ' "$tmp/ates" | tail -n 1 |
	grep -qx '          text "bt/mesh/rpl/1a2b"' || bad "--ates: no text line for a name: $(head -n 8 "$tmp/ates")"
awk 'length > 80 { print; exit 1 }' "$tmp/ates" || bad "--ates: a line is wider than 80 columns"
# binary values get no text line
grep -A1 '^0:0x0fe0  0xc001 0x0004 4 ' "$tmp/ates" | tail -n 1 | grep -q '^0:' ||
	bad "--ates: a text line for a binary value"
# a long value with an unprintable byte: escaped, cut at a whole escape, whole with --wide
"$damage" fill "$tmp/long.bin" 32768 255 || bad "fill failed"
name=$(printf 'app/"q"\\\001\001\001\001\001\001\001\001-%s' 012345678901234567890123456789)
"$damage" setting "$tmp/long.bin" 4096 4 "$name" v || bad "cannot save a long setting"
timeout 60 "$tool" --ates --sector-size 4096 --write-block 4 "$tmp/long.bin" > "$tmp/ates" 2>&1 || bad "--ates long: exit $?"
grep -qxF '          text "app/\"q\"\\\x01\x01\x01\x01\x01\x01\x01\x01-0123456789012345"...' "$tmp/ates" ||
	bad "--ates: long name not escaped and cut: $(cat "$tmp/ates")"
awk 'length > 80 { print; exit 1 }' "$tmp/ates" || bad "--ates: a long name's line is wider than 80 columns"
timeout 60 "$tool" --ates --wide --sector-size 4096 --write-block 4 "$tmp/long.bin" > "$tmp/ates" 2>&1 || bad "--ates --wide: exit $?"
grep -qxF '          text "app/\"q\"\\\x01\x01\x01\x01\x01\x01\x01\x01-012345678901234567890123456789"' "$tmp/ates" ||
	bad "--ates --wide: the whole name not shown: $(cat "$tmp/ates")"
exit $fail
