#!/usr/bin/env bash
# Holds brewput's model against the talk's own measurements
# (../shared/reference/talk: four runs, seven modes, 1–6 CPUs and the
# 6-CPU overload table). Each prediction simulates the talk's program —
# --harness talk and its protocol — under the fifo policy, the analytic
# bound, and the go policy (with this machine's calibration and its band)
# for today's runtime and for Go 1.9's, the talk's, and those two again with
# the other processes each run had (+others: the CPUs its ideal did not get,
# cpus − util, as sim.Background). For each point: the
# distance of the prediction to the runs' band (0 inside) and whether the
# predicted band overlaps it, for throughput and p50, then a summary per
# mode.
#
# Two tables: the first takes each run's step as input (that run's ideal
# median at that CPU count or load, over 4: the talk's steps were 0.95 to
# 1 ms, measured, not fitted); the second uses the nominal 1 ms steps.
#
#   scripts/model-vs-talk.sh                 # summaries
#   POINTS=1 scripts/model-vs-talk.sh        # every point as well
#   CALIBRATION=cal.json scripts/model-vs-talk.sh
#
# It needs a calibration: brewput calibrate, on a quiet machine, first.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
ref=${TALK_REF:-}
for d in "$root/../shared/reference/talk" "$root/../../shared/reference/talk"; do
	[[ -z $ref && -f $d/varycpu.csv ]] && ref=$d
done
[[ -n $ref ]] || { echo "model-vs-talk: the talk's reference data not found (set TALK_REF)" >&2; exit 1; }
cd "$root"
args=(-ref "$ref")
[[ -n ${CALIBRATION:-} ]] && args+=(-calibration "$CALIBRATION")
[[ -n ${POINTS:-} ]] && args+=(-points)
echo "== each run's own step (ideal's median ÷ 4) =="
go run ./scripts/vstalk "${args[@]}"
echo "== nominal 1 ms steps =="
go run ./scripts/vstalk "${args[@]}" -nominal
