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
#   bash validation/model-vs-measured.sh            # 1 s a point
#   DUR=3s COUNT=3 bash validation/model-vs-measured.sh      # (CPUS is a range: 1-2)
#   CALIBRATION=cal.json bash validation/model-vs-measured.sh   # another calibration
#   KEEP=dir bash validation/model-vs-measured.sh   # keep the measured and model JSON
#
# It runs from anywhere; relative CALIBRATION and KEEP paths are taken from
# the folder it is started in.
#
# Points with 100 customers are measured for LONG (10 s): a 1 s window is
# shorter than their cycle on one CPU and gives a different answer each run.
#
# Run it on a quiet machine: the model predicts what the shop does with the
# CPUs to itself: it measures each point only while other processes use
# under 0.2 CPUs (the quietprobe command beside this script), tries again
# when they did not, and says how many points it could not measure quiet.
set -euo pipefail
[[ -n ${CALIBRATION:-} && $CALIBRATION != /* ]] && CALIBRATION=$PWD/$CALIBRATION
[[ -n ${KEEP:-} && $KEEP != /* ]] && KEEP=$PWD/$KEEP
validation=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
cd "$validation/.."
DUR=${DUR:-1s}
LONG=${LONG:-10s}
COUNT=${COUNT:-1}
MODES=${MODES:-ideal,locking,finelocking,parsteam,multi-2,linearpipe-0,linearpipe-1,linearpipe-10,splitpipe-1,multipipe-2,americano,americanopipe-1}
CPUS=${CPUS:-1-$(nproc)}
cpus=$(seq "${CPUS%%-*}" "${CPUS##*-}")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
go build -o "$tmp/brewput" ./cmd/brewput
(cd "$validation" && go build -o "$tmp/quietprobe" ./quietprobe)
# cal SCHED: the go policy's --calibration flag, when CALIBRATION names one.
cal() { [[ $1 == go && -n ${CALIBRATION:-} ]] && echo "--calibration $CALIBRATION" || true; }

# measure OUT RUN-FLAGS...: one point at a time, each only while the machine
# is quiet: wait (30 s at most) until other processes use under 0.2 CPUs,
# measure, and measure again (4 tries) if they took 0.2 or more meanwhile.
# The points measured busy all the same are counted and said.
busy=0 points=0
measure() {
  local out=$1; shift
  local others try
  for try in 1 2 3 4; do
    for _ in $(seq 30); do
      awk -v q="$("$tmp/quietprobe")" 'BEGIN { exit !(q < 0.2) }' && break
    done
    others=$("$tmp/quietprobe" "$tmp/brewput" run "$@" --format json --out "$tmp/point.json" 2>&1 >/dev/null | awk '/^others/ {print $2}')
    awk -v q="$others" 'BEGIN { exit !(q < 0.2) }' && break
  done
  points=$((points + 1))
  awk -v q="$others" 'BEGIN { exit !(q >= 0.2) }' && busy=$((busy + 1))
  cat "$tmp/point.json" >>"$out"
  rm "$tmp/point.json" # not read again below, as a second measurement of this point
}

IFS=, read -r -a modes <<<"$MODES"
IFS=, read -r -a overload <<<"${OVERLOAD:-ideal,locking,finelocking,multi-2,linearpipe-0,linearpipe-1}"
shapes=("" "--grind 1ms --press 0.5ms --steam 0.25ms --latte 0.25ms")
i=0
for shape in "${shapes[@]}"; do
  i=$((i + 1))
  for rep in $(seq "$COUNT"); do
    for mode in "${modes[@]}"; do
      for n in $cpus; do
        # shellcheck disable=SC2086 # the shape is a list of flags
        measure "$tmp/measured-$i.json" --modes "$mode" --cpus "$n" --dur "$DUR" $shape
      done
    done
  done
done
for par in 4 10 100; do
  for rep in $(seq "$COUNT"); do
    for mode in "${overload[@]}"; do
      for n in $cpus; do
        dur=$DUR
        [[ $par == 100 ]] && dur=$LONG
        measure "$tmp/measured-par$par.json" --modes "$mode" --cpus "$n" --par "$par" --dur "$dur" --warmup 1.5s
      done
    done
  done
done
echo "$busy of $points points measured while other processes used 0.2 CPUs or more (after 4 tries each)"
# keep copies what was measured now, and what was predicted at the end
keep() { [[ -z ${KEEP:-} ]] || { mkdir -p "$KEEP" && cp "$tmp"/*.json "$KEEP"/; }; }
keep

i=0
for shape in "${shapes[@]}"; do
  i=$((i + 1))
  for sched in go fifo; do
    # shellcheck disable=SC2086,SC2046
    "$tmp/brewput" model --sched "$sched" --modes "$MODES" --cpus "$CPUS" --dur 10s $shape $(cal "$sched") --out "$tmp/model-$sched-$i.json" >/dev/null
  done
done
for par in 4 10 100; do
  for sched in go fifo; do
    # shellcheck disable=SC2046
    "$tmp/brewput" model --sched "$sched" --modes "$(IFS=,; echo "${overload[*]}")" --cpus "$CPUS" --par "$par" --dur 10s $(cal "$sched") --out "$tmp/model-$sched-par$par.json" >/dev/null
  done
done
keep
(cd "$validation" && go run ./sidebyside "$tmp"/measured-*.json "$tmp"/model-*.json)
