#!/bin/sh
# nvs-inspect on hostile input: geometries that do not fit the file or a
# sector, out-of-range options, settings names and file names with control
# and non-UTF-8 bytes, and input from pipes, FIFOs, standard input, a
# directory or a device. Every failure names the file or option and exits
# 1 (bad input) or 2 (usage); output never carries a raw control byte and
# JSON stays valid.
set -u
. "${top_srcdir:-.}/tests/tools/nvs-inspect-common.sh"
LC_ALL=C
export LC_ALL

# expect WANT_EXIT PATTERN ARGS...: exit status, and stderr matching PATTERN
# (grep -E) in plain printable ASCII
expect() {
	want=$1 pat=$2
	shift 2
	timeout 60 "$tool" "$@" > "$tmp/out" 2> "$tmp/err"
	rc=$?
	[ "$rc" -eq "$want" ] || bad "$*: exit $rc, expected $want: $(head -c 300 "$tmp/err")"
	grep -Eq -- "$pat" "$tmp/err" || bad "$*: stderr lacks '$pat': $(head -c 300 "$tmp/err")"
	LC_ALL=C grep -q '[^ -~]' "$tmp/err" && bad "$*: stderr has bytes that are not printable ASCII"
}

img=$vec/settings_rpl.bin

# a sector too small for the ATE slots NVS needs (was a SEGV)
expect 1 "settings_rpl.bin: cannot tell the geometry: sector size 32 is outside 48\.\." \
	--sector-size 32 --write-block 32 "$img"
expect 1 "settings_rpl.bin: .*sector size 64 does not hold whole ATE slots of 32 bytes, at least 6" \
	--sector-size 64 --write-block 32 "$img"
expect 1 "sector size 96 does not hold whole ATE slots of 32" --sector-size 96 --write-block 32 "$img"
"$tool" --sector-size 192 --write-block 32 --check "$img" > /dev/null 2>&1
[ $? -le 1 ] || bad "6 slots of 32 bytes in a 192-byte sector must be read"

# a geometry far larger than the file: an error naming both sizes, within
# a memory limit a small multiple of the input (was 3.3 GB and 15 s)
printf x > "$tmp/one.bin"
(ulimit -v 300000; exec "$tool" --sector-size 16384 --sectors 65535 --write-block 4 "$tmp/one.bin") \
	> /dev/null 2> "$tmp/err"
rc=$?
[ $rc -eq 1 ] || bad "giant geometry on a 1-byte file: exit $rc: $(head -c 300 "$tmp/err")"
grep -q "one.bin: cannot tell the geometry: 65535 sectors of 16384 bytes need 1073725440 bytes, but the image holds only 1 bytes after offset 0" "$tmp/err" ||
	bad "giant geometry: $(cat "$tmp/err")"
# a truncated dump holding at least half the partition is still read
"$damage" copy "$img" "$tmp/half.bin" 16384
"$tool" --check --sector-size 4096 --sectors 8 --write-block 4 "$tmp/half.bin" > "$tmp/out" 2>&1
grep -Eq '^error +truncated .*16384 bytes short of 8 sectors' "$tmp/out" || bad "a half dump must be read as truncated"
expect 1 "half.bin: .*8 sectors of 4096 bytes need 32768 bytes, but the image holds only 16383" \
	--sector-size 4096 --sectors 8 --write-block 4 --offset 1 "$tmp/half.bin"

# options out of range: said as such, exit 2
expect 2 "^nvs-inspect: --offset 99999999999: larger than the largest 32-bit value, 4294967295$" \
	--offset 99999999999 "$img"
expect 2 "^nvs-inspect: --offset -1: must not be negative$" --offset -1 "$img"
expect 2 "^nvs-inspect: --sector-size 4k: not a number" --sector-size 4k "$img"
expect 2 "^nvs-inspect: --sectors 0x1ffffffff: larger than" --sectors 0x1ffffffff "$img"
expect 1 "offset 40000 is beyond the end of the image \(32768 bytes\)" --offset 40000 "$img"

# a large partition: Zephyr's own free-space count may cost up to ATEs x
# slots reads (1,027 x 524,288 here), over the bound: only the exact figure
{ cat "$img"; head -c $((4194304 - 32768)) /dev/zero | tr '\0' '\377'; } > "$tmp/big.bin"
timeout 60 "$tool" --summary --sector-size 4096 --sectors 1024 --write-block 4 "$tmp/big.bin" \
	> "$tmp/out" 2>&1 || bad "a 4 MiB dump of 1,027 ATEs: exit $?"
tr -s '\n ' '  ' < "$tmp/out" | grep -q "count skipped for 1027 ATEs in 4194304 bytes" ||
	bad "a 4 MiB dump of 1,027 ATEs must skip Zephyr's count: $(grep -A1 '^free space' "$tmp/out")"

# settings names with a newline, ESC and 0xff, a value with OSC and BEL:
# one line each, every such byte as \xNN, and valid JSON
cp "$img" "$tmp/names.bin"
"$damage" setting "$tmp/names.bin" 4096 4 "$(printf 'evil\nforged\033[2J\377')" "$(printf 'v\033]0;x\007')" ||
	bad "cannot save the hostile setting"
