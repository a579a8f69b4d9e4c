#!/bin/sh
# Builds the libFuzzer target .build/fuzz/reader-fuzzer (see Docs/fuzzing.md).
#
#   Fuzz/build.sh                 build the fuzzer
#   Fuzz/build.sh --corpus DIR    build it, then seed DIR with the small fixtures
#
# The sources of RealmFormat (every folder: Writing/, SearchIndex/, Legacy/) and the reading
# half of RealmObjects (its top folder) are compiled together with Fuzz/ReaderFuzzer.swift
# as one module named RealmFormat: the `import RealmFormat` lines of RealmObjects then name the
# module being compiled and are ignored (a warning), and the fuzz file needs no import.
set -eu

root=$(cd "$(dirname "$0")/.." && pwd)
out="$root/.build/fuzz"
corpus=""
while [ $# -gt 0 ]; do
    case "$1" in
        --corpus) corpus="${2:?--corpus needs a directory}"; shift 2 ;;
        -h|--help) sed -n '2,9p' "$0"; exit 0 ;;
        *) echo "build.sh: unknown argument $1" >&2; exit 2 ;;
    esac
done

if [ -n "$corpus" ]; then
    mkdir -p "$corpus"
    case "$(cd "$corpus" && pwd)/" in
        "$root"/*) rmdir "$corpus" 2>/dev/null || true
                   echo "build.sh: $corpus is inside the repository; use a directory such as /tmp/corpus" >&2
                   exit 2 ;;
    esac
fi

mkdir -p "$out"
rm -f "$out/reader-fuzzer"
# -suppress-warnings hides the "ignoring import" warnings; lld links without gold's noise
# about AddressSanitizer's local symbols.
swiftc -sanitize=fuzzer,address -parse-as-library -O -g \
    -swift-version 6 -module-name RealmFormat -suppress-warnings -use-ld=lld \
    -module-cache-path "$out/module-cache" \
    -I "$root/Sources/CCrypto" -I "$root/Sources/CPrefetch" \
    "$root/Fuzz/ReaderFuzzer.swift" \
    $(find "$root/Sources/RealmFormat" -name '*.swift' | sort) \
    "$root"/Sources/RealmObjects/*.swift \
    -o "$out/reader-fuzzer"
echo "built $out/reader-fuzzer"

if [ -n "$corpus" ]; then
    # Seeds: the small fixtures, copied outside the repository only.
    fixtures="$root/../shared/fixtures"
    [ -d "$fixtures" ] || fixtures=/work/shared/fixtures
    mkdir -p "$corpus"
    n=0
    # churn.realm (2 MiB) is left out: libFuzzer's default -max_len is 1 MiB, and a truncated
    # Realm file loses its top array and fails at once.
    for f in realm-core/basic realm-core/alltypes realm-core/schema_v3 \
             realm-core/exported realm-core/empty realm-core/noclasses \
             realm-core-tests/sync-metadata-v4 realm-core-tests/sync-metadata-v5 \
             realm-core-tests/sync-metadata-v6 realm-core-tests/test_flx_metadata_tables_v1 \
             realm-core-tests/test_upgrade_database_11 realm-core-tests/test_upgrade_database_20 \
             realm-core-tests/test_upgrade_database_4_10_to_11 realm-core-tests/test_upgrade_database_4_22 \
             realm-core-tests/test_upgrade_database_1000_22 realm-core-tests/test_upgrade_database_4_23 \
             realm-core-tests/downgrade_asymmetric realm-core-tests/client_schema_version_011 \
             public/java__default-before-migration public/core__test_upgrade_database_1000_9_to_10 \
             public/core__test_upgrade_database_4_9_to_10 public/java__viewTest public/core__test_upgrade_progress_6 \
             public/core__test_upgrade_colkey_error public/core__test_test_upgrade_database_4_5_to_6_stringindex \
             public/java__asset_file public/core__test_upgrade_database_1000_3_to_4_datetime1 \
             public/core__test_upgrade_database_4_1 public/java__versionTest public/js__dates-v3; do
        if [ -f "$fixtures/$f.realm" ]; then
            cp "$fixtures/$f.realm" "$corpus/seed-$(basename "$f").realm"
            chmod u+w "$corpus/seed-$(basename "$f").realm"
            n=$((n + 1))
        fi
    done
    echo "seeded $corpus with $n fixtures from $fixtures"
fi
