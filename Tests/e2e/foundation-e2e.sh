#!/usr/bin/env bash
# End-to-end test of `notifytop --foundation`: a small Foundation-only app (foundation-app.swift,
# built here with swiftc -g) knows nothing of notifytop; notifytop attaches bpftrace's probes to
# it by pid and the app's own counts are checked against what notifytop shows: per-name posts and
# deliveries, live observers, threads, a duplicate registration (R5) and a slow handler (R7),
# centers dropped with observers (their registrations end with them), a burst whose lost lines
# are counted whatever drops them (a stopped viewer, the app's exit); the
# recording replays to the same figures, explain names the removeObserver call that ended a
# registration, and --fail-on gates on it; attach errors are one line. A second app of our own
# (foundation-typed-app.swift) checks typed messages against its own counts: 120 and 1,000
# observers per post, local message types by name, an AsyncMessage's runs, a leaked observer (R6).
# The app runs again under the counting mode (the probes count in the kernel): the same figures.
# P switches the modes twice while an app posts: the figures stay the app's own.
#
# Needs root (or CAP_BPF and CAP_PERFMON), bpftrace and a kernel with uprobes; it mounts tracefs
# when it is not mounted. Skips, with one line, only where uprobes cannot be used.
#
# Usage: Tests/e2e/foundation-e2e.sh            (builds notifytop first)
#        BIN_DIR=.build/debug Tests/e2e/foundation-e2e.sh   (uses binaries already built)
# Env:   SCRATCH=<scratch path for swift build> (default .build), KEEP=1 keeps the temp dir.
set -uo pipefail
cd "$(dirname "$0")/../.."

. Tests/e2e/foundation-preamble.sh
foundation_e2e_preamble "foundation e2e"
command -v bpftrace >/dev/null || { echo "e2e: bpftrace is not installed (.ci/setup installs it)"; exit 1; }
command -v jq >/dev/null || { echo "e2e: jq is not installed"; exit 1; }
SWIFTC=$(command -v swiftc || echo /opt/swift/usr/bin/swiftc)

WORK=$(mktemp -d "${TMPDIR:-/tmp}/notifytop-foundation.XXXXXX")
passed=0
failed=0
app=""
T=(tmux -L "notifytop-foundation-$$" -f /dev/null)
cleanup() {
    rm -f "$WORK/go"
    "${T[@]}" kill-server 2>/dev/null
    [ -n "$app" ] && kill "$app" 2>/dev/null
    wait 2>/dev/null
    [ "${KEEP:-0}" = 1 ] && echo "e2e: kept $WORK" || rm -rf "$WORK"
}
trap cleanup EXIT
# jq_true ARGS...: jq -e, its output dropped.
jq_true() { jq -e "$@" >/dev/null; }
screen() { "${T[@]}" capture-pane -t e2e -p 2>/dev/null; }
# on_screen REGEX: the tmux screen matches REGEX.
on_screen() { screen | grep -Eq -- "$1"; }
# wait_until SECONDS COMMAND...: true once COMMAND succeeds, false after SECONDS.
wait_until() {
    local limit=$1
    shift
    for _ in $(seq $((limit * 10))); do
        "$@" && return 0
        sleep 0.1
    done
    return 1
}

"$SWIFTC" -g Tests/e2e/foundation-app.swift -o "$WORK/app" >"$WORK/swiftc.log" 2>&1 ||
    { echo "e2e: swiftc failed:"; cat "$WORK/swiftc.log"; exit 1; }

"$WORK/app" "$WORK/go" 300 >"$WORK/app.out" &
app=$!
wait_until 20 grep -q '^pid' "$WORK/app.out" || { echo "e2e: the app did not start"; exit 1; }

timeout 30 "$TOP" --foundation --json -n 1 > "$WORK/overview.json" 2>&1
check "--foundation without --pid: the overview lists the app, attachable, with its threads" \
    jq_true --argjson pid "$app" '.view == "processes" and ([.processes[] | select(.pid == $pid and .process == "app"
        and .attached == false and .threads >= 1 and (.not_attached | test("symbols present")))] | length == 1)' \
    "$WORK/overview.json"
timeout 30 "$TOP" --foundation --pid $$ > "$WORK/notswift.txt" 2>&1
status=$?
check "a process without Foundation is refused with one line, exit 1" \
    sh -c "[ $status = 1 ] && [ \$(wc -l < '$WORK/notswift.txt') = 1 ] && grep -q 'maps no libFoundationEssentials.so' '$WORK/notswift.txt'"

