# Shared by the fdtcache-* tool tests (sourced, not run): paths, a temp dir
# removed on exit, and TAP-like checks that set $fail.
src=${top_srcdir:-.}
bld=${top_builddir:-.}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
check() { # name, condition result
	if [ "$2" -eq 0 ]; then echo "ok - $1"; else echo "not ok - $1"; fail=1; fi
}
expect_exit() { # name, expected code, command...
	name=$1 want=$2
	shift 2
	"$@" > "$tmp/out" 2> "$tmp/err"
	got=$?
	[ "$got" -eq "$want" ]
	check "$name (exit $got, want $want)" $?
}
typed_counters() { # fdtcache-bench arguments: the typed section of its CSV, kind to not_found
	"$bld/tools/fdtcache-bench" -f csv "$@" | sed -n '/^kind,/,$p' | cut -d, -f1-7
}
