#!/usr/bin/env bash
# Installs what Kinema needs on a Debian machine that already has Swift: pkg-config and GSL
# (libgsl-dev, the reference solver's library), plus make. Idempotent; needs root only to install.
set -euo pipefail

missing=()
command -v pkg-config >/dev/null 2>&1 || missing+=(pkg-config)
command -v make >/dev/null 2>&1 || missing+=(make)
if ! pkg-config --exists gsl 2>/dev/null; then missing+=(libgsl-dev); fi
# --benchmarks: also Boost's headers, for the Boost.Odeint baselines the benchmark package builds.
if [ "${1:-}" = "--benchmarks" ] && [ ! -f /usr/include/boost/numeric/odeint.hpp ]; then missing+=(libboost-dev); fi

if ((${#missing[@]})); then
    echo "setup: installing ${missing[*]}" >&2
    SUDO=""
    if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
    $SUDO apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${missing[@]}" >/dev/null
fi

command -v swift >/dev/null 2>&1 || { echo "setup: swift is not on PATH; install Swift 6.1 or later first" >&2; exit 1; }
echo "setup: swift $(swift --version 2>/dev/null | head -1 | sed 's/.*version \([^ ]*\).*/\1/'), gsl $(pkg-config --modversion gsl)" >&2
