#!/usr/bin/env bash
# Fuzzes the read path with libFuzzer and AddressSanitizer for a bounded time, in two targets:
#   decoder-fuzz    TraceDecoder alone, with its properties (Tests/Fuzz/DecoderFuzz.swift);
#   read-path-fuzz  bytes → decoder → the model's fold and rules → every view rendered → the
#                   exports and reports: views' text, CSV and batch JSON, diff's, explain's and
#                   the cascade's reports, the Perfetto timeline (Tests/Fuzz/ReadPathFuzz.swift).
#
#   Tests/Fuzz/run-decoder-fuzz.sh [seconds]     (default 30, for each target)
#
# Built with `swiftc -sanitize=fuzzer,address`: the decoder target from the NotifyWire sources
# in one module; the read-path target from NotifySystem, NotifyWire, NotifyModel and NotifyTUI built as
# modules of their own, as the package builds them, and NotifySession's report and export files
# (those that need no terminal, socket or file) as a module of their own. The corpus starts from
# every JSON line in the wire-format article plus boundary cases (numbers at 2^64 − 1, an
# over-long line, a header in the middle, a repeated seq) and the inputs that once crashed a
# report or an export (Tests/Fuzz/seeds/), and is kept in .build-fuzz/ between runs. Exits non-zero when
# libFuzzer finds a crash, a timeout, a sanitizer error or a broken property; the failing input
# is saved in .build-fuzz/.
set -euo pipefail
cd "$(dirname "$0")/../.."

seconds="${1:-30}"
out=".build-fuzz"
mkdir -p "$out/corpus"

# Seed corpus: each line of the spec alone, and the whole example session.
spec="Sources/NotifyWire/Documentation.docc/WireFormat.md"
index=0
while IFS= read -r line; do
    printf '%s\n' "$line" > "$out/corpus/seed-$index.jsonl"
    index=$((index + 1))
done < <(grep '^{"k":' "$spec")
grep '^{"k":' "$spec" > "$out/corpus/seed-all.jsonl"

# Boundary seeds: the example session with every number pushed to its limits, an over-long line,
# a second header, a repeated seq, and hostile names.
header=$(grep '^{"k":"header"' "$spec" | head -n 1)
grep '^{"k":' "$spec" | sed -E 's/:[0-9]{2,}/:18446744073709551615/g' > "$out/corpus/seed-max.jsonl"
grep '^{"k":' "$spec" | sed -E 's/:[0-9]{2,}/:18446744073709551614/g' > "$out/corpus/seed-max-1.jsonl"
grep '^{"k":' "$spec" | sed -E 's/"t":[0-9]+/"t":18446744073000000000/g' > "$out/corpus/seed-late-clock.jsonl"
grep '^{"k":' "$spec" | sed -E 's/"duration":[0-9]+/"duration":18446744073709500000/g' > "$out/corpus/seed-duration.jsonl"
{ grep '^{"k":' "$spec"; grep '^{"k":' "$spec"; } > "$out/corpus/seed-repeated.jsonl"
{ echo "$header"; head -c 5000 /dev/zero | tr '\0' 'x'; echo; grep '^{"k":' "$spec" | tail -n +2; } \
    > "$out/corpus/seed-long-line.jsonl"
# Inputs that once crashed or leaked through a report or an export, kept as regression seeds.
for seed in Tests/Fuzz/seeds/*.jsonl; do
    cp "$seed" "$out/corpus/seed-regression-$(basename "$seed")"
done
grep '^{"k":' "$spec" | sed -E 's/"name":"[^"]*"/"name":"Did\\u2066Save\\u2069\\u001b[2J\\u200d👨\\u200d👩e\\u0301"/g' \
    > "$out/corpus/seed-names.jsonl"

flags=(-sanitize=fuzzer,address -O -g -package-name notifytop -swift-version 6
    -enable-upcoming-feature ExistentialAny -enable-upcoming-feature MemberImportVisibility
    -enable-upcoming-feature InternalImportsByDefault)

echo "fuzz: building $out/decoder-fuzz"
swiftc -sanitize=fuzzer,address -parse-as-library -O -g \
    -module-name NotifyWireFuzz -package-name notifytop \
    $(find Sources/NotifyWire -name "*.swift" | sort) Tests/Fuzz/DecoderFuzz.swift \
    -o "$out/decoder-fuzz"

echo "fuzz: building $out/read-path-fuzz"
modules="$out/modules"
mkdir -p "$modules/CDisplayWidth"
clang -fsanitize=fuzzer-no-link,address -O1 -g -ISources/CDisplayWidth/include \
    -c Sources/CDisplayWidth/CDisplayWidth.c -o "$modules/CDisplayWidth.o"
printf 'module CDisplayWidth {\n    header "%s"\n    export *\n}\n' \
    "$PWD/Sources/CDisplayWidth/include/CDisplayWidth.h" > "$modules/CDisplayWidth/module.modulemap"
# sources MODULE: what the fuzzer compiles of it; of NotifySession, the reports and exports.
sources() {
    if [ "$1" = NotifySession ]; then
        for file in Reports/RecordingDiff.swift Reports/RecordingDiff+Report.swift Recording/RecordingFold.swift \
            Reports/ExplanationReport.swift Reports/CascadeReport.swift Reports/ReportedPost.swift \
            Reports/ReportedObject.swift \
            Output/PrintableText.swift Output/BatchJSON.swift Output/BatchJSON+Overview.swift Output/PrettyJSON.swift \
            Output/PerfettoTraceWriter.swift Output/SliceNesting.swift; do
            echo "Sources/NotifySession/$file"
        done
    else
        find "Sources/$1" -name '*.swift' | sort
    fi
}
for module in NotifySystem NotifyWire NotifyModel NotifyTUI NotifySession; do
    swiftc "${flags[@]}" -parse-as-library -wmo -c -I "$modules" -I "$modules/CDisplayWidth" \
        -module-name "$module" -emit-module -emit-module-path "$modules/$module.swiftmodule" \
        $(sources "$module") -o "$modules/$module.o"
done
swiftc "${flags[@]}" -parse-as-library -I "$modules" -I "$modules/CDisplayWidth" \
    Tests/Fuzz/ReadPathFuzz.swift "$modules"/*.o -o "$out/read-path-fuzz"

# run TARGET: libFuzzer on its own copy of the corpus, for the given time.
run() {
    mkdir -p "$out/corpus-$1"
    cp -n "$out"/corpus/seed-* "$out/corpus-$1/" 2>/dev/null || true
    echo "fuzz: running $1 for ${seconds}s"
    "$out/$1" \
        -max_total_time="$seconds" \
        -max_len=4096 \
        -timeout=10 \
        -rss_limit_mb=2048 \
        -dict=Tests/Fuzz/trace.dict \
        -artifact_prefix="$out/$1-" \
        -print_final_stats=1 \
        "$out/corpus-$1"
}
run decoder-fuzz
run read-path-fuzz
