#!/usr/bin/env bash
# End-to-end test of `notifytop --ssh` against a real OpenSSH server: sshd runs on a loopback port
# with its own host key and a key made for the test (all in a temp dir, stopped on exit), and
# notify-demo runs locally, so loopback is the "remote" host. It checks that --list and --batch
# --json over ssh give what a local attach gives, that a recording over ssh replays, that the
# dashboard in tmux shows the demo's names, records with r, attaches again to a restarted demo and
# quits leaving no ssh behind, and the one-line errors: a closed port, a refused key, a missing
# remote notifytop, no inspectable process.
#
# Usage: BIN_DIR=.build/debug Tests/e2e/ssh-e2e.sh   (binaries already built; else builds them)
# Env:   KEEP=1 keeps the temp dir.
set -uo pipefail
cd "$(dirname "$0")/../.."

if [ -z "${BIN_DIR:-}" ]; then
    swift build --product notify-demo >/dev/null || { echo "ssh-e2e: build of notify-demo failed"; exit 1; }
    swift build --product notifytop >/dev/null || { echo "ssh-e2e: build of notifytop failed"; exit 1; }
    BIN_DIR=$(swift build --show-bin-path)
fi
TOP="$(cd "$BIN_DIR" && pwd)/notifytop"
DEMO="$(cd "$BIN_DIR" && pwd)/notify-demo"
[ -x "$TOP" ] && [ -x "$DEMO" ] || { echo "ssh-e2e: binaries missing in $BIN_DIR"; exit 1; }
for tool in /usr/sbin/sshd ssh ssh-keygen tmux jq; do
    command -v "$tool" >/dev/null || { echo "ssh-e2e: $tool is not installed (run .ci/setup)"; exit 1; }
done

WORK=$(mktemp -d "${TMPDIR:-/tmp}/notifytop-ssh.XXXXXX")
TMUX_SOCK="notifytop-ssh-$$"
T=(tmux -L "$TMUX_SOCK" -f /dev/null)
passed=0
failed=0
sshd_pid=""
demo_pid=""
cleanup() {
    "${T[@]}" kill-server 2>/dev/null
    [ -n "$demo_pid" ] && kill "$demo_pid" 2>/dev/null
    [ -n "$sshd_pid" ] && kill "$sshd_pid" 2>/dev/null && wait "$sshd_pid" 2>/dev/null
    [ "${KEEP:-0}" = 1 ] && echo "ssh-e2e: kept $WORK" || rm -rf "$WORK"
}
trap cleanup EXIT
trap 'exit 1' INT TERM

ok() { passed=$((passed + 1)); echo "ok   $1"; }
fail() { failed=$((failed + 1)); echo "FAIL $1"; }
check() {  # check NAME COMMAND...: passes when the command succeeds.
    local name=$1; shift
    if "$@"; then ok "$name"; else fail "$name"; fi
}

# Keys: the server's host key, the test's login key, and a key the server does not know.
ssh-keygen -q -t ed25519 -N '' -C host -f "$WORK/host_key" || exit 1
ssh-keygen -q -t ed25519 -N '' -C user -f "$WORK/user_key" || exit 1
ssh-keygen -q -t ed25519 -N '' -C stranger -f "$WORK/stranger_key" || exit 1
cp "$WORK/user_key.pub" "$WORK/authorized_keys"
mkdir -m 700 "$WORK/run"
[ "$(id -u)" = 0 ] && mkdir -p /run/sshd  # sshd's privilege separation directory, when run as root

