#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# The shared libfdtcache exports exactly the symbols of libcore/libfdtcache.sym,
# each under the version node LIBFDTCACHE_6 (objdump -T), and nothing else.
set -eu
top=${top_srcdir:-.}
so=${top_builddir:-.}/libcore/.libs/libfdtcache.so
if [ ! -e "$so" ]; then
	echo "check_abi.sh: no shared library ($so): skipped"
	exit 77
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
sed -e '/^[ \t]*$/d' -e '/^#/d' "$top/libcore/libfdtcache.sym" | sort > "$tmp/want"
# defined dynamic symbols (not UND), the version column and the name
objdump -T "$so" | awk '$0 ~ /DF|DO/ && $0 !~ /\*UND\*/ { print $(NF-1), $NF }' > "$tmp/all"
awk '$1 == "LIBFDTCACHE_6" && $2 != $1 { print $2 }' "$tmp/all" | sort > "$tmp/got"
awk '$1 != "LIBFDTCACHE_6" && $1 != "Base" { print }' "$tmp/all" > "$tmp/other"
fail=0
if ! cmp -s "$tmp/want" "$tmp/got"; then
	echo "check_abi.sh: symbols versioned LIBFDTCACHE_6 differ from libfdtcache.sym (< .sym, > .so):"
	diff "$tmp/want" "$tmp/got" | grep '^[<>]' || true
	fail=1
fi
if [ -s "$tmp/other" ]; then
	echo "check_abi.sh: symbols exported outside LIBFDTCACHE_6:"
	cat "$tmp/other"
	fail=1
fi
[ "$fail" -eq 0 ] && echo "check_abi.sh: $(wc -l < "$tmp/got") symbols, all LIBFDTCACHE_6"
exit "$fail"
