#!/bin/sh
# Renders the installed man page with man-db (`man --warnings -l`): it must
# render without groff warnings and hold the synopsis and every subcommand's help.
# Usage: man_test.sh PATH/TO/tpuprof.1
set -eu
page=$1
err=$(mktemp)
out=$(MANWIDTH=100 MAN_KEEP_FORMATTING= man --warnings -l "$page" 2>"$err" | col -b)
if [ -s "$err" ]; then
  echo "man page: groff warnings:"; cat "$err"; rm -f "$err"; exit 1
fi
rm -f "$err"
for want in "NAME" "tpuprof - timelines, tables and answers" "SUBCOMMANDS" "tpuprof summary" \
            "tpuprof diff" "--fail-above" "EXIT STATUS" "NO_COLOR"; do
  case "$out" in
    *"$want"*) ;;
    *) echo "man page: '$want' missing"; echo "$out" | head -40; exit 1 ;;
  esac
done
echo "man page ok"
