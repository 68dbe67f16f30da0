#!/usr/bin/env python3
"""Runs the benchmark suites and writes their tables into docs/performance.md.

Every table of docs/performance.md between `<!-- report: NAME -->` and `<!-- end report -->`
is written here, from measurements this run makes; the prose around them is left as it is. The
headline table is the one the README quotes (scripts/check-docs.py compares the two).

Run through `make performance-report`, which builds the release `kinema` first. The suites:
- package-benchmark's Integrators suite (RK4 against plain C and GSL, the other steppers, the
  curves, the bakes, the sweep binary), p50 of its samples;
- WorkPrecision (Kinema, Boost.Odeint and GSL at matched accuracy), ROUNDS runs;
- `kinema work-precision` on the same spring (Kinema against GSL calling the same scene), ROUNDS runs;
- SceneScaling (the 3-D spring chain against Boost.Odeint, in the library and through the binary;
  1,000 spheres in a box), once;
- Benchmarks/mujoco/sphere_box.py (the 1,000-sphere box through `kinema simulate` against MuJoCo
  from PyPI, in a virtual environment of its own), once;
- Benchmarks/pymunk/contacts.py (piles and rains through `kinema simulate` against pymunk from
  PyPI, in a virtual environment of its own), once.
ROUNDS is 3 unless `--rounds N` says otherwise. Ranges in the tables are over the rounds.
`--only mujoco` or `--only pymunk` runs that one alone and writes its table; `--only sweep` runs the suite's Sweep
benchmarks alone and writes the sweep's table and headline rows; `--only studio` loads the release
kinema-studio with wrk (`make benchmark-studio`) and writes its table and headline row.
"""
import datetime
import os
import pathlib
import platform
import re
import socket
import statistics
import subprocess
import sys
import tempfile

root = pathlib.Path(__file__).resolve().parent.parent
benchmarks = root / "Benchmarks"
kinema = root / ".build" / "release" / "kinema"
rounds = int(sys.argv[sys.argv.index("--rounds") + 1]) if "--rounds" in sys.argv else 3


def run(command, cwd=root, env=None):
    """stdout and stderr of a command that must succeed; its output is echoed for the log."""
    print("performance-report: " + " ".join(str(c) for c in command), file=sys.stderr, flush=True)
    done = subprocess.run(
        [str(c) for c in command], cwd=cwd, env={**os.environ, **(env or {})}, capture_output=True, text=True
    )
    if done.returncode != 0:
        sys.stderr.write(done.stdout + done.stderr)
        sys.exit(f"performance-report: {command[0]} failed ({done.returncode})")
    return done.stdout, done.stderr


def markdown_tables(text):
    """Each markdown table in `text` as a list of rows, each a list of cells (separator rows dropped)."""
    tables, current = [], []
    for line in text.splitlines() + [""]:
        if line.startswith("|"):
            cells = [c.strip() for c in line.strip().strip("|").split("|")]
            if not all(set(c) <= set("-: ") for c in cells):
                current.append(cells)
        elif current:
            tables.append(current)
            current = []
    return tables


def as_markdown(rows):
    header, body = rows[0], rows[1:]
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    return "\n".join(lines + ["| " + " | ".join(r) + " |" for r in body])


def level_name(text):
    """'1e-06' (Swift's spelling of the level) as '1e-6'."""
    return re.sub(r"e-0*(\d)", r"e-\1", text)


def span(values, format_value):
    """'a–b' over the rounds, or 'a' when they agree to the shown digits."""
    low, high = format_value(min(values)), format_value(max(values))
    return low if low == high else f"{low}–{high}"


# ---- package-benchmark: the Integrators suite, p50 of wall clock per benchmark ----