# Live: frames each second until the app exits (the stream then ends), recorded.
timeout 120 "$TOP" --foundation --pid "$app" --batch --json -n 60 -d 1s --view names,observers,leaks \
    --record "$WORK/rec.jsonl" > "$WORK/live.jsonl" 2> "$WORK/live.err" &
top=$!
# The header is written once every probe is attached: then the app may start.
wait_until 60 grep -q '"k":"header"' "$WORK/rec.jsonl" 2>/dev/null ||
    { echo "e2e: the probes did not attach:"; cat "$WORK/live.err"; exit 1; }
touch "$WORK/go"
wait_until 60 grep -q '^live' "$WORK/app.out" || { echo "e2e: the app did not finish"; exit 1; }
sleep 2
rm -f "$WORK/go"
wait "$top"
check "notifytop ends when the app exits" sh -c "! kill -0 $app 2>/dev/null"
app=""

read -r _ _ cart_posts _ sync_posts < <(grep '^posts' "$WORK/app.out")
read -r _ _ cart_deliveries _ sync_deliveries < <(grep '^deliveries' "$WORK/app.out")
frame=$(tail -n 1 "$WORK/live.jsonl")
# frame_has FILTER: the last frame satisfies the jq FILTER.
frame_has() { jq -e "$1" <<<"$frame" >/dev/null; }
name_field() { jq -r --arg n "$1" ".views.names.rows[] | select(.name == \$n) | .$2" <<<"$frame"; }
check "CartDidChange: $cart_posts posts and $cart_deliveries deliveries, as the app counted" \
    test "$(name_field CartDidChange posts) $(name_field CartDidChange deliveries)" = "$cart_posts $cart_deliveries"
check "SyncFinishedWithAVeryLongName (a large string): $sync_posts posts and $sync_deliveries deliveries" \
    test "$(name_field SyncFinishedWithAVeryLongName posts) $(name_field SyncFinishedWithAVeryLongName deliveries)" = \
    "$sync_posts $sync_deliveries"
read -r _ _ _ identity_removed _ dead_center < <(grep '^identity-posts' "$WORK/app.out")
# A center's death is seen: its registrations end with it (center-ended), never live after.
removed_once() {
    frame_has ".summary.observers == 5" && jq_true -s --argjson n $((1 + identity_removed)) --argjson dead "$dead_center" '
        ([.[] | select(.k == "remove" and .reason == "explicit")] | length == $n)
        and ([.[] | select(.k == "remove") | .registration] | (length == (unique | length)))
        and (map(select(.k == "register")) | map({key: (.id | tostring), value: .name}) | from_entries) as $names
        | [.[] | select(.k == "remove" and .reason == "center-ended") | $names[.registration | tostring]]
        | (length == $dead) and all(test("^Dying(Even|Odd)$"))' "$WORK/rec.jsonl"
}
check "4 live observers and the typed message's; 1 + $identity_removed removed, $dead_center ended with their centers, each once" \
    removed_once
check "the $dead_center observers of dropped centers: none live, no R5 on their names" \
    frame_has '([.views.observers.rows[] | select((.name | test("^Dying")) and .state == "live")] | length == 0)
        and ([.views.observers.rows[] | select(.name | test("^Dying"))] | length >= 1)
        and ([.views.leaks.rows[] | select(.rule == "R5" and (.name | test("^Dying")))] | length == 0)'
