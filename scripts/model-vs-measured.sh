#!/usr/bin/env bash
# Measures every mode on this machine's CPU counts, in the talk's shop and in
# a critically loaded one (grind 1 ms, press 0.5 ms, steam 0.25 ms, combine
# 0.25 ms: on 2 CPUs the grinder's bound, 1000 lattes/s, equals the CPU
# bound), and the talk's overload modes with 4, 10 and 100 customers (a
# 1.5 s warm-up: locking's cycle with 100 customers is 400 ms), predicts
# the same points with the model under both policies (the go policy with
# this machine's calibration and its band), and prints measurement,
# go-policy prediction, fifo prediction and analytic bound side by side,
# then how far each policy is from the measurements.
#
#   scripts/model-vs-measured.sh            # 1 s a point
#   DUR=3s COUNT=3 scripts/model-vs-measured.sh
#   CALIBRATION=cal.json scripts/model-vs-measured.sh   # another calibration
#
# Run it on a quiet machine: the model predicts what the shop does with the
# CPUs to itself. It says how busy the machine was.
set -euo pipefail
cd "$(dirname "$0")/.."
DUR=${DUR:-1s}
COUNT=${COUNT:-1}
MODES=${MODES:-ideal,locking,finelocking,parsteam,multi-2,linearpipe-0,linearpipe-1,linearpipe-10,splitpipe-1,multipipe-2,americano,americanopipe-1}
CPUS=${CPUS:-1-$(nproc)}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
go build -o "$tmp/brewput" ./cmd/brewput
go build -o "$tmp/quietprobe" ./scripts/quietprobe
before=$("$tmp/quietprobe")
# cal SCHED: the go policy's --calibration flag, when CALIBRATION names one.
cal() { [[ $1 == go && -n ${CALIBRATION:-} ]] && echo "--calibration $CALIBRATION" || true; }

shapes=("" "--grind 1ms --press 0.5ms --steam 0.25ms --latte 0.25ms")
i=0
for shape in "${shapes[@]}"; do
  i=$((i + 1))
  # shellcheck disable=SC2086 # the shape is a list of flags
  "$tmp/brewput" run --modes "$MODES" --cpus "$CPUS" --dur "$DUR" --count "$COUNT" $shape --out "$tmp/measured-$i.json" >/dev/null
  for sched in go fifo; do
    # shellcheck disable=SC2086
    "$tmp/brewput" model --sched "$sched" --modes "$MODES" --cpus "$CPUS" --dur 10s $shape $(cal "$sched") --out "$tmp/model-$sched-$i.json" >/dev/null
  done
done
OVERLOAD=${OVERLOAD:-ideal,locking,finelocking,multi-2,linearpipe-0,linearpipe-1}
for par in 4 10 100; do
  "$tmp/brewput" run --modes "$OVERLOAD" --cpus "$CPUS" --par "$par" --dur "$DUR" --warmup 1.5s --count "$COUNT" --out "$tmp/measured-par$par.json" >/dev/null
  for sched in go fifo; do
    # shellcheck disable=SC2046
    "$tmp/brewput" model --sched "$sched" --modes "$OVERLOAD" --cpus "$CPUS" --par "$par" --dur 10s $(cal "$sched") --out "$tmp/model-$sched-par$par.json" >/dev/null
  done
done
echo "other processes used $before CPUs just before measuring, $("$tmp/quietprobe") just after (under 0.2 is quiet)"
go run ./scripts/sidebyside "$tmp"/*.json
