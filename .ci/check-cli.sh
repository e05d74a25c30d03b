#!/usr/bin/env bash
# Checks notifytop's command line as ArgumentParser builds it: `notifytop --help` lists every
# subcommand declared in Sources/NotifyCommandLine/Commands, `notifytop help SUB` prints each one's help,
# and every completion script (bash, zsh, fish; from the root and from each subcommand) parses.
# Usage: .ci/check-cli.sh [path/to/notifytop]   (default .build/debug/notifytop, built already)
# Prints one line per problem and exits 1 when there is any.
set -uo pipefail
cd "$(dirname "$0")/.."

top=${1:-.build/debug/notifytop}
[ -x "$top" ] || { echo "check-cli: $top is missing (swift build --product notifytop)"; exit 1; }
problems=0
problem() {
    echo "check-cli: $*"
    problems=$((problems + 1))
}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# The subcommands as the sources declare them: every commandName but the root's.
mapfile -t subcommands < <(grep -ho 'commandName: *"[^"]*"' Sources/NotifyCommandLine/Commands/*.swift |
    sed -E 's/.*"([^"]*)"/\1/' | grep -vx notifytop | sort -u)
[ ${#subcommands[@]} -ge 5 ] || problem "found only ${#subcommands[@]} subcommands: ${subcommands[*]}"

"$top" --help > "$work/help" 2>&1 || problem "notifytop --help exits $?"
for sub in "${subcommands[@]}"; do
    grep -qE "^  $sub( |\$)" "$work/help" || problem "notifytop --help does not list $sub"
    if "$top" help "$sub" > "$work/help-$sub" 2>&1; then
        grep -q "^USAGE: notifytop $sub" "$work/help-$sub" || problem "notifytop help $sub prints no usage line"
    else
        problem "notifytop help $sub exits $?"
    fi
done

# Each shell's own parser on each script, from the root and from each subcommand.
declare -A check=([bash]="bash -n" [zsh]="zsh -n" [fish]="fish --no-execute")
for shell in bash zsh fish; do
    command -v "$shell" > /dev/null || { problem "$shell is not installed (.ci/setup installs it)"; continue; }
    for sub in "" "${subcommands[@]}"; do
        script="$work/completion-$shell${sub:+-$sub}"
        # shellcheck disable=SC2086 # $sub is one word or nothing
        if ! "$top" $sub --generate-completion-script "$shell" > "$script" 2> "$work/err"; then
            problem "notifytop ${sub:+$sub }--generate-completion-script $shell exits non-zero: $(head -1 "$work/err")"
            continue
        fi
        ${check[$shell]} "$script" 2> "$work/err" ||
            problem "${check[$shell]} rejects the $shell completion${sub:+ from $sub}: $(head -1 "$work/err")"
    done
done

# The bash script completes a subcommand's name and one of its options.
complete_words() {
    bash -c 'source "$1"; shift; COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); COMP_LINE="$*"; COMP_POINT=${#COMP_LINE}
        _notifytop notifytop "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD - 1]}" 2> /dev/null
        printf "%s\n" "${COMPREPLY[@]}"' _ "$work/completion-bash" "$@"
}
complete_words notifytop di | grep -qx diff || problem "bash completion of 'notifytop di' does not offer diff"
complete_words notifytop explain --na | grep -qx -- --name ||
    problem "bash completion of 'notifytop explain --na' does not offer --name"

[ $problems -eq 0 ] || exit 1
echo "check-cli: ${#subcommands[@]} subcommands (${subcommands[*]}): help and completion scripts hold"
