#!/usr/bin/env bash
# Makes real PNG screenshots of each notifytop view running against the demo: notifytop runs in
# tmux, a real xterm under Xvfb attaches to it, tmux send-keys switches
# views, and ImageMagick's `import` captures the xterm window.
#
# Usage: Screenshots/make-screenshots.sh             (builds notifytop and notify-demo first)
#        BIN_DIR=.build/debug Screenshots/make-screenshots.sh
# Output: Screenshots/<n>-<view>.png, overwritten each run. Not part of CI pass/fail.
set -euo pipefail
cd "$(dirname "$0")/.."
OUT=Screenshots
SCRATCH=${SCRATCH:-.build}
COLS=${COLS:-120}
ROWS=${ROWS:-34}

need=()
command -v xvfb-run >/dev/null || need+=(xvfb)
command -v xterm >/dev/null || need+=(xterm)
[ -x /usr/bin/import ] || need+=(imagemagick)
command -v xwininfo >/dev/null || need+=(x11-utils)
command -v tmux >/dev/null || need+=(tmux)
fc-list | grep -qi "DejaVu Sans Mono" || need+=(fonts-dejavu-core)
fc-list | grep -qi "Noto Sans Mono CJK" || need+=(fonts-noto-cjk)
if [ ${#need[@]} -gt 0 ]; then
    echo "screenshots: installing ${need[*]}"
    SUDO=""; [ "$(id -u)" = 0 ] || SUDO=sudo
    $SUDO apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
fi

if [ -z "${BIN_DIR:-}" ]; then
    swift build --scratch-path "$SCRATCH" --product notify-demo >/dev/null
    swift build --scratch-path "$SCRATCH" --product notifytop >/dev/null
    BIN_DIR=$(swift build --scratch-path "$SCRATCH" --show-bin-path)
fi
TOP="$(cd "$BIN_DIR" && pwd)/notifytop"

SOCK="notifytop-shots-$$"
T=(tmux -L "$SOCK" -f /dev/null)
cleanup() { "${T[@]}" kill-server 2>/dev/null || true; }
trap cleanup EXIT

"${T[@]}" new-session -d -s shots -x "$COLS" -y "$ROWS" \
    "env TERM=tmux-256color LANG=C.UTF-8 '$TOP' --demo -d 250ms --scenario leaky --seed 7"
"${T[@]}" set -t shots status off
"${T[@]}" set -g window-size latest

wait_for() {  # wait_for REGEX: poll the pane until it shows REGEX (10 s at most).
    for _ in $(seq 100); do
        "${T[@]}" capture-pane -t shots -p | grep -Eq -- "$1" && return 0
        sleep 0.1
    done
    echo "screenshots: timed out waiting for /$1/" >&2
    return 1
}

SHOOT=$(mktemp)
cat > "$SHOOT" <<INNER
#!/usr/bin/env bash
set -e
xterm -tn xterm-256color -geometry ${COLS}x${ROWS}+0+0 -fa 'DejaVu Sans Mono' -fs 11 -fd 'Noto Sans Mono CJK SC' \
      -bg '#1c1c1c' -fg grey90 -u8 -title notifytop-shot -e ${T[*]} attach -t shots &
for _ in \$(seq 50); do xwininfo -name notifytop-shot >/dev/null 2>&1 && break; sleep 0.1; done
sleep 1
shot() {  # shot FILE KEYS REGEX
    [ -n "\$2" ] && ${T[*]} send-keys -t shots \$2
    for _ in \$(seq 100); do ${T[*]} capture-pane -t shots -p | grep -Eq -- "\$3" && break; sleep 0.1; done
    sleep 0.8
    import -window "\$(xwininfo -name notifytop-shot | awk '/Window id/ {print \$4}')" "$OUT/\$1"
    echo "screenshots: $OUT/\$1"
}
sleep 3
shot 1-names.png "1" "^Names"
shot 2-observers.png "2" "^Observers"
shot 3-threads.png "3" "POSTED ON"
shot 3-threads-lanes.png "t" "layout: lanes"
shot 4-leaks.png "4" "R[0-9]+ [A-Z_]+"
shot 4-leak-detail.png "Enter" "^Fix"
shot 5-events.png "Escape 5" "^Events"
shot 6-drill-down.png "1 Enter" "^Names › "
shot 7-help.png "?" "Any key closes"
shot 8-filter.png "x Escape 1 / posts>20 Enter" "Filter: posts>20"
shot 9-palette.png "Escape : sort Tab" ":sort"
shot 10-log.png "Escape 6" "^Log"
shot 11-light-theme.png ": theme Space light Enter 2" "^Observers"
${T[*]} send-keys -t shots q
# View 0: the overview of several processes, in a second session (its own socket directory).
xterm -tn xterm-256color -geometry ${COLS}x${ROWS}+0+0 -fa 'DejaVu Sans Mono' -fs 11 -fd 'Noto Sans Mono CJK SC' \
      -bg '#1c1c1c' -fg grey90 -u8 -title notifytop-overview -e ${T[*]} attach -t overview &
for _ in \$(seq 50); do xwininfo -name notifytop-overview >/dev/null 2>&1 && break; sleep 0.1; done
sleep 4
import -window "\$(xwininfo -name notifytop-overview | awk '/Window id/ {print \$4}')" "$OUT/0-overview.png"
echo "screenshots: $OUT/0-overview.png"
${T[*]} send-keys -t overview q
# Issue-hunting panes: a demo with its silent bugs planted, in a third session.
attach_shots() {  # attach_shots SESSION TITLE: a new xterm on another tmux session
    xterm -tn xterm-256color -geometry ${COLS}x${ROWS}+0+0 -fa 'DejaVu Sans Mono' -fs 11 -fd 'Noto Sans Mono CJK SC' \
          -bg '#1c1c1c' -fg grey90 -u8 -title "\$2" -e ${T[*]} attach -t "\$1" &
    for _ in \$(seq 50); do xwininfo -name "\$2" >/dev/null 2>&1 && break; sleep 0.1; done
    sleep 1
}
shot_in() {  # shot_in SESSION TITLE FILE KEYS REGEX
    [ -n "\$4" ] && ${T[*]} send-keys -t "\$1" \$4
    for _ in \$(seq 100); do ${T[*]} capture-pane -t "\$1" -p | grep -Eq -- "\$5" && break; sleep 0.1; done
    sleep 0.8
    import -window "\$(xwininfo -name "\$2" | awk '/Window id/ {print \$4}')" "$OUT/\$3"
    echo "screenshots: $OUT/\$3"
}
attach_shots why notifytop-why
shot_in why notifytop-why 12-explain.png "2 / SubscriptionDidRenew Enter x" "object-dead"
shot_in why notifytop-why 16-other-center.png "Escape Escape 2 / SettingsDidChange Enter x" "the post went to center"
shot_in why notifytop-why 13-cascade.png "Escape Escape 5 / MessageDidArrive Space post Enter p Up Up Up Up Up Up c" "hopped from"
shot_in why notifytop-why 14-leak-effects.png "Escape Escape Escape 4 / R5 Enter x" "› "
${T[*]} send-keys -t why q
if [ -n "\${FOUNDATION_DIR:-}" ]; then  # the app starts now: it lives 30 s after its posts
    "\$FOUNDATION_DIR/app" "\$FOUNDATION_DIR/go" 300 > "\$FOUNDATION_DIR/app.out" &
    for _ in \$(seq 100); do grep -q '^pid' "\$FOUNDATION_DIR/app.out" && break; sleep 0.1; done
    ${T[*]} new-session -d -s foundation -x ${COLS} -y ${ROWS} \
        "env TERM=tmux-256color LANG=C.UTF-8 '$TOP' --foundation --pid \$(awk '/^pid/ {print \$2}' "\$FOUNDATION_DIR/app.out") -d 250ms"
    ${T[*]} set -t foundation status off
    for _ in \$(seq 300); do ${T[*]} capture-pane -t foundation -p | grep -q "Names" && break; sleep 0.1; done
    sleep 1 && touch "\$FOUNDATION_DIR/go"
    for _ in \$(seq 300); do grep -q '^live' "\$FOUNDATION_DIR/app.out" && break; sleep 0.1; done
    attach_shots foundation notifytop-foundation
    shot_in foundation notifytop-foundation 15-foundation.png "2" "^Observers"
    ${T[*]} send-keys -t foundation q
    rm -f "\$FOUNDATION_DIR/go"
fi
INNER
chmod +x "$SHOOT"
RUN=$(mktemp -d) && chmod 700 "$RUN"
demos=()
for spec in "steady 7" "leaky 8" "quiet 9"; do
    set -- $spec
    XDG_RUNTIME_DIR="$RUN" NOTIFYTOP=1 "$BIN_DIR/notify-demo" --scenario "$1" --seed "$2" --duration 120 >/dev/null 2>&1 &
    demos+=($!)
done
trap 'cleanup; kill "${demos[@]}" 2>/dev/null || true; rm -rf "$RUN"' EXIT
sleep 1
"${T[@]}" new-session -d -s overview -x "$COLS" -y "$ROWS" \
    "env TERM=tmux-256color LANG=C.UTF-8 XDG_RUNTIME_DIR='$RUN' '$TOP' -d 500ms"
"${T[@]}" set -t overview status off
wait_for "LIVE"
"${T[@]}" new-session -d -s why -x "$COLS" -y "$ROWS" \
    "env TERM=tmux-256color LANG=C.UTF-8 '$TOP' --demo --silent-bugs --seed 7 -d 250ms"
"${T[@]}" set -t why status off
# An unmodified Foundation app under --foundation (root, bpftrace and swiftc needed; else skipped).
if [ "$(id -u)" = 0 ] && command -v bpftrace >/dev/null && command -v swiftc >/dev/null &&
    swiftc -g Tests/e2e/foundation-app.swift -o "$RUN/app" >/dev/null 2>&1; then
    export FOUNDATION_DIR="$RUN"
else
    echo "screenshots: 15-foundation.png skipped (needs root, bpftrace and swiftc)"
fi
xvfb-run -a -s "-screen 0 1600x1000x24" "$SHOOT"
rm -f "$SHOOT"
