#!/usr/bin/env bash
# Holds brewput's model against the talk's own measurements (four runs,
# seven modes, 1–6 CPUs and the 6-CPU overload table), kept in
# validation/testdata/talk: TALK_REF names another folder holding
# varycpu.csv and overload.csv. Each prediction simulates
# the talk's program — --harness talk and its protocol — under the fifo
# policy, the analytic bound, and the go policy (with this machine's
# calibration and its band) for today's runtime and for Go 1.9's, the
# talk's, and those two again with the other processes each run had
# (+others: the CPUs its ideal did not get, cpus − util, as Background in
# model/sim). For each point: the distance of the prediction to the runs'
# band (0 inside) and whether the predicted band overlaps it, for
# throughput and p50, then a summary per mode. The work is the vstalk
# command's.
#
# Two tables: the first takes each run's step as input (that run's ideal
# median at that CPU count or load, over 4: the talk's steps were 0.95 to
# 1 ms, measured, not fitted); the second uses the nominal 1 ms steps.
#
#   bash validation/model-vs-talk.sh                                     # summaries
#   TALK_REF=DIR POINTS=1 bash validation/model-vs-talk.sh               # every point as well
#   TALK_REF=DIR CALIBRATION=cal.json bash validation/model-vs-talk.sh
#
# Relative TALK_REF and CALIBRATION paths are taken from the folder it is
# started in. It needs a calibration: brewput calibrate, on a quiet
# machine, first.
set -euo pipefail
TALK_REF=${TALK_REF:-$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/testdata/talk}
[[ -r $TALK_REF/varycpu.csv && -r $TALK_REF/overload.csv ]] || { echo "model-vs-talk: TALK_REF=$TALK_REF holds no readable varycpu.csv and overload.csv" >&2; exit 2; }
ref=$(cd "$TALK_REF" && pwd)
[[ -n ${CALIBRATION:-} && $CALIBRATION != /* ]] && CALIBRATION=$PWD/$CALIBRATION
cd "$(dirname "${BASH_SOURCE[0]}")"
args=(-ref "$ref")
[[ -n ${CALIBRATION:-} ]] && args+=(-calibration "$CALIBRATION")
[[ -n ${POINTS:-} ]] && args+=(-points)
echo "== each run's own step (ideal's median ÷ 4) =="
go run ./vstalk "${args[@]}"
echo "== nominal 1 ms steps =="
go run ./vstalk "${args[@]}" -nominal
