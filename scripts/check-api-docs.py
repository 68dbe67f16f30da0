#!/usr/bin/env python3
"""Fails when a public symbol of Kinema or KinemaReference (what `import` shows without @_spi)
has no doc comment. Reads the symbol graphs `swift package dump-symbol-graph` writes.
`--self-test` first checks that an undocumented public symbol is reported and an SPI one is not."""
import glob
import json
import subprocess
import sys


def undocumented(symbols):
    """(count of public symbols, 'file:line: Type.member' of those without a doc comment)."""
    missing, total = [], 0
    for symbol in symbols:
        # Members a protocol gives (no location here) are documented where the protocol is.
        if symbol.get("spi") or symbol["accessLevel"] not in ("public", "open") or "location" not in symbol:
            continue
        total += 1
        if not symbol.get("docComment"):
            location = symbol["location"]
            missing.append(
                f"{location['uri'].split('/Sources/')[-1]}:{location['position']['line'] + 1}: "
                f"{'.'.join(symbol['pathComponents'])}")
    return total, missing


def self_test():
    where = {"uri": "file:///p/Sources/Kinema/A.swift", "position": {"line": 4}}
    symbols = [
        {"accessLevel": "public", "pathComponents": ["A", "x"], "location": where},
        {"accessLevel": "public", "pathComponents": ["A", "y"], "location": where, "docComment": {"lines": []}},
        {"accessLevel": "public", "pathComponents": ["A", "z"], "location": where, "spi": True},
        {"accessLevel": "internal", "pathComponents": ["A", "w"], "location": where},
        {"accessLevel": "public", "pathComponents": ["A", "inherited"]},
    ]
    total, missing = undocumented(symbols)
    assert (total, missing) == (2, ["Kinema/A.swift:5: A.x"]), (total, missing)


if "--self-test" in sys.argv:
    self_test()
subprocess.run(
    ["swift", "package", "dump-symbol-graph", "--minimum-access-level", "public"],
    check=True, stdout=subprocess.DEVNULL)
directory = glob.glob(".build/*/symbolgraph")[0]
symbols = []
for module in ["Kinema", "KinemaReference"]:
    for path in glob.glob(f"{directory}/{module}.symbols.json") + glob.glob(f"{directory}/{module}@*.symbols.json"):
        symbols += json.load(open(path))["symbols"]
total, missing = undocumented(symbols)
if missing:
    print(f"check-api-docs: {len(missing)} of {total} public symbols have no doc comment:", file=sys.stderr)
    print("\n".join(sorted(missing)), file=sys.stderr)
    sys.exit(1)
print(f"check-api-docs: all {total} public symbols documented")
