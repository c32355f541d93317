#!/bin/bash
# Submits a referee tournament as a Slurm job array of $SHARDS shards (default 16), and the merge
# of its shards as a job that starts when every shard has finished:
#
#     SHARDS=16 deploy/slurm/submit.sh --game dvonn --engine ./alpha --engine ./beta \
#         --engine ./gamma --rounds 50 --repeat --seed 42
#
# The arguments are those of `referee tournament` (see tournament.sbatch). $REFEREE and $RESULTS
# reach the jobs through sbatch's environment. $THROTTLE, if set, runs at most that many shards
# at once (not for a Swiss or knockout, whose shards wait for each other's rounds);
# $SBATCH_OPTIONS, if set, is given to both sbatch commands (e.g. --partition=short).
# Prints the two job ids.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
shards=${SHARDS:-16}
array="1-$shards${THROTTLE:+%$THROTTLE}"
# shellcheck disable=SC2086 # the options are words
tournament=$(sbatch --parsable ${SBATCH_OPTIONS:-} --array="$array" "$here/tournament.sbatch" "$@")
# shellcheck disable=SC2086
merge=$(sbatch --parsable ${SBATCH_OPTIONS:-} --dependency="afterok:${tournament%%;*}" "$here/merge.sbatch")
echo "tournament: job ${tournament%%;*} ($shards shards); merge: job ${merge%%;*}"
