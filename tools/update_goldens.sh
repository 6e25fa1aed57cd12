#!/usr/bin/env bash
# Regenerates tests/golden/ from the real captures with the dev CLI. Run it only
# for an intended change of a sink's output, then review `git diff tests/golden`.
#   cmake --build --preset dev -j1 --target tpuprof_cli && tools/update_goldens.sh
# The Perfetto goldens are protoc's text decoding of the .pftrace, after one
# line with the POSIX `cksum` (CRC and size) of the binary file: the test
# compares that line exactly (the bytes) and the text when protoc exists.
set -euo pipefail
cd "$(dirname "$0")/.."
T=${TPUPROF_CLI:-build/dev/examples/tpuprof}
S=${TPUPROF_SAMPLES_DIR:-../shared/samples}
G=tests/golden
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for entry in bm1684x:bm1684x/bmprofile_data-1 bm1690:bm1690/cdm_profile_data_dev0; do
  name=${entry%%:*}
  "$T" convert -q --perfetto --json --csv --no-summary -o "$tmp/$name" "$S/${entry#*:}"
  cp "$tmp/$name/events.csv" "$G/${name}_real_events.csv"
  [ "$name" = bm1684x ] && cp "$tmp/$name/summary.csv" "$G/${name}_real_summary.csv"
  cp "$tmp/$name/trace.json" "$G/${name}_real_trace.json"
  # The summary formatters' bytes (sinks/summary_format.hpp) as the CLI prints them.
  "$T" summary -q "$S/${entry#*:}" > "$G/${name}_real_summary.txt"
  "$T" summary -q --format csv "$S/${entry#*:}" > "$G/${name}_real_summary_cli.csv"
  "$T" summary -q --format json "$S/${entry#*:}" > "$G/${name}_real_summary_cli.json"
  { printf '# cksum: %s\n' "$(cksum < "$tmp/$name/trace.pftrace")"
    protoc --proto_path=tests/data --decode=perfetto.protos.Trace perfetto_trace.proto \
      < "$tmp/$name/trace.pftrace"; } > "$G/${name}_real_trace.pftrace.txt"
done
git status --short "$G"