"$tool" --settings "$tmp/names.bin" > "$tmp/out" 2> "$tmp/err" || bad "--settings on hostile names fails"
grep -qx 'evil\\x0aforged\\x1b\[2J\\xff = 761b5d303b7807' "$tmp/out" || bad "hostile name not escaped: $(grep -a evil "$tmp/out")"
grep -q '^forged' "$tmp/out" && bad "a settings name forged a line"
LC_ALL=C grep -q '[^ -~]' "$tmp/out" && bad "--settings printed bytes that are not printable ASCII"
"$tool" --settings --live --ates --format json "$tmp/names.bin" > "$tmp/json" 2>&1
"$damage" json "$tmp/json" settings live ates || bad "--format json on hostile names is not valid JSON"

# settings as a user reads them: sorted by name, printable values as text
# with quotes and backslashes escaped (a C string's NUL shown), --history by
# name, and a message where nothing is stored
"$damage" setting "$tmp/names.bin" 4096 4 "app/greeting" 'say "hi" \ now' || bad "cannot save a text setting"
"$tool" --settings "$tmp/names.bin" > "$tmp/out" 2>&1
grep -qx 'app/greeting = "say \\"hi\\" \\\\ now"' "$tmp/out" || bad "text value: $(grep -a greeting "$tmp/out")"
grep = "$tmp/out" | sed 's/ = .*//' | grep -v '^==' > "$tmp/names"
LC_ALL=C sort -c "$tmp/names" 2> /dev/null || bad "--settings is not sorted by name"
"$tool" --history app/greeting "$tmp/names.bin" > "$tmp/out" 2>&1
grep -q '^[0-9]*:0x[0-9a-f]* live    len=14 data=7361792022686922205c206e6f77$' "$tmp/out" || bad "--history NAME: $(cat "$tmp/out")"
"$tool" --history app/none "$tmp/names.bin" > "$tmp/out" 2>&1
grep -q '^no setting named app/none in the image (257 settings)$' "$tmp/out" || bad "--history of an absent name: $(cat "$tmp/out")"
"$tool" --history 0x1234 "$vec/nvs_history.bin" > "$tmp/out" 2>&1
grep -q '^no value of id 0x1234 is stored in the image$' "$tmp/out" || bad "--history of an absent id: $(cat "$tmp/out")"
"$tool" --settings "$vec/nvs_history.bin" > "$tmp/out" 2>&1
grep -q '^no settings in the image' "$tmp/out" || bad "--settings without settings: $(cat "$tmp/out")"

# a stored name holding a NUL byte is damage: shown with its \x00, never as
# the shorter name Zephyr's load reads (here another stored name), said in
# a verdict (an error when the names collide), apart in --history and JSON
cp "$img" "$tmp/nul.bin"
"$damage" setting "$tmp/nul.bin" 4096 4 app/nul real && "$damage" setting "$tmp/nul.bin" 4096 4 app/nulXtail fake ||
	bad "cannot save the settings to damage"
at=$(LC_ALL=C grep -obUa 'app/nulXtail' "$tmp/nul.bin" | head -n 1 | cut -d: -f1)
for bit in 3 4 6; do "$damage" flip "$tmp/nul.bin" $((at + 7)) $bit; done # 'X' (0x58) -> NUL
"$tool" --settings "$tmp/nul.bin" > "$tmp/out" 2>&1
grep -qx 'app/nul = "real"' "$tmp/out" && grep -qx 'app/nul\\x00tail = "fake"' "$tmp/out" ||
	bad "a name with a NUL byte: $(grep -a 'app/nul' "$tmp/out")"
grep -Eq '^! settings id 0x[0-9a-f]{4}: name "app/nul\\x00tail" holds a NUL byte: Zephyr.s load reads it as "app/nul", the name of id 0x[0-9a-f]{4} too$' "$tmp/out" ||
	bad "no verdict on the NUL byte: $(grep -a '^!' "$tmp/out")"
"$tool" --settings --check "$tmp/nul.bin" > "$tmp/out" 2>&1
[ $? -eq 1 ] && grep -Eq '^error +settings-name ' "$tmp/out" || bad "--settings --check: colliding NUL name is no error"
"$tool" --history app/nul "$tmp/nul.bin" > "$tmp/out" 2>&1
grep -q 'len=4 data=7265616c$' "$tmp/out" && ! grep -q 'data=66616b65$' "$tmp/out" ||
	bad "--history app/nul is not the name without NUL: $(cat "$tmp/out")"
"$tool" --settings --format json "$tmp/nul.bin" > "$tmp/json" 2>&1
"$damage" json "$tmp/json" settings || bad "--format json on a NUL name is not valid JSON"
grep -q "\"name\" : \"app/nul$(printf '\357\277\275')tail\"" "$tmp/json" ||
	bad "JSON name with a NUL byte: $(grep -a 'app/nul' "$tmp/json")"

