#!/bin/bash
# A sweep as a Slurm job array of TASKS shards (default 4), then their merge as a job that
# starts only when every shard has succeeded (--dependency=afterok). Prints the two job ids.
# Usage: [TASKS=8] [GEOMSIM=/path/to/geomsim] submit-sweep.sh OUT [sweep options...]
# The merged table is OUT/sweep.csv. Extra sbatch options (a partition, an account, a time
# limit) go in SBATCH_* variables, e.g. SBATCH_PARTITION=short, which sbatch reads itself.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
out=${1:?usage: submit-sweep.sh OUT [sweep options...]}
array=$(sbatch --parsable --array="0-$(( ${TASKS:-4} - 1 ))" "$here/sweep-shard.sbatch" "$@")
merge=$(sbatch --parsable --dependency="afterok:${array%%;*}" "$here/sweep-merge.sbatch" "$out")
echo "$array $merge"
