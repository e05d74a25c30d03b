#!/usr/bin/env bash
# A remote host that lies: a fake `ssh` first on PATH answers notifytop --ssh with an endless
# listing, impossible uptimes (NaN, inf, negative, 1e300), endless garbage for a stream, and a
# stream of a header and then only undecodable lines (its overview row counts them, in JSON and,
# in tmux, on screen).
# notifytop must end each time with a one-line answer or a reported skip, never crash, hang or
# grow without bound. Bounded: about 30 s.
#
# Usage: BIN_DIR=.build/debug Tests/e2e/hostile-ssh.sh
set -uo pipefail
cd "$(dirname "$0")/../.."
BIN_DIR=${BIN_DIR:-.build/debug}
TOP="$(cd "$BIN_DIR" && pwd)/notifytop"
[ -x "$TOP" ] || { echo "hostile-ssh: notifytop missing in $BIN_DIR"; exit 1; }
command -v python3 >/dev/null || { echo "hostile-ssh: python3 is needed"; exit 1; }

WORK=$(mktemp -d "${TMPDIR:-/tmp}/notifytop-hostile-ssh.XXXXXX")
trap 'rm -rf "$WORK"' EXIT
passed=0
failed=0
check() {  # check NAME COMMAND...
    local name=$1; shift
    if "$@"; then passed=$((passed + 1)); echo "ok   $name"; else failed=$((failed + 1)); echo "FAIL $name"; fi
}

# fake_ssh MODE: what the "remote host" answers; the last argument is the remote command line.
fake_ssh() {
    mkdir -p "$WORK/$1"
    cat > "$WORK/$1/ssh" <<SH
#!/bin/sh
for last; do :; done
case "\$last" in
*--list*)
    case "$1" in
    endless-listing) exec yes '42	1	shop	/run/x/42.sock' ;;
    *) printf 'notifytop-relay\t1\t/run/x\n42\tNaN\tshop\t/run/x/42.sock\n43\t-5\tcart\t/run/x/43.sock\n44\t1e300\tbig\t/run/x/44.sock\n45\tinf\tinf\t/run/x/45.sock\n' ;;
    esac ;;
*)
    case "$1" in
    garbage-lines) printf '{"k":"header","format":"notifytop-trace","version":"1.5","pid":42,"process":"shop","center":"c","clockMono":1000000000,"clockWall":1732243200000000000,"producer":"x"}\n'; exec yes 'not a trace line' ;;
    endless-line) printf '{"k":"header","format":"notifytop-trace","version":"1.3","pid":42,"process":"shop","center":"c","clockMono":1000000000,"clockWall":1732243200000000000,"producer":"x"}\n{"k":"tick","seq":1,"t":1000000001}\n'; exec tr -d '\n' < /dev/zero ;;
    *) exec cat /dev/urandom ;;
    esac ;;
esac
SH
    chmod +x "$WORK/$1/ssh"
}

# run_bounded NAME SECONDS COMMAND...: runs it with a deadline; writes its output, status and
# peak memory (KiB) to $WORK/NAME.{out,err,status,rss}.
run_bounded() {
    local name=$1 seconds=$2; shift 2
    python3 - "$WORK/$name" "$seconds" "$@" <<'PY'
import resource, subprocess, sys
base, seconds, argv = sys.argv[1], float(sys.argv[2]), sys.argv[3:]
with open(base + ".out", "wb") as out, open(base + ".err", "wb") as err:
    try:
        status = subprocess.run(argv, stdout=out, stderr=err, stdin=subprocess.DEVNULL, timeout=seconds).returncode
    except subprocess.TimeoutExpired:
        status = "timeout"
open(base + ".status", "w").write(str(status))
open(base + ".rss", "w").write(str(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss))
PY
}
status() { cat "$WORK/$1.status"; }
one_line() { [ "$(wc -l < "$WORK/$1.err")" -eq 1 ]; }
rss_below() { [ "$(cat "$WORK/$1.rss")" -lt "$2" ]; }

fake_ssh endless-listing
run_bounded endless 30 env PATH="$WORK/endless-listing:$PATH" "$TOP" --ssh h --list
echo "endless listing: status $(status endless), peak $(cat "$WORK/endless.rss") KiB, stderr: $(head -c 300 "$WORK/endless.err")"
check "an endless listing ends with status 1" test "$(status endless)" = 1
check "an endless listing is a one-line error" one_line endless
check "an endless listing is stopped before 200 MiB" rss_below endless 204800

fake_ssh lies
run_bounded list 30 env PATH="$WORK/lies:$PATH" "$TOP" --ssh h --list
check "impossible uptimes list with status 0" test "$(status list)" = 0
check "impossible uptimes list as unknown" test "$(grep -c '  ?  ' "$WORK/list.out")" = 4
run_bounded json 30 env PATH="$WORK/lies:$PATH" "$TOP" --ssh h --json -n 1
check "the overview of garbage streams prints JSON" grep -q '"processes":\[' "$WORK/json.out"
check "no process with garbage is shown as a live stream" \
    python3 -c 'import json,sys; f=json.load(open(sys.argv[1])); sys.exit(0 if all(p.get("ended") for p in f["processes"]) else 1)' "$WORK/json.out"
run_bounded attach 30 env PATH="$WORK/lies:$PATH" "$TOP" --ssh h --pid 42 --json -n 1
check "attaching to a garbage stream ends" test "$(status attach)" != timeout
check "attaching to a garbage stream says it is not a trace" grep -q 'not a notifytop trace' "$WORK/attach.out"

fake_ssh endless-line
run_bounded line 40 env PATH="$WORK/endless-line:$PATH" "$TOP" --ssh h --pid 42 --json -n 4 --delay 1s --no-reattach
echo "endless line: status $(status line), peak $(cat "$WORK/line.rss") KiB, out: $(head -c 300 "$WORK/line.out")"
check "an endless line ends" test "$(status line)" != timeout
check "an endless line is reported as one" grep -q 'no line end in 16777216 bytes' "$WORK/line.out"
check "an endless line is not held whole in memory (under 300 MiB)" rss_below line 307200

fake_ssh garbage-lines
run_bounded skipped 30 env PATH="$WORK/garbage-lines:$PATH" "$TOP" --ssh h --json -n 2 --delay 1s
check "a stream of undecodable lines shows its skipped count in the overview's JSON" \
    python3 -c 'import json,sys; f=json.loads(open(sys.argv[1]).read().splitlines()[-1]); sys.exit(0 if f["processes"] and all(p.get("skipped_lines", 0) > 0 for p in f["processes"]) else 1)' "$WORK/skipped.out"
if command -v tmux >/dev/null; then
    T=(tmux -L "notifytop-hostile-$$" -f /dev/null)
    "${T[@]}" new-session -d -s e2e -x 160 -y 20 "env PATH='$WORK/garbage-lines:$PATH' '$TOP' --ssh h"
    shown=1
    for _ in $(seq 1 150); do
        if "${T[@]}" capture-pane -t e2e -p | grep -Eq 'undecodable: [0-9]+ lines skipped'; then shown=0; break; fi
        sleep 0.1
    done
    "${T[@]}" capture-pane -t e2e -p > "$WORK/screen.txt"
    "${T[@]}" kill-server 2>/dev/null
    check "on screen, a stream of undecodable lines says so with its count, never live" test "$shown" = 0
    [ "$shown" = 0 ] || sed 's/^/    | /' "$WORK/screen.txt"
fi

echo "hostile-ssh: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
