#!/usr/bin/env bash
# Measures, on a machine with more cores than ours, what the model is
# judged against: the machine's shape, brewput's calibration of it, the
# published behaviours of Go's primitives (primitives_test.go) and real
# libraries' benchmarks on its CPU counts, and the coffee shop on them.
#
#   bash validation/manycore/run.sh build DIR        # here: static binaries
#   bash validation/manycore/run.sh measure DIR OUT  # there: into OUT
#
# PARTS (default: machine calibrate primitives libraries trials shop mutexprobe
# calibrate2) picks the parts to measure (trials, round2: a held-out set,
# the benchmarks of morelibs' NAME_test.go on 1, 2, 4, 8 and 16 CPUs, into
# NAME.txt, or NAME-again.txt where that is there; libraries leaves them
# out; calibrate2, a second calibration at the end). The fifth lending's
# PARTS="machine calibrate trials calibrate2" took 352 s (calibrate 2 min
# each, the trials 103 s). (mutexshapes, not among the parts, is mutexprobe's other
# shapes: ten goroutines a P, work inside the lock and outside it;
# mutexreplica, the same shapes again each beside sync.Mutex's replica,
# which counts the paths its Locks and Unlocks take); COUNT (default 3) and BENCHTIME (50ms) the benchmarks'.
# primitives also times one take of a line between CPU 0 and three others
# (linetake-pairs.txt, where taskset is there and there are more than 2).
#
# The target needs no Go: build makes every binary (linux/amd64, no cgo),
# measure runs them. Each part writes its own file as it goes, so that a
# run cut short keeps what it finished; each part has a time limit.
set -uo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)

build() {
  local dir=$1
  mkdir -p "$dir"
  dir=$(cd "$dir" && pwd)
  export CGO_ENABLED=0 GOOS=linux GOARCH=amd64
  (cd "$root" && go build -ldflags="-s -w" -o "$dir/brewput" ./cmd/brewput) || exit 1
  (cd "$root/validation" && go test -c -ldflags="-s -w" -o "$dir/manycore.test" ./manycore &&
    go build -ldflags="-s -w" -o "$dir/quietprobe" ./quietprobe &&
    go build -tags replica -ldflags="-s -w -checklinkname=0" -o "$dir/mutexprobe" ./mutexprobe) || exit 1
  (cd "$root/cmd/brewput/internal/driver/testdata/reallibs" && GOFLAGS=-mod=mod go test -c -ldflags="-s -w" -o "$dir/reallibs.test" .) || exit 1
  (cd "$root/validation/morelibs" && GOFLAGS=-mod=mod go test -c -ldflags="-s -w" -o "$dir/morelibs.test" .) || exit 1
  # Each held-out set's benchmarks (morelibs' NAME_test.go), as one
  # -test.bench pattern: NAME.re.
  for set in trials round2; do
    [[ -f $root/validation/morelibs/${set}_test.go ]] &&
      echo "^($(sed -n 's/^func \(Benchmark[A-Za-z0-9_]*\)(.*/\1/p' "$root/validation/morelibs/${set}_test.go" | paste -sd'|'))\$" >"$dir/$set.re"
  done
  (cd "$root" && go test -c -ldflags="-s -w" -o "$dir/cache.test" ./examples/cache &&
    go test -c -ldflags="-s -w" -o "$dir/book.test" ./examples/book) || exit 1
  ls -la "$dir"
}

