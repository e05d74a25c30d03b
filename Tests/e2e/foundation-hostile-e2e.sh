#!/usr/bin/env bash
# `notifytop --foundation` runs as root against processes anyone can start: this test starts them
# as nobody and checks that root's notifytop stays in charge.
#   - an app maps Foundation from a directory whose name is bpftrace code: the probes attach
#     through /proc/PID/map_files, the program holds none of that name, the counts are the app's;
#   - a fake bpftrace and llvm-symbolizer first on PATH are never run;
#   - apps map Foundation from a path with a newline, where the literal `\012` path holds a FIFO
#     or a link to /dev/zero: the overview draws and `q` quits at once;
#   - an app execs itself: the view ends saying so, without the new program's posts.
#
# Needs root, bpftrace, setpriv, tmux and jq; skips, with one line, where uprobes cannot be used.
#
# Usage: Tests/e2e/foundation-hostile-e2e.sh            (builds notifytop first)
#        BIN_DIR=.build/debug Tests/e2e/foundation-hostile-e2e.sh   (uses binaries already built)
# Env:   SCRATCH=<scratch path for swift build> (default .build), KEEP=1 keeps the temp dir.
set -uo pipefail
cd "$(dirname "$0")/../.."

. Tests/e2e/foundation-preamble.sh
foundation_e2e_preamble "foundation hostile e2e"
for tool in bpftrace setpriv tmux jq; do
    command -v "$tool" >/dev/null || { echo "e2e: $tool is not installed (.ci/setup installs it)"; exit 1; }
done
SWIFTC=$(command -v swiftc || echo /opt/swift/usr/bin/swiftc)
ESSENTIALS=$(dirname "$(readlink -f "$SWIFTC")")/../lib/swift/linux/libFoundationEssentials.so
[ -f "$ESSENTIALS" ] || { echo "e2e: no libFoundationEssentials.so next to $SWIFTC"; exit 1; }

WORK=$(mktemp -d "${TMPDIR:-/tmp}/notifytop-hostile.XXXXXX")
chmod 755 "$WORK"
passed=0
failed=0
apps=()
T=(tmux -L "notifytop-hostile-$$" -f /dev/null)
cleanup() {
    rm -f "$WORK/go"
    "${T[@]}" kill-server 2>/dev/null
    for pid in "${apps[@]}"; do kill "$pid" 2>/dev/null; done
    wait 2>/dev/null
    [ "${KEEP:-0}" = 1 ] && echo "e2e: kept $WORK" || rm -rf "$WORK"
}
trap cleanup EXIT
screen() { "${T[@]}" capture-pane -t e2e -p 2>/dev/null; }
on_screen() { screen | grep -Eq -- "$1"; }
wait_until() {
    local limit=$1
    shift
    for _ in $(seq $((limit * 10))); do
        "$@" && return 0
        sleep 0.1
    done
    return 1
}
# start_as_nobody LIBRARY_DIR OUT ARGS...: the app as nobody, loading Foundation from LIBRARY_DIR;
# its pid is appended to apps.
start_as_nobody() {
    local dir=$1 out=$2
    shift 2
    setpriv --reuid=nobody --regid=nogroup --clear-groups env LD_LIBRARY_PATH="$dir" "$WORK/app" "$WORK/go" "$@" \
        >"$out" 2>&1 &
    apps+=($!)
    wait_until 20 grep -q '^pid' "$out" || { echo "e2e: the app did not start:"; cat "$out"; exit 1; }
}
# maps_has PID TEXT: process PID's maps file holds TEXT.
maps_has() { grep -qF -- "$2" "/proc/$1/maps"; }

"$SWIFTC" -g Tests/e2e/foundation-app.swift -o "$WORK/app" >"$WORK/swiftc.log" 2>&1 ||
    { echo "e2e: swiftc failed:"; cat "$WORK/swiftc.log"; exit 1; }
chmod 755 "$WORK/app"

# Fake tools first on PATH: each would leave a mark.
mkdir -p "$WORK/fakebin"
for tool in bpftrace llvm-symbolizer; do
    printf '#!/bin/sh\ntouch %s/fake-%s-ran\nexit 1\n' "$WORK" "$tool" > "$WORK/fakebin/$tool"
    chmod 755 "$WORK/fakebin/$tool"
done

# 1. Foundation mapped from a directory whose name is bpftrace code (no `:` or `;`, which split
#    LD_LIBRARY_PATH, and no `/`).
code='x" { printf("INJECTED\n") } BEGIN { printf("READY\n") } "'
mkdir -p "$WORK/$code"
cp "$ESSENTIALS" "$WORK/$code/"
chmod -R a+rX "$WORK"
start_as_nobody "$WORK/$code" "$WORK/app1.out" 50
app=${apps[-1]}
check "the nobody app maps Foundation from the directory named as bpftrace code" maps_has "$app" 'printf("INJECTED'

PATH="$WORK/fakebin:$PATH" timeout 90 "$TOP" --foundation --pid "$app" --batch --json -n 40 -d 1s --view names \
    >"$WORK/live1.jsonl" 2>"$WORK/live1.err" &
top=$!
program=""
for _ in $(seq 600); do
    for bt in $(pgrep -x bpftrace); do
        grep -qF "pid == $app/" "/proc/$bt/cmdline" 2>/dev/null && program=$(tr '\0' '\n' < "/proc/$bt/cmdline")
    done
    [ -n "$program" ] && break
    sleep 0.1
