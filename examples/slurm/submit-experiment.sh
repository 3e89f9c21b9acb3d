#!/bin/bash
# A training definition of sims/ as a Slurm job array of TASKS shards (default 2), then its
# page as a job that starts once every shard has succeeded (--dependency=afterok). Prints the
# two job ids. Usage: [TASKS=4] [GEOMSIM=/path/to/geomsim] submit-experiment.sh SIMS OUT NAME [--smoke]
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
[ $# -ge 3 ] || { echo "usage: submit-experiment.sh SIMS OUT NAME [--smoke]" >&2; exit 2; }
array=$(sbatch --parsable --array="0-$(( ${TASKS:-2} - 1 ))" "$here/experiment-shard.sbatch" "$@")
report=$(sbatch --parsable --dependency="afterok:${array%%;*}" "$here/experiment-report.sbatch" "$@")
echo "$array $report"
