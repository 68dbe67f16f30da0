#!/usr/bin/env python3
"""Checks the README against the rest of the documentation, so the two cannot drift:

- the README is at most 300 lines and cites no file the repository does not have;
- every row of its "Headline figures" table names a benchmark of docs/performance.md's
  "Headline figures" table and quotes that row's ratio exactly;
- every docs/ file it links to exists.

Exits 1 naming each disagreement.
"""
import pathlib
import re
import sys

root = pathlib.Path(__file__).resolve().parent.parent


def table(text: str, heading: str) -> dict:
    """The rows of the first table after `## heading`, keyed by their first cell."""
    section = text.split(f"\n## {heading}\n", 1)
    if len(section) < 2:
        return {}
    rows = {}
    for line in section[1].split("\n## ", 1)[0].splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if line.startswith("|") and len(cells) >= 2 and not set(cells[0]) <= set("- ") and cells[0] != "benchmark":
            rows[cells[0]] = cells
    return rows


def version_problems(changelog: str, command: str) -> list:
    """`kinema --version` must be the CHANGELOG's latest release."""
    released = re.search(r"^## (\d+\.\d+\.\d+)", changelog, re.M)
    printed = re.search(r'static let version = "kinema (\d+\.\d+\.\d+)"', command)
    if not released or not printed:
        return ["CHANGELOG.md has no '## X.Y.Z' entry, or KinemaCommand.version is not 'kinema X.Y.Z'"]
    if released.group(1) != printed.group(1):
        return [f"kinema --version says {printed.group(1)}, CHANGELOG.md's latest release is {released.group(1)}"]
    return []


def main() -> int:
    readme = (root / "README.md").read_text(encoding="utf-8")
    performance = (root / "docs" / "performance.md").read_text(encoding="utf-8")
    problems = []
    if len(readme.splitlines()) > 300:
        problems.append(f"README.md has {len(readme.splitlines())} lines, more than 300")
    if "SPEC" in readme:
        problems.append("README.md cites SPEC, a document the repository does not have")
    quoted, measured = table(readme, "Headline figures"), table(performance, "Headline figures")
    if not quoted:
        problems.append("README.md has no 'Headline figures' table")
    for name, cells in quoted.items():
        if name not in measured:
            problems.append(f"README headline '{name}' is not a row of docs/performance.md's table")
        elif cells[1] != measured[name][3]:
            problems.append(f"README headline '{name}': '{cells[1]}', docs/performance.md: '{measured[name][3]}'")
    problems += version_problems(
        (root / "CHANGELOG.md").read_text(encoding="utf-8"),
        (root / "Sources" / "KinemaCLI" / "KinemaCommand.swift").read_text(encoding="utf-8"))
    for link in re.findall(r"\]\((docs/[^)#]+)", readme):
        if not (root / link).exists():
            problems.append(f"README links to {link}, which does not exist")
    for problem in problems:
        print(f"check-docs: {problem}", file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    if "--self-test" in sys.argv:
        bad = "\n## Headline figures\n\n| benchmark | ratio |\n| --- | --- |\n| x | **2×** |\n"
        good = "\n## Headline figures\n\n| benchmark | Kinema | peer | ratio |\n| --- | --- | --- | --- |\n| x | a | b | **3×** |\n"
        assert table(bad, "Headline figures")["x"][1] != table(good, "Headline figures")["x"][3], "a differing ratio must differ"
        assert table(good, "Headline figures")["x"][3] == "**3×**"
        command = 'static let version = "kinema 1.2.0"'
        assert version_problems("# Changelog\n\n## 1.2.0 — date\n", command) == []
        assert version_problems("# Changelog\n\n## 1.3.0 — date\n", command), "a differing version must fail"
    sys.exit(main())
