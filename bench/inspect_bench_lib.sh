# Sourced by the nvs-inspect benchmarks: the tool's path (the program, not
# libtool's wrapper), $runs, now_ns, best CMD... (best wall time in ms into
# $best) and ratio A B.
tool=tools/nvs-inspect/nvs-inspect
if [ -x tools/nvs-inspect/.libs/nvs-inspect ]; then
	tool=tools/nvs-inspect/.libs/nvs-inspect
	LD_LIBRARY_PATH=$(pwd)/libcore/.libs${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
	export LD_LIBRARY_PATH
fi

now_ns() { date +%s%N; }

best() {
	best=
	i=0
	while [ $i -lt $runs ]; do
		t0=$(now_ns)
		"$@" > /dev/null
		t1=$(now_ns)
		t=$(( (t1 - t0) / 1000 ))
		if [ -z "$best" ] || [ "$t" -lt "$best" ]; then best=$t; fi
		i=$((i + 1))
	done
	best=$(awk -v us="$best" 'BEGIN { printf "%.1f", us / 1000 }')
}