done
printf '%s\n' "$program" > "$WORK/program.txt"
check "bpftrace runs from a fixed place, its program names Foundation by /proc/$app/map_files only" \
    sh -c "head -n 1 '$WORK/program.txt' | grep -Eq '^/usr/(s)?bin/bpftrace$' &&
        grep -Eq 'uprobe:/proc/$app/map_files/[0-9a-f]+-[0-9a-f]+:' '$WORK/program.txt' &&
        ! grep -qE 'INJECTED|$WORK' '$WORK/program.txt'"
wait_until 60 grep -q '"view"' "$WORK/live1.jsonl" || { echo "e2e: no frame:"; cat "$WORK/live1.err"; }
touch "$WORK/go"
wait_until 60 grep -q '^live' "$WORK/app1.out"
sleep 2
read -r _ _ cart_posts _ _ < <(grep -m1 '^posts' "$WORK/app1.out")
kill "$app" 2>/dev/null
wait "$top" 2>/dev/null
rm -f "$WORK/go"
tail -n 1 "$WORK/live1.jsonl" > "$WORK/frame1.json"
check "the real probes counted the nobody app's $cart_posts CartDidChange posts, no foreign line" \
    sh -c "[ \"\$(jq -r '.rows[] | select(.name == \"CartDidChange\") | .posts' '$WORK/frame1.json')\" = '$cart_posts' ] &&
        ! grep -q INJECTED '$WORK/live1.jsonl'"
check "the fake bpftrace and llvm-symbolizer first on PATH never ran" \
    sh -c "! ls '$WORK'/fake-*-ran >/dev/null 2>&1"

# 2. Foundation mapped from a path with a newline; the literal \012 path holds a FIFO, or a link
#    to /dev/zero.
for kind in fifo zero; do
    real="$WORK/lib-$kind"$'\n'"x"
    planted="$WORK/lib-$kind\\012x"
    mkdir -p "$real" "$planted"
    cp "$ESSENTIALS" "$real/"
    if [ "$kind" = fifo ]; then mkfifo "$planted/libFoundationEssentials.so"; else ln -s /dev/zero "$planted/libFoundationEssentials.so"; fi
    chmod -R a+rX "$WORK"
    start_as_nobody "$real" "$WORK/app-$kind.out" 10
done
fifo_app=${apps[-2]}
zero_app=${apps[-1]}
planted_in_maps() { maps_has "$fifo_app" 'lib-fifo\012x/' && maps_has "$zero_app" 'lib-zero\012x/'; }
check "the maps file writes the newline as \\012, where the FIFO and the /dev/zero link are planted" planted_in_maps
"${T[@]}" new-session -d -s e2e -x 150 -y 40 \
    "env TERM=tmux-256color LANG=C.UTF-8 '$TOP' --foundation -d 300ms; echo EXITED=\$?; sleep 600"
both_rows() { on_screen "^ +$fifo_app +app .*symbols present" && on_screen "^ +$zero_app +app .*symbols present"; }
check "the overview draws both planted apps' rows within 10 s, attachable through their mappings" wait_until 10 both_rows
"${T[@]}" send-keys -t e2e q
check "q quits the overview within 5 s" wait_until 5 on_screen "EXITED=0"
"${T[@]}" kill-server 2>/dev/null
timeout 60 "$TOP" --foundation --pid "$fifo_app" --batch --json -n 1 >"$WORK/fifo.json" 2>"$WORK/fifo.err"
status=$?
check "--pid on the FIFO app attaches through its mapping (exit 0, within the deadline)" \
    sh -c "[ $status = 0 ] && grep -q '\"view\"' '$WORK/fifo.json'"
kill "$fifo_app" "$zero_app" 2>/dev/null

# 3. An app that execs itself: the view ends with the reason; the new run's posts are not its.
start_as_nobody /nonexistent "$WORK/app-exec.out" 50 exec
exec_app=${apps[-1]}
timeout 90 "$TOP" --foundation --pid "$exec_app" --batch --json -n 60 -d 1s --view names \
    --record "$WORK/exec.jsonl" >"$WORK/exec-live.jsonl" 2>"$WORK/exec.err" &
top=$!
wait_until 60 grep -q '"k":"header"' "$WORK/exec.jsonl" 2>/dev/null || { echo "e2e: no header:"; cat "$WORK/exec.err"; }
touch "$WORK/go"
twice_live() { [ "$(grep -c '^live' "$WORK/app-exec.out")" = 2 ]; }
wait_until 60 twice_live
wait_until 20 sh -c "! kill -0 $top 2>/dev/null"
kill "$top" 2>/dev/null
rm -f "$WORK/go"
read -r _ _ first_posts _ _ < <(grep -m1 '^posts' "$WORK/app-exec.out")
check "the exec ends the view, saying so (process $exec_app exec'd …)" \
    grep -q "\"reason\":\"process-exec: process $exec_app exec'd /" "$WORK/exec.jsonl"
check "only the first run's $first_posts CartDidChange posts are counted, not the new program's" \
    test "$(jq -s '[.[] | select(.k == "post" and .name == "CartDidChange")] | length' "$WORK/exec.jsonl")" = "$first_posts"

echo
echo "foundation hostile e2e: $passed passed, $failed failed"
[ "$failed" = 0 ]
