#!/bin/bash
# Measures examples/cache's study on many CPUs the way brewput study does,
# without Go on the machine: its program (built elsewhere, static, as
# $B/cachestudy) run with the point command, a request on stdin, GOMAXPROCS
# and the CPUs 0..n-1 set for each point; every variant on each count of
# $CPUS, $REPS runs a point, the runs interleaved. It writes a results file
# (JSON Lines) that brewput study … predict --from reads.
#
#   CGO_ENABLED=0 go build -o DIR/cachestudy ./examples/cache/study   # here
#   B=DIR OUT=OUT bash validation/manycore/cachestudy.sh               # there
set -u
B=${B:-.devcs}; OUT=${OUT:-/tmp/cachestudy}; CPUS=${CPUS:-"1 2 4 6 8 12 16"}; REPS=${REPS:-3}; DUR=${DUR:-1000000000}
mkdir -p "$OUT"
{ uname -a; nproc; lscpu | grep -E "Model name|Socket|Core|Thread|NUMA"; date -u; } > "$OUT/cache-study-machine.txt"
f=$OUT/cache-study.jsonl
echo '{"brewput":"results","schema":3}' > "$f"
for rep in $(seq 1 "$REPS"); do
	for n in $CPUS; do
		for v in mutex-read mutex-write sharded-read sharded-write syncmap-read syncmap-write; do
			echo '{"variant":"'$v'","load":{"cpus":'$n',"par":0,"warmup":200000000,"dur":'$DUR'}}' |
				GOMAXPROCS=$n taskset -c 0-$((n - 1)) "$B/cachestudy" point | sed "s/^{/{\"rep\":$rep,/" >> "$f" ||
				echo "failed: $v on $n CPUs, run $rep" >> "$OUT/cache-study-machine.txt"
		done
	done
done
date -u >> "$OUT/cache-study-machine.txt"
