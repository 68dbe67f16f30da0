#!/usr/bin/env bash
# Executes every notebook headless against a kinema binary, failing on the first failing cell.
#   scripts/notebooks.sh            release build, full inputs, figures into docs/figures
#   scripts/notebooks.sh --small    the debug build `swift test` made, small inputs, figures into a
#                                   temporary folder (CI: proves the notebooks run, keeps docs/ as is),
#                                   then the Dask sweep check (notebooks/check_dask.py)
set -euo pipefail
cd "$(dirname "$0")/.."

venv=notebooks/.venv
if [ ! -x "$venv/bin/python" ]; then
    python3 -m venv "$venv" 2>/dev/null || {
        apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq python3-venv >/dev/null
        python3 -m venv "$venv"
    }
fi
"$venv/bin/pip" install -q --disable-pip-version-check -r notebooks/requirements.txt
"$venv/bin/python" -m ipykernel install --sys-prefix --name python3 >/dev/null

if [ "${1:-}" = "--small" ]; then
    swift build --product kinema
    figures=$(mktemp -d)
    trap 'rm -rf "$figures"' EXIT
    KINEMA="$PWD/.build/debug/kinema" KINEMA_SMALL=1 KINEMA_FIGURES="$figures" "$venv/bin/python" notebooks/run.py
    # A sweep's shards on Dask (LocalCluster, 2 workers) must merge to the single-process CSV.
    (cd notebooks && "../$venv/bin/python" check_dask.py "$PWD/../.build/debug/kinema")
else
    swift build -c release --product kinema
    KINEMA="$PWD/.build/release/kinema" "$venv/bin/python" notebooks/run.py
fi