# a file name that is not UTF-8 and holds a newline
odd=$(printf 'dump\377\n.bin')
cp "$img" "$tmp/$odd"
"$tool" --summary --check "$tmp/$odd" > "$tmp/out" 2>&1 || bad "odd file name: exit $?"
[ "$(grep -c '^image: ' "$tmp/out")" -eq 1 ] && grep -q '^image: .*dump\\xff\\x0a\.bin (32768 bytes)$' "$tmp/out" ||
	bad "odd file name not escaped: $(head -n 3 "$tmp/out")"
grep -q 'dump\\xff\\x0a\.bin: 0 errors' "$tmp/out" || bad "odd file name not escaped in --check"
"$tool" --format json "$tmp/$odd" > "$tmp/json" 2>&1
"$damage" json "$tmp/json" file || bad "--format json with a non-UTF-8 file name is not valid JSON"
expect 1 'dump\\xff\\x0a\.bin\.missing: cannot open: No such file' "$tmp/$odd.missing"

# pipes, FIFOs and standard input are read; a directory or device is refused
"$tool" --summary --live "$img" | sed 1,3d > "$tmp/want"
check_same() {
	sed 1,3d "$tmp/out" | cmp -s - "$tmp/want" || bad "$1: output differs from the file's"
	grep -q "^image: $2 (32768 bytes)" "$tmp/out" || bad "$1: image line: $(sed -n 3p "$tmp/out")"
}
cat "$img" | "$tool" --summary --live - > "$tmp/out" 2> "$tmp/err" || bad "a pipe into -: $(cat "$tmp/err")"
check_same "pipe into -" "standard input"
"$tool" --summary --live - < "$img" > "$tmp/out" 2> "$tmp/err" || bad "- from a file: $(cat "$tmp/err")"
check_same "- from a file" "standard input"
cat "$img" | "$tool" --summary --live /dev/stdin > "$tmp/out" 2> "$tmp/err" || bad "/dev/stdin on a pipe: $(cat "$tmp/err")"
check_same "/dev/stdin on a pipe" /dev/stdin
mkfifo "$tmp/fifo"
cat "$img" > "$tmp/fifo" &
timeout 60 "$tool" --summary --live "$tmp/fifo" > "$tmp/out" 2> "$tmp/err" || bad "a FIFO: $(cat "$tmp/err")"
wait
check_same "FIFO" ".*/fifo"
expect 1 "^nvs-inspect: .*/fixtures: is a directory, not a file$" "$top_srcdir/fixtures"
expect 1 "^nvs-inspect: /dev/null: is a character device, not a file" /dev/null
expect 1 "^nvs-inspect: standard input: is a character device" - < /dev/null
: | "$tool" - > /dev/null 2> "$tmp/err"
[ $? -eq 1 ] && grep -q "^nvs-inspect: standard input: the file is empty$" "$tmp/err" || bad "empty pipe: $(cat "$tmp/err")"

# garbage ATEs (crc8 failing) that each claim most of their sector: the
# work and output per ATE are bounded, not ATEs x sector size (took 16 s
# of CPU for --ates and printed every claimed value in --salvage), and the
# JSON document is streamed (2.2 GB before)
geo64k="--sector-size 65536 --write-block 4"
"$damage" crcbad "$tmp/crcbad.bin" 65536 64 65000
(ulimit -t 8; exec "$tool" --ates $geo64k "$tmp/crcbad.bin") > "$tmp/out" 2> "$tmp/err"
rc=$?
[ $rc -eq 0 ] || bad "--ates on 524,096 garbage ATEs: exit $rc (CPU limit?): $(head -c 300 "$tmp/err")"
grep -Eq '^0:0x0010 +0x0002 0x0000 65000 0xff 0x[0-9a-f]{2} crc-bad +ffffffffffffffff\.\.\.$' "$tmp/out" ||
	bad "garbage ATE row: $(grep -m1 '^0:0x0010' "$tmp/out")"
"$tool" --salvage $geo64k "$tmp/crcbad.bin" > "$tmp/out" 2> "$tmp/err"
[ "$(grep -c '^unverified ate-crc-bad' "$tmp/out")" -eq 64 ] ||
	bad "--salvage offers a sector's bytes more than once: $(grep -c '^unverified' "$tmp/out") values"
"$damage" copy "$tmp/crcbad.bin" "$tmp/crcbad16.bin" 1048576
(ulimit -v 300000; exec "$tool" --ates --format json $geo64k "$tmp/crcbad16.bin") > "$tmp/json" 2> "$tmp/err" ||
	bad "--ates --format json on 131,024 garbage ATEs: exit $? (memory limit?): $(head -c 300 "$tmp/err")"
"$damage" json "$tmp/json" ates verdicts || bad "streamed JSON does not parse"
grep -Eq '"data" : "[0-9a-f]{64}",' "$tmp/json" && ! grep -Eq '"data" : "[0-9a-f]{65,}"' "$tmp/json" ||
	bad "a garbage ATE's data is not cut to 32 bytes in JSON"

exit $fail