# Registration identity: the app's own counts per name, and every delivery credited to a
# registration of its own name (a freed closure's address reused by another name or center).
read -r -a identity < <(grep '^identity ' "$WORK/app.out")
for name in Filtered ChurnEven ChurnOdd PrivateEven PrivateOdd WrongCenter DyingEven DyingOdd; do
    for ((i = 1; i < ${#identity[@]}; i++)); do [ "${identity[$i]}" = "$name" ] && break; done
    expected=${identity[$((i + 1))]}
    [ "$name" = Filtered ] && expected=${identity[$((i + 2))]}
    check "$name: $expected deliveries, as the app counted" test "$(name_field "$name" deliveries)" = "$expected"
done
check "every delivery is credited to a registration of its own name, none unmatched" \
    jq_true -s '(map(select(.k == "register")) | map({key: (.id | tostring), value: .name}) | from_entries) as $names
        | ([.[] | select(.k == "deliver" and $names[.registration | tostring] != .name)] | length == 0)
        and ([.[] | select(.k == "gap")] | length == 0)' "$WORK/rec.jsonl"
check "one name under two object filters: both tokens removed, one each, 2 and 4 deliveries" \
    jq_true -s '(map(select(.k == "register" and .name == "Filtered")) | map(.id)) as $ids
        | ($ids | length == 2) and ([.[] | select(.k == "remove" and (.registration as $r | $ids | index($r)))] | length == 2)
        and ([.[] | select(.k == "deliver" and .name == "Filtered")] | group_by(.registration) | map(length) | sort == [2, 4])' \
    "$WORK/rec.jsonl"
wrong_at=$(sed -n 's/^wrong-center-remove at //p' "$WORK/app.out")
wrong_center_found() {
    jq_true -s --arg at "$wrong_at" '
        (map(select(.k == "site")) | map({key: (.id | tostring), value: "\(.file):\(.line)"}) | from_entries) as $sites
        | [.[] | select(.k == "remove-missed" and .name == "WrongCenter" and $sites[.callsite | tostring] == $at)]
        | length == 1' "$WORK/rec.jsonl" &&
        jq_true --arg at "$wrong_at" '[.views.leaks.rows[] | select(.rule == "R11" and .site == $at)] | length == 1' <<<"$frame"
}
check "a removal from the wrong center: remove-missed and R11 at $wrong_at" wrong_center_found
check "main thread and both posting threads seen, nothing lost (the kernel's counts agree)" \
    frame_has '.summary.threads >= 3 and .summary.lost == 0'
check "the duplicate registration (R5) is found at its line" \
    frame_has '[.views.leaks.rows[] | select(.rule == "R5" and .name == "CartDidChange" and (.site | test("foundation-app.swift:[0-9]+")))] | length == 1'
check "the slow handler (R7) is found" \
    frame_has '[.views.leaks.rows[] | select(.rule == "R7" and .name == "SyncFinishedWithAVeryLongName")] | length == 1'
read -r _ _ queued_posts queued_deliveries < <(grep '^queued' "$WORK/app.out")
check "the queue observer: on its OperationQueue, its $queued_deliveries deliveries on the queue's thread, not the poster's" \
    jq_true -s --argjson n "$queued_deliveries" '([.[] | select(.k == "register" and .name == "QueuedWork"
        and .target == "operation-queue" and (.targetLabel | startswith("OperationQueue 0x")))] | length == 1)
        and ([.[] | select(.k == "deliver" and .name == "QueuedWork" and .target == "operation-queue"
        and .thread != .postingThread)] | length == $n)' "$WORK/rec.jsonl"
check "the header says what the probes cannot see" grep -q '"producer":"notifytop [0-9][0-9.]* Foundation probes.*not available' "$WORK/rec.jsonl"
read -r _ _ message_posts message_deliveries < <(grep '^message ' "$WORK/app.out")
message_at=$(sed -n 's/^message-post at //p' "$WORK/app.out")
check "the typed message: $message_posts posts named after its type at $message_at, marked main, its $message_deliveries runs" \
    jq_true -s --argjson n "$message_posts" --argjson d "$message_deliveries" --arg at "$message_at" '
        (map(select(.k == "site")) | map({key: (.id | tostring), value: "\(.file):\(.line)"}) | from_entries) as $sites
        | ([.[] | select(.k == "post" and .name == "app.CartEmptied" and .message == "main"
            and $sites[.callsite | tostring] == $at)] | length == $n)
        and ([.[] | select(.k == "register" and .name == "app.CartEmptied" and .kind == "message-main")] | length == 1)
        and ([.[] | select(.k == "deliver" and .name == "app.CartEmptied")] | length == $d)' "$WORK/rec.jsonl"

timeout 60 "$TOP" --replay "$WORK/rec.jsonl" --batch --json --view names > "$WORK/replay.jsonl" 2>&1
check "the recording replays to the same figures" \
    test "$(jq -c '.summary | {posts, deliveries, observers}' "$WORK/replay.jsonl" | tail -n 1)" = \
    "$(jq -c '.summary | {posts, deliveries, observers}' <<<"$frame")"
removed_at=$(sed -n 's/^removed at //p' "$WORK/app.out")
timeout 60 "$TOP" explain "$WORK/rec.jsonl" --name CartDidChange > "$WORK/explain.txt" 2>&1
check "explain: the registration removed before the last CartDidChange post names its removeObserver at $removed_at" \
    grep -q "removed-before: removeObserver at $removed_at ended it" "$WORK/explain.txt"
timeout 60 "$TOP" explain "$WORK/rec.jsonl" --name WrongCenter > "$WORK/explain-wrong.txt" 2>&1
check "explain: WrongCenter's removal from the wrong center ended nothing, at $wrong_at; its post still ran" \
    sh -c "grep -q 'remove-missed: removeObserver at $wrong_at ended nothing' '$WORK/explain-wrong.txt' &&
        grep -Eq '^  ran ' '$WORK/explain-wrong.txt'"
