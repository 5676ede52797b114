#!/bin/sh
# libcore/libcore.mk lists exactly the sources and headers Automake builds
# and installs (LIBCORE_AM_SOURCES / LIBCORE_AM_HEADERS, from the Makefile),
# and each module's lists add up to the totals.
set -eu
mk=$top_srcdir/libcore/libcore.mk
get() { MAKEFLAGS= MFLAGS= MAKELEVEL= make -s --no-print-directory -f "$mk" -f - print <<EOF_MK
print: ; @echo \$($1)
EOF_MK
}
words() { tr ' ' '\n' | sed '/^$/d' | sort; }
fail=0
same() { # what, Automake's list, libcore.mk's list
	[ "$2" = "$3" ] && return 0
	echo "libcore.mk: $1 differ from Makemodule.am (< Makemodule.am, > libcore.mk):"
	printf '%s\n' "$2" > "$tmp.am"
	printf '%s\n' "$3" > "$tmp.mk"
	diff "$tmp.am" "$tmp.mk" | grep '^[<>]' || true
	fail=1
}
tmp=${TMPDIR:-/tmp}/libcore-mk.$$
trap 'rm -f "$tmp.am" "$tmp.mk"' EXIT
am_srcs=$(echo "$LIBCORE_AM_SOURCES" | words | sed 's|^libcore/||')
am_hdrs=$(echo "$LIBCORE_AM_HEADERS" | words | sed 's|^libcore/||')
mk_srcs=$(get LIBCORE_SRCS | words)
mk_hdrs=$(get LIBCORE_HDRS | words)
same "sources (LIBCORE_SRCS)" "$am_srcs" "$mk_srcs"
same "headers (LIBCORE_HDRS)" "$am_hdrs" "$mk_hdrs"
mod_srcs=""
mod_hdrs=""
for m in $(get LIBCORE_MODULES); do
	mod_srcs="$mod_srcs $(get "LIBCORE_${m}_SRCS")"
	mod_hdrs="$mod_hdrs $(get "LIBCORE_${m}_HDRS")"
done
same "module sources (LIBCORE_*_SRCS)" "$mk_srcs" "$(echo "$mod_srcs" | words)"
same "module headers (LIBCORE_*_HDRS)" "$mk_hdrs" "$(echo "$mod_hdrs" | words)"
[ "$fail" -eq 0 ] && echo "libcore.mk: $(echo "$mk_srcs" | wc -l) sources, $(echo "$mk_hdrs" | wc -l) headers, as Makemodule.am"
exit "$fail"
