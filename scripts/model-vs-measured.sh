#!/usr/bin/env bash
# Measures every mode on this machine's CPU counts, in the talk's shop and in
# a critically loaded one (grind 1 ms, press 0.5 ms, steam 0.25 ms, combine
# 0.25 ms: on 2 CPUs the grinder's bound, 1000 lattes/s, equals the CPU
# bound), predicts the same points with the model under both policies, and
# prints measurement, go-policy prediction and analytic bound side by side.
#
#   scripts/model-vs-measured.sh            # 1 s a point
#   DUR=3s COUNT=3 scripts/model-vs-measured.sh
#
# Run it on a quiet machine: the model predicts what the shop does with the
# CPUs to itself.
set -euo pipefail
cd "$(dirname "$0")/.."
DUR=${DUR:-1s}
COUNT=${COUNT:-1}
MODES=${MODES:-ideal,locking,finelocking,parsteam,multi-2,linearpipe-0,linearpipe-1,linearpipe-10,splitpipe-1,multipipe-2,americano,americanopipe-1}
CPUS=${CPUS:-1-$(nproc)}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
go build -o "$tmp/brewput" ./cmd/brewput

shapes=("" "--grind 1ms --press 0.5ms --steam 0.25ms --latte 0.25ms")
i=0
for shape in "${shapes[@]}"; do
  i=$((i + 1))
  # shellcheck disable=SC2086 # the shape is a list of flags
  "$tmp/brewput" run --modes "$MODES" --cpus "$CPUS" --dur "$DUR" --count "$COUNT" $shape --out "$tmp/measured-$i.json" >/dev/null
  for sched in go fifo; do
    # shellcheck disable=SC2086
    "$tmp/brewput" model --sched "$sched" --modes "$MODES" --cpus "$CPUS" --dur 10s $shape --out "$tmp/model-$sched-$i.json" >/dev/null
  done
done
go run ./scripts/sidebyside "$tmp"/*.json
