#!/usr/bin/env bash
# Runs the built tests (`swift build --build-tests` first) as several test processes at once and
# prints one line per process as it ends, then one verdict; each process's whole output stays in
# .build/test-logs. Arguments are passed to every process (e.g. --skip REGEX; for --filter, use
# swift test). TEST_JOBS sets how many run at once (default 4); SWIFT, the swift to ask for the
# build folder.
#
# Why not one `swift test`: most tests wait on child processes (git, tmux, strace, vim, xterm),
# and one swift-testing process runs its tests on a pool of one thread per core, so a 2-core
# machine sat half idle (107% CPU over ten minutes). Here each suite of the command-line and sync
# targets is a process of its own (the other targets, quick and busy, one process each), taken
# from one queue, longest first, so the cores stay busy until the end.
#
# The suites that burn CPU without watching a screen (fault injection, kills and crashes, the
# benchmark's smoke run) run at a lower priority, so the terminal tests beside them, which answer a program's
# queries within its 250 ms, are not starved. A process that runs longer than 15 minutes is
# stopped with SIGQUIT (a backtrace in its log) and fails the run.
set -euo pipefail
cd "$(dirname "$0")/.."

for argument in "$@"; do
    if [[ $argument == --filter ]]; then
        echo "run-tests: --filter would run in every process at once: use swift test --skip-build --filter" >&2
        exit 2
    fi
done
jobs=${TEST_JOBS:-4}
if ! [[ $jobs =~ ^[1-9][0-9]*$ ]]; then
    echo "run-tests: TEST_JOBS must be a number of at least 1, not '$jobs'" >&2
    exit 2
fi
tests="$(${SWIFT:-swift} build --show-bin-path)/UnCloudNotesPackageTests.xctest"
if [[ ! -x "$tests" ]]; then
    echo "run-tests: $tests is missing: run swift build --build-tests first" >&2
    exit 1
fi
logs=.build/test-logs
rm -rf "$logs"
mkdir -p "$logs"

# A unit: one suite (Module.Type) of CommandLineTests or NotesSyncTests, or a whole other target.
if ! listing=$("$tests" --testing-library swift-testing --list-tests 2>"$logs/listing.log"); then
    echo "run-tests: the tests could not be listed:" >&2
    cat "$logs/listing.log" >&2
    exit 1
fi
listed=$(sed -E 's#/.*##; s#^((CommandLineTests|NotesSyncTests)\.[A-Za-z0-9_]+|[A-Za-z0-9_]+)(\..*)?$#\1#' <<<"$listing" | awk 'NF && !seen[$0]++')
# Longest first (as measured on a 2-core machine), those still listed; every other unit follows.
longest=(CommandLineTests.MigrationCrashTests CommandLineTests.InstallTests CommandLineTests.BenchSmokeTests
         CommandLineTests.FaultInjectionTests CommandLineTests.MigrationKillStormTests CommandLineTests.KeyFileRestoreFaultTests
         CommandLineTests.SyncFaultInjectionTests NotesSyncTests.LargeFirstSyncTests CommandLineTests.TerminalAppTests
         CommandLineTests.SyncRecoveryTests NotesTerminalUITests NotesSyncTests.SyncKillStormTests ManagedStoreTests)
units=$( { printf '%s\n' "${longest[@]}" | grep -Fx -f <(printf '%s\n' "$listed") || true; printf '%s\n' "$listed"; } | awk 'NF && !seen[$0]++')
count=$(wc -l <<<"$units")

run_unit() { # unit, then the arguments passed to the script
    local unit=$1
    shift
    local niceness=0 status=0 started=$SECONDS
    [[ $unit =~ (Fault|Kill|Crash|BenchSmoke) ]] && niceness=10
    nice -n "$niceness" timeout --signal=QUIT --kill-after=30 900 \
        "$tests" --testing-library swift-testing --filter "^${unit//./\\.}[./]" "$@" >"$logs/$unit.out" 2>"$logs/$unit.log" || status=$?
    # 69: every test of the process was skipped by the caller's --skip, as swift test takes it.
    [[ $status == 69 ]] && status=0
    echo "$status" >"$logs/$unit.status"
    local verdict
    verdict=$(grep -a "Test run with" "$logs/$unit.log" | tail -1 | sed -E 's/^[^T]*//' || true)
    echo "  $unit: ${verdict:-no verdict}, exit status $status, $((SECONDS - started)) s"
}
export -f run_unit
export tests logs

started=$SECONDS
echo "tests: $count processes, $jobs at once (logs in $logs)"
xargs -P "$jobs" -I{} bash -c 'run_unit "$@"' _ {} "$@" <<<"$units"

failed=0 ran=0
while read -r unit; do
    # What the tests printed (sample sizes, seeds).
    [[ -s "$logs/$unit.out" ]] && sed "s/^/  $unit: /" "$logs/$unit.out"
    number=$(grep -a "Test run with" "$logs/$unit.log" | tail -1 | sed -nE 's/.*Test run with ([0-9]+) tests?.*/\1/p' || true)
    ran=$((ran + ${number:-0}))
    if [[ "$(cat "$logs/$unit.status" 2>/dev/null || echo none)" != 0 ]]; then
        failed=1
        echo "---- $unit failed, exit status $(cat "$logs/$unit.status" 2>/dev/null || echo none) (whole output: $logs/$unit.log) ----"
        grep -a -A 12 -E "recorded an issue|Fatal error|Crash|crashed" "$logs/$unit.log" | head -300 || tail -40 "$logs/$unit.log"
    fi
done <<<"$units"
echo "tests: $ran tests run in $count processes, $((SECONDS - started)) s; $([[ $failed == 0 ]] && echo "all passed" || echo "FAILED")"
exit $failed
