#!/usr/bin/env bash
# Hostile viewers against a real app: the demo runs with `ulimit -n 64` while 300 clients connect
# to its socket and never read. The app must stay alive and cheap (no accept loop spinning on
# EMFILE), refuse the extras with a line, and a real notifytop must still attach once the flood
# is gone. Bounded: about 20 s.
#
# Usage: BIN_DIR=.build/debug Tests/e2e/hostile-viewers.sh
set -uo pipefail
cd "$(dirname "$0")/../.."
BIN_DIR=${BIN_DIR:-.build/debug}
DEMO="$BIN_DIR/notify-demo"
TOP="$BIN_DIR/notifytop"
[ -x "$DEMO" ] && [ -x "$TOP" ] || { echo "hostile: binaries missing in $BIN_DIR"; exit 1; }
command -v python3 >/dev/null || { echo "hostile: python3 is needed"; exit 1; }

WORK=$(mktemp -d "${TMPDIR:-/tmp}/notifytop-hostile.XXXXXX")
export XDG_RUNTIME_DIR="$WORK/run"
mkdir -m 700 "$XDG_RUNTIME_DIR"
passed=0
failed=0
check() {  # check NAME COMMAND...
    local name=$1; shift
    if "$@"; then passed=$((passed + 1)); echo "ok   $name"; else failed=$((failed + 1)); echo "FAIL $name"; fi
}
demo_pid=""
cleanup() {
    [ -n "$demo_pid" ] && kill "$demo_pid" 2>/dev/null
    rm -rf "$WORK"
}
trap cleanup EXIT

(ulimit -n 64; exec env NOTIFYTOP=1 "$DEMO" --scenario steady --seed 5 --duration 60 > "$WORK/demo.out" 2>&1) &
demo_pid=$!
sock="$XDG_RUNTIME_DIR/notifytop/$demo_pid.sock"
for _ in $(seq 100); do [ -S "$sock" ] && break; sleep 0.1; done
check "the demo publishes its socket" test -S "$sock"

# 300 clients connect and never read; they hold their sockets for 8 s, then close.
python3 - "$sock" "$WORK/flood.txt" <<'PY' &
import socket, sys, time
path, out = sys.argv[1], sys.argv[2]
held, refused = [], 0
for _ in range(300):
    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    s.settimeout(2)
    try:
        s.connect(path)
        held.append(s)
    except OSError:
        refused += 1
        s.close()
time.sleep(8)
for s in held:
    s.close()
open(out, "w").write(f"{len(held)} {refused}\n")
PY
flood=$!
sleep 2
ticks() { awk '{print $14 + $15}' "/proc/$demo_pid/stat"; }
before=$(ticks); sleep 4; after=$(ticks)
hz=$(getconf CLK_TCK)
cpu=$(( (after - before) * 100 / hz / 4 ))
echo "     demo CPU during the flood: ${cpu}% of a core"
check "the app does not spin while descriptors run out (< 50% of a core)" test "$cpu" -lt 50
check "the app is alive during the flood" kill -0 "$demo_pid"
rss=$(awk '/VmRSS/ {print int($2 / 1024)}' "/proc/$demo_pid/status")
echo "     demo memory during the flood: ${rss} MiB resident"
# Viewers together may queue at most 64 MiB (NOTIFYTOP_TOTAL_BUFFER_BYTES' default).
check "what viewers cost the app stays bounded (< 256 MiB resident)" test "$rss" -lt 256
wait "$flood"
check "the flood ended" test -s "$WORK/flood.txt"
sleep 1
check "a real notifytop attaches after the flood and reads the demo" \
    sh -c "timeout 20 '$TOP' --pid $demo_pid --batch -n 1 -d 2s --view names > '$WORK/top.txt' 2>&1 && grep -q CartDidChange '$WORK/top.txt'"
check "the app is still alive" kill -0 "$demo_pid"
echo "hostile viewers: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
