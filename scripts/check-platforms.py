#!/usr/bin/env python3
"""Checks that Kinema builds for the Apple targets apps ship on today, by reading the source
(a Linux machine cannot build for Apple SDKs, so this is what `make test` can check):

1. `Package.swift` declares `platforms:` with iOS, macOS, tvOS, watchOS and visionOS, none newer
   than iOS 17 / macOS 14 / tvOS 17 / watchOS 10 / visionOS 1.
2. No Swift file under `Sources/` uses standard-library API newer than those floors (InlineArray
   and the Span family: OS 26; Mutex, Atomic, Int128: OS 15 / iOS 18) outside a declaration marked
   `@available(...)` or an `if #available(...)` / `guard #available(...)` block.

Comments and string literals are ignored. `--self-test` runs the checker on known-good and
known-bad inputs first, so the check cannot silently pass everything.
Exit 0 when clean; 1 with one line per problem (file:line: what, the rule) otherwise.
"""
import pathlib
import re
import sys
import tempfile

FLOORS = {"iOS": (17,), "macOS": (14,), "tvOS": (17,), "watchOS": (10,), "visionOS": (1,)}

# Symbol → the first OS release that has it (as the standard library's availability says).
NEWER_API = {
    r"\bInlineArray\b": "InlineArray (iOS 26 / macOS 26)",
    r"\b(Mutable)?(Raw)?Span\b": "Span (iOS 26 / macOS 26)",
    r"\bOutputSpan\b": "OutputSpan (iOS 26 / macOS 26)",
    r"\bUTF8Span\b": "UTF8Span (iOS 26 / macOS 26)",
    r"\.(mutableSpan|span)\b": ".span (iOS 26 / macOS 26)",
    r"\bMutex\b": "Mutex (iOS 18 / macOS 15)",
    r"\bAtomic\s*<": "Atomic (iOS 18 / macOS 15)",
    r"\bimport\s+Synchronization\b": "Synchronization (iOS 18 / macOS 15)",
    r"\bU?Int128\b": "Int128 (iOS 18 / macOS 15)",
}


def strip_comments_and_strings(text):
    """The source with comments and string literals blanked out, line breaks kept."""
    out, i, n = [], 0, len(text)
    while i < n:
        if text.startswith("//", i):
            j = text.find("\n", i)
            j = n if j < 0 else j
            out.append(" " * (j - i)); i = j
        elif text.startswith("/*", i):
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
            out.append(re.sub(r"[^\n]", " ", text[i:j])); i = j
        elif text.startswith('"""', i):
            j = text.find('"""', i + 3)
            j = n if j < 0 else j + 3
            out.append(re.sub(r"[^\n]", " ", text[i:j])); i = j
        elif text[i] == '"':
            j = i + 1
            while j < n and text[j] not in '"\n':
                j += 2 if text[j] == "\\" else 1
            out.append(" " * (min(j + 1, n) - i)); i = min(j + 1, n)
        else:
            out.append(text[i]); i += 1
    return "".join(out)


def guarded_ranges(code):
    """Character ranges of the bodies of `@available` declarations and `#available` blocks."""
    ranges, stack = [], []
    header_start = 0
    for i, ch in enumerate(code):
        if ch == "{":
            header = code[header_start:i]
            stack.append((i, "@available(" in header or "#available(" in header))
            header_start = i + 1
        elif ch == "}":
            if stack:
                start, guarded = stack.pop()
                if guarded:
                    ranges.append((start, i))
            header_start = i + 1
        elif ch == ";":
            header_start = i + 1
    return ranges


def check_sources(root):
    problems = []
    for path in sorted(pathlib.Path(root).rglob("*.swift")):
        code = strip_comments_and_strings(path.read_text(encoding="utf-8"))
        ranges = guarded_ranges(code)
        for pattern, what in NEWER_API.items():
            for match in re.finditer(pattern, code):
                if any(a <= match.start() <= b for a, b in ranges):
                    continue
                line = code.count("\n", 0, match.start()) + 1
                problems.append(f"{path}:{line}: {what} outside @available/#available: "
                                "the library must build for iOS 17 / macOS 14 and later")
    return problems


def check_manifest(path):
    code = strip_comments_and_strings(pathlib.Path(path).read_text(encoding="utf-8"))
    match = re.search(r"platforms\s*:\s*\[(.*?)\]", code, re.S)
    if not match:
        return [f"{path}: no 'platforms:' (must name iOS 17, macOS 14, tvOS 17, watchOS 10, visionOS 1 or older)"]
    declared = dict(re.findall(r"\.(iOS|macOS|tvOS|watchOS|visionOS)\s*\(\s*\.v(\d+(?:_\d+)*)\s*\)", match.group(1)))
    problems = []
    for os_name, floor in FLOORS.items():
        if os_name not in declared:
            problems.append(f"{path}: platforms lacks .{os_name} (must be v{floor[0]} or older)")
            continue
        version = tuple(int(p) for p in declared[os_name].split("_"))
        if version[:1] > floor:
            problems.append(f"{path}: .{os_name}(.v{declared[os_name]}) is newer than v{floor[0]}")
    return problems


def self_test():
    """The checker must flag what it exists to flag, and pass what is allowed."""
    with tempfile.TemporaryDirectory() as tmp:
        tmp = pathlib.Path(tmp)
        (tmp / "bad").mkdir(); (tmp / "good").mkdir()
        (tmp / "bad" / "A.swift").write_text("struct A { var x: InlineArray<4, Double>\n func f() { _ = x.span } }\n")
        (tmp / "good" / "B.swift").write_text(
            "// InlineArray in a comment\nlet s = \"InlineArray\"\n"
            "@available(macOS 26, iOS 26, *)\nstruct B { var x: InlineArray<4, Double> }\n"
            "func g() { if #available(macOS 26, *) { let _ = InlineArray<2, Int>(repeating: 0) } }\n")
        (tmp / "Old.swift").write_text("// swift-tools-version: 6.1\nlet package = Package(name: \"P\")\n")
        (tmp / "New.swift").write_text(
            "let package = Package(name: \"P\", platforms: [.iOS(.v26), .macOS(.v14), .tvOS(.v17), .watchOS(.v10), .visionOS(.v1)])\n")
        (tmp / "Ok.swift").write_text(
            "let package = Package(name: \"P\", platforms: [.iOS(.v17), .macOS(.v14), .tvOS(.v17), .watchOS(.v10), .visionOS(.v1)])\n")
        assert len(check_sources(tmp / "bad")) == 2, check_sources(tmp / "bad")
        assert check_sources(tmp / "good") == [], check_sources(tmp / "good")
        assert check_manifest(tmp / "Old.swift"), "a manifest without platforms passed"
        assert len(check_manifest(tmp / "New.swift")) == 1, check_manifest(tmp / "New.swift")
        assert check_manifest(tmp / "Ok.swift") == [], check_manifest(tmp / "Ok.swift")


def main(argv):
    if "--self-test" in argv:
        self_test()
    root = pathlib.Path(__file__).resolve().parent.parent
    problems = check_manifest(root / "Package.swift") + check_sources(root / "Sources")
    for problem in problems:
        print(f"check-platforms: {problem}", file=sys.stderr)
    if problems:
        return 1
    print("check-platforms: Package.swift declares iOS 17 / macOS 14 / tvOS 17 / watchOS 10 / visionOS 1; "
          "no newer standard-library API outside @available", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
