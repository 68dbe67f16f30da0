#!/usr/bin/env bash
# Plays the CSS and Lottie exports in real consumers (headless Chromium, ThorVG) against the closed
# forms: scripts/check-players.py; the retargetable springs' player, kinema-spring.js, in Chromium:
# scripts/check-retarget.py; scenes on a canvas, one shape per body: scripts/check-canvas.py. Installs Chromium (Debian `chromium`) when it is missing and a
# virtual environment with ThorVG's and rlottie's bindings; fails, never skips, when either cannot be had.
set -euo pipefail
cd "$(dirname "$0")/.."

. scripts/need-chromium.sh players
venv=scripts/.venv-players
if [ ! -x "$venv/bin/python" ]; then python3 -m venv "$venv"; fi
"$venv/bin/pip" install -q -r scripts/players-requirements.txt ||
    { echo "players: thorvg-python could not be installed; the Lottie exports cannot be checked" >&2; exit 1; }
swift build --product kinema
"$venv/bin/python" scripts/check-players.py .build/debug/kinema
# kinema-spring.js retargeted and released in Chromium against the closed-form spring; its
# TypeScript declarations type-checked with a page's use of it (Debian's node-typescript), and
# every method they declare defined in the module.
python3 scripts/check-retarget.py .build/debug/kinema
if ! command -v tsc >/dev/null 2>&1; then
    { apt-get install -y -qq node-typescript >/dev/null 2>&1 || sudo apt-get install -y -qq node-typescript >/dev/null; } ||
        { echo "players: TypeScript (node-typescript) could not be installed" >&2; exit 1; }
fi
types=$(mktemp -d)
cp Sources/KinemaCLI/Resources/kinema-spring.d.ts scripts/kinema-spring-use.ts "$types/"
(cd "$types" && tsc --noEmit --strict --lib es2020,dom kinema-spring-use.ts)
members=$(sed -n '/^export class RetargetableSpring/,/^}/p' "$types/kinema-spring.d.ts" |
    grep -oE '^  (readonly )?[a-zA-Z]+[(:?]' | grep -oE '[a-zA-Z]+[(:?]$' | tr -d '(:?' | sort -u)
for method in $members; do
    case $method in constructor) continue ;; esac
    grep -qE "^  (get )?$method[( ]" Sources/KinemaCLI/Resources/kinema-spring.js ||
        grep -qE "this\.$method = " Sources/KinemaCLI/Resources/kinema-spring.js ||
        { echo "players: kinema-spring.d.ts declares '$method', which kinema-spring.js does not define" >&2; exit 1; }
done
rm -rf "$types"
echo "ok   kinema-spring.d.ts: a page's use type-checks (tsc --strict), every declared member is in the module"
# Scenes on a canvas, one track per body, in Chromium and ThorVG against the simulation, and drawn by rlottie.
"$venv/bin/python" scripts/check-canvas.py .build/debug/kinema
