#!/usr/bin/env bash
# vs-simpy.sh — brewput's virtual-time engine (model/sim) against SimPy on
# the same model: the finelocking shop, 6 CPUs under fifo, 6 closed-loop
# customers, 1 ms steps, 100 s of virtual time. It runs both RUNS times
# (default 3), alternating, and prints each run's simulated lattes per
# wall-clock second, throughput (lattes per virtual second) and median
# latency, and the engine's events per wall-clock second (SimPy counts
# none), then the medians and the ratio of the medians.
#
#   bash validation/vs-simpy.sh
#   SIMPY_PEER=FILE RUNS=5 bash validation/vs-simpy.sh
#
# The Go side is BenchmarkFinelockingSixCPUs in the main module's ./model
# (5 ops of 100 s each); the SimPy side is the script SIMPY_PEER names,
# validation/testdata/peers/simpy_coffee.py unless SIMPY_PEER names
# another (a relative path is taken from the folder this is started in). SimPy is installed with pip if it is missing.
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
peer=${SIMPY_PEER:-$root/validation/testdata/peers/simpy_coffee.py}
runs=${RUNS:-3}
[[ -f $peer && -r $peer ]] || { echo "vs-simpy: SIMPY_PEER=$peer is not a readable file" >&2; exit 2; }
[[ $peer == /* ]] || peer=$PWD/$peer
if ! python3 -c 'import simpy' 2>/dev/null; then
	echo "vs-simpy: installing simpy with pip" >&2
	python3 -m pip install --quiet simpy || python3 -m pip install --quiet --user simpy
fi

cd "$root"
bin=$(mktemp -d)
trap 'rm -rf "$bin"' EXIT
go test -c -o "$bin/model.test" ./model/

# metric UNIT: the value before UNIT on a benchmark line.
metric() { awk -v u="$1" '{for (i = 2; i <= NF; i++) if ($i == u) print $(i-1)}'; }

go_wall=() go_events=() py_wall=()
printf '%-6s %4s %16s %14s %8s %16s\n' engine run lattes/wall-s lattes/s p50-ms events/wall-s
for ((r = 1; r <= runs; r++)); do
	line=$("$bin/model.test" -test.run '^$' -test.bench '^BenchmarkFinelockingSixCPUs$' -test.benchtime 5x | grep '^BenchmarkFinelockingSixCPUs')
	w=$(metric lattes/wall-s <<<"$line")
	e=$(metric events/wall-s <<<"$line")
	go_wall+=("$w") go_events+=("$e")
	printf '%-6s %4d %16.0f %14.1f %8.3f %16.0f\n' sim "$r" "$w" "$(metric lattes/s <<<"$line")" "$(metric p50-ms <<<"$line")" "$e"

	json=$(python3 "$peer" --cpus 6 --par 6 --dur 100)
	read -r w tp p50 < <(python3 -c 'import json,sys; j=json.loads(sys.argv[1]); print(j["lattes_per_wall_s"], j["throughput"], j["p50_ms"])' "$json")
	py_wall+=("$w")
	printf '%-6s %4d %16.0f %14.1f %8.3f %16s\n' simpy "$r" "$w" "$tp" "$p50" -
done

median() { printf '%s\n' "$@" | sort -g | awk '{v[NR] = $1} END {print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2}'; }
gm=$(median "${go_wall[@]}")
ge=$(median "${go_events[@]}")
pm=$(median "${py_wall[@]}")
printf '\nmedian of %d runs: sim %.0f, simpy %.0f lattes per wall-second; sim/simpy = %.1fx (target: 150x); sim %.0f events per wall-second\n' \
	"$runs" "$gm" "$pm" "$(awk -v a="$gm" -v b="$pm" 'BEGIN {print a / b}')" "$ge"
