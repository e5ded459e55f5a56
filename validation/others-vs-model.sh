#!/usr/bin/env bash
# Holds the model's other processes (brewput model --others) against this
# machine: measures ideal, locking, finelocking and multi-2 on 2 CPUs alone
# and beside a process busy 1 ms in every 2 (about half a CPU), steps
# burning thread CPU time, and prints the measured ratio beside the model's
# with --others set to what the points measured the others took. The work
# is the vsothers command's; its flags pass through.
#
#   bash validation/others-vs-model.sh
#   bash validation/others-vs-model.sh -modes ideal,linearpipe-0 -count 5
#
# Run it on an otherwise quiet machine; it takes about 1 minute.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")"
go run ./vsothers "$@"
