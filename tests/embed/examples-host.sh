#!/bin/sh
# The examples built for the host print what examples/expected-output says
# (the same comparison make check-qemu makes on the emulated boards).
set -u
fail=0
for ex in settings-reader phandle-resolver nvs-powercut; do
	out=$("$top_builddir/examples/$ex")
	rc=$?
	expected=$(DTC=${DTC:-dtc} sh "$top_srcdir/examples/expected-output" "$ex" "$top_srcdir")
	if [ "$rc" -eq 0 ] && [ "$out" = "$expected" ]; then
		echo "ok: $ex ($(printf '%s\n' "$out" | wc -l) lines)"
	else
		echo "FAIL: $ex (exit $rc)"
		printf '%s\n' "$expected" > "${TMPDIR:-/tmp}/ex.$$.want"
		printf '%s\n' "$out" | diff "${TMPDIR:-/tmp}/ex.$$.want" - | head -n 10
		rm -f "${TMPDIR:-/tmp}/ex.$$.want"
		fail=1
	fi
done
exit "$fail"
