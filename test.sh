#!/usr/bin/env bash
# Runs every test of IfiDashboard. Installs what the tests need first (idempotent), so it passes on a fresh
# machine: see scripts/install-test-dependencies.sh.
set -euo pipefail
cd "$(dirname "$0")"

scripts/install-test-dependencies.sh

log=$(mktemp)
trap 'rm -f "$log"; scripts/start-test-postgres.sh stop' EXIT
status=0
dotnet test IfiDashboard.sln --nologo 2>&1 | tee "$log" || status=$?

# The PostgreSQL pass: the server's tests (store, ingestion, API, alerts, pages) again, each with a database of its own
# on a throwaway PostgreSQL server, so the shared store is held to every test the embedded one passes. Tests of what
# only SQLite has (its file, WAL, pragmas) are traited Store=SqliteOnly and left out of this pass.
echo "PostgreSQL pass: tests/Server.Tests against a PostgreSQL store"
postgres=$(scripts/start-test-postgres.sh)
IFI_TEST_STORE=postgres IFI_TEST_POSTGRES="$postgres" \
  dotnet test tests/Server.Tests --no-build --nologo --filter "Store!=SqliteOnly" 2>&1 | tee -a "$log" || status=$?

# Both deployables publish for Windows (framework-dependent; with the .exe a Windows service starts), so nothing
# Linux-only creeps in unnoticed: the tests run the portable build on Linux, and the Production browser tests publish
# and run the server there. Into a temporary artifacts folder, so the working tree's bin/ and obj/ (and its restore)
# stay as the tests left them; the collector, which the server references, compiles once there.
echo "Publish: server and collector for win-x64"
artifacts=$(mktemp -d)
for project in Server Collector; do
  dotnet publish "src/$project" -r win-x64 --self-contained false --artifacts-path "$artifacts" --nologo -v q || status=$?
done
rm -rf "$artifacts"

# One closing line for the whole solution, summed over the test assemblies and both store passes.
awk '/^(Passed|Failed)!/ {
       for (i = 1; i <= NF; i++) {
         if ($i == "Failed:") f += $(i+1); if ($i == "Passed:") p += $(i+1); if ($i == "Skipped:") s += $(i+1)
       }
       n++
     }
     END { printf "%d passed, %d failed, %d skipped\n", p, f, s; if (n == 0) exit 1 }' "$log" || status=1
exit "$status"
