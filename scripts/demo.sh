#!/usr/bin/env bash
# A short tour of the kinema command line, run by `make demo`.
set -euo pipefail
kinema=".build/debug/kinema"

section() { printf '\n\033[1m$ %s\033[0m\n' "$*"; }

section kinema spring --response 0.5 --bounce 0.3
"$kinema" spring --response 0.5 --bounce 0.3

section "kinema spring --damped-cosine 5,30 --format json   # Lockwood's jelly spring"
"$kinema" spring --damped-cosine 5,30 --format json

section "kinema easing 'damped-cosine(5,30)' --samples 11"
"$kinema" easing 'damped-cosine(5,30)' --samples 11

section "kinema easing bounce-out --at 0.5454545454545454   # Penner: 0.75"
"$kinema" easing bounce-out --at 0.5454545454545454
section "kinema easing lockwood-bounce-out --at 0.5454545454545454   # the book's listing: 0.7"
"$kinema" easing lockwood-bounce-out --at 0.5454545454545454

section "kinema simulate --drop --restitution 0.5 --gravity 15.125 --duration 1 --sample-rate 11 --events /dev/stderr   # Penner's bounce, simulated"
"$kinema" simulate --drop --restitution 0.5 --gravity 15.125 --duration 1 --sample-rate 11 --events /dev/stderr

section "kinema simulate --spring --stiffness 40000 --damping 0 --integrator rk4 --dt 0.0166667 --duration 1   # refused, not garbage"
"$kinema" simulate --spring --stiffness 40000 --damping 0 --integrator rk4 --dt 0.0166667 --duration 1 || true

section "kinema verify | column -t -s,   # every integrator against the analytic solutions and GSL rk8pd"
# sed reads to the end (head would close the pipe early and fail the script under pipefail)
"$kinema" verify | column -t -s, | sed -n '1,20p'
echo "  ... (80 rows; kinema verify prints them all)"

section "kinema keyframes --easing 'damped-cosine(5,30)' --tolerance 0.001   # the jelly spring in 11 keyframes"
"$kinema" keyframes --easing 'damped-cosine(5,30)' --tolerance 0.001
