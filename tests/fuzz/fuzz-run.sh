#!/bin/sh
# Runs every libFuzzer target (built by `make fuzz`) for FUZZ_SECONDS on a
# copy of its seed corpus, FUZZ_JOBS at a time (default: one per CPU), and
# prints one line per target: executions, coverage (edges, features) and
# corpus size. A finding (crash, leak, timeout, property) fails the run;
# its input is kept as OUT/fuzz-findings/<target>/crash-*.
#   FUZZ_TARGETS FUZZ_SECONDS [FUZZ_JOBS] top_srcdir top_builddir
#   fuzz-run.sh OUT
set -u
out=$1
top=${top_srcdir:-.}
secs=${FUZZ_SECONDS:-60}
jobs=${FUZZ_JOBS:-$(nproc)}
work=$out/fuzz-work
rm -rf "$work"
mkdir -p "$work" "$out/fuzz-findings"
top_srcdir=$top top_builddir=${top_builddir:-.} sh "$top/tests/fuzz/fuzz-corpus.sh" "$work/corpus" || exit 1

run_one() {
	t=$1
	mkdir -p "$out/fuzz-findings/$t"
	# -max_len: the largest seed (images up to a few MiB); -timeout: a hang is a finding
	"$out/fuzz_$t" -max_total_time="$secs" -timeout=20 -rss_limit_mb=2048 \
		-max_len=4194304 -print_final_stats=1 \
		-artifact_prefix="$out/fuzz-findings/$t/" "$work/corpus/$t" \
		>"$work/$t.log" 2>&1
	echo $? >"$work/$t.rc"
}

running=0
for t in $FUZZ_TARGETS; do
	run_one "$t" &
	running=$((running + 1))
	if [ "$running" -ge "$jobs" ]; then
		wait
		running=0
	fi
done
wait

fail=0
for t in $FUZZ_TARGETS; do
	rc=$(cat "$work/$t.rc" 2>/dev/null || echo 1)
	runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$work/$t.log" | tail -n 1)
	cov=$(grep -E '^#[0-9]+' "$work/$t.log" | tail -n 1 | sed -nE 's/.*cov: ([0-9]+) ft: ([0-9]+) corp: ([0-9]+).*/\1 edges, \2 features, corpus \3/p')
	if [ "$rc" -eq 0 ]; then
		echo "fuzz_$t: ${runs:-0} executions in ${secs} s, ${cov:-no coverage line}"
	else
		fail=1
		echo "fuzz_$t: FINDING (exit $rc) after ${runs:-?} executions, ${cov:-}"
		grep -a -E "ERROR:|SUMMARY:|property violated|runtime error" "$work/$t.log" | head -n 8
		ls "$out/fuzz-findings/$t" | sed 's/^/  input: /'
	fi
done
exit $fail
