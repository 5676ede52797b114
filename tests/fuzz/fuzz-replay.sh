#!/bin/sh
# Replays every fuzz target over its seed corpus (fuzz-corpus.sh) and
# deterministic mutations of each input.
set -eu
bld=${top_builddir:-.}
top=${top_srcdir:-.}
mutations=${FUZZ_MUTATIONS:-40}
corpus=$bld/tests/fuzz/replay-corpus
top_srcdir=$top top_builddir=$bld sh "$top/tests/fuzz/fuzz-corpus.sh" "$corpus"
for dir in "$corpus"/*/; do
	t=$(basename "$dir")
	m=$mutations
	# a whole nvs-inspect run (walk, mount thread, checks, views) per input
	[ "$t" = inspect ] && m=$((mutations / 4))
	"$bld/tests/fuzz/fuzz_replay" "$t" "$m" "$dir"*
done
rm -rf "$corpus"
