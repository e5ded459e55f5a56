#!/bin/bash
# Measures a study (brewput's measure/study) on many CPUs the way brewput
# study does, without Go on the machine: its program, built elsewhere and
# static ($BIN), run with the point command, a request on stdin, GOMAXPROCS
# and the CPUs 0..n-1 set for each point; every variant it describes on
# each count of $CPUS, $REPS runs a point, the runs interleaved, $DUR ns
# each after 200 ms. It writes $OUT/$NAME.jsonl, a results file that
# brewput study … predict --from reads, and $NAME-machine.txt.
#
#   CGO_ENABLED=0 go build -o DIR/cachestudy ./examples/cache/study   # here
#   BIN=DIR/cachestudy NAME=cache-study OUT=OUT bash validation/manycore/studypoints.sh
set -u
BIN=${BIN:?BIN, the study program}; NAME=${NAME:-study}; OUT=${OUT:-/tmp/studypoints}
CPUS=${CPUS:-"1 2 4 6 8 12 16"}; REPS=${REPS:-3}; DUR=${DUR:-1000000000}
mkdir -p "$OUT"
variants=$("$BIN" describe | sed 's/.*"variants":\[//' | grep -o '"name":"[^"]*"' | sed 's/"name":"//; s/"$//')
{ uname -a; nproc; lscpu | grep -E "Model name|Socket|Core|Thread|NUMA"; date -u; } > "$OUT/$NAME-machine.txt"
f=$OUT/$NAME.jsonl
echo '{"brewput":"results","schema":3}' > "$f"
for rep in $(seq 1 "$REPS"); do
	for n in $CPUS; do
		for v in $variants; do
			echo '{"variant":"'$v'","load":{"cpus":'$n',"par":0,"warmup":200000000,"dur":'$DUR'}}' |
				GOMAXPROCS=$n taskset -c 0-$((n - 1)) "$BIN" point | sed "s/^{/{\"rep\":$rep,/" >> "$f" ||
				echo "failed: $v on $n CPUs, run $rep" >> "$OUT/$NAME-machine.txt"
		done
	done
done
date -u >> "$OUT/$NAME-machine.txt"
