#!/usr/bin/env bash
# Loads the installed bash completion script and completes as bash would
# (COMP_WORDS/COMP_CWORD, then the function `complete -p` names): subcommands,
# options of a subcommand, and option values.
# Usage: completion_test.sh PATH/TO/completions/tpuprof
set -euo pipefail
source "$1"
fn=$(complete -p tpuprof | sed -n 's/.*-F \([^ ]*\) .*/\1/p')
[ -n "$fn" ] || { echo "no completion function registered for tpuprof"; exit 1; }
complete_words() {  # the words typed so far; prints COMPREPLY sorted, one line
  COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); COMPREPLY=()
  "$fn" tpuprof "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD-1]}"
  printf '%s\n' "${COMPREPLY[@]}" | LC_ALL=C sort | tr '\n' ' '
}
expect() {  # expect "WANT" words...: WANT is the whole sorted reply
  local want=$1; shift
  local got; got=$(complete_words "$@")
  [ "$got" = "$want" ] || { echo "completing '$*': want '$want', got '$got'"; exit 1; }
}
expect "summary synth " tpuprof s
expect "gaps group " tpuprof g
expect "diff " tpuprof -q di
expect "--fail-above --format " tpuprof diff a b --f
expect "csv json table " tpuprof summary --format ""
expect "aks aksv " tpuprof top x --chip ak
chips=$(complete_words tpuprof top x --chip "")
case "$chips" in *"bm1684x "*) ;; *) echo "--chip values: $chips"; exit 1 ;; esac
all=$(complete_words tpuprof "")
for sub in info convert summary top gaps group report diff synth; do
  case " $all " in *" $sub "*) ;; *) echo "subcommand $sub not offered: $all"; exit 1 ;; esac
done
echo "completion ok"
