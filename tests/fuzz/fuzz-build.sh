#!/bin/sh
# Builds one libFuzzer binary per target in OUT/ (called by `make fuzz`):
# every source in $FUZZ_SOURCES compiled once with coverage, ASan and UBSan
# into an archive, then each target's entry point linked against it.
#   FUZZ_CC FUZZ_TARGETS FUZZ_SOURCES FUZZ_CPPFLAGS FUZZ_LIBS top_srcdir
#   fuzz-build.sh OUT
set -eu
out=$1
top=${top_srcdir:-.}
obj=$out/fuzz-obj
san="-g -O1 -fno-omit-frame-pointer -fsanitize=address,undefined -fno-sanitize-recover=all"
export FUZZ_CC FUZZ_CPPFLAGS san obj top

command -v "$FUZZ_CC" >/dev/null || { echo "fuzz-build: no $FUZZ_CC (scripts/install-deps installs clang)" >&2; exit 1; }
mkdir -p "$obj"
rm -f "$obj"/*.o "$obj/libfuzz.a"
# shellcheck disable=SC2086
printf '%s\n' $FUZZ_SOURCES | xargs -P "$(nproc)" -n 1 sh -c '
	o="$obj/$(echo "$1" | tr / _).o"
	echo "  FUZZCC   $1"
	# shellcheck disable=SC2086
	exec $FUZZ_CC $san -fsanitize=fuzzer-no-link $FUZZ_CPPFLAGS -c "$top/$1" -o "$o"' sh
ar rcs "$obj/libfuzz.a" "$obj"/*.o
for t in $FUZZ_TARGETS; do
	echo "  FUZZLD   $out/fuzz_$t"
	# shellcheck disable=SC2086
	$FUZZ_CC $san -fsanitize=fuzzer -DFUZZ_TARGET="fuzz_$t" $FUZZ_CPPFLAGS \
		"$top/tests/fuzz/fuzz_libfuzzer.c" "$obj/libfuzz.a" $FUZZ_LIBS -o "$out/fuzz_$t"
done
