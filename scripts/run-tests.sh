#!/usr/bin/env bash
# Runs the built tests (`swift build --build-tests` first) as several test processes at once and
# prints one verdict; each process's whole output stays in .build/test-logs. Arguments are passed
# to every process (e.g. --skip REGEX). TEST_JOBS sets how many run at once (default 4).
#
# Why not one `swift test`: most tests wait on child processes (git, tmux, strace, vim, xterm),
# and one swift-testing process runs its tests on a pool of one thread per core, so a 2-core
# machine sat half idle (107% CPU over ten minutes). Here each suite of the command-line and sync
# targets is a process of its own (the other targets, quick and busy, one process each), taken
# from one queue, longest first, so the cores stay busy until the end.
#
# The suites that burn CPU without watching a screen (fault injection, kill storms, the benchmark's
# smoke run) run at a lower priority, so the terminal tests beside them, which answer a program's
# queries within its 250 ms, are not starved.
set -euo pipefail
cd "$(dirname "$0")/.."

tests="$(swift build --show-bin-path)/UnCloudNotesPackageTests.xctest"
if [[ ! -x "$tests" ]]; then
    echo "run-tests: $tests is missing: run swift build --build-tests first" >&2
    exit 1
fi
jobs=${TEST_JOBS:-4}
logs=.build/test-logs
rm -rf "$logs"
mkdir -p "$logs"

# Longest first (as measured on a 2-core machine); every other unit follows in listing order.
longest=(CommandLineTests.FaultInjectionTests CommandLineTests.BenchSmokeTests CommandLineTests.SyncFaultInjectionTests
         NotesSyncTests.MultiMachineSyncTests CommandLineTests.MigrationKillStormTests ManagedStoreTests NotesTerminalUITests)
background='(FaultInjection|KillStorm|KillTests|BenchSmoke)'

# A unit: one suite (Module.Type) of CommandLineTests or NotesSyncTests, or a whole other target.
listed=$("$tests" --testing-library swift-testing --list-tests 2>/dev/null | sed -E 's#/.*##' \
    | sed -E 's#^((CommandLineTests|NotesSyncTests)\.[A-Za-z0-9_]+|[A-Za-z0-9_]+)(\..*)?$#\1#' | awk '!seen[$0]++')
units=$( { printf '%s\n' "${longest[@]}"; printf '%s\n' "$listed"; } | awk 'NF && !seen[$0]++')
count=$(printf '%s\n' "$units" | wc -l)

run_unit() { # unit, then the arguments passed to the script
    local unit=$1
    shift
    local pattern="^${unit//./\\.}[./]"
    local niceness=0
    [[ $unit =~ $background ]] && niceness=10
    local status=0
    nice -n "$niceness" "$tests" --testing-library swift-testing --filter "$pattern" "$@" >"$logs/$unit.out" 2>"$logs/$unit.log" || status=$?
    echo "$status" >"$logs/$unit.status"
}
export -f run_unit
export tests logs background

started=$SECONDS
echo "tests: $count processes, $jobs at once (logs in $logs)"
printf '%s\n' "$units" | xargs -P "$jobs" -I{} bash -c 'run_unit "$@"' _ {} "$@"

failed=0 passed=0
for unit in $units; do
    # What the tests printed (sample sizes, seeds).
    [[ -s "$logs/$unit.out" ]] && sed "s/^/  $unit: /" "$logs/$unit.out"
    verdict=$(grep -a "Test run with" "$logs/$unit.log" | tail -1 || true)
    ran=$(sed -nE 's/.*Test run with ([0-9]+) tests?.*/\1/p' <<<"$verdict")
    passed=$((passed + ${ran:-0}))
    if [[ "$(cat "$logs/$unit.status")" != 0 ]]; then
        failed=1
        echo "---- $unit failed: ${verdict:-no verdict, exit status $(cat "$logs/$unit.status")} (whole output: $logs/$unit.log) ----"
        grep -a -A 12 -E "recorded an issue|Fatal error|Crash" "$logs/$unit.log" | head -300 || tail -40 "$logs/$unit.log"
    fi
done
echo "tests: $passed tests in $count processes, $((SECONDS - started)) s; $([[ $failed == 0 ]] && echo "all passed" || echo "FAILED")"
exit $failed
