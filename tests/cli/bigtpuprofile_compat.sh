#!/usr/bin/env bash
# bigTpuProfile's command lines with `tpuprof convert` in its place: each must
# succeed and leave exactly the files bigTpuProfile writes (names from its
# main.py and exporters at commit 926d17ef: perfetto.pftrace always,
# summary.txt unless --disable_summary; with --enable_doc the RegInfo files of
# every queue with commands (TxtExporter) and PerfDoc/<OUT>.xlsx with the
# "Instr World" table PerfDoc/<OUT>.csv (run_doc); output_dir defaults to profile_out).
# Usage: bigtpuprofile_compat.sh TPUPROF SAMPLES_DIR WORK_DIR
set -euo pipefail
export LC_ALL=C  # file lists sorted the same everywhere
T=$1 S=$2 W=$3
rm -rf "$W" && mkdir -p "$W" && cd "$W"
IN=$S/bm1690/cdm_profile_data_dev0
# A host trace as tpu-train writes it (--trace_file): one tpudnn op.
printf '{"traceEvents":[{"ph":"X","cat":"tpudnn","name":"gelu","pid":1,"tid":1,"ts":10,"dur":5}]}' > host.json
fails=0 n=0
check() {  # check "EXPECTED FILES" DIR -- ARGS...
  local want=$1 dir=$2
  shift 3
  n=$((n + 1))
  if ! "$T" -q convert "$@" > out.log 2>&1; then
    echo "FAIL: tpuprof convert $*: exit $?"; cat out.log; fails=$((fails + 1)); return
  fi
  local got
  got=$(cd "$dir" && find . -type f | sed 's|^\./||' | sort | tr '\n' ' ')
  if [ "$got" != "$want " ]; then
    echo "FAIL: $*: files '$got', bigTpuProfile writes '$want'"; fails=$((fails + 1))
  else
    echo "ok: tpuprof convert $* -> $want"
  fi
  rm -rf "$dir"
}
check "perfetto.pftrace summary.txt" result_out -- "$IN" result_out
check "perfetto.pftrace summary.txt" result_out -- "$IN/" result_out --tiu_freq 800
check "perfetto.pftrace" result_out -- "$IN" result_out --disable_summary
check "perfetto.pftrace summary.txt" result_out -- "$IN" result_out --trace_file host.json --tiu_freq 800
check "perfetto.pftrace summary.txt" profile_out -- "$IN" --disable_doc --disable_web
check "perfetto.pftrace summary.txt" result_out -- "$IN" result_out --perfetto --num_core 1
check "perfetto.pftrace summary.txt" nested/out -- --disable_web "$IN" nested/out
# --enable_doc: the doc outputs (tests/cli/xlsx_check.py reads them back).
doc="PerfDoc/result_out.csv PerfDoc/result_out.xlsx perfetto.pftrace summary.txt tdmaRegInfo_0.txt tiuRegInfo_0.txt"
check "$doc" result_out -- "$IN" result_out --enable_doc
check "$doc" result_out -- "$IN" result_out --enable_doc --tiu_freq 800 --trace_file host.json
check "${doc/ summary.txt/}" result_out -- "$IN" result_out --enable_doc --disable_summary
check "perfetto.pftrace summary.txt" result_out -- "$IN" result_out --enable_doc --disable_doc
check "PerfDoc/profile_out.csv PerfDoc/profile_out.xlsx perfetto.pftrace summary.txt tdmaRegInfo_0.txt tiuRegInfo_0.txt" profile_out -- "$IN" --enable_doc
# Not bigTpuProfile's form: tpuprof's own names stay as they were.
check "summary.txt trace.pftrace" tpuprof_out -- "$IN"
check "summary.txt trace.pftrace" o -- "$IN" -o o
check "perfdoc.xlsx summary.txt" o -- "$IN" -o o --xlsx
# -o and OUT together are a usage error (exit 2).
set +e
"$T" -q convert "$IN" a -o b > /dev/null 2>&1
rc=$?
set -e
n=$((n + 1))
if [ "$rc" -ne 2 ]; then echo "FAIL: -o and OUT: exit $rc, want 2"; fails=$((fails + 1)); fi
# --sqlite-db (relative to the working directory) collects several dumps in one database.
if command -v sqlite3 > /dev/null; then
  n=$((n + 1))
  "$T" -q convert --sqlite-db runs.sqlite -o o1 "$IN"
  "$T" -q convert --sqlite-db runs.sqlite --label second -o o2 "$S/synthetic/aks_mode1_seed1/cdm_profile_data_dev0-0"
  got=$(sqlite3 runs.sqlite "select group_concat(coalesce(call, '-') || ':' || label, ' ') from runs")
  if [ "$got" != "-: 0:second" ] || [ -e o1/runs.sqlite ]; then
    echo "FAIL: --sqlite-db: runs '$got'"; fails=$((fails + 1))
  fi
fi
echo "$((n - fails)) passed, $fails failed"
[ "$fails" -eq 0 ]