measure() {
  local bin out
  bin=$(cd "$1" && pwd)
  out=$2
  mkdir -p "$out"
  export HOME=$(mktemp -d) XDG_CONFIG_HOME= XDG_CACHE_HOME=
  local all cpus shopcpus
  all=$(nproc)
  cpus=$(seq -s, 1 "$all" | awk -F, -v n="$all" '{
    s = ""; for (i = 1; i <= n; i++) if (i <= 4 || i % 2 == 0) s = s (s ? "," : "") i; print s }')
  shopcpus=$(echo 1 2 4 6 8 12 16 "$all" | tr ' ' '\n' | awk -v n="$all" '$1 <= n' | sort -un | paste -sd,)

  local parts=" ${PARTS:-machine calibrate primitives libraries trials shop mutexprobe calibrate2} " count=${COUNT:-3} benchtime=${BENCHTIME:-50ms}
  want() { [[ $parts == *" $1 "* ]] && echo "== $1 at $(date -u +%T)"; }

  want machine && {
    date -u +%FT%TZ
    uname -a
    echo "nproc $all"
    grep -E '^(Cpus_allowed_list)' /proc/self/status
    cat /sys/fs/cgroup/cpu.max 2>/dev/null
    lscpu
    echo "== topology: cpu package core siblings"
    for c in /sys/devices/system/cpu/cpu[0-9]*; do
      echo "$(basename "$c") $(cat "$c/topology/physical_package_id") $(cat "$c/topology/core_id") $(cat "$c/topology/thread_siblings_list")"
    done | sort -V
    echo "== others over one second: $("$bin/quietprobe")"
    cat /proc/loadavg
  } >"$out/machine.txt" 2>&1

  want mutexshapes &&
    for sh in "-per 1" "-per 10" "-out 100" "-in 20 -out 20"; do
      # shellcheck disable=SC2086 # $sh is flags
      timeout 30 "$bin/quietprobe" "$bin/mutexprobe" -procs 1,2,4,8,16 $sh -runs 2 -dur 500ms 2>&1 | tee -a "$out/mutexshapes.txt"
    done

  want mutexreplica &&
    for sh in "-per 1" "-per 10" "-in 20 -out 20"; do
      for rep in "" -replica; do
        # shellcheck disable=SC2086 # $sh and $rep are flags
        timeout 30 "$bin/quietprobe" "$bin/mutexprobe" -procs 1,2,4,8,16 $sh $rep -runs 2 -dur 500ms 2>&1 | tee -a "$out/mutexreplica.txt"
      done
    done

  want calibrate &&
  timeout 300 "$bin/brewput" calibrate --out "$out/calibration.json" --force --wait 10s 2>&1 | tee "$out/calibrate.txt"

  want primitives && {
    timeout 240 "$bin/quietprobe" "$bin/manycore.test" -test.run '^$' -test.bench . -test.skip '^(BenchmarkLock|BenchmarkLineTake)$' \
      -test.cpu "$cpus" -test.benchtime "$benchtime" -test.count "$count" 2>&1 | tee "$out/primitives.txt" | grep -E '^(ok|PASS|FAIL|others)'
    timeout 40 "$bin/quietprobe" "$bin/manycore.test" -test.run '^$' -test.bench '^BenchmarkLock$' \
      -test.cpu "$all" -test.benchtime "$benchtime" -test.count "$count" 2>&1 | tee -a "$out/primitives.txt" | grep -E '^(ok|PASS|FAIL|others)'
    # Two goroutines whatever -cpu says: once.
    timeout 40 "$bin/quietprobe" "$bin/manycore.test" -test.run '^$' -test.bench '^BenchmarkLineTake$' \
      -test.cpu 2 -test.benchtime "$benchtime" -test.count "$count" 2>&1 | tee -a "$out/primitives.txt" | grep -E '^(ok|PASS|FAIL|others)'
    # The same take between CPU 0 and a nearer and a farther CPU (the
    # machine part's topology says which are siblings, which another
    # socket): what moving a line costs by distance, where the model takes
    # one move for any pair of a socket.
    if command -v taskset >/dev/null && ((all > 2)); then
      for k in $(echo 1 $((all / 2)) $((all - 1)) | tr ' ' '\n' | sort -un); do
        echo "== cpus 0,$k" >>"$out/linetake-pairs.txt"
        timeout 40 taskset -c "0,$k" "$bin/quietprobe" "$bin/manycore.test" -test.run '^$' -test.bench '^BenchmarkLineTake$' \
          -test.cpu 2 -test.benchtime "$benchtime" -test.count "$count" >>"$out/linetake-pairs.txt" 2>&1
      done
      grep -cE '^BenchmarkLineTake' "$out/linetake-pairs.txt"
    fi
  }

  want libraries &&
    for t in morelibs reallibs cache book; do
      echo "== $t" >>"$out/libraries.txt"
      # morelibs takes the longest.
      timeout "$([[ $t == morelibs ]] && echo 300 || echo 180)" "$bin/quietprobe" "$bin/$t.test" -test.run '^$' -test.bench . -test.skip "$(cat "$bin"/*.re | sed 's/^^(//; s/)\$$//' | paste -sd'|' | sed 's/.*/^(&)$/')" \
        -test.cpu "$shopcpus" -test.benchtime "$benchtime" -test.count "$count" 2>&1 | tee -a "$out/libraries.txt" | grep -E '^(ok|PASS|FAIL|others)'
    done

  # A held-out set, into NAME.txt, or NAME-again.txt where that is there.
  for re in "$bin"/*.re; do
    set=$(basename "$re" .re)
    want "$set" && {
      f=$out/$set.txt
      [[ -f $f ]] && f=$out/$set-again.txt
      echo "== $set" >>"$f"
      timeout 300 "$bin/quietprobe" "$bin/morelibs.test" -test.run '^$' -test.bench "$(cat "$re")" \
        -test.cpu "$(echo 1 2 4 8 16 | tr ' ' '\n' | awk -v n="$all" '$1 <= n' | paste -sd,)" \
        -test.benchtime "$benchtime" -test.count "$count" 2>&1 | tee -a "$f" | grep -E '^(ok|PASS|FAIL|others)'
    }
  done


  want shop && {
    timeout 150 "$bin/brewput" run --cpus "$shopcpus" --dur 1s --noisy ok --out "$out/shop.json" >"$out/shop.txt" 2>&1
    echo "shop exit $?"
    tail -3 "$out/shop.txt"
  }

  want mutexprobe &&
    timeout 60 "$bin/quietprobe" "$bin/mutexprobe" -procs "$shopcpus" -runs 3 -dur 1s 2>&1 | tee "$out/mutexprobe.txt"

  want calibrate2 &&
  timeout 300 "$bin/brewput" calibrate --out "$out/calibration2.json" --force --wait 5s >>"$out/calibrate.txt" 2>&1
  want calibrate && tail -4 "$out/calibrate.txt"
  echo "others at $(date -u +%T): $("$bin/quietprobe")"
}

case ${1:-} in
build) build "${2:?DIR}" ;;
measure) measure "${2:?DIR}" "${3:?OUT}" ;;
*)
  echo "usage: run.sh build DIR | run.sh measure DIR OUT" >&2
  exit 2
  ;;
esac
