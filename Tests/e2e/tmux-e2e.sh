#!/usr/bin/env bash
# End-to-end test of notifytop in a real terminal: tmux on a private socket, TERM=tmux-256color,
# polling the screen for text instead of sleeping. It starts `notifytop --demo`, presses each view
# key and checks real demo content, pauses, filters, records, checks that a recording replays to
# the same table, and that q exits with the terminal restored and the demo child gone.
#
# Usage: Tests/e2e/tmux-e2e.sh            (builds notifytop and notify-demo first)
#        BIN_DIR=.build/debug Tests/e2e/tmux-e2e.sh   (uses binaries already built)
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

WORK=$(mktemp -d "${TMPDIR:-/tmp}/notifytop-e2e.XXXXXX")
SOCK="notifytop-e2e-$$"
T=(tmux -L "$SOCK" -f /dev/null)
passed=0
failed=0
cleanup() {
    "${T[@]}" kill-server 2>/dev/null
    [ "${KEEP:-0}" = 1 ] && echo "e2e: kept $WORK" || rm -rf "$WORK"
}
trap cleanup EXIT

screen() { "${T[@]}" capture-pane -t e2e -p 2>/dev/null; }

# wait_for NAME REGEX [SECONDS]: passes when the screen matches REGEX in time.
wait_for() {
    local name=$1 pattern=$2 limit=${3:-10} waited=0
    while [ "$waited" -lt $((limit * 10)) ]; do
        if screen | grep -Eq -- "$pattern"; then
            passed=$((passed + 1)); echo "ok   $name"; return 0
        fi
        sleep 0.1; waited=$((waited + 1))
    done
    failed=$((failed + 1)); echo "FAIL $name: no /$pattern/ on screen after ${limit}s:"; screen | sed 's/^/    | /'
    return 1
}

check() {  # check NAME COMMAND...: passes when the command succeeds.
    local name=$1; shift
    if "$@"; then passed=$((passed + 1)); echo "ok   $name"; else failed=$((failed + 1)); echo "FAIL $name"; fi
}

keys() { "${T[@]}" send-keys -t e2e "$@"; }
jqok() { jq -e "$@" >/dev/null; }

start() {  # start COMMAND: runs it in a fresh 120x40 session; the shell prints EXITED=<status> after.
    "${T[@]}" kill-session -t e2e 2>/dev/null
    "${T[@]}" new-session -d -s e2e -x 120 -y 40 \
        "cd '$PWD' && env TERM=tmux-256color LANG=C.UTF-8 $1; echo EXITED=\$?; sleep 600"
}

echo "::: live: notifytop --demo"
start "'$TOP' --demo -d 200ms --record '$WORK/live.ndjson' --scenario steady --seed 7"
wait_for "attaches to the demo: LIVE badge and names" "LIVE" 20
wait_for "names view shows demo names" "CartDidChange|MessageDidArrive"
wait_for "the header meters the slowest handler and notifytop's own CPU, each with a sparkline" \
    "slowest +[0-9.]+(ns|µs|ms|s) [▁▂▃▄▅▆▇█]+ +notifytop cpu +[0-9.]+% [▁▂▃▄▅▆▇█]+"
demo_pid=$(screen | grep -oE 'pid [0-9]+' | head -1 | cut -d' ' -f2)
keys 2; wait_for "2 shows observers with registrations" "^Observers" && wait_for "observers table has demo observers" "#[0-9]+ +(block|[A-Za-z]+@(0x|…))"
keys t; wait_for "F5/t regroups observers by observer" "group: observer"
keys O; wait_for "O folds every group to one summary row" "^▸ .* [0-9]+ registrations? "
keys O; wait_for "O again unfolds every group" "^▾ "
keys o; wait_for "o folds the selected group" "^▸ "
keys o
keys 3; wait_for "3 shows the threads log" "^Threads" && wait_for "threads log has deliveries" "POSTED ON"
keys t; wait_for "t switches to lanes" "layout: lanes"
keys m; wait_for "m drops a mark, shown in the lanes" "── mark 1 · [0-9]+\.[0-9]{3} ─" \
    && wait_for "the title line lists the mark" "^Threads  marks 1: 1 @[0-9]+\.[0-9]{3}"
