# Sourced by the --foundation end-to-end scripts: skips (exit 0, one line) where uprobes cannot be
# used, mounts tracefs when it is not mounted, builds notifytop unless BIN_DIR is given, and sets
# TOP to its absolute path. $1 names the suite in its lines. `check NAME COMMAND…` runs one check
# and counts it in `passed` or `failed`.
foundation_e2e_preamble() {
    local suite=$1
    if [ "$(id -u)" != 0 ]; then
        echo "$suite: skipped: uprobes need root (or CAP_BPF and CAP_PERFMON)"
        exit 0
    fi
    if [ ! -e /sys/kernel/tracing/uprobe_events ] && [ ! -e /sys/kernel/debug/tracing/uprobe_events ]; then
        mount -t tracefs nodev /sys/kernel/tracing 2>/dev/null
    fi
    if [ ! -e /sys/kernel/tracing/uprobe_events ] && [ ! -e /sys/kernel/debug/tracing/uprobe_events ]; then
        echo "$suite: skipped: this kernel has no uprobes (no uprobe_events in tracefs)"
        exit 0
    fi
    SCRATCH=${SCRATCH:-.build}
    if [ -z "${BIN_DIR:-}" ]; then
        swift build --scratch-path "$SCRATCH" --product notifytop >/dev/null || { echo "e2e: build of notifytop failed"; exit 1; }
        BIN_DIR=$(swift build --scratch-path "$SCRATCH" --show-bin-path)
    fi
    TOP="$(cd "$BIN_DIR" && pwd)/notifytop"
    [ -x "$TOP" ] || { echo "e2e: notifytop missing in $BIN_DIR"; exit 1; }
}

check() {
    local name=$1
    shift
    if "$@"; then
        passed=$((passed + 1)); echo "ok   $name"
    else
        failed=$((failed + 1)); echo "FAIL $name"
    fi
}
