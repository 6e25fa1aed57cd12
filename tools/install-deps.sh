#!/usr/bin/env bash
# Installs the Debian 12 packages tpuprof needs, only those missing (as root, or via sudo).
set -euo pipefail
pkgs=(cmake g++ make ninja-build pkg-config python3 librange-v3-dev libfmt-dev libsimdjson-dev doctest-dev
      libbenchmark-dev libcli11-dev clang-format-16 clang libclang-rt-14-dev protobuf-compiler
      nodejs chromium
      libsqlite3-dev sqlite3
      libxlsxwriter-dev python3-openpyxl
      ${TPUPROF_EXTRA_PKGS:-})
pkgs+=(help2man man-db bsdextrautils)  # the CLI's man page (help2man) and its test (man, col)
missing=()
for p in "${pkgs[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  echo "tpuprof: installing ${missing[*]}" >&2
  sudo=""; [ "$(id -u)" -eq 0 ] || sudo="sudo"
  export DEBIAN_FRONTEND=noninteractive
  $sudo apt-get update -qq
  $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi
