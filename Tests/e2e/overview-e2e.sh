#!/usr/bin/env bash
# End-to-end test of the process overview (view 0) in a real terminal: tmux on a private socket,
# a private socket directory, three notify-demo processes (two scenarios). notifytop started with
# no target starts on the overview whatever the count: empty (saying how to make a process
# inspectable; --batch and --json print it and exit 0), then one process (selected), then several;
# a process started later appears, one stopped vanishes; a row's figures equal that process's own
# Names view totals (read while paused, so both are the same instant), the header totals the rows,
# VIEWERS counts this notifytop; Enter attaches, 0 and Esc return; --batch and --json print the
# overview.
#
# Usage: Tests/e2e/overview-e2e.sh            (builds notifytop and notify-demo first)
#        BIN_DIR=.build/debug Tests/e2e/overview-e2e.sh   (uses binaries already built)
# Env:   SCRATCH=<scratch path for swift build> (default .build), KEEP=1 keeps the temp dir.
set -uo pipefail
cd "$(dirname "$0")/../.."

SCRATCH=${SCRATCH:-.build}
if [ -z "${BIN_DIR:-}" ]; then
    swift build --scratch-path "$SCRATCH" --product notify-demo >/dev/null || { echo "e2e: build of notify-demo failed"; exit 1; }
    swift build --scratch-path "$SCRATCH" --product notifytop >/dev/null || { echo "e2e: build of notifytop failed"; exit 1; }
    BIN_DIR=$(swift build --scratch-path "$SCRATCH" --show-bin-path)
fi
TOP="$BIN_DIR/notifytop"
[ -x "$TOP" ] && [ -x "$BIN_DIR/notify-demo" ] || { echo "e2e: binaries missing in $BIN_DIR"; exit 1; }
command -v tmux >/dev/null || { echo "e2e: tmux is not installed"; exit 1; }
command -v jq >/dev/null || { echo "e2e: jq is not installed"; exit 1; }

WORK=$(mktemp -d "${TMPDIR:-/tmp}/notifytop-overview.XXXXXX")
SOCK="notifytop-overview-$$"
T=(tmux -L "$SOCK" -f /dev/null)
passed=0
failed=0
demos=()
cleanup() {
    "${T[@]}" kill-server 2>/dev/null
    for pid in "${demos[@]}"; do kill "$pid" 2>/dev/null; done
    wait 2>/dev/null
    [ "${KEEP:-0}" = 1 ] && echo "e2e: kept $WORK" || rm -rf "$WORK"
}
trap cleanup EXIT
mkdir -p "$WORK/run" && chmod 700 "$WORK/run"
export XDG_RUNTIME_DIR="$WORK/run"

screen() { "${T[@]}" capture-pane -t e2e -p 2>/dev/null; }

# wait_for NAME REGEX [SECONDS]: passes when the screen matches REGEX in time.
wait_for() {
    local name=$1 pattern=$2 limit=${3:-15} waited=0
    while [ "$waited" -lt $((limit * 10)) ]; do
        if screen | grep -Eq -- "$pattern"; then
            passed=$((passed + 1)); echo "ok   $name"; return 0
        fi
        sleep 0.1; waited=$((waited + 1))
    done
    failed=$((failed + 1)); echo "FAIL $name: no /$pattern/ on screen after ${limit}s:"; screen | sed 's/^/    | /'
    return 1
}

# wait_gone NAME REGEX [SECONDS]: passes when the screen no longer matches REGEX in time.
wait_gone() {
    local name=$1 pattern=$2 limit=${3:-15} waited=0
    while [ "$waited" -lt $((limit * 10)) ]; do
        if ! screen | grep -Eq -- "$pattern"; then
            passed=$((passed + 1)); echo "ok   $name"; return 0
        fi
        sleep 0.1; waited=$((waited + 1))
    done
    failed=$((failed + 1)); echo "FAIL $name: /$pattern/ still on screen after ${limit}s:"; screen | sed 's/^/    | /'
    return 1
}

check() {  # check NAME COMMAND...: passes when the command succeeds.
    local name=$1; shift
    if "$@"; then passed=$((passed + 1)); echo "ok   $name"; else failed=$((failed + 1)); echo "FAIL $name"; fi
}

quietly() {  # quietly COMMAND...: runs it with its output dropped (check's own line still prints).
    "$@" >/dev/null
}

keys() { "${T[@]}" send-keys -t e2e "$@"; }

demo() {  # demo SCENARIO SEED: starts notify-demo inspectable in $WORK/run; sets $started to its pid.
    NOTIFYTOP=1 "$BIN_DIR/notify-demo" --scenario "$1" --seed "$2" --duration 300 > "$WORK/demo-$2.log" 2>&1 &
    started=$!
    demos+=("$started")
    for _ in $(seq 100); do [ -S "$WORK/run/notifytop/$started.sock" ] && return 0; sleep 0.1; done
    echo "e2e: demo $started made no socket"; cat "$WORK/demo-$2.log"
}

# The overview row of a pid: the pid (after the attached mark, if any) starts the row.
row() { echo "^ +(\\*|●)?$1 +notify-demo"; }

echo "::: no process yet: the empty overview, in batch, JSON and on screen"
mkdir -p "$WORK/run/notifytop" && chmod 700 "$WORK/run/notifytop"
timeout 30 "$TOP" --batch -n 1 -d 300ms --size 150x20 > "$WORK/empty.txt" 2>&1
status=$?
check "--batch with no process prints the empty overview and exits 0 (got $status)" \
    sh -c "[ '$status' = 0 ] && grep -q '0 Processes (0)' '$WORK/empty.txt' && grep -q 'NOTIFYTOP=1' '$WORK/empty.txt'"
timeout 30 "$TOP" --json -n 1 -d 300ms > "$WORK/empty.json" 2>&1
status=$?
check "--json with no process prints an empty process list and exits 0 (got $status)" \
    sh -c "[ '$status' = 0 ] && jq -e '.view == \"processes\" and .processes == []' '$WORK/empty.json' >/dev/null"
"${T[@]}" new-session -d -s e2e -x 150 -y 40 \
    "cd '$PWD' && env TERM=tmux-256color LANG=C.UTF-8 XDG_RUNTIME_DIR='$WORK/run' '$TOP' -d 300ms; echo EXITED=\$?; sleep 600"
wait_for "with no process the start screen is the empty overview" "0 Processes \\(0\\)"
wait_for "it says how to make a process inspectable and where it appears" "NOTIFYTOP=1.*$WORK/run/notifytop"

echo "::: one process, then two: the overview fills in"
demo steady 31; steady=$started
wait_for "a process that starts gets a row (pid $steady)" "$(row "$steady")"
wait_for "the tab counts one process" "0 Processes \\(1\\)"
wait_for "VIEWERS counts this notifytop" "$(row "$steady").* 1 +live"
demo quiet 32; quiet=$started
wait_for "the tab counts both processes" "0 Processes \\(2\\)"
wait_for "the quiet demo has a row (pid $quiet)" "$(row "$quiet")"
wait_for "rows show the columns" \
    "PID +PROCESS +CENTER +UPTIME +POSTS/S +DELIV/S +POSTS +DELIV +OBS +ERR +WARN +INFO +LOST +VIEWERS +STATE"
wait_for "the header totals the processes" "notifytop +2 processes, totals"

echo "::: a third process appears, the first one stopped vanishes"
demo quiet 33; third=$started
wait_for "a process started later appears (pid $third)" "$(row "$third")"
wait_for "the tab counts three processes" "0 Processes \\(3\\)"
kill -TERM "$steady"
wait "$steady" 2>/dev/null
wait_gone "the stopped process vanishes (pid $steady)" "$(row "$steady")"
wait_for "the tab counts two processes" "0 Processes \\(2\\)"

echo "::: Enter attaches; the row's figures equal the process's own Names view totals"
keys / "$quiet" Enter
wait_for "the filter keeps the quiet demo's row" "Filter: $quiet"
keys Enter
wait_for "Enter attaches views 1-6 to it: the Names view" "^Names"
wait_for "the Names view shows the demo's names" "SessionDidChange|ThemeDidChange|CartDidChange"
keys p
wait_for "p pauses (the overview freezes with the views)" "PAUSED"
names=$(screen)
# Names rows: NAME OBS POSTS DELIV AVG P99 MAX THR LAST; POSTS and DELIV are 7th and 6th from the right.
name_posts=$(echo "$names" | awk '/^Names/{t=1; next} t && /^ *NAME /{h=1; next} h && NF>=9 && $(NF-6) ~ /^[0-9]+$/ {s+=$(NF-6)} END{print s+0}')
name_deliv=$(echo "$names" | awk '/^Names/{t=1; next} t && /^ *NAME /{h=1; next} h && NF>=9 && $(NF-5) ~ /^[0-9]+$/ {s+=$(NF-5)} END{print s+0}')
keys 0
wait_for "0 returns to the overview" "^Processes"
line=$(screen | grep -E "$(row "$quiet")" | head -1)
# Overview row: PID PROCESS CENTER UPTIME POSTS/S spark DELIV/S spark POSTS DELIV OBS ERR WARN INFO LOST VIEWERS STATE.
row_posts=$(echo "$line" | awk '{print $(NF-8)}')
row_deliv=$(echo "$line" | awk '{print $(NF-7)}')
check "the attached row is marked (${line:0:12})" sh -c "echo '$line' | grep -Eq '^ +[*●]$quiet '"
check "POSTS in the overview ($row_posts) equal the Names view's total ($name_posts)" \
    test "${row_posts:-x}" = "$name_posts" -a "$name_posts" -gt 0
check "DELIV in the overview ($row_deliv) equal the Names view's total ($name_deliv)" \
    test "${row_deliv:-x}" = "$name_deliv"
keys p
wait_gone "p unpauses" "PAUSED"
keys 4
wait_for "4 shows the attached process's Leaks view" "^Leaks"
keys Escape
wait_for "Esc at a view's top returns to the overview" "^Processes"
keys Escape
wait_for "Esc clears the overview's filter: every process is back (pid $third)" "$(row "$third")"
check "the other processes' summaries were kept (pid $third has posts)" \
    sh -c "'${T[0]}' -L '$SOCK' capture-pane -t e2e -p | grep -E '$(row "$third")' | awk '{exit !(\$(NF-8) > 0)}'"
keys q
wait_for "q exits" "EXITED=0"

echo "::: --batch and --json print the overview"
timeout 30 "$TOP" --batch -n 1 -d 1s --size 150x20 > "$WORK/batch.txt" 2>&1
check "--batch prints the overview with both processes" \
    sh -c "grep -q '0 Processes (2)' '$WORK/batch.txt' && grep -Eq '$(row "$quiet")' '$WORK/batch.txt' && grep -Eq '$(row "$third")' '$WORK/batch.txt'"
timeout 30 "$TOP" --json -n 1 -d 1s > "$WORK/overview.json" 2>&1
check "--json prints one object per frame with every process and its raw figures" \
    quietly jq -e --argjson a "$quiet" --argjson b "$third" \
    '.view == "processes" and ([.processes[].pid] | sort) == ([$a, $b] | sort)
     and ([.processes[] | has("posts") and has("deliveries") and has("observers") and has("warnings") and has("lost")] | all)
     and ([.processes[].viewers] | all(. >= 1))' \
    "$WORK/overview.json"
timeout 30 "$TOP" --pid "$quiet" --json -n 1 -d 1s > "$WORK/pid.json" 2>&1
check "--pid --json says the process's viewer count in its summary" \
    quietly jq -e '.summary.viewers >= 1' "$WORK/pid.json"
timeout 30 "$TOP" --pid "$quiet" --batch -n 1 -d 1s --view names > "$WORK/pid.txt" 2>&1
check "--pid still attaches to one process directly" \
    sh -c "grep -q '^Names' '$WORK/pid.txt' && ! grep -q 'Processes' '$WORK/pid.txt'"

echo "::: many idle processes: notifytop's memory stays bounded and flat"
# IDLE demos posting once every 5 s in a directory of their own; notifytop's resident memory is
# sampled while it follows them. The bound scales with the count (64 idle demos: about 85 MB).
IDLE=${IDLE:-16}
IDLE_BASE_KB=${IDLE_BASE_KB:-80000}
IDLE_PER_PROCESS_KB=${IDLE_PER_PROCESS_KB:-2048}
mkdir -p "$WORK/idle/notifytop" && chmod 700 "$WORK/idle" "$WORK/idle/notifytop"
for seed in $(seq "$IDLE"); do
    XDG_RUNTIME_DIR="$WORK/idle" NOTIFYTOP=1 "$BIN_DIR/notify-demo" --scenario quiet --rate 0.2 --seed "$seed" \
        --duration 120 > "$WORK/idle-$seed.log" 2>&1 &
    demos+=("$!")
done
for _ in $(seq 100); do [ "$(ls "$WORK/idle/notifytop" | grep -c '\.sock$')" -ge "$IDLE" ] && break; sleep 0.1; done
XDG_RUNTIME_DIR="$WORK/idle" timeout 60 "$TOP" --batch -n 24 -d 1s --size 150x20 > "$WORK/idle.txt" 2>&1 &
idle_top=$!
sleep 1
idle_pid=$(pgrep -P "$idle_top" | head -1)  # notifytop, the child of timeout
rss() { awk '/^VmRSS/ {print $2}' "/proc/${idle_pid:-0}/status" 2>/dev/null; }
sleep 7; early=$(rss)
sleep 12; late=$(rss)
wait "$idle_top"
bound=$((IDLE_BASE_KB + IDLE * IDLE_PER_PROCESS_KB))
echo "     notifytop with $IDLE idle processes: ${early:-?} kB after 8 s, ${late:-?} kB after 20 s (bound $bound kB)"
check "notifytop followed all $IDLE idle processes" grep -q "0 Processes ($IDLE)" "$WORK/idle.txt"
check "its resident memory stays under $bound kB (${late:-?} kB)" test "${late:-999999999}" -le "$bound"
check "and stays flat while they idle (${early:-?} → ${late:-?} kB)" test "$((${late:-999999999} - ${early:-0}))" -le 8192

echo
echo "overview e2e: $passed passed, $failed failed"
[ "$failed" = 0 ]