def integrators_suite(only=None):
    """{benchmark name: p50 in ns (per step where the benchmark scales its iterations)}; `only`: a
    regular expression of the benchmarks to run."""
    with tempfile.TemporaryDirectory() as folder:
        run(
            ["swift", "package", "--disable-sandbox", "benchmark", "--no-progress", "--metric", "wallClock",
             "--format", "histogramPercentiles", "--path", folder] + (["--filter", only] if only else []),
            cwd=benchmarks, env={"KINEMA": str(kinema)},
        )
        units = {"ns": 1, "μs": 1e3, "us": 1e3, "ms": 1e6, "s": 1e9}
        medians = {}
        for file in pathlib.Path(folder).glob("*.histogram.percentiles.tsv"):
            match = re.match(r".*?\.Integrators\.(.+)\.wallClock\.histogram\.percentiles\.tsv$", file.name)
            if not match:
                continue
            lines = file.read_text().splitlines()
            unit = re.search(r"\((ns|μs|us|ms|s)\)", lines[0])
            p50 = next(float(line.split("\t")[1]) for line in lines[1:] if line.split("\t")[0] == "50")
            medians[match.group(1)] = p50 * units[unit.group(1) if unit else "ns"]
        if not medians:
            sys.exit("performance-report: the Integrators suite wrote no percentiles")
        return medians


# ---- WorkPrecision: each side's cheapest run per accuracy level ----

def work_precision():
    """{level: {'kinema': [...], 'odeint': [...], 'gsl': [...], 'vs_odeint': [...], 'vs_gsl': [...]}}, and the last table."""
    levels, last = {}, None
    for _ in range(rounds):
        out, _ = run(["swift", "run", "-c", "release", "WorkPrecision"], cwd=benchmarks)
        table = markdown_tables(out)[0]
        last = table
        for row in table[1:]:
            if len(row) < 9 or not row[5].endswith("×"):
                sys.exit(f"performance-report: WorkPrecision reached no run at {row[0]}")
            level = levels.setdefault(level_name(row[0]), {k: [] for k in ("names", "kinema", "vs_odeint", "vs_gsl", "odeint_name", "gsl_name")})
            level["names"].append(row[1])
            level["odeint_name"].append(row[3])
            level["gsl_name"].append(row[6])
            level["kinema"].append(float(row[2]))
            level["vs_odeint"].append(float(row[5].rstrip("×")))
            level["vs_gsl"].append(float(row[8].rstrip("×")))
    return levels, last


def cli_work_precision():
    """{level: [ratio, …]} from `kinema work-precision`'s summary, and the last summary's lines."""
    ratios, lines = {}, []
    for _ in range(rounds):
        _, err = run([kinema, "work-precision", "--spring", "--stiffness", "1000", "--damping-ratio", "0.1",
                      "--duration", "2", "-o", os.devnull])
        lines = [line for line in err.splitlines() if line.startswith("work-precision: at ")]
        for line in lines:
            match = re.match(r"work-precision: at (\S+): .*: ([0-9.]+)× faster", line)
            if match:
                ratios.setdefault(level_name(match.group(1)), []).append(float(match.group(2)))
    return ratios, lines


def scene_scaling():
    """SceneScaling's tables: library chain, chain through the binary, sphere box."""
    out, _ = run(["swift", "run", "-c", "release", "SceneScaling"], cwd=benchmarks, env={"KINEMA_CLI": str(kinema)})
    return markdown_tables(out)


SWEEP_ROWS = ("`kinema sweep`, 100,000 springs, 3 metrics", "`kinema sweep`, 20,000 springs, all metrics")


def sweep(suite, measured):
    """The sweep's table and its two headline rows, from the suite's Sweep benchmarks: springs per
    second (process start included) against plain C doing the same rows' arithmetic, and against
    the targets (200,000/s and 60,000/s on two threads)."""
    def rate(name, springs):
        return springs / (suite[name] * 1e-9)
    rows = [["run", "threads", "springs/s", "against"]]
    three = {t: rate(f"Sweep.kinema.100000springs.3metrics.{t}thread{'s' if t > 1 else ''}", 100_000) for t in (1, 2)}
    c = {t: rate(f"Sweep.C.100000springs.3metrics.{t}thread{'s' if t > 1 else ''}", 100_000) for t in (1, 2)}
    for t in (1, 2):
        rows.append(["`kinema sweep`, 100,000 springs, `--metrics settling_time,overshoot,final_error`", str(t),
                     f"{three[t]:,.0f}", f"{three[t] / c[t]:.2f}× plain C (same threads)"])
        rows.append(["plain C, the same rows' arithmetic (no text)", str(t), f"{c[t]:,.0f}", ""])
    everything = rate("Sweep.kinema.20000springs.2threads", 20_000)
    rows.append(["`kinema sweep`, 20,000 springs, all metrics (the keyframe bake included)", "2",
                 f"{everything:,.0f}", f"{everything / 60000:.2f}× the target, 60,000/s"])
    headline = [
        [SWEEP_ROWS[0] + ", 2 threads", f"{three[2]:,.0f} springs/s (p50 of up to 10 runs)",
         f"plain C, same arithmetic, 2 threads: {c[2]:,.0f}/s; the target, 200,000/s",
         f"**{three[2] / c[2]:.2f}×** plain C, **{three[2] / 200000:.2f}×** the target", measured,
         "`make performance-report` (`Sweep.*`)"],
        [SWEEP_ROWS[1] + ", 2 threads", f"{everything:,.0f} springs/s (p50 of up to 10 runs)",
         "the target, 60,000/s", f"**{everything / 60000:.2f}×** the target", measured,
         "`make performance-report` (`Sweep.kinema.20000springs.2threads`)"]]
    return as_markdown(rows), headline


