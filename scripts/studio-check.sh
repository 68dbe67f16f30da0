#!/usr/bin/env bash
# kinema-studio (the Studio/ package) as its users meet it: its tests (the API against the kinema
# binary's bytes, limits, signals), then headless Chromium (Debian `chromium`) drives the page
# (scripts/check-studio.py), then schemathesis fuzzes the API against /openapi.json (no server error,
# no answer outside the schema, 405 for undeclared methods). Installs Chromium when it is missing
# and a virtual environment with the Python side; fails, never skips, when either cannot be had.
set -euo pipefail
cd "$(dirname "$0")/.."

. scripts/need-chromium.sh studio-check
venv=scripts/.venv-studio
if [ ! -x "$venv/bin/python" ]; then python3 -m venv "$venv"; fi
"$venv/bin/pip" install -q -r scripts/studio-requirements.txt ||
    { echo "studio-check: the Python side could not be installed" >&2; exit 1; }
(cd Studio && swift build --product kinema && swift build --product kinema-studio && swift test)
bin=Studio/.build/debug
"$venv/bin/python" scripts/check-studio.py $bin/kinema-studio $bin/kinema

# schemathesis: every check but positive_data_acceptance, which expects any request the schema
# admits to succeed (the schema cannot say which fields make a spring; such a request gets a 400
# naming the rule, as the CLI does). A fixed seed, so a failure reproduces.
port=$("$venv/bin/python" -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
$bin/kinema-studio --port "$port" 2>/dev/null &
studio=$!
trap 'kill $studio 2>/dev/null || true' EXIT
"$venv/bin/st" run "http://127.0.0.1:$port/openapi.json" --wait-for-schema 30 --checks all \
    --exclude-checks positive_data_acceptance --max-examples 300 --seed 7 --request-timeout 30 --no-color
kill -INT $studio
wait $studio

# The fuzz leg: hostile headers and bodies mixed with valid requests, each answer classed; then an
# ordinary bake beside four costly ones, and SIGTERM (make fuzz runs more cases on the release build).
"$venv/bin/python" scripts/fuzz-studio.py $bin/kinema-studio --cases "${STUDIO_FUZZ_CASES:-1500}" --seed 7
echo "studio-check: ok"
