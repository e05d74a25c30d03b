#!/usr/bin/env bash
# Fails (exit 1) on a `public` or `open` declaration in a library target that no product exports:
# such a declaration is API nobody outside the package can reach, so it should say `package`. Also
# fails on a target under Tests/ that imports a module of this package it does not declare.
# The exported targets come from Package.swift (`swift package dump-package`). Executables and
# targets under Tests/ (test support) are not checked: nothing outside the package imports them.
set -euo pipefail
cd "$(dirname "$0")/.."

manifest=$(swift package dump-package)

# One line per target: "<name> <type> <path or ->"; then the targets of library products.
if command -v jq >/dev/null; then
    targets=$(jq -r '.targets[] | "\(.name) \(.type) \(.path // "-")"' <<<"$manifest")
    exported=$(jq -r '.products[] | select(.type | has("library")) | .targets[]' <<<"$manifest")
else
    targets=$(python3 -c 'import json, sys
for t in json.load(sys.stdin)["targets"]: print(t["name"], t["type"], t.get("path") or "-")' <<<"$manifest")
    exported=$(python3 -c 'import json, sys
for p in json.load(sys.stdin)["products"]:
    if "library" in p["type"]: print("\n".join(p["targets"]))' <<<"$manifest")
fi

found=0
while read -r name type path; do
    [ "$type" = regular ] || continue
    grep -qxF "$name" <<<"$exported" && continue
    [ "$path" = - ] && path="Sources/$name"
    case "$path" in Tests/*) continue ;; esac
    [ -d "$path" ] || continue
    # A declaration line that starts with `public` or `open`, after attributes; comments are not
    # code. Imports are left to the compiler: it requires `public import` where a public conformance
    # names the module's protocol (a product type made an argument), and warns where it is unused.
    hits=$(grep -rnE --include='*.swift' '^[[:space:]]*(@[^[:space:]]+[[:space:]]+)*(public|open)([[:space:](]|$)' "$path" |
        grep -vE '^[^:]+:[0-9]+:[[:space:]]*(@[^[:space:]]+[[:space:]]+)*public[[:space:]]+import[[:space:]]' || true)
    if [ -n "$hits" ]; then
        while IFS= read -r hit; do
            echo "${hit%%:*}:$(cut -d: -f2 <<<"$hit"): public in $name, which no library product exports (say package)"
        done <<<"$hits"
        found=1
    fi
done <<<"$targets"

if [ "$found" = 0 ]; then
    echo "every public declaration is in a target a library product exports ($(tr '\n' ' ' <<<"$exported"))"
fi

# A target under Tests/ that imports a module of this package it does not declare builds only when
# another target happens to build that module first: building it alone fails ("no such module").
undeclared=0
packageModules=$(jq -r '.targets[].name' <<<"$manifest")
while IFS=$'\t' read -r name path declared; do
    [ "$path" = null ] && path="Tests/$name"
    case "$path" in Tests/*) ;; *) continue ;; esac
    [ -d "$path" ] || continue
    imports=$(grep -rhoE --include='*.swift' \
        '^[[:space:]]*(@[A-Za-z_]+[[:space:]]+)*((public|package|internal|fileprivate|private)[[:space:]]+)?import[[:space:]]+[A-Za-z_][A-Za-z0-9_]*' \
        "$path" | awk '{print $NF}' | sort -u || true)
    for module in $imports; do
        grep -qxF "$module" <<<"$packageModules" || continue
        [ "$module" = "$name" ] && continue
        grep -qxF "$module" <<<"$(tr ' ' '\n' <<<"$declared")" && continue
        echo "$path: $name imports $module, which its dependencies in Package.swift do not list"
        undeclared=1
    done
done < <(jq -r '.targets[] | [.name, (.path // "null"),
    ([.dependencies[] | (.byName // .target // .product)[0]] | join(" "))] | @tsv' <<<"$manifest")
if [ "$undeclared" = 0 ]; then
    echo "every target under Tests/ declares each module of the package it imports"
fi
[ "$found" = 0 ] && [ "$undeclared" = 0 ]