STUDIO_ROW = "kinema-studio, a spring bake at 1e-3, 64 connections"


def studio(measured):
    """kinema-studio under wrk (30 s, 64 connections, 2 threads on loopback), the same request each
    time (answered from the studio's cache after the first) and a different spring each time (every
    one baked): the table and the headline row."""
    binary = root / "Studio" / ".build" / "release" / "kinema-studio"
    if not binary.exists():
        sys.exit("performance-report: Studio/.build/release/kinema-studio is missing: run 'make benchmark-studio'")
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    server = subprocess.Popen([binary, "--port", str(port)], stderr=subprocess.PIPE, text=True)
    try:
        if not server.stderr.readline().startswith("kinema-studio: serving"):
            sys.exit("performance-report: kinema-studio did not start")
        rows, results = [["requests", "requests/s", "p50", "p99", "errors"]], {}
        for script, label in [("bake.lua", "the same spring each time (cached after the first)"),
                              ("bake-varied.lua", "a different spring each time (every one baked)")]:
            out, _ = run(["wrk", "-t2", "-c64", "-d30s", "--latency", "-s", benchmarks / "studio" / script,
                          f"http://127.0.0.1:{port}/api/bake"])
            def field(pattern):
                match = re.search(pattern, out)
                return match.group(1) if match else "?"
            errors = sum(int(n) for n in re.findall(r"(?:Non-2xx or 3xx responses|Socket errors:.*?timeout)\D*(\d+)", out))
            results[script] = (field(r"Requests/sec:\s+([0-9.]+)"), field(r"\n\s+50%\s+(\S+)"),
                               field(r"\n\s+99%\s+(\S+)"), errors)
            rows.append([label, f"{float(results[script][0]):,.0f}", results[script][1], results[script][2],
                         str(errors)])
    finally:
        server.send_signal(2)
        server.wait(timeout=30)
    fixed, varied = results["bake.lua"], results["bake-varied.lua"]
    table = as_markdown(rows) + f"\n\nMeasured {measured}, on {machine()}; wrk 30 s, 2 threads, 64 connections, on the same machine."
    row = [STUDIO_ROW, f"{float(fixed[0]):,.0f} and {float(varied[0]):,.0f} requests/s, {fixed[3] + varied[3]} errors",
           "the target, p99 under 50 ms", f"p99 **{fixed[2]}** (the same spring), **{varied[2]}** (a new spring each time)",
           measured, "`make benchmark-studio`"]
    return table, row


MUJOCO_ROW = "1,000 elastic spheres in a box, 5 s"


def peer_python(peer):
    """The Python of Benchmarks/PEER's virtual environment, made and given its requirements first."""
    venv = benchmarks / peer / ".venv"
    if not (venv / "bin" / "python").exists():
        run([sys.executable, "-m", "venv", venv])
    run([venv / "bin" / "pip", "install", "-q", "-r", benchmarks / peer / "requirements.txt"])
    return venv / "bin" / "python"