keys t p m; wait_for "paused, a second mark in the merged log sits below the newest delivery" "── mark 2 · "
keys p
keys C; wait_for "C clears the log up to now" "cleared [0-9]+ \(C shows\)"
keys C; wait_for "C again shows the whole log" "^Threads  marks 2: 1 @[0-9.]+, 2 @[0-9.]+  showing the whole log again"
not_cleared() { ! screen | grep -q "cleared [0-9]"; }
check "no cleared note once the log is shown again" not_cleared
keys w; wait_for "w wraps long cells" "^Threads  marks 2: .*  wrap"
keys w
keys 4; wait_for "4 shows leaks with demo findings" "(R[0-9]+ [A-Z_]+)"
keys Enter; wait_for "Enter opens a finding's evidence and fix" "^Fix"
keys Escape; wait_for "Esc goes back to the list" "^Leaks +[0-9]+/[0-9]+$"
keys 5; wait_for "5 shows the raw event tail" "deliver +(main|worker)"
keys 1; wait_for "1 returns to names" "^Names"
keys Enter; wait_for "Enter drills into a name's observers" "^Names › [A-Za-z]+"
keys Enter; wait_for "Enter again opens one observer's deliveries" "observes \""
keys BSpace BSpace; wait_for "Backspace returns to the top" "^Names +[0-9]+/[0-9]+$"
keys p; wait_for "p pauses, counting events" "PAUSED \+[0-9]"
keys p; wait_for "p resumes" "LIVE *$"
keys / C a r t Enter; wait_for "the filter stays visible" "Filter: Cart"
only_cart() { ! screen | sed -n '7,39p' | grep -Ev 'Cart|^ *$' | grep -q .; }
check "the filter keeps only matching rows" only_cart
keys Escape
keys / 'posts>10 !~^zz' Enter; wait_for "a field query and an inverted regex filter" "Filter: posts>10 !~\^zz"
keys Escape / 'bogus>1' Enter; wait_for "a malformed filter explains itself in one line" "✗ unknown field bogus"
keys Escape
keys F3 'Did' Enter; wait_for "F3 searches and jumps to the first match" "match 1 of [0-9]+"
keys n; wait_for "n moves to the next match" "match 2 of [0-9]+"
keys Escape
keys : v i Tab; wait_for "the : palette completes with Tab" ":view _.*view names"
keys l e Tab Enter; wait_for "the palette runs view leaks" "^Leaks +[0-9]+/[0-9]+$"
keys : f r o b Enter; wait_for "an unknown command is a one-line error" "unknown command \"frob\""
keys 1 e; wait_for "e expands the table to the whole screen" "^Names  \[e restores\]"
no_footer() { ! screen | grep -q "F1Help"; }
check "the expanded table hides the footer" no_footer
keys e; wait_for "e again restores the layout" "F1Help"
keys C-s; wait_for "Ctrl-S saves every row of the view" "saved [0-9]+ rows to notifytop-names-[0-9]+\.txt"
saved_text=$(screen | grep -oE 'notifytop-names-[0-9]+\.txt' | head -1)
check "the saved text file holds the names table" grep -q "^NAME " "${saved_text:-/nonexistent}"
keys : 'export csv' Enter; wait_for ":export csv saves CSV" "saved [0-9]+ rows to notifytop-names-[0-9]+\.csv"
saved_csv=$(screen | grep -oE 'notifytop-names-[0-9]+\.csv' | head -1)
check "the CSV file has a header row" grep -q "^NAME,OBS,POSTS" "${saved_csv:-/nonexistent}"
keys C-p; wait_for "Ctrl-P dumps the screen as text and ANSI" "saved the screen to notifytop-screen-[0-9]+\.txt and"
dump=$(screen | grep -oE 'notifytop-screen-[0-9]+' | head -1)
check "the ANSI dump has colour codes" grep -q $'\e\\[' "${dump:-nonexistent}.ans"
rm -f "$saved_text" "$saved_csv" "${dump:-nonexistent}.txt" "${dump:-nonexistent}.ans"
keys 6; wait_for "6 shows notifytop's own actions: attach and stream header" "attach +attached to .*" \
    && wait_for "the action log shows the stream header" "stream +stream header: notify-demo pid" \
    && wait_for "the action log lists the saves" "export +saved the names view \([0-9]+ rows, csv\)"
