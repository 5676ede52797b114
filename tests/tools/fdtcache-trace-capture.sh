#!/bin/sh
# fdtcache-trace --import capture on version 2 capture logs: the path and
# alias lines of the committed real boots (exact counts per board, each typed
# line checked against its log line, the committed trace remade byte for
# byte, the replay's lookups and not-found counts per kind), a hand-made log
# of every line form, and bad lines (truncated, over-long, non-printable)
# each refused with FILE:LINE and a reason; with python3, the gdb script under
# a stand-in for gdb (tests/tools/capture-gdb-fake.py).
set -u
. "${top_srcdir:-.}/tests/tools/fdtcache-common.sh"
tool="$bld/tools/fdtcache-trace"
bench="$bld/tools/fdtcache-bench"

# board paths aliases resolved alias-ids highest-ids; bench: path lookups/not_found, alias
# lookups/not_found (paths + aliases = the log's path lines minus the resolutions)
while read -r board paths aliases resolved ids highest path_nf alias_nf; do
	dir="$src/fixtures/boots/$board"
	log="$dir/$board.log" trace="$dir/$board.trace"
	set -- "$dir"/*.dtb
	dtb=$1
	head -1 "$log" | grep -qx '# fdtcache-capture 2'
	check "$board: the log is a version 2 capture" $?
	"$tool" --import capture -o "$tmp/t" "$log"
	check "$board: --import capture exits 0" $?
	cmp -s "$tmp/t" "$trace"
	check "$board: the committed trace is the import of the committed log" $?
	got="$(grep -c '^path ' "$tmp/t") $(grep -c '^alias ' "$tmp/t")"
	got="$got $(grep -c '^# path .* (the alias above, resolved)$' "$tmp/t")"
	got="$got $(grep -c '^# of_alias_get_id(' "$tmp/t") $(grep -c '^# of_alias_get_highest_id(' "$tmp/t")"
	[ "$got" = "$paths $aliases $resolved $ids $highest" ]
	check "$board: $paths path, $aliases alias lookups, $resolved resolutions, $ids + $highest alias ids ($got)" $?
	[ "$(grep -c '^path "' "$log")" -eq $((paths + aliases + resolved)) ]
	check "$board: every path line of the log is in the trace" $?
	# The log's path lines as trace lines, by sed: '/'-paths kept, a bare
	# name (options cut at ':') an alias, a call from of_find_node_opts_by_path
	# a comment. The boards' strings need no \xNN.
	sed -n -e '/^path "[^"]*" of_find_node_opts_by_path+/{s/^path "\([^"]*\)" \(.*\)$/# path \1 # \2 (the alias above, resolved)/p;d}' \
		-e 's/^path "\(\/[^":]*\)" \(.*\)$/path \1 # \2/p' \
		-e 's/^path "\([^"/:]*\):\([^"]*\)" \(.*\)$/alias \1 # \3 (options \2)/p' \
		-e 's/^path "\([^"/:]*\)" \(.*\)$/alias \1 # \2/p' "$log" > "$tmp/from-log"
	grep -E '^(path |alias |# path )' "$tmp/t" | diff "$tmp/from-log" - > "$tmp/diff"
	check "$board: path and alias lines as the log has them, in order" $?
	cat "$tmp/diff"
	typed_counters -p none --trace "$trace" "$dtb" > "$tmp/typed"
	check "$board: fdtcache-bench replays the typed lookups, each agreeing with libfdt" $?
	got=$(awk -F, '$1 == "path" { p = $3 "/" $7 } $1 == "alias" { a = $3 "/" $7 }
		END { print p, a }' "$tmp/typed")
	[ "$got" = "$paths/$path_nf $aliases/$alias_nf" ]
	check "$board: replayed path/not-found $paths/$path_nf, alias $aliases/$alias_nf ($got)" $?
done <<EOF
virt 20 0 0 2 1 3 0
raspi3b 36 1 1 2 1 2 0
vexpress-a15 39 0 0 5 1 2 0
sabrelite 103 0 0 3 1 4 0
EOF

# Every line form of version 2, by hand.
sha=6098f71baea5daa1634d4368617149fe040141c083a06b8d19f6502711542144
{
	printf '# fdtcache-capture 2\n# dtb: b.dtb sha256 %s\n' "$sha"
	printf 'path "/aliases" of_alias_scan+0x4c\npath "serial0:115200n8" of_alias_scan+0x94\n'
	printf 'path "/soc/serial@2020000" of_find_node_opts_by_path+0xfc\n'
	printf 'lookup 0x0000001c of_irq_init+0x1a0\nmark core_init\n'
	printf 'path "/chosen/linux\\x2csysrq-reset-seq" sysrq_init+0x88\n'
	printf 'path "ethernet0/mdio" f+0x1\npath "/" soc_is_tegra+0x24\n'
	printf 'path ":opts" f+0x2\nalias-id "serial" pl011_setup_port+0x58\n'
	printf 'alias-highest "i2c" i2c_init+0x2c\npath "/cpus" caller\033[31m+0x1\nmark user\n'
} > "$tmp/v2.log"
"$tool" --import capture -o "$tmp/v2.trace" "$tmp/v2.log"
check "v2: --import capture exits 0" $?
cat > "$tmp/v2.want" <<EOF
# Imported by fdtcache-trace --import capture from v2.log
# dtb: b.dtb sha256 $sha
path /aliases # of_alias_scan+0x4c
alias serial0 # of_alias_scan+0x94 (options 115200n8)
# path /soc/serial@2020000 # of_find_node_opts_by_path+0xfc (the alias above, resolved)
0x1c # of_irq_init+0x1a0
@core_init
path /chosen/linux,sysrq-reset-seq # sysrq_init+0x88
path ethernet0/mdio # f+0x1
path / # soc_is_tegra+0x24
# path "" # f+0x2 (empty: no node)
# of_alias_get_id("serial") # pl011_setup_port+0x58
# of_alias_get_highest_id("i2c") # i2c_init+0x2c
path /cpus # caller\\x1b[31m+0x1
@user
EOF
diff "$tmp/v2.want" "$tmp/v2.trace" > "$tmp/diff"
check "v2: path, alias, resolution, options, escapes, alias ids; the caller escaped" $?
cat "$tmp/diff"
printf '# fdtcache-capture 2\nalias-id "serial" f+0x1\nmark user\n' > "$tmp/ids.log"
expect_exit "v2: alias ids alone are no lookup" 1 "$tool" --import capture "$tmp/ids.log"
grep -q "ids.log:3: no lookup found" "$tmp/err"
check "v2: alias ids alone: no lookup found" $?

bad() { # name, expected message (grep -F), log body after the version 2 line (printf format)
	case_name=$1 case_why=$2
	shift 2
	{ printf '# fdtcache-capture 2\nlookup 0x0000001c f+0x1\n'; printf "$@"; } > "$tmp/bad.log"
	rm -f "$tmp/bad.trace"
	expect_exit "bad: $case_name" 1 "$tool" --import capture -o "$tmp/bad.trace" "$tmp/bad.log"
	grep -qF "fdtcache-trace: $tmp/bad.log:3: $case_why" "$tmp/err"
	check "bad: $case_name: FILE:LINE: $case_why" $?
	[ ! -e "$tmp/bad.trace" ]
	check "bad: $case_name: no trace written" $?
}
long=$(awk 'BEGIN { while (n++ < 1025) printf "a" }')
bad "no closing quote" "truncated line: the string has no closing '\"'" 'path "/soc/ser f+0x1\n'
bad "no caller" "truncated line: expected 'path \"STRING\" CALLER'" 'path "/soc"\n'
bad "lookup cut short" "truncated line: expected 'lookup 0xPHANDLE CALLER'" 'lookup 0x0000001\n'
bad "lookup without caller" "truncated line: expected 'lookup 0xPHANDLE CALLER'" 'lookup 0x0000001c\n'
bad "no final newline" "truncated: the last line has no newline" 'path "/cpus" f+0x1'
bad "over the gdb bound" "over-long string: the kernel's went on past the 1024 bytes" 'path "/a"... f+0x1\n'
bad "over 1024 bytes" "over-long string: more than 1024 bytes" 'path "/%s" f+0x1\n' "$long"
bad "raw control byte" "non-printable byte 0x01 in the string" 'path "/so\001c" f+0x1\n'
bad "escaped newline" "the kernel's string holds byte 0x0a" 'path "/soc\\x0a" f+0x1\n'
bad "'#' in a path" "the kernel's path holds '#'" 'path "/soc#1" f+0x1\n'
bad "bad escape" "bad escape in the string (only \\xNN)" 'path "/soc\\n" f+0x1\n'
bad "escaped NUL" "\\x00 in the string" 'path "/soc\\x00" f+0x1\n'
bad "unquoted" "expected a string between double quotes" 'alias-id serial f+0x1\n'
bad "after the quote" "unexpected bytes after the string's closing '\"'" 'path "/a"b f+0x1\n'
bad "unreadable" "the capture could not read the kernel's string (at 0xc0000000)" \
	'path unreadable 0xc0000000 f+0x1\n'
bad "unknown word" "not a capture line (lookup, path, alias-id, alias-highest, mark" 'paths "/" f\n'
printf '# fdtcache-capture 1\npath "/cpus" f+0x1\n' > "$tmp/v1.log"
expect_exit "v1: no path lines" 1 "$tool" --import capture "$tmp/v1.log"
grep -qF "v1.log:2: not a capture line (lookup, mark or # comment)" "$tmp/err"
check "v1: a path line needs version 2" $?

# The gdb side (scripts/capture-boot-trace.gdb.py) under a stand-in for gdb's
# module (tests/tools/capture-gdb-fake.py): its bounded, page-safe string
# reads and escapes, on arm and arm64, and what the importer makes of them.
if command -v python3 > /dev/null; then
	e=$(awk 'BEGIN { while (n++ < 1023) printf "e" }')
	f=$(awk 'BEGIN { while (n++ < 1023) printf "f" }')
	for arch in arm arm64; do
		python3 "$src/tests/tools/capture-gdb-fake.py" "$src/scripts/capture-boot-trace.gdb.py" \
			"$tmp/gdb.out" $arch
		check "gdb script ($arch): every read within a page, 64 bytes and the bound" $?
		if [ $arch = arm ]; then
			ret=0xc0809000 str=0xc0903000
		else
			ret=0xffff800008009000 str=0xffff800008103000
		fi
		cat > "$tmp/gdb.want" <<EOF
started
lookup 0xffffffff $ret
path "/cpus" $ret
path "/a\\x20b\\x22c\\x5cd\\x80\\x7f:opt" $ret
path "/$e" $ret
path "/$f"... $ret
path unreadable $str $ret
mark core_init
alias-id "serial" $ret
alias-highest "i2c" $ret
mark user
ended
EOF
		diff "$tmp/gdb.want" "$tmp/gdb.out" > "$tmp/diff"
		check "gdb script ($arch): a string next to an unmapped page, escapes, the bound" $?
		head -c 2000 "$tmp/diff"
	done
	# its lines as a log: the good ones import, each bad one is refused
	sed -n '2,11p' "$tmp/gdb.out" > "$tmp/gdb.lines"
	{ echo '# fdtcache-capture 2'; sed -e '3d;5d;6d' "$tmp/gdb.lines"; } > "$tmp/gdb.log"
	"$tool" --import capture "$tmp/gdb.log" | grep -v '^# Imported ' > "$tmp/gdb.trace"
	cat > "$tmp/gdb.want" <<EOF
0xffffffff # $ret
path /cpus # $ret
path /$e # $ret
@core_init
# of_alias_get_id("serial") # $ret
# of_alias_get_highest_id("i2c") # $ret
@user
EOF
	diff "$tmp/gdb.want" "$tmp/gdb.trace" > "$tmp/diff"
	check "gdb script: its lines import (a path of exactly the 1024-byte bound too)" $?
	head -c 2000 "$tmp/diff"
	for bad in "3:the kernel's string holds byte 0x20" "5:over-long string: the kernel's went on" \
		"6:the capture could not read the kernel's string (at $str)"; do
		{ echo '# fdtcache-capture 2'; sed -n "${bad%%:*}p" "$tmp/gdb.lines"; } > "$tmp/gdb-bad.log"
		expect_exit "gdb script: its line ${bad%%:*} refused" 1 \
			"$tool" --import capture "$tmp/gdb-bad.log"
		grep -qF "gdb-bad.log:2: ${bad#*:}" "$tmp/err"
		check "gdb script: its line ${bad%%:*}: ${bad#*:}" $?
	done
else
	echo "# python3 not installed: the gdb script's stand-in run skipped"
fi
exit $fail
