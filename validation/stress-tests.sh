#!/usr/bin/env bash
# stress-tests.sh: run the test suite again and again, plainly and beside a
# CPU hog, and print every failure, to show that `go test ./...` passes on
# every run, also while another process is busy. It runs the main module's
# suite from the repository root, wherever it is started.
#
#   bash validation/stress-tests.sh [-n PLAIN] [-m HOG] [--fresh] [-- go test flags]
#
#   -n PLAIN   plain runs of go test -count=1 ./... (default 10)
#   -m HOG     runs beside a hog: one busy loop in another process (default 5)
#   --fresh    run in a fresh clone of the committed HEAD in a temporary
#              folder, as a new user would (uncommitted changes are not in it)
#
# It prints one line per run (wall time, result, failing tests) and a
# summary; it exits 1 if any run failed. Each run's whole output is kept in
# the log folder it names.
set -uo pipefail

plain=10 hog=5 fresh=0
extra=()
while (($#)); do
  case "$1" in
    -n) plain=${2:?-n needs a number}; shift 2 ;;
    -m) hog=${2:?-m needs a number}; shift 2 ;;
    --fresh) fresh=1; shift ;;
    --) shift; extra=("$@"); break ;;
    -h|--help) sed -n '2,16p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "stress-tests.sh: unknown argument $1 (want -n N, -m M, --fresh, -- go test flags)" >&2; exit 2 ;;
  esac
done
[[ $plain =~ ^[0-9]+$ && $hog =~ ^[0-9]+$ ]] || { echo "stress-tests.sh: -n and -m take whole numbers" >&2; exit 2; }

repo=$(cd "$(dirname "$0")/.." && pwd)
logs=$(mktemp -d "${TMPDIR:-/tmp}/brewput-stress.XXXXXX")
hogpid=
cleanup() { [[ -n $hogpid ]] && kill "$hogpid" 2>/dev/null; }
trap cleanup EXIT
trap 'exit 130' INT TERM

dir=$repo
if ((fresh)); then
  dir=$logs/clone
  git clone -q "$repo" "$dir" || exit 1
  echo "fresh clone of $(git -C "$dir" rev-parse --short HEAD) in $dir"
fi
cd "$dir" || exit 1
echo "logs in $logs; $(nproc) CPUs; $(go version)"

failed=0 runs=0
run() { # run KIND I
  local kind=$1 i=$2 log="$logs/$1-$2.log" start end rc
  start=$(date +%s.%N)
  go test -count=1 "${extra[@]}" ./... >"$log" 2>&1
  rc=$?
  end=$(date +%s.%N)
  runs=$((runs + 1))
  local secs; secs=$(awk -v a="$start" -v b="$end" 'BEGIN{printf "%.0f", b-a}')
  if ((rc == 0)); then
    printf '%-6s %2d  %4ss  ok\n' "$kind" "$i" "$secs"
  else
    failed=$((failed + 1))
    local which
    which=$(grep -E '^(--- FAIL|FAIL[[:space:]]|panic:)' "$log" | sed 's/[[:space:]]\+/ /g' | sort -u | tr '\n' ';')
    printf '%-6s %2d  %4ss  FAIL %s\n' "$kind" "$i" "$secs" "$which"
  fi
  echo "$kind $i $secs $rc" >>"$logs/summary"
}

for ((i = 1; i <= plain; i++)); do run plain "$i"; done
if ((hog > 0)); then
  # One busy loop, in its own process, as another program would be.
  bash -c 'while :; do :; done' &
  hogpid=$!
  for ((i = 1; i <= hog; i++)); do run hog "$i"; done
  kill "$hogpid" 2>/dev/null
  hogpid=
fi

awk '{t[$1] += $3; n[$1]++} END {for (k in t) printf "%s: %d runs, mean %.0f s\n", k, n[k], t[k]/n[k]}' "$logs/summary"
echo "$runs runs, $failed failed"
((failed == 0))