keys 1 @; wait_for "@ opens the action log too" "^Log( |$)"
keys 1
keys : 'theme light' Enter; wait_for ":theme light switches the theme" "theme light"
light_paper() { "${T[@]}" capture-pane -t e2e -p -e | grep -q '48;5;231m'; }
check "the light theme paints a white background" light_paper
keys : 'theme default' Enter; wait_for ":theme default switches back" "theme default"
# Mouse: X10 reports (ESC [ M button x y, each plus 32, cells counted from 1) as a terminal sends them.
mouse() {  # mouse BUTTON X Y (0-based cells); button 0 also sends the release (3)
    local x y; x=$(printf '%03o' $(($2 + 33))); y=$(printf '%03o' $(($3 + 33)))
    keys -l "$(printf "\033[M\\$(printf '%03o' $((32 + $1)))\\$x\\$y")"
    [ "$1" = 0 ] && keys -l "$(printf "\033[M#\\$x\\$y")"
}
mouse 0 36 3; wait_for "clicking the Leaks tab shows leaks" "^Leaks( |$)"
mouse 0 2 3; wait_for "clicking the Names tab shows names" "^Names( |$)"
posts_x=$(screen | sed -n 6p | awk '{print index($0, "POSTS")}')
mouse 0 "$posts_x" 5; wait_for "clicking a column header sorts by it" "▼POSTS"
mouse 0 "$posts_x" 5; wait_for "clicking it again inverts the sort" "▲POSTS"
mouse 64 5 10; mouse 64 5 10; mouse 65 5 10
mouse 0 5 8; mouse 0 5 8; wait_for "clicking a row twice opens it" "^Names › [A-Za-z]+"
keys BSpace
keys r; wait_for "r starts recording: [REC]" "\[REC\]"
keys r; wait_for "r again stops recording" "recorded [0-9]+ bytes"
keys '?'; wait_for "? shows help generated from the key table" "any other key closes"
keys Down Down; wait_for "↓ scrolls the help" "↑ 2 more above"
keys x
"${T[@]}" resize-window -t e2e -x 80 -y 24; wait_for "resize to 80x24 redraws" "F10Quit"
"${T[@]}" resize-window -t e2e -x 30 -y 8; wait_for "a tiny terminal shows a message" "needs at least"
"${T[@]}" resize-window -t e2e -x 120 -y 40; wait_for "growing again restores the dashboard" "F1Help"
keys q; wait_for "q exits with status 0" "EXITED=0"
check "the terminal is restored (alternate screen off)" test "$("${T[@]}" display -p -t e2e '#{alternate_on}')" = 0
check "the demo child (pid ${demo_pid:-?}) is gone" bash -c "[ -n '${demo_pid:-}' ] && ! kill -0 '${demo_pid:-0}' 2>/dev/null"
check "--record wrote a trace" test -s "$WORK/live.ndjson"
check "--record's file ends with the user's stop, not cut off" \
    sh -c "tail -1 '$WORK/live.ndjson' | jq -e '.k == \"end\" and .reason == \"recording-stopped\"' >/dev/null"
runtime=$(ls notifytop-*-1.ndjson 2>/dev/null | head -1)
check "r wrote a session log" test -n "$runtime"

echo "::: replay of the recording"
start "'$TOP' --replay '$WORK/live.ndjson' -d 200ms"
wait_for "replay shows REPLAY with speed" "REPLAY ×1"
keys '}'; wait_for "} doubles the speed" "REPLAY ×2"
keys p; wait_for "p stops the replay clock" "REPLAY PAUSED"
keys .; wait_for "names are shown in replay" "CartDidChange|MessageDidArrive"
keys 5 m; wait_for "m marks the replayed event tail" "── mark 1 · "
keys ']'; wait_for "the mark stays as the replay moves on" "^Events  marks 1: 1 @"
keys q; wait_for "q exits the replay" "EXITED=0"
if [ -n "$runtime" ]; then
    "$TOP" --replay "$runtime" --batch --view observers --size 120x40 > "$WORK/runtime.txt" 2>&1
    check "the r session log replays with observers" grep -Eq "#[0-9]+ " "$WORK/runtime.txt"
    rm -f "$runtime"
fi

echo "::: a recording replays to the same table"
"$TOP" --demo --batch -n 1 -d 8s --view names --size 120x60 --record "$WORK/ended.ndjson" \
    --scenario steady --seed 3 --duration 3 > "$WORK/live.txt" 2>"$WORK/live.err"
"$TOP" --replay "$WORK/ended.ndjson" --batch --view names --size 120x60 > "$WORK/replay.txt" 2>"$WORK/replay.err"
table() { sed -n '6,58p' "$1" | sed -E 's/ +[^ ]+$//'; }   # the names table without the LAST (age) column
check "the live run ended and printed a names table" grep -q "ENDED" "$WORK/live.txt"
check "the demo's exit ended the stream cleanly (last line: end, process-exit)" \
    sh -c "tail -n 1 '$WORK/ended.ndjson' | grep -q '\"k\":\"end\".*\"reason\":\"process-exit\"'"
check "the replayed names table equals the live one" diff <(table "$WORK/live.txt") <(table "$WORK/replay.txt")

echo "::: a post made inside an AsyncMessage call names the message's post"
check "every SearchIndexDidUpdate post is a child of a DocumentSaved post, at depth 2" jqok -s '
    ([.[] | select(.k == "post" and .name == "NotifyDemo.DocumentSaved") | .postID]) as $saved
    | [.[] | select(.k == "post" and .name == "SearchIndexDidUpdate")]
    | length > 0 and all(.depth == 2 and (.parentPostID as $p | $saved | index($p)) != null)' "$WORK/ended.ndjson"
nested_seq=$(jq -r 'select(.k == "post" and .name == "SearchIndexDidUpdate") | .seq' "$WORK/ended.ndjson" | head -1)
"$TOP" explain "$WORK/ended.ndjson" --post "${nested_seq:-0}" --posted-by --json > "$WORK/posted-by.json" 2>&1
check "posted by climbs from it through the indexer's task run to DocumentSaved" jqok '
    .reached_root and ([.posted_by[] | .delivery.target // empty] == ["task"])
    and (.posted_by[-1].post.name == "NotifyDemo.DocumentSaved")' "$WORK/posted-by.json"

echo "::: replay bounds and stepping back"
start "'$TOP' --replay '$WORK/ended.ndjson' --from 1s --to 2s -d 200ms"
wait_for "--to ends the replay with ENDED" "ENDED \(reached --to 2\.0 s\)"
keys p; keys '['; wait_for "[ goes back one second from the end" "REPLAY PAUSED @1\.000s"
keys g; wait_for "g prompts for a time in the status line" "Go to time"
keys 1 . 5 s Enter; wait_for "g 1.5s Enter goes there" "REPLAY PAUSED @1\.500s"
keys ,; wait_for ", goes back one event" "REPLAY PAUSED @1\.4[0-9]{2}s"
keys q; wait_for "q exits the bounded replay" "EXITED=0"
"$TOP" --replay "$WORK/ended.ndjson" --json --to 1s | jq -c .summary > "$WORK/to1.json"
"$TOP" --replay "$WORK/ended.ndjson" --json --to 2s | jq -c .summary > "$WORK/to2.json"
check "--to bounds a batch replay (fewer posts by 1s than by 2s)" \
    sh -c "[ \$(jq .posts '$WORK/to1.json') -lt \$(jq .posts '$WORK/to2.json') ]"

echo "::: automatic reattach (private socket directory, so other demos on this machine don't count)"
mkdir -p "$WORK/run" && chmod 700 "$WORK/run"
demo_bg() {  # demo_bg SECONDS SEED: starts notify-demo inspectable in $WORK/run; prints its pid.
    XDG_RUNTIME_DIR="$WORK/run" NOTIFYTOP=1 "$BIN_DIR/notify-demo" --duration "$1" --seed "$2" \
        > "$WORK/demo-$2.log" 2>&1 &
    echo $!
}
first=$(demo_bg 3 11)
for _ in $(seq 50); do [ -S "$WORK/run/notifytop/$first.sock" ] && break; sleep 0.1; done
start "XDG_RUNTIME_DIR='$WORK/run' '$TOP' --pid $first -d 200ms"
wait_for "attached to the process (--pid)" "pid $first .*LIVE"
wait_for "its exit keeps the screen and waits for a restart" "waiting for notify-demo to restart" 15
check "the last state stays on screen while waiting" sh -c "'${T[0]}' -L '$SOCK' capture-pane -t e2e -p | grep -Eq 'observers [1-9]'"
second=$(demo_bg 4 12)
wait_for "the restarted process is attached (pid $second)" "reattached to pid $second"
wait_for "and is live again" "pid $second .*LIVE"
keys q; wait_for "q exits after a reattach" "EXITED=0"
wait "$first" "$second" 2>/dev/null
third=$(demo_bg 1 13)
for _ in $(seq 50); do [ -S "$WORK/run/notifytop/$third.sock" ] && break; sleep 0.1; done
XDG_RUNTIME_DIR="$WORK/run" timeout 20 "$TOP" --pid "$third" --no-reattach --batch -n 1 -d 4s > "$WORK/noreattach.txt" 2>&1
status=$?
check "--no-reattach: the exit ends the session as before (status $status)" \
    sh -c "[ '$status' = 0 ] && grep -q 'ENDED (process exited)' '$WORK/noreattach.txt' && ! grep -q waiting '$WORK/noreattach.txt'"
wait "$third" 2>/dev/null

echo "::: batch mode and --fail-on"
"$TOP" --replay "$WORK/ended.ndjson" --batch --view leaks --fail-on error >"$WORK/gate.txt" 2>"$WORK/gate.err"
status=$?
check "--fail-on error exits 3 when the demo's planted errors are found (got $status)" test "$status" = 3
check "the gate prints the Leaks view as a plain table: no keys, no notifytop cpu, no blank lines" sh -c \
    "head -1 '$WORK/gate.txt' | grep -q '^Leaks of notify-demo' && ! grep -Eq 'F10|cpu|^ *\$' '$WORK/gate.txt'"
check "the gate names each failing finding on stderr: rule, severity, name, site, count" sh -c \
    "grep -Eq '^notifytop: --fail-on error: R[0-9]+ error name=.* site=.* count=[0-9]+\$' '$WORK/gate.err'"
echo | env -u TERM "$TOP" --replay "$WORK/ended.ndjson" > "$WORK/notty.txt" 2>&1
check "no terminal: one plain frame and a note, no spin" grep -q "printing one plain-text frame" "$WORK/notty.txt"

echo "::: --json: NDJSON frames"
"$TOP" --replay "$WORK/ended.ndjson" --json --view names --sort posts:desc --filter did > "$WORK/frame.json" 2>&1
check "--json prints one JSON object with a summary" \
    jqok -s 'length == 1 and (.[0].summary | has("posts") and has("deliveries") and has("observers") and has("lost"))' "$WORK/frame.json"
check "--json rows obey --filter and --sort" \
    jqok '(.rows | length > 0) and ([.rows[].name | ascii_downcase | contains("did")] | all)
           and ([.rows[].posts] == ([.rows[].posts] | sort | reverse))' "$WORK/frame.json"
"$TOP" --replay "$WORK/ended.ndjson" --json --view leaks --fail-on error > "$WORK/leaks.json" 2>/dev/null
status=$?
check "--json still exits 3 on --fail-on findings (got $status)" test "$status" = 3
check "--json leaks rows carry severities" jqok '[.rows[].severity] | index("error") != null' "$WORK/leaks.json"
"$TOP" --demo --json -n 3 -d 700ms --scenario steady --seed 5 --duration 10 2>/dev/null \
    | while IFS= read -r line; do echo "$(date +%s%N) $line"; done > "$WORK/live.json"
check "--json live: three frames, numbered 1-3" \
    sh -c "cut -d' ' -f2- '$WORK/live.json' | jq -e -s '[.[].iteration] == [1,2,3]' >/dev/null"
check "--json lines are flushed as they are made (first and last arrive >1s apart)" \
    sh -c "[ \$(( \$(tail -n1 '$WORK/live.json' | cut -d' ' -f1) - \$(head -n1 '$WORK/live.json' | cut -d' ' -f1) )) -gt 1000000000 ]"
# A reader that stops early (head) ends the batch cleanly: status 0, and the demo child stopped.
mkdir -p "$WORK/headrun" && chmod 700 "$WORK/headrun"
XDG_RUNTIME_DIR="$WORK/headrun" "$TOP" --demo --json -n 50 -d 200ms --scenario steady --seed 5 2>/dev/null | head -1 \
    > "$WORK/head.json"
status=${PIPESTATUS[0]}
check "--json | head -1: one frame, then notifytop exits 0 (got $status)" \
    sh -c "[ '$status' = 0 ] && jq -e '.iteration == 1' '$WORK/head.json' >/dev/null"
check "--json | head -1: the demo child is gone (its socket removed)" \
    sh -c "sleep 0.5; [ -d '$WORK/headrun/notifytop' ] && [ -z \"\$(ls '$WORK/headrun/notifytop')\" ]"
"$TOP" --replay "$WORK/ended.ndjson" --json --view threads --sort dur > /dev/null 2> "$WORK/sort.err"
check "--sort on a log view is a one-line usage error" grep -q "always in time order" "$WORK/sort.err"

readme_filter=$(grep -o '`/` filters (`[^`]*`' README.md | sed 's/.*(`//; s/`$//')
"$TOP" --replay "$WORK/live.ndjson" --batch --view names --filter "$readme_filter" > /dev/null 2> "$WORK/readme-filter.err"
status=$?
check "the README's filter example ('$readme_filter') works on the Names view (got $status)" \
    sh -c "[ -n '$readme_filter' ] && [ '$status' = 0 ] && [ ! -s '$WORK/readme-filter.err' ]"

"$TOP" --replay "$WORK/live.ndjson" --batch --view names --filter "bogus>1" > /dev/null 2> "$WORK/filter-field.err"
status=$?
check "--filter on a field the view lacks is a usage error naming the fields there (got $status)" \
    sh -c "[ '$status' = 64 ] && grep -q '^Error: --filter .*unknown field bogus (fields here: name obs posts' '$WORK/filter-field.err'"
"$TOP" --replay "$WORK/live.ndjson" --batch --pdi 1 > /dev/null 2> "$WORK/typo.err"
status=$?
check "a mistyped option gets the nearest one (got $status)" \
    sh -c "[ '$status' = 64 ] && grep -q \"Did you mean '--pid'?\" '$WORK/typo.err'"

echo "::: notifytop diff"
"$TOP" --demo --batch -n 1 -d 8s --record "$WORK/clean.ndjson" --scenario steady --seed 3 --duration 2 --no-bugs \
    >/dev/null 2>&1
"$TOP" diff "$WORK/clean.ndjson" "$WORK/ended.ndjson" > "$WORK/diff.txt" 2>&1
status=$?
check "diff exits 3 when B has new errors (got $status)" test "$status" = 3
check "diff lists per-name observers and deliveries A → B" grep -Eq "^CartDidChange +[0-9]+ → [0-9]+" "$WORK/diff.txt"
check "diff lists the new warnings" grep -Eq "^New warnings in B \([0-9]+\):" "$WORK/diff.txt"
"$TOP" diff "$WORK/ended.ndjson" "$WORK/clean.ndjson" --json > "$WORK/diff.json" 2>&1
status=$?
check "diff the other way exits 0 (got $status)" test "$status" = 0
check "diff --json reports the warnings as resolved" jqok '(.resolved_warnings | length > 0) and (.new_warnings == [])' "$WORK/diff.json"
"$TOP" diff "$WORK/ended.ndjson" "$WORK/missing.ndjson" > /dev/null 2> "$WORK/diff.err"
status=$?
check "diff of a missing file: exit 2 and one line (got $status)" \
    sh -c "[ '$status' = 2 ] && [ \$(wc -l < '$WORK/diff.err') = 1 ] && grep -q 'missing.ndjson' '$WORK/diff.err'"

echo "::: stopped and resumed from an interactive shell"
# The shell puts the terminal back in line mode when the job stops; on resume notifytop must take
# it back, or keys wait for Enter.
"${T[@]}" kill-session -t e2e 2>/dev/null
"${T[@]}" new-session -d -s e2e -x 120 -y 40 "cd '$PWD' && env TERM=tmux-256color LANG=C.UTF-8 bash --norc -i"
keys "'$TOP' --replay '$WORK/live.ndjson' -d 200ms" Enter
wait_for "the replay runs in an interactive shell" "REPLAY ×1"
top_pid=$(pgrep -n -f "notifytop --replay $WORK/live.ndjson")
kill -STOP "${top_pid:-0}" 2>/dev/null
wait_for "the shell reports the job stopped" "Stopped"
keys "fg" Enter
wait_for "fg brings the dashboard back" "REPLAY"
keys 3
wait_for "a key works at once after fg (no Enter needed)" "^Threads" 5
keys q
check "q then exits the resumed dashboard" bash -c "for i in \$(seq 50); do kill -0 ${top_pid:-0} 2>/dev/null || exit 0; sleep 0.1; done; exit 1"

echo "$passed passed, $failed failed"
[ "$failed" = 0 ]
