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

# Both deployables publish for Windows and Linux (framework-dependent; on Windows with the .exe a service starts), so
# nothing platform-only creeps in unnoticed: the tests run only the portable build. Into a temporary artifacts folder,
# so the working tree's bin/ and obj/ (and its restore) stay as the tests left them; the libraries compile once there.
echo "Publish: server and collector for win-x64 and linux-x64"
artifacts=$(mktemp -d)
for rid in win-x64 linux-x64; do
  for project in Server Collector; do
    dotnet publish "src/$project" -r "$rid" --self-contained false --artifacts-path "$artifacts" --nologo -v q || status=$?
  done
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
