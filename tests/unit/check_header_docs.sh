#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# Every public function in libcore/include/fdtcache/*.h has a libfdt-style
# comment with a returns block, error codes one per line
# (tests/unit/check_header_docs.py). The
# checker is first shown to fail on headers that break the rule.
set -e
top=${top_srcdir:-.}
check="$top/tests/unit/check_header_docs.py"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

cat > "$tmp/bad.h" <<'H'
/* fc_doc_a - documented, but says nothing of its result. */
int fc_doc_a(int x);

static inline int fc_doc_b(void)
{
	return 0;
}

/*
 * fc_doc_c - fine.
 * returns: 0.
 */
int fc_doc_c(void);

/*
 * fc_doc_d - its error codes run on in the returns line.
 * returns: 0; FC_EINVAL for a bad x.
 */
int fc_doc_d(int x);

/*
 * fc_doc_e - fine: one outcome per line.
 *
 * returns:
 *	0, done
 *	FC_EINVAL, a bad x
 */
int fc_doc_e(int x);
H
if python3 "$check" "$tmp" > "$tmp/out"; then
	echo "check_header_docs.sh: the checker passed a header without docs" >&2
	cat "$tmp/out" >&2
	exit 1
fi
grep -q 'bad.h:2: fc_doc_a: its comment has no "returns:" block' "$tmp/out"
grep -q 'bad.h:4: fc_doc_b: no comment' "$tmp/out"
grep -q 'bad.h:19: fc_doc_d: its error codes are not listed one per line' "$tmp/out"
if grep -q 'fc_doc_[ce]' "$tmp/out"; then
	echo "check_header_docs.sh: the checker refused a documented function" >&2
	exit 1
fi

python3 "$check" "$top/libcore/include/fdtcache"
