#!/usr/bin/env bash
# What an app resolves when it depends on the Kinema product: a scratch package that names this
# checkout by path, as an app does, resolved by SwiftPM. It must stay at most 4 packages
# (swift-numerics, swift-argument-parser, the DocC plugin and its symbol kit): the studio's
# server stack lives in Studio/, a package of its own, because SwiftPM resolves every dependency
# that any target of a package names.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
mkdir -p "$scratch/Sources/App"
cat >"$scratch/Package.swift" <<EOF
// swift-tools-version: 6.1
import PackageDescription

let package = Package(
    name: "App",
    platforms: [.macOS(.v14)],
    dependencies: [.package(name: "Kinema", path: "$root")],
    targets: [.executableTarget(name: "App", dependencies: [.product(name: "Kinema", package: "Kinema")])]
)
EOF
echo 'import Kinema' >"$scratch/Sources/App/main.swift"
(cd "$scratch" && swift package resolve >"$scratch/resolve.log" 2>&1) || { cat "$scratch/resolve.log" >&2; exit 1; }
pins=$(python3 -c 'import json, sys; print(" ".join(sorted(p["identity"] for p in json.load(open(sys.argv[1]))["pins"])))' \
    "$scratch/Package.resolved")
count=$(wc -w <<<"$pins")
echo "check-dependencies: an app depending on Kinema resolves $count packages: $pins"
if [ "$count" -gt 4 ]; then
    echo "check-dependencies: more than 4 packages for an app that wants the library" >&2
    exit 1
fi