timeout 60 "$TOP" --replay "$WORK/rec.jsonl" --batch --fail-on warning > /dev/null 2>&1
status=$?
check "--fail-on warning exits 3 on the duplicate registration" test "$status" = 3

# Counting mode (the default without --record): the same app again, its posts and deliveries
# counted in the kernel's maps, shows the app's own counts and the event run's figures.
rm -f "$WORK/go"
"$WORK/app" "$WORK/go" 300 >"$WORK/app-counting.out" &
app=$!
wait_until 20 grep -q '^pid' "$WORK/app-counting.out" || { echo "e2e: the app did not start"; exit 1; }
timeout 120 "$TOP" --foundation --pid "$app" --batch --json -n 60 -d 1s --view names,observers,leaks,threads \
    > "$WORK/counting.jsonl" 2> "$WORK/counting.err" &
top=$!
# The first frame is printed once every probe is attached.
wait_until 60 test -s "$WORK/counting.jsonl" ||
    { echo "e2e: the counting probes did not attach:"; cat "$WORK/counting.err"; exit 1; }
touch "$WORK/go"
wait_until 60 grep -q '^live' "$WORK/app-counting.out" || { echo "e2e: the app did not finish"; exit 1; }
sleep 2
rm -f "$WORK/go"
wait "$top"
app=""
counted=$(tail -n 1 "$WORK/counting.jsonl")
names_of() { jq -c '[.views.names.rows[] | {name, posts, deliveries}] | sort_by(.name)' <<<"$1"; }
check "counting mode: every name's posts and deliveries are the event run's ($(jq '.views.names.rows | length' <<<"$counted") names)" \
    test "$(names_of "$counted")" = "$(names_of "$frame")"
read -r _ _ cart_posts _ sync_posts < <(grep '^posts' "$WORK/app-counting.out")
read -r _ _ cart_deliveries _ sync_deliveries < <(grep '^deliveries' "$WORK/app-counting.out")
check "counting mode: CartDidChange $cart_posts posts and $cart_deliveries deliveries, as the app counted" \
    test "$(jq -r '.views.names.rows[] | select(.name == "CartDidChange") | "\(.posts) \(.deliveries)"' <<<"$counted")" = \
    "$cart_posts $cart_deliveries"
check "counting mode: the same observers and totals; R5 and R11 found, R7 (durations) waits for event mode" \
    jq_true --argjson events "$frame" '(.summary | {posts, deliveries, observers}) == ($events.summary | {posts, deliveries, observers})
        and ([.views.leaks.rows[] | select(.rule == "R5" and .name == "CartDidChange")] | length == 1)
        and ([.views.leaks.rows[] | select(.rule == "R11" and .name == "WrongCenter")] | length == 1)
        and ([.views.leaks.rows[] | select(.rule == "R7")] | length == 0) and .summary.lost == 0' <<<"$counted"
# The posting threads live ~30 ms: each is named by its first counted post's line, as Linux has it.
check "counting mode: the posting threads poster-0 and poster-1 by name, $((cart_posts / 2)) posts each" \
    jq_true --argjson p "$((cart_posts / 2))" '[.views.threads.threads[] | select((.name == "poster-0" or .name == "poster-1")
        and .posts >= $p)] | length == 2' <<<"$counted"
timeout 30 "$TOP" --foundation --pid $$ --probes counting --record "$WORK/no.jsonl" > "$WORK/norecord.txt" 2>&1
status=$?
check "--record with --probes counting is refused: a recording keeps every event" \
    sh -c "[ $status != 0 ] && grep -q 'keeps every event' '$WORK/norecord.txt' && [ ! -e '$WORK/no.jsonl' ]"

