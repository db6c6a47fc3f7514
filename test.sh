#!/usr/bin/env bash
# Runs every test of IfiDashboard. Installs what the tests need first (idempotent), so it passes on a fresh
# machine: see scripts/install-test-dependencies.sh.
# `./test.sh --fast` runs only the fast tier (docs/testing.md): the compliance engine, the client's components, the
# collector's and the simulator's units, with nothing to install, no PostgreSQL and no server process.
set -euo pipefail
cd "$(dirname "$0")"

if [ "${1:-}" = "--fast" ]; then
  # One build and one test command over tests/Fast.slnf: one MSBuild and the four test hosts side by side.
  dotnet build tests/Fast.slnf --nologo -v q || exit 1
  exec dotnet test tests/Fast.slnf --no-build --nologo --filter \
    "(FullyQualifiedName~IfiDashboard.Compliance.Tests&FullyQualifiedName!~RemediationScriptTests)|FullyQualifiedName~IfiDashboard.Client.Tests|FullyQualifiedName~IfiDashboard.Simulator.Tests.Engine.|Tier=Fast"
fi

scripts/install-test-dependencies.sh

# The compiler server the build starts (below).
stop_compiler_server() { dotnet build-server shutdown --vbcscompiler >/dev/null 2>&1 || true; }
logs=$(mktemp -d)
artifacts=$(mktemp -d)
# Each job below runs in a process group of its own (job control on), so that the exit trap, after an interrupt or a
# failed step, stops a job with everything it started (test hosts, servers, browsers), not only the job's first
# process. Jobs read nothing: their standard input is /dev/null, as without job control.
set -m
trap 'for job in $(jobs -p); do kill -- -"$job" 2>/dev/null || true; done; stop_compiler_server
      rm -rf "$logs" "$artifacts"; scripts/start-test-postgres.sh stop' EXIT
status=0

# The throwaway PostgreSQL server of the store tests, the PostgreSQL pass, and the browser tests that start the server
# on it.
IFI_TEST_POSTGRES=$(scripts/start-test-postgres.sh)
export IFI_TEST_POSTGRES

# The build and the publish job's compiles share one compiler server (VBCSCompiler), even where the environment turns
# it off (UseSharedCompilation=false): each compile in a process of its own loads and JIT-compiles the compiler and
# every analyzer and source generator again, about a fifth of a clean build's processor time (docs/benchmarks.md
# "The test command"). The publish job stops the server once its compiles are done, the exit trap after an interrupt,
# so no compiler process outlives the command.
compile=(-p:UseSharedCompilation=true)
dotnet build IfiDashboard.sln --nologo -v q "${compile[@]}" || exit 1
# The publish job's Release compiles skip the analyzers (Roslyn's /skipanalyzers; source generators, Razor's among them,
# still run) and the nullable flow analysis (Directory.Build.targets): the build above ran both over the same sources
# with warnings as errors, and no source differs between Debug and Release (no #if, no Configuration-conditional item),
# so a second pass would report nothing new. The emitted code is the same.
publish_compile=("${compile[@]}" -p:RunAnalyzers=false -p:RunNullableAnalysis=false)

