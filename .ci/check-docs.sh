#!/usr/bin/env bash
# Checks that the README and docs/ still hold: the README stays short, its first two commands are
# the ones a newcomer runs, every `swift run PRODUCT` names a product of Package.swift, and every
# relative link or image in README.md and docs/*.md points to a file that exists.
# No network. Prints one line per problem and exits 1 when there is any.
set -uo pipefail
cd "$(dirname "$0")/.."

readme=README.md
limit=20000
first_commands=(".ci/setup && swift run notifytop --demo" ".ci/setup && swift test")
problems=0
problem() {
    echo "check-docs: $*"
    problems=$((problems + 1))
}

[ -f "$readme" ] || { echo "check-docs: $readme is missing"; exit 1; }
documents=("$readme")
for file in docs/*.md; do [ -f "$file" ] && documents+=("$file"); done

size=$(wc -c < "$readme")
[ "$size" -le "$limit" ] || problem "$readme is $size bytes, over the limit of $limit"

# The lines inside fenced blocks that are commands: comments, blank lines and a `$ ` prompt
# dropped, a trailing `# comment` cut, in order.
fenced_commands() {
    awk '
        /^ ? ? ?(```|~~~)/ { fenced = !fenced; next }
        fenced {
            line = $0
            sub(/^[ \t]*(\$ )?/, "", line)
            if (line == "" || line ~ /^#/) next
            sub(/[ \t]+#.*$/, "", line)
            sub(/[ \t]+$/, "", line)
            print line
        }' "$1"
}
mapfile -t commands < <(fenced_commands "$readme" | head -n ${#first_commands[@]})
for index in "${!first_commands[@]}"; do
    expected=${first_commands[$index]}
    found=${commands[$index]:-}
    [ "$found" = "$expected" ] ||
        problem "$readme: fenced command $((index + 1)) is '${found:-nothing}', expected '$expected'"
done

# `swift run [options] PRODUCT`: PRODUCT must be an executable product of Package.swift.
mapfile -t products < <(grep -oE '\.executable\(name: *"[^"]+"' Package.swift | sed -E 's/.*"([^"]+)"/\1/')
for file in "${documents[@]}"; do
    grep -noE 'swift run( +[^ `|;&)]+)*' "$file" | while IFS= read -r hit; do
        line=${hit%%:*}
        read -r -a words <<< "${hit#*:}"
        product=""
        index=2
        while [ $index -lt ${#words[@]} ]; do
            word=${words[$index]}
            case "$word" in
            -c | --configuration | --scratch-path | --package-path | --build-path | -j | --jobs | \
                --sanitize | --triple | --swift-sdk | -Xswiftc | -Xcc | -Xlinker | -Xcxx)
                index=$((index + 2)) ;;
            -*) index=$((index + 1)) ;;
            *) product=$word; break ;;
            esac
        done
        [ -n "$product" ] || continue
        known=no
        for declared in "${products[@]}"; do [ "$declared" = "$product" ] && known=yes; done
        [ $known = yes ] || echo "check-docs: $file:$line: 'swift run $product': no executable product '$product' in Package.swift"
    done
done > "${TMPDIR:-/tmp}/check-docs.$$"
while IFS= read -r line; do problems=$((problems + 1)); echo "$line"; done < "${TMPDIR:-/tmp}/check-docs.$$"
rm -f "${TMPDIR:-/tmp}/check-docs.$$"

# Relative links and images outside code: [text](target), ![alt](target) and [label]: target.
links() {
    awk '
        /^ ? ? ?(```|~~~)/ { fenced = !fenced; next }
        fenced { next }
        {
            line = $0
            gsub(/`[^`]*`/, "", line)
            if (match(line, /^ ? ? ?\[[^]]+\]:[ \t]+[^ \t]+/)) {
                target = line
                sub(/^ ? ? ?\[[^]]+\]:[ \t]+/, "", target)
                sub(/[ \t].*$/, "", target)
                print NR "\t" target
            }
            while (match(line, /\]\([^)]*\)/)) {
                target = substr(line, RSTART + 2, RLENGTH - 3)
                line = substr(line, RSTART + RLENGTH)
                sub(/^[ \t]*</, "", target)
                sub(/>.*$/, "", target)
                sub(/[ \t].*$/, "", target)
                print NR "\t" target
            }
        }' "$1"
}
for file in "${documents[@]}"; do
    directory=$(dirname "$file")
    while IFS=$'\t' read -r line target; do
        case "$target" in
        "" | \#* | http://* | https://* | mailto:*) continue ;;
        esac
        path=${target%%#*}
        path=${path%%\?*}
        path=${path//%20/ }
        case "$path" in
        /*) resolved=".$path" ;;
        *) resolved="$directory/$path" ;;
        esac
        [ -e "$resolved" ] || problem "$file:$line: link to '$target': no such file"
    done < <(links "$file")
done

[ $problems -eq 0 ] || exit 1
echo "check-docs: ${documents[*]}: fine"
