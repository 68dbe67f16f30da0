#!/usr/bin/env bash
# Fails when the public API of Kinema or KinemaReference (what `import` shows without @_spi)
# breaks against the latest release: CHANGELOG.md's first version, at the commit its entry names
# (the same commit as the git tag of that version, where the tag came with the clone). While a
# version is being released its entry names no commit yet: the release before it is the baseline,
# and a new major version may break it (the breakages are listed).
# API_BASELINE=REV compares with another revision instead.
set -euo pipefail
cd "$(dirname "$0")/.."

# Each release entry: its version, then the release commit it names (if any).
releases=$(
    version="" commit=""
    while IFS= read -r line; do
        if [[ $line =~ ^##\ ([0-9]+\.[0-9]+\.[0-9]+) ]]; then
            [ -n "$version" ] && echo "$version ${commit:--}"
            version=${BASH_REMATCH[1]} commit=""
        elif [ -n "$version" ] && [ -z "$commit" ] && [[ $line =~ ([0-9a-f]{40}) ]]; then
            commit=${BASH_REMATCH[1]}
        fi
    done <CHANGELOG.md
    [ -n "$version" ] && echo "$version ${commit:--}"
)
read -r latest latest_commit <<<"$(head -1 <<<"$releases")"
# The latest entry names no commit while it is being released (the commit that makes it cannot name
# itself): the API is then compared with the release before it, and a new major version may break it.
releasing=""
if [ "$latest_commit" = "-" ]; then
    releasing=$latest
    read -r version commit <<<"$(awk '$2 != "-"' <<<"$releases" | head -1)"
else
    version=$latest commit=$latest_commit
fi
baseline=${API_BASELINE:-$commit}
if [ -z "$baseline" ] || [ "$baseline" = "-" ]; then
    echo "api-check: CHANGELOG.md has no release entry that names its release commit (40 hex digits)" >&2
    exit 1
fi
if ! git cat-file -e "$baseline^{commit}" 2>/dev/null; then
    echo "api-check: the $version release commit $baseline is not in this clone (shallow? git fetch --unshallow)" >&2
    exit 1
fi
# The baseline's API is kept under .build, keyed by commit: built once per release, not per run.
# SwiftPM reports changes to @_spi and package declarations as breakages too (swiftlang/swift#79990),
# which are not public API: a breakage passes when the declaration it names (the type or the member,
# for `Type.member`) is declared @_spi or package (after any attribute, `@usableFromInline package`)
# in the baseline; any other breakage (or a failure without one) fails the check.
check() {
    local report status=0
    report=$(swift package diagnose-api-breaking-changes "$baseline" --products Kinema KinemaReference \
        --baseline-dir ".build/api-baseline/$baseline" 2>&1 | grep -v '^\[[0-9]*/[0-9]*\]') || status=$?
    if [ "$status" -eq 0 ]; then
        printf '%s\n' "$report"
        return 0
    fi
    local breaks public=""
    breaks=$(grep 'API breakage:' <<<"$report" || true)
    if [ -z "$breaks" ]; then
        printf '%s\n' "$report"
        return 1
    fi
    while IFS= read -r line; do
        name=$(sed -E 's/.*API breakage: [a-z]+ ([A-Za-z0-9_.]+).*/\1/' <<<"$line")
        if ! git grep -qE "(@_spi\([A-Za-z]+\) +public|^ *(@[A-Za-z]+ +)*package) .*\b(struct|enum|protocol|class|actor|func|var|let|typealias) (${name%%.*}|${name##*.})\b" \
            "$baseline" -- Sources; then
            public+="$line"$'\n'
        fi
    done <<<"$breaks"
    if [ -n "$public" ]; then
        printf '%s\n' "$report"
        return 1
    fi
    echo "api-check: $(wc -l <<<"$breaks") changes, all to @_spi or package declarations (not public API)"
}

echo "api-check: the public API against $version ($baseline)"
if [ -n "$releasing" ] && [ "${releasing%%.*}" -gt "${version%%.*}" ]; then
    # A new major version: what breaks is listed, as its CHANGELOG entry must say.
    if report=$(check); then
        printf '%s\n' "$report"
    else
        printf '%s\n' "$report" | grep 'API breakage' || printf '%s\n' "$report"
    fi
    echo "api-check: releasing $releasing, a major version: the changes above may break $version"
    exit 0
fi
check

# The check must be able to fail: with a public property made internal (put back on exit,
# however it ends), it must report it removed and exit non-zero.
body=Sources/Kinema/Simulation/PhysicsBody.swift
cp "$body" "$body.api-check"
trap 'mv "$body.api-check" "$body" && touch "$body"' EXIT
sed 's/public private(set) var radius/private(set) var radius/' "$body.api-check" >"$body"
if cmp -s "$body" "$body.api-check"; then
    echo "api-check: PhysicsBody has no 'public private(set) var radius' to hide (update the check)" >&2
    exit 1
fi
echo "api-check: again with PhysicsBody.radius internal, which must fail"
if report=$(check); then
    echo "api-check: a public property was made internal and the check passed" >&2
    exit 1
fi
if ! grep -q 'radius' <<<"$report"; then
    printf 'api-check: the check failed without naming radius:\n%s\n' "$report" >&2
    exit 1
fi
grep 'radius' <<<"$report"
echo "api-check: passes as released; fails, naming it, when a public declaration is removed"