# Loss is never silent: an unpaced burst of 5,000 posts, the app exiting right after it, read as
# it comes (the exit's tail must be drained) and by a viewer stopped 300 ms of every 400 (bpftrace's
# buffer overflows, mostly without a word). The recording's posts plus its lost lines are at least
# the app's posts, and lost is more than 0 whenever posts are missing.
for reader in plain stopped; do
    rm -f "$WORK/go" "$WORK/burst.jsonl"
    "$WORK/app" "$WORK/go" 5000 burst >"$WORK/burst.out" &
    app=$!
    wait_until 20 grep -q '^pid' "$WORK/burst.out" || { echo "e2e: the burst app did not start"; exit 1; }
    "$TOP" --foundation --pid "$app" --batch --json -n 600 -d 1s --view names --record "$WORK/burst.jsonl" \
        > "$WORK/burst-live.jsonl" 2> "$WORK/burst.err" &
    top=$!
    wait_until 60 grep -q '"k":"header"' "$WORK/burst.jsonl" 2>/dev/null ||
        { echo "e2e: the probes did not attach:"; cat "$WORK/burst.err"; exit 1; }
    touch "$WORK/go"
    if [ "$reader" = stopped ]; then
        for _ in $(seq 100); do
            grep -q '^burst' "$WORK/burst.out" && break
            kill -STOP "$top"; sleep 0.3; kill -CONT "$top"; sleep 0.1
        done
        kill -CONT "$top"
    fi
    wait_until 60 sh -c "! kill -0 $top 2>/dev/null" || kill "$top"
    wait "$top" 2>/dev/null
    wait "$app" 2>/dev/null
    app=""
    read -r _ _ truth _ < <(grep '^burst' "$WORK/burst.out")
    shown=$(jq -s '[.[] | select(.k == "post" and .name == "Burst")] | length' "$WORK/burst.jsonl")
    lost=$(jq -s '[.[] | select(.k == "gap" and .reason != "probe-delivery-unmatched") | .count] | add // 0' "$WORK/burst.jsonl")
    causes=$(jq -rs '[.[] | select(.k == "gap") | .reason] | unique | join(",")' "$WORK/burst.jsonl")
    echo "     burst, $reader reader: truth $truth posts, shown $shown, lost $lost probe lines (${causes:-none})"
    check "burst read by a $reader viewer: shown + lost >= the app's ${truth:-?} posts, lost > 0 when any is missing" \
        sh -c "[ -n '$truth' ] && [ $((shown + lost)) -ge ${truth:-1} ] && { [ $shown -ge ${truth:-1} ] || [ $lost -gt 0 ]; }"
    check "burst read by a $reader viewer: the summary's lost is the recording's" \
        jq_true -s --argjson lost "$lost" '.[-1].summary.lost >= $lost' "$WORK/burst-live.jsonl"
done
rm -f "$WORK/go"

# explain on a live process: it attaches as the dashboard does, folds 2 s and answers; the app
# posts CartDidChange every 100 ms meanwhile.
touch "$WORK/go"
"$WORK/app" "$WORK/go" 20 repeat >"$WORK/app3.out" &
app=$!
wait_until 20 grep -q '^live' "$WORK/app3.out" || { echo "e2e: the app did not start a third time"; exit 1; }
repeat_at="foundation-app.swift:$(grep -n '// repeat-post$' Tests/e2e/foundation-app.swift | cut -d: -f1)"
timeout 60 "$TOP" explain --foundation --pid "$app" --for 2s --name CartDidChange > "$WORK/explain-live.txt" 2>&1
status=$?
check "explain --foundation --pid --for 2s: the posts made meanwhile at $repeat_at, run by the observers found live" \
    sh -c "[ $status = 0 ] && grep -q '\"CartDidChange\" with no object, on app (1) at $repeat_at' '$WORK/explain-live.txt' &&
        grep -Eq 'not seen: registered before attach(:0)?  delivered: ran on app \\(1\\)' '$WORK/explain-live.txt'"
rm -f "$WORK/go"
wait "$app"
app=""

# Typed messages (foundation-typed-app.swift): MainActorMessages with 120 and 1,000 observers, four
# local message types Foundation names alike up to 63 bytes, an AsyncMessage (its enqueue is not a
# run, its run on the pool is), an AsyncMessage read through sequences (each message put in a
# reader's buffer is a delivery), and an observer added every second and never removed (R6). The
# app prints its own counts; every post must reach exactly its observers.
"$SWIFTC" -g -module-name app Tests/e2e/foundation-typed-app.swift -o "$WORK/typed" >"$WORK/swiftc-typed.log" 2>&1 ||
    { echo "e2e: swiftc failed:"; cat "$WORK/swiftc-typed.log"; exit 1; }
rm -f "$WORK/go"
"$WORK/typed" "$WORK/go" 22 >"$WORK/typed.out" &
app=$!
wait_until 20 grep -q '^pid' "$WORK/typed.out" || { echo "e2e: the typed app did not start"; exit 1; }
timeout 180 "$TOP" --foundation --pid "$app" --batch --json -n 150 -d 1s --view names,observers,leaks \
    --record "$WORK/typed.jsonl" > "$WORK/typed-live.jsonl" 2> "$WORK/typed.err" &