# The built test assemblies of the projects given (tests/X.Tests -> its bin/Debug/net*/IfiDashboard.X.Tests.dll), run by
# `dotnet vstest`: `dotnet test --no-build` would start an MSBuild first, about 2 s of processor a job, to find them.
# Several assemblies share one run, two test hosts at a time (--Parallel: one per core).
run_tests() {
  local assemblies=() project
  while [ $# -gt 0 ] && [ "$1" != "--" ]; do
    project=$1
    shift
    assemblies+=("$project"/bin/Debug/net*/"IfiDashboard.${project#tests/}.dll")
  done
  [ $# -gt 0 ] && shift
  dotnet vstest "${assemblies[@]}" --Parallel "$@"
}

# Five jobs side by side, on the one build: the tests mostly wait on sockets, child processes and the disk, so run one
# after another they leave a core idle. Each writes its own log, shown when it ends. The two longest start at once
# (a `dotnet test` of the solution ran two projects at a time in solution order, so the server's tests waited for the
# collector's): the browser tests, whose two-server test alone waits about two minutes, and the server's tests.
#  - tests/E2E.Tests and tests/Server.Tests, with the embedded (SQLite) store, each a job of its own;
#    the store's tests are theories over both stores (StoreProviders, tests/Support): with IFI_TEST_POSTGRES set they
#    run on SQLite and on a database of their own on the throwaway server, in this job;
#  - the PostgreSQL pass: the test classes traited Store=Postgres run again with their hosts on PostgreSQL (the store's
#    tests that start a host, and a small end-to-end smoke set: ingestion, sync, alerts across two servers, audit,
#    evidence). Pages, API and alerts otherwise run once, on the embedded store;
#  - every other test project (tests/*.Tests), in one run, two test hosts at a time: together they take less than the
#    jobs above;
#  - both deployables published for Windows (with the .exe a Windows service starts), so nothing Linux-only creeps in
#    unnoticed: the tests run the portable build on Linux, and the Production browser tests publish and run the server
#    there. Into a temporary artifacts folder, so the working tree's bin/ and obj/ stay as the tests use them. Both in
#    Release, so the collector, which the server references, compiles once for both: the server framework-dependent,
#    then the collector self-contained (as a Windows host without .NET runs it; a framework-dependent publish of it
#    would compile nothing new) for the Windows smoke test, which runs in this job under Wine once that build exists
#    (the other projects' job leaves it out: Platform=Wine). Still real publishes, each compile of them included
#    (docs/benchmarks.md, 2026-11-28): the SDK lists a publish's files only after a build (the static web assets
#    manifest), a restore-only check would not produce the .exe nor catch a publish-only conflict, and publishing from
#    the Debug build in the working tree would rewrite the assets files E2E's `dotnet publish --no-build` reads meanwhile.
# Dynamic PGO off for every process from here on, as tests/Directory.Build.props already has it for the test hosts:
# the server, collector and simulator processes the tests start live seconds to minutes, too short for its
# instrumented tier to pay off (the settings table's 77 server starts: about 7 % less processor, docs/benchmarks.md
# "The test command"). A test setting only: the product's processes keep the runtime's default.
export DOTNET_TieredPGO=0
echo "Running: tests/E2E.Tests and tests/Server.Tests (store tests on both stores), the PostgreSQL smoke pass, the other test projects, win-x64 publish of server and collector (and the collector under Wine)"
run_tests tests/E2E.Tests </dev/null >"$logs/e2e" 2>&1 &
e2e_job=$!
run_tests tests/Server.Tests </dev/null >"$logs/sqlite" 2>&1 &
sqlite_job=$!
IFI_TEST_STORE=postgres run_tests tests/Server.Tests -- --TestCaseFilter:"Store=Postgres" </dev/null >"$logs/postgres" 2>&1 &
postgres_job=$!
others=()
for project in tests/*.Tests; do
  case $project in tests/E2E.Tests|tests/Server.Tests) ;; *) others+=("$project") ;; esac
done
run_tests "${others[@]}" -- --TestCaseFilter:"Platform!=Wine" </dev/null >"$logs/others" 2>&1 &
others_job=$!
(
  echo "Publish: Server for win-x64"
  dotnet publish src/Server -c Release -r win-x64 --self-contained false --artifacts-path "$artifacts" --nologo -v q \
    "${publish_compile[@]}" || exit 1
  echo "Publish: Collector for win-x64, self-contained"
  dotnet publish src/Collector -c Release -r win-x64 --self-contained true --artifacts-path "$artifacts" \
    -o "$artifacts/wine-collector" --nologo -v q "${publish_compile[@]}" || exit 1
  stop_compiler_server
  IFI_TEST_WINE_COLLECTOR="$artifacts/wine-collector" run_tests tests/Collector.Tests -- --TestCaseFilter:"Platform=Wine"
) </dev/null >"$logs/publish" 2>&1 &
publish_job=$!

for job in e2e sqlite postgres others publish; do
  pid_var="${job}_job"
  wait "${!pid_var}" || status=$?
  case $job in
    e2e) echo "== tests/E2E.Tests: browsers and server processes" ;;
    sqlite) echo "== tests/Server.Tests, SQLite store" ;;
    postgres) echo "== PostgreSQL pass: tests/Server.Tests traited Store=Postgres, hosts on a PostgreSQL store" ;;
    others) echo "== The other test projects" ;;
    publish) echo "== Publish: server and collector for win-x64; the collector's Windows build under Wine" ;;
  esac
  cat "$logs/$job"
done

# One closing line for the whole solution, summed over the test assemblies and both store passes.
awk '/^(Passed|Failed)!/ {
       for (i = 1; i <= NF; i++) {
         if ($i == "Failed:") f += $(i+1); if ($i == "Passed:") p += $(i+1); if ($i == "Skipped:") s += $(i+1)
       }
       n++
     }
     END { printf "%d passed, %d failed, %d skipped\n", p, f, s; if (n == 0) exit 1 }' "$logs/e2e" "$logs/sqlite" "$logs/postgres" "$logs/others" "$logs/publish" || status=1
exit "$status"
