#!/usr/bin/env bash
# The explanations audit: 432 model points (18 modes × 1–8 CPUs × fifo and
# the go policy with a wake-up of 132 µs and of 20 µs, fixed costs), each
# point's bottleneck checked against its own causal profile and against
# brewput advise's table, and each mode's scaling fit against its data.
# It runs the test TestAudit of the main module's experiment/limits.
# Prints "audit: 432 points, N contradictions" and every contradiction;
# exits non-zero if there is one.
#
#   bash validation/audit-explanations.sh      # from anywhere in the repository
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
BREWPUT_AUDIT=1 go test ./experiment/limits -run '^TestAudit$' -count=1 -v | grep -E '^(audit:|    [a-z_]*audit_test\.go|--- |ok|FAIL)'