def mujoco_box(measured):
    """The sphere box against MuJoCo: its table (with when and where it was measured) and its headline row."""
    python = peer_python("mujoco")
    out, _ = run([python, benchmarks / "mujoco" / "sphere_box.py", kinema])
    rows = markdown_tables(out)[0]
    # The same count at 5 % of the box: a dozen impacts in every step of RK4, each costing what it touches.
    dense, _ = run([python, benchmarks / "mujoco" / "sphere_box.py", kinema, "--radius", "0.0229", "--box-size", "1"])
    packed = markdown_tables(dense)[0]
    headline = [MUJOCO_ROW, f"RK4 {rows[1][1]}, exact {rows[2][1]}; energy {rows[1][2]}, {rows[2][2]}; "
                f"at 5 % RK4 {packed[1][1]}", f"MuJoCo: {rows[3][1]}, energy {rows[3][2]}; at 5 % {packed[3][1]}",
                f"{rows[4][1]} MuJoCo (RK4, exact); at 5 % of the box {packed[4][1]}", measured,
                "`make performance-report` (`Benchmarks/mujoco/sphere_box.py`)"]
    large, _ = run([python, benchmarks / "mujoco" / "sphere_box.py", kinema,
                    "--bodies-per-side", "22", "--exact-only"])
    return (out.strip() + "\n\n" + dense.strip() + "\n\n" + large.strip()
            + f"\n\nMeasured {measured}, on {machine()}."), headline


def pymunk_contacts(measured):
    """Piles and rains against pymunk: their tables, with when and where they were measured."""
    out, _ = run([peer_python("pymunk"), benchmarks / "pymunk" / "contacts.py", kinema])
    return out.strip() + f"\n\nMeasured {measured}, on {machine()}."


def machine():
    cpu = next((line.split(":", 1)[1].strip() for line in open("/proc/cpuinfo") if line.startswith("model name")),
               platform.processor())
    swift = run(["swift", "--version"])[0].splitlines()[0]
    return f"{cpu}, {os.cpu_count()} cores, {platform.system()} {platform.machine()}; {swift}"


HEADLINE = ["benchmark", "Kinema", "peer", "ratio", "measured", "command"]


def current_headline(text):
    """The rows of docs/performance.md's headline table as it stands."""
    return markdown_tables(text.split("<!-- report: headline -->", 1)[1].split("<!-- end report -->", 1)[0])[0][1:]


def replace_section(text, name, body):
    pattern = re.compile(rf"(<!-- report: {re.escape(name)} -->\n).*?(<!-- end report -->)", re.S)
    if not pattern.search(text):
        sys.exit(f"performance-report: docs/performance.md has no '<!-- report: {name} -->' section")
    return pattern.sub(lambda m: m.group(1) + body.rstrip() + "\n" + m.group(2), text)


