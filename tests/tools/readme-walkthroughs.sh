#!/bin/sh
# The README's walkthroughs run verbatim and print what the README shows.
exec python3 "${top_srcdir:-.}/tests/tools/readme-walkthroughs.py"
