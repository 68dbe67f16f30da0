#!/usr/bin/env bash
# Plays the CSS and Lottie exports in real consumers (headless Chromium, ThorVG) against the closed
# forms: scripts/check-players.py; the retargetable springs' player, kinema-spring.js, in Chromium:
# scripts/check-retarget.py; scenes on a canvas, one shape per body: scripts/check-canvas.py. Installs Chromium (Debian `chromium`) when it is missing and a
# virtual environment with ThorVG's bindings; fails, never skips, when either cannot be had.
set -euo pipefail
cd "$(dirname "$0")/.."

. scripts/need-chromium.sh players
venv=scripts/.venv-players
if [ ! -x "$venv/bin/python" ]; then python3 -m venv "$venv"; fi
"$venv/bin/pip" install -q -r scripts/players-requirements.txt ||
    { echo "players: thorvg-python could not be installed; the Lottie exports cannot be checked" >&2; exit 1; }
swift build --product kinema
"$venv/bin/python" scripts/check-players.py .build/debug/kinema
# kinema-spring.js retargeted and released in Chromium against the closed-form spring.
python3 scripts/check-retarget.py .build/debug/kinema
# Scenes on a canvas, one track per body, in Chromium and ThorVG against the simulation.
"$venv/bin/python" scripts/check-canvas.py .build/debug/kinema
