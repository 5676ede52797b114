#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-2-Clause
"""Every public function of libcore is documented libfdt-style.

Walks every header in libcore/include/fdtcache (whoever added it) and checks
that each function declared or defined there at file scope has a comment
block right above it that starts with its name ("fc_name - what it does")
and has a "returns:" block (any case); a function that can return an
error code lists its outcomes one per line under a "returns:" line of its
own, as libfdt does (a one-outcome function may say it on that line). Prints each function that lacks one with its
file and line, and exits 1 if there is any.

usage: check_header_docs.py [INCLUDE_DIR]
"""
import os
import re
import sys

# A function at file scope: return type, name, "(" on the line that starts it.
FUNC = re.compile(r'^(?:static\s+inline\s+|extern\s+)?(?:const\s+)?'
                  r'(?:struct\s+|enum\s+|unsigned\s+)?\w+[\s*]+(\w+)\s*\(')


def strip_comments_keep_lines(text):
    """The text with every comment blanked, keeping line numbers."""
    return re.sub(r'/\*.*?\*/', lambda m: re.sub(r'[^\n]', ' ', m.group(0)), text, flags=re.S)


def functions(text):
    """(name, line index) of every file-scope function in a header."""
    code = strip_comments_keep_lines(text).split('\n')
    depth = 0
    found = []
    for i, line in enumerate(code):
        if depth == 0 and not line.startswith((' ', '\t', '#')):
            m = FUNC.match(line)
            if m and not line.lstrip().startswith('typedef'):
                found.append((m.group(1), i))
        depth += line.count('{') - line.count('}')
    return found


def comment_above(lines, i):
    """The comment block ending on the line just above line i, or ''."""
    j = i - 1
    if j < 0 or not lines[j].rstrip().endswith('*/'):
        return ''
    k = j
    while k >= 0 and '/*' not in lines[k]:
        k -= 1
    return '\n'.join(lines[k:j + 1])


def problems(path):
    text = open(path, encoding='utf-8').read()
    lines = text.split('\n')
    out = []
    for name, i in functions(text):
        doc = comment_above(lines, i)
        if not re.search(r'^\s*(/\*+|\*)\s*' + re.escape(name) + r' - ', doc, re.M):
            out.append(f'{path}:{i + 1}: {name}: no comment starting "{name} - " above it')
        elif not re.search(r'^\s*\*\s*returns:', doc, re.M | re.I):
            out.append(f'{path}:{i + 1}: {name}: its comment has no "returns:" block')
        elif re.search(r'^\s*\*\s*returns:[ \t]*\S[^\0]*FC_E', doc, re.M | re.I):
            out.append(f'{path}:{i + 1}: {name}: its error codes are not listed one per '
                       f'line under a "returns:" line of its own')
    return out


def main():
    inc = sys.argv[1] if len(sys.argv) > 1 else os.path.join(
        os.environ.get('top_srcdir', '.'), 'libcore', 'include', 'fdtcache')
    headers = sorted(f for f in os.listdir(inc) if f.endswith('.h'))
    if not headers:
        print(f'check_header_docs: no headers in {inc}', file=sys.stderr)
        return 1
    bad = []
    count = 0
    for h in headers:
        path = os.path.join(inc, h)
        count += len(functions(open(path, encoding='utf-8').read()))
        bad += problems(path)
    for b in bad:
        print(b)
    print(f'check_header_docs: {count} functions in {len(headers)} headers, '
          f'{len(bad)} without a returns block as described')
    return 1 if bad else 0


if __name__ == '__main__':
    sys.exit(main())
