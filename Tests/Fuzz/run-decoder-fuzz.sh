#!/usr/bin/env bash
# Fuzzes TraceDecoder with libFuzzer and AddressSanitizer for a bounded time.
#
#   Tests/Fuzz/run-decoder-fuzz.sh [seconds]     (default 30)
#
# Builds Sources/NotifyWire plus Tests/Fuzz/DecoderFuzz.swift into one executable with
# `swiftc -sanitize=fuzzer,address`. The corpus starts from every JSON line in the wire-format
# article and is kept in .build-fuzz/corpus between runs. Exits non-zero when libFuzzer finds a
# crash, a sanitizer error or a broken property; the failing input is saved in .build-fuzz/.
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

echo "fuzz: building $out/decoder-fuzz"
swiftc -sanitize=fuzzer,address -parse-as-library -O -g \
    -module-name NotifyWireFuzz -package-name notifytop \
    Sources/NotifyWire/*.swift Tests/Fuzz/DecoderFuzz.swift \
    -o "$out/decoder-fuzz"

echo "fuzz: running for ${seconds}s"
"$out/decoder-fuzz" \
    -max_total_time="$seconds" \
    -max_len=4096 \
    -timeout=10 \
    -rss_limit_mb=2048 \
    -dict=Tests/Fuzz/trace.dict \
    -artifact_prefix="$out/" \
    -print_final_stats=1 \
    "$out/corpus"
