# Sourced by the nvs-inspect tool tests: sanitizer exit codes, the path
# of the tool under test, the fixtures, a temporary folder and bad().
# under the sanitizers a report must not pass for the tool's exit status 1
ASAN_OPTIONS=${ASAN_OPTIONS:-exitcode=99}
UBSAN_OPTIONS=${UBSAN_OPTIONS:-exitcode=99}
export ASAN_OPTIONS UBSAN_OPTIONS
top_srcdir=${top_srcdir:-.}
top_builddir=${top_builddir:-.}
tool=$top_builddir/tools/nvs-inspect/nvs-inspect
# the program itself, not libtool's wrapper script (which forks a shell and
# sed on every run); its uninstalled library is in libcore/.libs
if [ -x "$top_builddir/tools/nvs-inspect/.libs/nvs-inspect" ]; then
	tool=$top_builddir/tools/nvs-inspect/.libs/nvs-inspect
	LD_LIBRARY_PATH=$top_builddir/libcore/.libs${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
	export LD_LIBRARY_PATH
fi
damage=$top_builddir/tests/tools/nvs-damage
vec=$top_srcdir/fixtures/nvs/zephyr
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
bad() { echo "FAIL: $*"; fail=1; }
