#!/usr/bin/env bash
# The job scripts of examples/slurm/ on a real Slurm: a one-node cluster that this script
# configures in a scratch folder (auth/none, proctrack/linuxproc, its own ports), starts
# (slurmctld and slurmd in the foreground, in the background of this script) and stops by their
# process ids, whatever happens. Three cases:
#   1. a sweep as a 4-task array, merged by a dependent job: the unsharded sweep, bit for bit
#      but for its timing columns;
#   2. a training definition as a 2-task array, its report a dependent job: the cache and the
#      page of a serial run, but for timings;
#   3. that array cancelled (scancel) once its first run is cached, then submitted again: only
#      the runs missing from the cache are trained, and the cached ones are kept as they were;
#   4. geomsim train as two data-parallel ranks that srun starts (train-data-parallel.sbatch).
# Usage: slurm_test.sh GEOMSIM SOURCE_DIR. Exit 77 (skipped) without Slurm's daemons.
set -uo pipefail
geomsim=$(realpath "$1")
root=$(realpath "$2")
examples=$root/examples/slurm
for program in slurmctld slurmd sbatch squeue scancel scontrol sinfo; do
  command -v "$program" >/dev/null || { echo "SKIP: $program is not installed (Debian's slurm-wlm)"; exit 77; }
done
[ "$(id -u)" -eq 0 ] || { echo "SKIP: a one-node Slurm of our own needs root (slurmd starts jobs as their users)"; exit 77; }

failures=0
pass() { echo "ok"; }
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }

work=$(mktemp -d /tmp/geomsim-slurm.XXXXXX)
controller="" node=""
stop_slurm() {
  [ -n "$node" ] && kill "$node" 2>/dev/null
  [ -n "$controller" ] && kill "$controller" 2>/dev/null
  [ -n "$node" ] && wait "$node" 2>/dev/null
  [ -n "$controller" ] && wait "$controller" 2>/dev/null
  node="" controller=""
}
trap 'stop_slurm; rm -rf "$work"' EXIT