def main():
    if not kinema.exists():
        sys.exit(f"performance-report: {kinema} is missing: run 'swift build -c release --product kinema' first")
    commit = run(["git", "rev-parse", "--short", "HEAD"])[0].strip()
    # Changes to the documents do not change what is measured; changes to the code do.
    if run(["git", "status", "--porcelain", "--", "Sources", "Benchmarks", "Package.swift"])[0].strip():
        commit += " with uncommitted changes"
    date = datetime.date.today().isoformat()
    measured = f"{date}, {commit}"

    only = sys.argv[sys.argv.index("--only") + 1] if "--only" in sys.argv else None
    if only == "pymunk":
        path = root / "docs" / "performance.md"
        path.write_text(replace_section(path.read_text(encoding="utf-8"), "pymunk", pymunk_contacts(measured)),
                        encoding="utf-8")
        return
    if only in ("mujoco", "studio", "sweep"):
        # One part measured: its table, and its rows in place of its old ones in the headline.
        if only == "mujoco":
            (table, row), names = mujoco_box(measured), (MUJOCO_ROW,)
            rows = [row]
        elif only == "studio":
            (table, row), names = studio(measured), (STUDIO_ROW,)
            rows = [row]
        else:
            (table, rows), names = sweep(integrators_suite(only="Sweep.*"), measured), SWEEP_ROWS
            table += f"\n\nMeasured {measured}, on {machine()}."
        path = root / "docs" / "performance.md"
        text = path.read_text(encoding="utf-8")
        headline = [r for r in current_headline(text) if not r[0].startswith(names)] + rows
        text = replace_section(replace_section(text, only, table), "headline", as_markdown([HEADLINE] + headline))
        path.write_text(text, encoding="utf-8")
        return
    suite = integrators_suite()
    levels, wp_table = work_precision()
    cli_ratios, cli_lines = cli_work_precision()
    scaling = scene_scaling()
    chain_library, chain_cli = scaling[0], scaling[1] if len(scaling) > 2 else None
    box = scaling[-1]

    def ns(name):
        if name not in suite:
            sys.exit(f"performance-report: the suite has no benchmark {name}")
        return suite[name]

    two = lambda x: f"{x:.2f}"
    run_rk4, c_rk4 = ns("Run.RK4.Double.springStep"), ns("C.RK4.springStep")
    headline = [HEADLINE,
                ["RK4 spring step, whole `Simulation.run`", f"{run_rk4:.0f} ns/step (p50)",
                 f"plain C RK4 loop, same run: {c_rk4:.0f} ns", f"**{c_rk4 / run_rk4:.1f}×** plain C", measured,
                 "`make performance-report` (`Run.RK4.Double.springStep`, `C.RK4.springStep`)"]]
    for level, values in levels.items():
        headline.append([
            f"matched accuracy {level}", f"{values['names'][-1]}, {span(values['kinema'], lambda x: f'{x:.1f}')} µs",
            "Boost.Odeint; GSL rk8pd (C right-hand side)",
            f"**{span(values['vs_odeint'], two)}×** odeint, **{span(values['vs_gsl'], two)}×** GSL", measured,
            "`make performance-report` (WorkPrecision)"])
    if cli_ratios:
        cells = ", ".join(f"**{span(r, two)}×** ({level})" for level, r in cli_ratios.items())
        headline.append(["work-precision through the CLI (GSL calling the same scene)", "cheapest run per level",
                         "GSL's cheapest", cells, measured,
                         "`kinema work-precision --spring --stiffness 1000 --damping-ratio 0.1 --duration 2`"])
    if chain_cli:
        ratios = [float(row[2].rstrip("×")) for row in chain_cli[1:]]
        per = [float(row[1]) for row in chain_cli[1:]]
        sizes = f"{chain_cli[1][0]}–{int(chain_cli[-1][0]):,}"
        headline.append([f"3-D spring chain, {sizes} bodies, through `kinema simulate`",
                         f"RK4 {min(per):.0f}–{max(per):.0f} ns per body-step", "Boost.Odeint RK4 on `std::vector`",
                         f"**{min(ratios):.2f}–{max(ratios):.2f}×** odeint", measured,
                         "`make performance-report` (SceneScaling)"])
    sweep_table, sweep_headline = sweep(suite, measured)
    headline += sweep_headline

    suite_rows = [["benchmark", "p50", "against plain C RK4 (same run)"]]
    for name in sorted(suite):
        value = suite[name]
        shown = f"{value:.1f} ns" if value < 1e3 else f"{value / 1e3:.1f} µs" if value < 1e6 else f"{value / 1e6:.1f} ms"
        against = f"{value / c_rk4:.2f}× C's step" if name.endswith("springStep") else ""
        suite_rows.append([f"`{name}`", shown, against])

    path = root / "docs" / "performance.md"
    text = path.read_text(encoding="utf-8")
    text = replace_section(text, "conditions", f"Measured {date} at commit {commit}, on {machine()}; "
                                               f"{rounds} rounds of WorkPrecision and `kinema work-precision`.")
    text = replace_section(text, "integrators", as_markdown(suite_rows))
    text = replace_section(text, "work-precision", as_markdown(wp_table) + "\n\nThe last of the rounds.")
    text = replace_section(text, "cli-work-precision", "```\n" + "\n".join(cli_lines) + "\n```")
    text = replace_section(text, "chain", as_markdown(chain_library))
    text = replace_section(text, "chain-cli", as_markdown(chain_cli) if chain_cli else "(not run)")
    text = replace_section(text, "sphere-box", as_markdown(box))
    text = replace_section(text, "sweep", sweep_table)
    table, row = mujoco_box(measured)
    headline.append(row)
    # The studio is measured by make benchmark-studio alone: its row stays as it was.
    headline += [r for r in current_headline(text) if r[0] == STUDIO_ROW]
    text = replace_section(text, "mujoco", table)
    text = replace_section(text, "pymunk", pymunk_contacts(measured))
    text = replace_section(text, "headline", as_markdown(headline))
    path.write_text(text, encoding="utf-8")
    print(f"performance-report: wrote {path.relative_to(root)}", file=sys.stderr)


if __name__ == "__main__":
    main()
