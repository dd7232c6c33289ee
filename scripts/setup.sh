#!/usr/bin/env bash
# setup.sh -- install every Debian package layoutlab needs, then configure and build it.
#
# Idempotent: packages already present are not reinstalled and `apt-get update` runs at most once.
# Usage: scripts/setup.sh [--no-build] [--asan] [--fuzz]
#   --no-build   only install packages
#   --asan       also configure and build the ASan+UBSan tree in build-asan/
#   --fuzz       also install clang-16 and libFuzzer, and build the fuzz harnesses in build-fuzz/
#                (CC=clang-16 -DLAB_FUZZ=ON; scripts/fuzz.sh runs them). The normal build needs no clang.
set -euo pipefail

here=$(cd "$(dirname "$0")/.." && pwd)
build=1
asan=0
fuzz=0
for a in "$@"; do
  case "$a" in
    --no-build) build=0 ;;
    --asan) asan=1 ;;
    --fuzz) fuzz=1 ;;
    -h|--help) sed -n '2,10p' "$0"; exit 0 ;;
    *) echo "setup.sh: unknown option '$a' (try --help)" >&2; exit 2 ;;
  esac
done

pkgs=(build-essential cmake ninja-build pkg-config git
      libmongoc-dev libbson-dev libwiredtiger-dev libcsv-dev libzstd-dev zstd libxxhash-dev
      libsnappy-dev libcmocka-dev libgoogle-perftools-dev gnuplot-nox golang-go python3 jq clang-format-16
      universal-ctags linux-perf)
# (universal-ctags: scripts/check-caps.sh finds each function's first and last line with it)
# (linux-perf: the profiles every performance claim starts from, e.g. perf record -g on a tool's run)
# Only with --fuzz: clang 16, its sanitizer runtimes, libFuzzer and llvm-symbolizer (for readable reports).
if [ "$fuzz" -eq 1 ]; then
  pkgs+=(clang-16 libclang-rt-16-dev libfuzzer-16-dev llvm-16)
fi

missing=()
for p in "${pkgs[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done
# Go may come from outside Debian (e.g. /usr/local/go); only require Debian's when no go >= 1.24 exists.
if command -v go >/dev/null 2>&1; then
  v=$(go env GOVERSION 2>/dev/null | sed 's/^go//')
  maj=${v%%.*}; rest=${v#*.}; min=${rest%%.*}
  if [ "${maj:-0}" -gt 1 ] || { [ "${maj:-0}" -eq 1 ] && [ "${min:-0}" -ge 24 ]; }; then
    missing=("${missing[@]/golang-go}")
  fi
fi
missing=($(printf '%s\n' "${missing[@]}" | grep -v '^$' || true))

if [ ${#missing[@]} -gt 0 ]; then
  if [ ! -r /etc/debian_version ]; then
    echo "setup.sh: this is not a Debian system; install these packages by hand: ${missing[*]}" >&2
    exit 1
  fi
  if [ "$(id -u)" -ne 0 ]; then
    echo "setup.sh: missing packages (${missing[*]}); run as root or: sudo apt-get install ${missing[*]}" >&2
    exit 1
  fi
  echo "setup.sh: installing ${missing[*]}" >&2
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

if [ "$build" -eq 1 ]; then
  cmake -S "$here" -B "$here/build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DLAB_WERROR=ON >/dev/null
  cmake --build "$here/build" -j "$(nproc)"
  if [ "$asan" -eq 1 ]; then
    cmake -S "$here" -B "$here/build-asan" -G Ninja -DCMAKE_BUILD_TYPE=Debug -DLAB_WERROR=ON -DLAB_SANITIZE=ON >/dev/null
    cmake --build "$here/build-asan" -j "$(nproc)"
  fi
  if [ "$fuzz" -eq 1 ]; then
    CC=clang-16 cmake -S "$here" -B "$here/build-fuzz" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DLAB_FUZZ=ON >/dev/null
    cmake --build "$here/build-fuzz" -j "$(nproc)" --target fuzz
  fi
fi
