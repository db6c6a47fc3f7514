#!/usr/bin/env bash
# Runs every test of IfiDashboard. Installs what the tests need first (idempotent), so it passes on a fresh
# machine: see scripts/install-test-dependencies.sh.
set -euo pipefail
cd "$(dirname "$0")"

scripts/install-test-dependencies.sh

log=$(mktemp)
trap 'rm -f "$log"' EXIT
status=0
dotnet test IfiDashboard.sln --nologo 2>&1 | tee "$log" || status=$?

# One closing line for the whole solution, summed over the test assemblies.
awk '/^(Passed|Failed)!/ {
       for (i = 1; i <= NF; i++) {
         if ($i == "Failed:") f += $(i+1); if ($i == "Passed:") p += $(i+1); if ($i == "Skipped:") s += $(i+1)
       }
       n++
     }
     END { printf "%d passed, %d failed, %d skipped\n", p, f, s; if (n == 0) exit 1 }' "$log" || status=1
exit "$status"