# The remote session finds the demo's socket directory through XDG_RUNTIME_DIR, set by sshd.
cat > "$WORK/sshd_config" <<EOF
ListenAddress 127.0.0.1
HostKey $WORK/host_key
AuthorizedKeysFile $WORK/authorized_keys
PidFile none
UsePAM no
StrictModes no
PasswordAuthentication no
KbdInteractiveAuthentication no
PermitRootLogin prohibit-password
SetEnv XDG_RUNTIME_DIR=$WORK/run
LogLevel ERROR
EOF
for _ in 1 2 3 4 5; do
    port=$((20000 + RANDOM % 40000))
    /usr/sbin/sshd -D -e -f "$WORK/sshd_config" -p "$port" 2>>"$WORK/sshd.log" &
    sshd_pid=$!
    for _ in $(seq 50); do
        kill -0 "$sshd_pid" 2>/dev/null || break
        (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null && break 2
        sleep 0.1
    done
    wait "$sshd_pid" 2>/dev/null
    sshd_pid=""
done
[ -n "$sshd_pid" ] || { echo "ssh-e2e: sshd did not start:"; sed 's/^/    | /' "$WORK/sshd.log"; exit 1; }
echo "     sshd on 127.0.0.1:$port"
echo "[127.0.0.1]:$port $(cut -d' ' -f1,2 "$WORK/host_key.pub")" > "$WORK/known_hosts"

cat > "$WORK/ssh_config" <<EOF
Host stage
    HostName 127.0.0.1
    Port $port
Host stranger
    HostName 127.0.0.1
    Port $port
    IdentityFile $WORK/stranger_key
Host * !stranger
    IdentityFile $WORK/user_key
Host *
    User $(id -un)
    IdentitiesOnly yes
    IdentityAgent none
    UserKnownHostsFile $WORK/known_hosts
    GlobalKnownHostsFile /dev/null
    StrictHostKeyChecking yes
EOF
SSH=(--ssh-config "$WORK/ssh_config" --remote-notifytop "$TOP")

# one_line NAME PATTERN COMMAND...: exits 1 with exactly one stderr line matching PATTERN, in time.
one_line() {
    local name=$1 pattern=$2; shift 2
    timeout 30 "$@" > "$WORK/out.txt" 2> "$WORK/err.txt"
    local status=$?
    if [ "$status" = 1 ] && [ "$(wc -l < "$WORK/err.txt")" = 1 ] && grep -Eq -- "$pattern" "$WORK/err.txt"; then
        ok "$name: $(cat "$WORK/err.txt")"
    else
        fail "$name (status $status, stderr:)"; sed 's/^/    | /' "$WORK/err.txt"
    fi
}

one_line "--pid with no inspectable process on the host is one line" 'no inspectable process in .* on stage' \
    "$TOP" --ssh stage "${SSH[@]}" --pid 4242 --batch
timeout 30 "$TOP" --ssh stage "${SSH[@]}" --batch --size 150x20 > "$WORK/empty.txt" 2> "$WORK/err.txt"
status=$?
check "--ssh with no target and no process: the empty overview, status 0 (got $status)" \
    sh -c "[ '$status' = 0 ] && grep -q '0 Processes (0)' '$WORK/empty.txt' && grep -q 'NOTIFYTOP=1' '$WORK/empty.txt'"

# A slow, steady demo: what a fresh viewer is sent (the snapshot of registrations) stays the same.
start_demo() {
    (exec env XDG_RUNTIME_DIR="$WORK/run" NOTIFYTOP=1 "$DEMO" --scenario quiet --rate 0.01 --duration 120 \
        >> "$WORK/demo.out" 2>&1) &
    demo_pid=$!
    for _ in $(seq 150); do [ -S "$WORK/run/notifytop/$demo_pid.sock" ] && break; sleep 0.1; done
}
start_demo
check "the demo publishes its socket" test -S "$WORK/run/notifytop/$demo_pid.sock"

started=$(date +%s%N)
timeout 30 "$TOP" --ssh stage "${SSH[@]}" --list > "$WORK/list.txt" 2>&1
echo "     --list over ssh took $(( ($(date +%s%N) - started) / 1000000 )) ms (login included)"
check "--list over ssh names the demo's pid" grep -Eq "^ +$demo_pid +" "$WORK/list.txt"

# --batch --json over ssh and locally: the same figures (all but the clock, ages and line count).
# The demo's startup threads end in its first seconds, so the ssh frame, taken between two local
# ones, must equal one of them.
figures() { jq -S -c '{summary: (.summary | del(.events)), views: (.views | walk(if type == "object" then del(.age_ns) else . end))}' "$1"; }
local_json() {
    env XDG_RUNTIME_DIR="$WORK/run" timeout 30 "$TOP" --pid "$demo_pid" --batch --json -d 1s --view names,observers \
        > "$WORK/$1" 2>> "$WORK/local.err"
}
local_json local-before.json
timeout 30 "$TOP" --ssh stage "${SSH[@]}" --pid "$demo_pid" --batch --json -d 1s --view names,observers \
    > "$WORK/remote.json" 2> "$WORK/remote.err"
local_json local-after.json
check "--batch --json over ssh shows the demo's registrations" \
    sh -c "jq -e '.summary.observers > 0 and .summary.names > 0' '$WORK/remote.json' > /dev/null"
if [ "$(figures "$WORK/remote.json")" = "$(figures "$WORK/local-before.json")" ] \
    || [ "$(figures "$WORK/remote.json")" = "$(figures "$WORK/local-after.json")" ]; then
    ok "--batch --json figures over ssh equal a local attach's"
else
    fail "--batch --json figures over ssh equal a local attach's:"
    diff <(figures "$WORK/local-after.json" | jq .) <(figures "$WORK/remote.json" | jq .) | head -20 | sed 's/^/    | /'
    sed 's/^/    | /' "$WORK/remote.err"
fi

timeout 30 "$TOP" --ssh "$(id -un)@127.0.0.1:$port" "${SSH[@]}" --pid "$demo_pid" --batch -d 1s \
    --record "$WORK/remote.ndjson" > /dev/null 2>&1
check "a recording over ssh (user@host:port) replays" \
    sh -c "'$TOP' --replay '$WORK/remote.ndjson' --batch --view names 2>/dev/null | grep -q Did"

# explain takes the dashboard's targets, --ssh included: it attaches there, folds 1 s and answers.
timeout 30 "$TOP" explain --ssh stage "${SSH[@]}" --pid "$demo_pid" --for 1s --name CartDidChange --json \
    > "$WORK/explain.json" 2> "$WORK/explain.err"
status=$?
check "explain --ssh HOST --pid P answers for the remote process (got $status)" \
    sh -c "[ '$status' = 0 ] && jq -e 'type == \"object\"' '$WORK/explain.json' > /dev/null"

# The dashboard in a real terminal, attached over ssh.
screen() { "${T[@]}" capture-pane -t e2e -p 2>/dev/null; }
wait_for() {  # wait_for NAME REGEX [SECONDS]
    local name=$1 pattern=$2 limit=${3:-20} waited=0
    while [ "$waited" -lt $((limit * 10)) ]; do
        if screen | grep -Eq -- "$pattern"; then ok "$name"; return 0; fi
        sleep 0.1; waited=$((waited + 1))
    done
    fail "$name: no /$pattern/ on screen after ${limit}s:"; screen | sed 's/^/    | /'
    return 1
}
"${T[@]}" new-session -d -s e2e -x 120 -y 40 \
    "cd '$WORK' && env TERM=tmux-256color LANG=C.UTF-8 '$TOP' --ssh stage ${SSH[*]} --pid $demo_pid; echo EXITED=\$?; sleep 600"
wait_for "the dashboard over ssh shows the demo's names" 'Did[A-Z][A-Za-z]+'
wait_for "the header names the host the process runs on" "pid $demo_pid on stage "
"${T[@]}" send-keys -t e2e r; wait_for "r records the remote process: [REC]" '\[REC\]'
"${T[@]}" send-keys -t e2e r; wait_for "r again writes the recording" 'recorded [0-9]+ bytes'
first_demo=$demo_pid
kill "$demo_pid"; wait "$demo_pid" 2>/dev/null
wait_for "the remote process's exit shows as ENDED, waiting for a restart" 'waiting for notify-demo'
start_demo
wait_for "a restarted process on the host is attached again" "reattached to pid $demo_pid"
"${T[@]}" send-keys -t e2e q
wait_for "q quits with status 0" 'EXITED=0' 10
gone() { ! pgrep -f -- "^ssh -F $WORK/ssh_config" > /dev/null; }
for _ in $(seq 50); do gone && break; sleep 0.1; done
check "no ssh child is left after quitting" gone
check "the r recording of the remote process replays" sh -c \
    "'$TOP' --replay \"\$(ls '$WORK'/notifytop-$first_demo-1.ndjson)\" --batch --view names 2>/dev/null | grep -q Did"

# r from the overview of the remote host: Enter attaches, r records, q ends the recording.
"${T[@]}" kill-session -t e2e 2>/dev/null
"${T[@]}" new-session -d -s e2e -x 120 -y 40 \
    "cd '$WORK' && env TERM=tmux-256color LANG=C.UTF-8 '$TOP' --ssh stage ${SSH[*]}; echo EXITED=\$?; sleep 600"
wait_for "the overview over ssh lists the demo" "^ +$demo_pid +notify-demo"
"${T[@]}" send-keys -t e2e Enter; wait_for "Enter attaches the views to the remote process" 'Did[A-Z][A-Za-z]+'
"${T[@]}" send-keys -t e2e r; wait_for "r records from the overview over ssh: [REC]" '\[REC\]'
sleep 1
"${T[@]}" send-keys -t e2e q
wait_for "q ends the recording and quits" 'EXITED=0' 10
check "the recording made from the overview ends as stopped by the user" sh -c \
    "'$TOP' --replay '$WORK/notifytop-$demo_pid-1.ndjson' --batch --view names 2>/dev/null | grep -q 'ENDED (recording stopped by the user)'"

one_line "a closed port is one line" "cannot reach 127.0.0.1:1: connection refused" \
    "$TOP" --ssh 127.0.0.1:1 "${SSH[@]}" --batch
one_line "a refused key is one line" "stranger refused the login \(permission denied\)" \
    "$TOP" --ssh stranger "${SSH[@]}" --batch
one_line "a missing remote notifytop is one line" "notifytop is not installed on stage" \
    "$TOP" --ssh stage --ssh-config "$WORK/ssh_config" --remote-notifytop /nonexistent/notifytop --batch

echo
echo "ssh-e2e: $passed passed, $failed failed"
[ "$failed" = 0 ]
