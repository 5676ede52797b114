#!/bin/sh
# The randomised power-loss sweep, bounded for make check (make
# powerloss-long runs the same harness for >= 100,000 cut points), then the
# cuts it found that lost acknowledged values before their fixes (issue 18):
# a torn ATE read as a delete on a 0x00 flash (case 4, torn and bits), and
# second and third cuts of recovering mounts that met an earlier recovery's
# half-done work (case 1); then cuts of make powerloss-long: two-sector
# partitions where an out-of-order erase of the collected sector erased its
# close slot and the mount took the remnant for the write sector, and
# metastable cells of a first cut read as erased after a second cut; and
# ATEs of several write blocks cut out of order whose crc8 matched with the
# offset's block erased; and a two-sector partition whose collected sector's
# erase, cut out of order, erased its close slot while both sectors held a
# gc_done ATE (the remnant's followed by later writes), then a cut in the
# recovering mount. Last, the two format limits of the wider ooo sweep: a
# torn ATE whose image the same acknowledged ops leave with a write of the
# torn id and length in place of the cut one; each must be reported as such
# (exit 0, FORMAT LIMIT with that history), never as a pass.
set -e
pl="${top_builddir:-.}/tests/powerloss/pl_random"
"$pl" --seed 1 --cases 60 --experiments 2
# the other schedules on one case (2 x 512 B, write block 8, erase 0x00, data
# CRC on): every op and every op of each recovery; ops 1, 2, 4, 8...
"$pl" --case 27 --schedule exhaustive --depth 2 --engine nvs --mode torn
"$pl" --case 27 --schedule log
"$pl" --engine settings --mode torn --case 96 --cuts 684
"$pl" --engine settings --mode bits --case 39 --cuts 404,1
"$pl" --engine nvs --mode ooo --case 32 --cuts 218,21,8
"$pl" --engine settings --mode metastable --case 62 --cuts 704,2,1
"$pl" --engine settings --mode metastable --case 27 --cuts 396,4
"$pl" --engine nvs --mode ooo --case 1366 --cuts 973
"$pl" --engine nvs --mode ooo --case 1572 --cuts 380,61,1
"$pl" --engine settings --mode ooo --case 1521 --cuts 708,1
"$pl" --engine settings --mode metastable --case 1092 --cuts 180,15
"$pl" --engine nvs --mode metastable --case 1949 --cuts 147,4
"$pl" --engine nvs --mode ooo --case 1146 --cuts 323
"$pl" --engine nvs --mode ooo --case 7204 --cuts 269
"$pl" --engine nvs --mode ooo --case 7834 --cuts 228
"$pl" --engine nvs --mode ooo --case 23791 --cuts 375,1
for c in 22930:337 26102:19; do
	out=$("$pl" --engine nvs --mode ooo --case "${c%:*}" --cuts "${c#*:}" 2>&1)
	echo "$out" | grep -q "^pl_random: FORMAT LIMIT nvs case ${c%:*} "
	echo "$out" | grep -q "byte for byte the one the same acknowledged ops leave"
	echo "$out" | grep -q "^pl_random: 1 cases, 1 cut points (0 in recovering mounts), 0 failures, 1 format limit"
done