top=$!
wait_until 60 grep -q '"k":"header"' "$WORK/typed.jsonl" 2>/dev/null ||
    { echo "e2e: the probes did not attach:"; cat "$WORK/typed.err"; exit 1; }
touch "$WORK/go"
wait_until 120 grep -q '^done' "$WORK/typed.out" || { echo "e2e: the typed app did not finish"; exit 1; }
sleep 3
rm -f "$WORK/go"
wait "$top"
wait "$app" 2>/dev/null
app=""
typed_frame=$(tail -n 1 "$WORK/typed-live.jsonl")
check "typed messages: nothing lost" jq_true '.summary.lost == 0' <<<"$typed_frame"
while read -r _ name observers posts truth; do
    shown=$(jq -s --arg n "$name" '[.[] | select(.k == "deliver" and .name == $n)] | length' "$WORK/typed.jsonl")
    echo "     $name: $observers observers, $posts posts: truth $truth deliveries, shown $shown"
    check "$name: $posts posts, each run by exactly its $observers observers ($truth deliveries, as the app counted)" \
        jq_true -s --arg n "$name" --argjson o "$observers" --argjson p "$posts" --argjson d "$truth" '
            ([.[] | select(.k == "post" and .name == $n and .message == "main")] | length == $p and all(.matched == $o))
            and ([.[] | select(.k == "register" and .name == $n and .kind == "message-main" and (.preexisting | not))]
                | length == $o)
            and ([.[] | select(.k == "deliver" and .name == $n)] | length == $d
                and (group_by(.postID) | all(length == $o)))' "$WORK/typed.jsonl"
    check "$name: the Names view counts its $observers observers and $truth deliveries" \
        jq_true --arg n "$name" --argjson o "$observers" --argjson d "$truth" \
        '[.views.names.rows[] | select(.name == $n and .observers == $o and .deliveries == $d)] | length == 1' \
        <<<"$typed_frame"
done < <(grep '^typed ' "$WORK/typed.out")
read -r _ async_name async_observers async_posts async_runs < <(grep '^async ' "$WORK/typed.out")
check "the AsyncMessage: its $async_runs runs (not its enqueues) are its deliveries, on the pool's threads" \
    jq_true -s --arg n "$async_name" --argjson o "$async_observers" --argjson p "$async_posts" --argjson d "$async_runs" '
        ([.[] | select(.k == "post" and .name == $n and .message == "async")] | length == $p)
        and ([.[] | select(.k == "register" and .name == $n and .kind == "message-async" and .target == "task")]
            | length == $o)
        and ([.[] | select(.k == "deliver" and .name == $n)]
            | length == $d and all(.target == "task" and .thread != .postingThread))' "$WORK/typed.jsonl"
read -r _ sequence_name sequence_readers sequence_posts sequence_received sequence_dropped < <(grep '^sequence ' "$WORK/typed.out")
sequences=$((sequence_readers + sequence_dropped))
check "the AsyncMessage sequences: $sequences made ($sequence_dropped dropped unread), each post in its $sequence_readers readers' buffers, $sequence_received deliveries as the app received, every sequence ended" \
    jq_true -s --arg n "$sequence_name" --argjson r "$sequence_readers" --argjson p "$sequence_posts" \
        --argjson d "$sequence_received" --argjson m "$sequences" '
        [.[] | select(.k == "register" and .name == $n)] as $made
        | ($made | length == $m
            and all(.kind == "message-async" and .targetLabel == "message sequence" and (.preexisting | not)))
        and ([.[] | select(.k == "post" and .name == $n)] | map(.matched) == ([range($p)] | map($r)) + [0])
        and ([.[] | select(.k == "deliver" and .name == $n)]
            | length == $d and all(.target == "posting" and .thread == .postingThread)
            and (group_by(.postID) | all(length == $r)))
        and (($made | map(.id)) - [.[] | select(.k == "remove") | .registration] | length == 0)' "$WORK/typed.jsonl"
check "the sequences' message: none live, $sequence_received deliveries in the Names view, no finding open" \
    jq_true --arg n "$sequence_name" --argjson d "$sequence_received" '
        ([.views.names.rows[] | select(.name == $n and .observers == 0 and .deliveries == $d)] | length == 1)
        and ([.views.leaks.rows[] | select(.name == $n and .open)] | length == 0)' <<<"$typed_frame"