# Two free ports, as the kernel hands them out.
read -r controller_port node_port < <(python3 -c '
import socket
s = [socket.socket() for _ in range(2)]
for x in s: x.bind(("127.0.0.1", 0))
print(*(x.getsockname()[1] for x in s))')
host=$(hostname -s)
memory=$(( $(awk '/MemTotal/ {print $2}' /proc/meminfo) / 1024 - 512 ))
mkdir -p "$work/state" "$work/spool" "$work/jobs"
cat >"$work/slurm.conf" <<EOF
ClusterName=geomsimtest
SlurmctldHost=$host
SlurmctldPort=$controller_port
SlurmdPort=$node_port
AuthType=auth/none
CredType=cred/none
SlurmUser=root
SlurmdUser=root
StateSaveLocation=$work/state
SlurmdSpoolDir=$work/spool
SlurmctldPidFile=$work/slurmctld.pid
SlurmdPidFile=$work/slurmd.pid
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
MpiDefault=none
SchedulerType=sched/builtin
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
ReturnToService=2
MinJobAge=600
NodeName=$host CPUs=$(nproc) RealMemory=$memory State=UNKNOWN
PartitionName=test Nodes=ALL Default=YES MaxTime=INFINITE State=UP
EOF
export SLURM_CONF=$work/slurm.conf
slurmctld -D >"$work/slurmctld.log" 2>&1 &
controller=$!
slurmd -D >"$work/slurmd.log" 2>&1 &
node=$!
for _ in $(seq 1 100); do
  [ "$(sinfo -h -o %T 2>/dev/null)" = "idle" ] && break
  sleep 0.2
done
[ "$(sinfo -h -o %T 2>/dev/null)" = "idle" ] || { echo "FAIL: the one-node Slurm did not come up"; tail -5 "$work"/*.log; exit 1; }
echo "Slurm is up: slurmctld $controller, slurmd $node, node $host"

# Waits (at most $2 seconds) until job $1 has ended; its state (COMPLETED, FAILED, CANCELLED, ...).
job_state() { scontrol show job "$1" 2>/dev/null | sed -n 's/.*JobState=\([A-Z_]*\).*/\1/p' | head -1; }
wait_for_job() {
  local job=$1 limit=$2 start=$SECONDS state
  [ -n "$job" ] || { echo "NOT_SUBMITTED"; return; }
  while [ $((SECONDS - start)) -lt "$limit" ]; do
    state=$(job_state "$job")
    case $state in
      COMPLETED | FAILED | CANCELLED | TIMEOUT | NODE_FAIL | OUT_OF_MEMORY) echo "$state"; return ;;
    esac
    # A dependent job whose dependency failed never starts.
    if scontrol show job "$job" 2>/dev/null | grep -q "Reason=DependencyNeverSatisfied"; then echo "NEVER"; return; fi
    sleep 0.5
  done
  echo "STILL_RUNNING"
}
# Every task of array job $1 ended COMPLETED.
array_completed() { ! scontrol show job "$1" 2>/dev/null | grep JobState= | grep -qv "JobState=COMPLETED"; }

cd "$work/jobs" || exit 1
export GEOMSIM=$geomsim

# --- 1. a sweep as a 4-task array, then the merge -------------------------------------------
sweep=(--K 2,3 --d 3 --alpha 0.55,0.65,0.75,0.85 --tau 0.5 --seeds 0:1)
read -r array merge < <(TASKS=4 "$examples/submit-sweep.sh" "$work/sweep" "${sweep[@]}")
state=$(wait_for_job "$merge" 120)
"$geomsim" sweep "${sweep[@]}" --out "$work/serial-sweep.csv" -q
python3 - "$work/serial-sweep.csv" "$work/sweep/sweep.csv" <<'PY' && [ "$state" = COMPLETED ] && array_completed "$array" &&
import csv, sys
def table(path):
    rows = list(csv.reader(open(path)))
    keep = [i for i, name in enumerate(rows[0]) if "second" not in name and "time" not in name]
    return [[row[i] for i in keep] for row in rows]
serial, merged = table(sys.argv[1]), table(sys.argv[2])
assert len(serial) == 9 and serial == merged, (serial, merged)
PY
  [ "$(ls "$work"/sweep/shard-*.csv | wc -l)" -eq 4 ] && pass ||
  fail "the sweep array (merge $state) did not give the serial sweep: $(tail -n 5 geomsim-*.out 2>/dev/null)"

if "$geomsim" train --help >/dev/null 2>&1; then
  # --- 2. a training definition as a 2-task array, then its report ----------------------------
  mkdir -p "$work/sims"
  cat >"$work/sims/arr.json" <<'JSON'
{"name": "arr", "title": "A training definition as a job array", "kind": "transfer",
 "parameters": {"methods": ["supcon", "spread", "ce"], "hierarchies": ["fmnist-2"], "encoders": ["mlp"], "seeds": "0:1",
                "alpha": 0.5, "tau": 0.5, "train_images": 1024, "test_images": 200, "epochs": 3, "batch_size": 64,
                "embedding_dim": 8, "width": 32, "threads": 1}}
JSON
  milliseconds() { echo $(( $(date +%s%N) / 1000000 )); }
  started=$(milliseconds)
  "$geomsim" report --sims "$work/sims" --out "$work/serial" --only arr >/dev/null 2>"$work/serial.err" ||
    fail "the serial report failed: $(tail -n 3 "$work/serial.err")"
  serial_ms=$(( $(milliseconds) - started ))
  started=$(milliseconds)
  read -r array report < <(TASKS=2 "$examples/submit-experiment.sh" "$work/sims" "$work/array" arr)
  state=$(wait_for_job "$report" 120)
  echo "the definition: serially ${serial_ms} ms; as a 2-task array with its report, $(( $(milliseconds) - started )) ms" \
    "(from submission to the report's end, polled every 0.5 s)"
  compare_experiments() {  # serial folder, array folder: the same runs and pages but for timings
    python3 - "$1" "$2" <<'PY'
import csv, re, sys
def cache(folder):
    rows = list(csv.DictReader(open(folder + "/arr.csv")))
    timing = {"seconds", "train_seconds", "samples_per_second"}
    return sorted(tuple((k, v) for k, v in row.items() if k not in timing) for row in rows)
def page(folder):
    text = open(folder + "/arr.md").read().replace(folder, "OUT")
    lines = []
    for line in text.splitlines():
        if "wall time" in line:
            continue
        lines.append(re.sub(r"\| [0-9.]+ ± [0-9.]+ \|$", "| (seconds) |", line))  # the table's "s per run"
    return lines
serial, array = sys.argv[1], sys.argv[2]
assert len(cache(serial)) == 6 and cache(serial) == cache(array), (cache(serial), cache(array))
assert page(serial) == page(array), "\n".join(a + "  ≠  " + b for a, b in zip(page(serial), page(array)) if a != b)
PY
  }
  [ "$state" = COMPLETED ] && array_completed "$array" && compare_experiments "$work/serial" "$work/array" &&
    grep -hq "6 runs, 0 cached in .*, 3 to train in shard" geomsim-experiment-*.out && pass ||
    fail "the experiment array (report $state) did not give the serial run's cache and page: $(tail -n 5 geomsim-*.out)"

  # --- 3. the array cancelled half-way, then submitted again ---------------------------------
  rm -f geomsim-*.out
  read -r array report < <(TASKS=2 "$examples/submit-experiment.sh" "$work/sims" "$work/again" arr)
  for _ in $(seq 1 600); do
    [ -f "$work/again/arr.csv" ] && [ "$(wc -l <"$work/again/arr.csv")" -ge 2 ] && break
    sleep 0.05
  done
  scancel "$array" "$report"
  wait_for_job "$array" 30 >/dev/null
  wait_for_job "$report" 30 >/dev/null
  kept=$(( $(wc -l <"$work/again/arr.csv") - 1 ))
  if [ "$kept" -ge 6 ]; then
    # On an idle machine a run takes 0.1-0.4 s and both tasks end before scancel does: the cache
    # is then cut to its first three runs, as a cancel after them leaves it (rows are appended
    # whole, one per run), so that the resubmission still has runs to train.
    echo "the cancel came after all 6 runs; the cache is cut to its first 3"
    head -n 4 "$work/again/arr.csv" >"$work/cut.csv" && mv "$work/cut.csv" "$work/again/arr.csv"
    kept=3
  fi
  cp "$work/again/arr.csv" "$work/cancelled.csv"
  rm -f geomsim-*.out
  read -r array report < <(TASKS=2 "$examples/submit-experiment.sh" "$work/sims" "$work/again" arr)
  state=$(wait_for_job "$report" 120)
  trained=$(grep -ho "[0-9]* to train in shard" geomsim-experiment-*.out | awk '{s += $1} END {print s + 0}')
  python3 - "$work/cancelled.csv" "$work/again/arr.csv" <<'PY' && [ "$state" = COMPLETED ] && [ "$kept" -ge 1 ] && [ "$kept" -lt 6 ] &&
import csv, sys
before = {(r["method"], r["seed"]): r for r in csv.DictReader(open(sys.argv[1]))}
after = {(r["method"], r["seed"]): r for r in csv.DictReader(open(sys.argv[2]))}
assert len(after) == 6, after.keys()
for key, row in before.items():  # a run cached before the cancel was not trained again
    assert after[key]["seconds"] == row["seconds"], key
PY
    [ "$trained" -eq $((6 - kept)) ] && compare_experiments "$work/serial" "$work/again" && pass ||
    fail "after a cancel ($kept runs kept), the resubmitted array trained $trained runs (report $state): $(tail -n 5 geomsim-*.out)"

  # --- 4. geomsim train as two data-parallel ranks started by srun -----------------------------
  job=$(sbatch --parsable --nodes=1 --ntasks-per-node=2 --cpus-per-task=1 "$examples/train-data-parallel.sbatch" --model mlp --width 16 \
    --embedding-dim 8 --train-samples 256 --test-samples 100 --batch-size 64 --epochs 2 --threads 1 --device cpu \
    --checkpoint "$work/ranks.pt" --json "$work/ranks.json" -q)
  state=$(wait_for_job "$job" 120)
  [ "$state" = COMPLETED ] && python3 -c 'import json, sys; j = json.load(open(sys.argv[1])); assert j["world_size"] == 2 and j["finished"], j' \
    "$work/ranks.json" && pass || fail "srun's two ranks (job $state): $(tail -n 5 geomsim-train-*.out) $(head -c 300 "$work/ranks.json")"
else
  echo "(no training module: the experiment arrays and the data-parallel training are not tested)"
fi

stop_slurm
echo "$failures failures"
[ "$failures" -eq 0 ]
