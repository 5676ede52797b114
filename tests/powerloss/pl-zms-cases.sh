#!/bin/sh
# The cuts of the wider zms and settings_zms sweeps (make powerloss-zms)
# that lost values before their fixes, replayed exactly: each must end with
# 0 failures. Two are format limits (a torn ATE on a 0x00 flash whose crc8
# matches: byte for byte the ATE of a write of the value now stored; Zephyr's
# zms.c reads that value too): the sweep must prove them so (the other
# history leaves the same image) and count them apart, not as failures.
set -e
pl="${top_builddir:-.}/tests/powerloss/pl_random"
tmp=$(mktemp)
trap 'rm -f "$tmp"' EXIT
replay() {
	"$pl" --engine "$1" --mode "$2" --case "$3" --cuts "$4" > "$tmp" 2>&1 || {
		cat "$tmp"
		echo "pl-zms-cases.sh: $1 $2 $3/$4 fails"
		exit 1
	}
	grep -q ", 0 failures" "$tmp" || { cat "$tmp"; exit 1; }
}
replay settings_zms somebits 1008 455,3
replay settings_zms torn 1041 597
replay settings_zms torn 1175 957,2,1
# the empty ATE of a new write sector cut, left metastable: entries went
# in under a cycle a later mount read differently
replay zms metastable 31 38,9,19
replay zms metastable 1106 383
replay zms metastable 1123 180
replay settings_zms metastable 1163 394
replay zms mostbits 7106 154
replay settings_zms torn 7056 117
for c in "zms torn 1042 148" "settings_zms ooo 1126 637"; do
	# shellcheck disable=SC2086
	replay $c
	grep -q "^pl_random: FORMAT LIMIT " "$tmp" && grep -q "^  the torn ATE at .* byte for byte " "$tmp" &&
		grep -q "cut points (0 in recovering mounts), 0 failures, 1 format limit " "$tmp" ||
		{ cat "$tmp"; echo "pl-zms-cases.sh: $c is not classified as a format limit"; exit 1; }
done
echo "pl-zms-cases.sh: 11 cuts replayed, 0 failures, 2 format limits"