read -r -a locals < <(grep '^locals ' "$WORK/typed.out")
for ((i = 1; i < ${#locals[@]}; i += 2)); do
    local_name=${locals[$i]}
    local_truth=${locals[$((i + 1))]}
    check "local type $local_name: a name of its own, whole, without an address; $local_truth posts and deliveries; none left live" \
        jq_true -s --arg t "$local_name" --argjson d "$local_truth" '
            [.[] | select(.k == "post" and (.name | contains($t)))] as $posts
            | ($posts | length == $d) and ($posts | map(.name) | unique | length == 1)
            and ($posts[0].name | test("^" + $t + " #1 in app\\.") and (contains("$") | not) and (contains("…") | not))
            and ([.[] | select(.k == "deliver" and .name == $posts[0].name)] | length == $d)
            and ([.[] | select(.k == "register" and .name == $posts[0].name)] | length == 1)' "$WORK/typed.jsonl"
done
check "the four local types: none live at the end" \
    jq_true '[.views.observers.rows[] | select((.name | contains("LocalMessage")) and .state == "live")] | length == 0' \
    <<<"$typed_frame"
read -r _ leaky_name leaky_count < <(grep '^leaky ' "$WORK/typed.out")
leaky_at="foundation-typed-app.swift:$(grep -n '// leaky-add$' Tests/e2e/foundation-typed-app.swift | cut -d: -f1)"
check "the typed observer never removed: $leaky_count live, growth (R6) at $leaky_at" \
    jq_true --arg n "$leaky_name" --argjson c "$leaky_count" --arg at "$leaky_at" '
        ([.views.names.rows[] | select(.name == $n and .observers == $c)] | length == 1)
        and ([.views.leaks.rows[] | select(.rule == "R6" and .name == $n and .site == $at)] | length == 1)' \
    <<<"$typed_frame"

# The typed messages again under the counting mode (3 s of the leaky observer): the Names view
# counts each message's observers and deliveries as the app did, an AsyncMessage's enqueues
# (counted on the posting thread) as many as its runs.
rm -f "$WORK/go"
"$WORK/typed" "$WORK/go" 3 >"$WORK/typed-counting.out" &
app=$!
wait_until 20 grep -q '^pid' "$WORK/typed-counting.out" || { echo "e2e: the typed app did not start"; exit 1; }
timeout 120 "$TOP" --foundation --pid "$app" --batch --json -n 60 -d 1s --view names,observers,leaks \
    > "$WORK/typed-counting.jsonl" 2> "$WORK/typed-counting.err" &
top=$!
wait_until 60 test -s "$WORK/typed-counting.jsonl" ||
    { echo "e2e: the counting probes did not attach:"; cat "$WORK/typed-counting.err"; exit 1; }
touch "$WORK/go"
wait_until 120 grep -q '^done' "$WORK/typed-counting.out" || { echo "e2e: the typed app did not finish"; exit 1; }
sleep 3
rm -f "$WORK/go"
wait "$top"
wait "$app" 2>/dev/null
app=""
counted=$(tail -n 1 "$WORK/typed-counting.jsonl")
while read -r _ name observers posts truth; do
    check "counting mode: $name's $observers observers, $posts posts and $truth deliveries, as the app counted" \
        jq_true --arg n "$name" --argjson o "$observers" --argjson p "$posts" --argjson d "$truth" \
        '[.views.names.rows[] | select(.name == $n and .observers == $o and .posts == $p and .deliveries == $d)]
            | length == 1' <<<"$counted"
done < <(grep '^typed ' "$WORK/typed-counting.out")
read -r _ async_name async_observers async_posts async_runs < <(grep '^async ' "$WORK/typed-counting.out")
check "counting mode: the AsyncMessage's $async_posts posts and $async_runs deliveries; nothing lost" \
    jq_true --arg n "$async_name" --argjson p "$async_posts" --argjson d "$async_runs" \
    '([.views.names.rows[] | select(.name == $n and .posts == $p and .deliveries == $d)] | length == 1)
        and .summary.lost == 0' <<<"$counted"
read -r _ sequence_name sequence_readers sequence_posts sequence_received _ < <(grep '^sequence ' "$WORK/typed-counting.out")
check "counting mode: the sequences' $((sequence_posts + 1)) posts (one unheard) and $sequence_received deliveries, none live" \
    jq_true --arg n "$sequence_name" --argjson p "$((sequence_posts + 1))" --argjson d "$sequence_received" \
    '[.views.names.rows[] | select(.name == $n and .posts == $p and .deliveries == $d and .observers == 0
        and .posts_with_no_observer == 1)] | length == 1' <<<"$counted"

# P switches the probes' mode while the app posts (every 6 ms, to two observers), counting →
# events → counting: no post or delivery is missed or counted twice across the cutovers.
rm -f "$WORK/go" "$WORK/stop"
"$WORK/app" "$WORK/go" 6 paced "$WORK/stop" >"$WORK/app-paced.out" &
app=$!
wait_until 20 grep -q '^pid' "$WORK/app-paced.out" || { echo "e2e: the paced app did not start"; exit 1; }
"${T[@]}" new-session -d -s e2e -x 150 -y 40 \
    "env TERM=tmux-256color LANG=C.UTF-8 '$TOP' --foundation --pid $app -d 300ms; echo EXITED=\$?; sleep 600"
check "the dashboard starts in counting mode" wait_until 60 on_screen "\\[COUNTING\\]"
touch "$WORK/go"
sleep 2
"${T[@]}" send-keys -t e2e P
check "P: the new probes attach beside the running ones, the badge says so" \
    wait_until 5 on_screen "\\[COUNTING → EVENTS\\]"
check "P: event mode once attached" wait_until 60 on_screen "\\[EVENTS\\]"
sleep 2
"${T[@]}" send-keys -t e2e P
check "P again: counting mode once attached" wait_until 60 on_screen "\\[COUNTING\\]"
sleep 2
touch "$WORK/stop"
wait_until 20 grep -q '^paced' "$WORK/app-paced.out" || { echo "e2e: the paced app did not finish"; exit 1; }
read -r _ _ paced_posts paced_deliveries < <(grep '^paced' "$WORK/app-paced.out")
paced_row() { on_screen "^Paced +2 +$paced_posts +$paced_deliveries "; }
check "across both switches: Paced $paced_posts posts and $paced_deliveries deliveries, as the app counted" \
    wait_until 10 paced_row
check "nothing lost, no handler cut by a switch" on_screen "lost 0 "
"${T[@]}" kill-server 2>/dev/null
app=""
rm -f "$WORK/go" "$WORK/stop"

# The dashboard: the overview of Foundation processes; Enter attaches the probes to the app.
"$WORK/app" "$WORK/go" 100 >"$WORK/app2.out" &
app=$!
wait_until 20 grep -q '^pid' "$WORK/app2.out" || { echo "e2e: the app did not start again"; exit 1; }
"${T[@]}" new-session -d -s e2e -x 150 -y 40 \
    "env TERM=tmux-256color LANG=C.UTF-8 '$TOP' --foundation -d 300ms; echo EXITED=\$?; sleep 600"
check "the overview lists the app, not attached: figures unknown, its threads, attachable" \
    wait_until 20 on_screen "^ +$app +app +[0-9]+s +- +- +- +- +- .*- +symbols present, 1 thread$"
"${T[@]}" send-keys -t e2e / "$app" Enter
wait_until 10 on_screen "Filter: $app"
"${T[@]}" send-keys -t e2e Enter
check "Enter starts attaching without freezing the screen, and says so" wait_until 10 on_screen "attaching to pid $app"
wait_until 60 on_screen "^Names"
check "Enter attaches the probes (counting in the kernel): the Names view" on_screen "\\[COUNTING\\]"
"${T[@]}" send-keys -t e2e 3
check "counting: the Threads view says single deliveries wait for event mode" \
    wait_until 10 on_screen "single deliveries wait for event mode"
"${T[@]}" send-keys -t e2e 1 P
check "P switches the attached process's probes to event mode" wait_until 60 on_screen "\\[EVENTS\\]"
touch "$WORK/go"
wait_until 30 grep -q '^live' "$WORK/app2.out"
read -r _ _ cart_posts _ sync_posts < <(grep '^posts' "$WORK/app2.out")
read -r _ _ queued_posts _ < <(grep '^queued' "$WORK/app2.out")
read -r _ _ message_posts _ < <(grep '^message ' "$WORK/app2.out")
read -r _ identity_posts _ < <(grep '^identity-posts' "$WORK/app2.out")
check "the attached view shows the app's names as it posts" wait_until 10 on_screen "CartDidChange"
"${T[@]}" send-keys -t e2e 3 / poster-1 Enter
check "the Threads view names the posting threads as Linux has them" wait_until 10 on_screen "^ +[0-9.]+ poster-1 +CartDidChange"
"${T[@]}" send-keys -t e2e 0
check "0 returns to the overview: the app's row attached, with its posts" \
    wait_until 10 on_screen "^ +(\*|●)$app +app +Foundation.* $((cart_posts + sync_posts + queued_posts + message_posts + identity_posts)) "
"${T[@]}" kill-server 2>/dev/null
rm -f "$WORK/go"

echo
echo "foundation e2e: $passed passed, $failed failed"
[ "$failed" = 0 ]
