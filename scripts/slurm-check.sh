#!/usr/bin/env bash
# Runs the README's Slurm array script (examples/sweep.sbatch) on a single-node Slurm (Debian
# slurm-wlm and munge, installed when missing) configured in a temporary directory on its own
# ports and stopped at exit; the 16 shards merged with the README's awk line must be the
# single-process `kinema sweep` byte for byte. Two grids: 2,000 springs (SWEEP; the debug binary
# takes minutes over the script's 40,000) and 1,000 rows of a 3-body scene file (--set axes).
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD

if ! command -v sbatch >/dev/null 2>&1 || ! command -v munged >/dev/null 2>&1; then
    echo "slurm-check: installing slurm-wlm" >&2
    SUDO=""
    if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
    { $SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq slurm-wlm munge >/dev/null; } ||
        { echo "slurm-check: slurm-wlm could not be installed" >&2; exit 1; }
fi
# KINEMA_CHECK_BINARY: another kinema; SCENE_GRID=full: the 10⁶-row scene grid (with the release
# binary: KINEMA_CHECK_BINARY=.build/release/kinema SCENE_GRID=full scripts/slurm-check.sh).
if [ -n "${KINEMA_CHECK_BINARY:-}" ]; then
    kinema=$(realpath "$KINEMA_CHECK_BINARY")
else
    swift build --product kinema
    kinema=$root/.build/debug/kinema
fi
# The 3-body scene's grids: 1,000 rows here, 10⁶ in full (each row 2 s of RK4 with impacts).
small_scene="--set springs.0.stiffness=10:100:x10 --set bodies.c.velocity.0=0.5:2:x10 --set planes.wall.restitution=0.1:1:0.1 --duration 2 --integrator rk4 --dt 0.005"
full_scene="--set springs.0.stiffness=10:100:x100 --set bodies.c.velocity.0=0.5:2:x100 --set planes.wall.restitution=0.01:1:0.01 --duration 2 --integrator rk4 --dt 0.005"
scene_sweep=$small_scene
if [ "${SCENE_GRID:-small}" = full ]; then scene_sweep=$full_scene; fi

work=$(mktemp -d)
pids=()
cleanup() {
    for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
    # The daemons are not our children (no `wait`): they save their state into $work as they
    # stop, and removing it meanwhile failed with "Directory not empty". Wait up to 10 s for them.
    for _ in $(seq 50); do
        alive=0
        for pid in "${pids[@]}"; do kill -0 "$pid" 2>/dev/null && alive=1; done
        [ "$alive" = 0 ] && break
        sleep 0.2
    done
    rm -rf "$work"
}
trap cleanup EXIT

# munge authenticates Slurm's daemons and clients; start it when it is not running.
if ! munge -n >/dev/null 2>&1; then
    [ -f /etc/munge/munge.key ] || mungekey -c
    mkdir -p /run/munge && chown munge:munge /run/munge /etc/munge/munge.key
    runuser -u munge -- munged
fi

host=$(hostname)
mkdir -p "$work/ctld" "$work/d" "$work/out"
cat > "$work/slurm.conf" <<CONF
ClusterName=kinemacheck
SlurmctldHost=$host
SlurmctldPort=16817
SlurmdPort=16818
SlurmUser=root
AuthType=auth/munge
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
MpiDefault=none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
StateSaveLocation=$work/ctld
SlurmdSpoolDir=$work/d
SlurmctldPidFile=$work/ctld.pid
SlurmdPidFile=$work/d.pid
SlurmctldLogFile=$work/ctld.log
SlurmdLogFile=$work/d.log
ReturnToService=2
NodeName=$host CPUs=$(nproc) State=UNKNOWN
PartitionName=check Nodes=ALL Default=YES MaxTime=INFINITE State=UP
CONF
export SLURM_CONF=$work/slurm.conf
slurmctld -f "$SLURM_CONF"
slurmd -f "$SLURM_CONF"
for _ in $(seq 50); do [ -f "$work/ctld.pid" ] && [ -f "$work/d.pid" ] && break; sleep 0.2; done
pids+=("$(cat "$work/ctld.pid")" "$(cat "$work/d.pid")")
for _ in $(seq 60); do sinfo -h -o %T 2>/dev/null | grep -q idle && break; sleep 0.5; done
sinfo -h -o %T | grep -q idle || { echo "slurm-check: the node did not come up:" >&2; tail -5 "$work/d.log" >&2; exit 1; }

cd "$work/out"
# Each grid as the array, merged with the README's awk line, against one process.
check() {
    local name=$1 sweep=$2 start seconds
    rm -f part-*.csv part-*.csv.partial*
    start=$(date +%s)
    KINEMA=$kinema SWEEP=$sweep sbatch --wait --quiet "$root/examples/sweep.sbatch"
    awk 'FNR > 1 || NR == 1' part-*.csv > sweep.csv
    seconds=$(( $(date +%s) - start ))
    # shellcheck disable=SC2086
    "$kinema" sweep $sweep --yes -o single.csv
    if ! cmp -s sweep.csv single.csv; then
        echo "slurm-check: the merged array sweep of the $name differs from the single-process sweep" >&2
        exit 1
    fi
    echo "ok   Slurm: examples/sweep.sbatch on the $name, 16 array tasks, $(($(wc -l < sweep.csv) - 1)) rows merged byte-identical to one kinema sweep (${seconds} s)"
}
check "spring grid" "--spring --stiffness 100:1000:x50 --damping-ratio 0.05:1.5:x40 --duration 1"
check "3-body scene" "--scene $root/examples/three-masses-1d.json $scene_sweep"
