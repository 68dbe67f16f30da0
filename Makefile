# The two commands a newcomer needs (see README): `make demo` and `make test`.
# The Swift sources swift-format lays out (.swift-format: line length 120).
SWIFT_SOURCES = Package.swift Sources Tests Benchmarks/Package.swift Benchmarks/Sources Benchmarks/Benchmarks \
	Studio/Package.swift Studio/Sources Studio/Tests

.PHONY: setup build demo test api-check format lint players studio studio-check slurm-check fuzz notebooks notebooks-small docs man benchmarks performance-report benchmark-mujoco benchmark-pymunk benchmark-allocations benchmark-scipy benchmark-studio clean

setup:
	bash scripts/setup.sh

build: setup
	swift build --product kinema

demo: build
	bash scripts/demo.sh

# The format lint; the platform check (reads the source: Linux cannot build for Apple SDKs); the
# README against docs/ (headline figures, links, length, the version); what an app depending on
# Kinema resolves (at most 4 packages: scripts/check-dependencies.sh); the unit, CLI and accuracy
# tests; the public API against the latest release (and that the check fails on a removal), every
# public symbol documented; the Apple-only sources type-checked against CoreGraphics, QuartzCore and
# SwiftUI stand-ins; the exports played in Chromium and ThorVG; the Slurm array script on a
# single-node Slurm; the notebooks on small inputs and the Dask sweep; the documentation, warnings
# as errors.
test: setup lint
	python3 scripts/check-platforms.py --self-test
	python3 scripts/check-docs.py --self-test
	bash scripts/check-dependencies.sh
	swift test
	bash scripts/api-check.sh
	python3 scripts/check-api-docs.py --self-test
	bash scripts/check-apple-sources.sh
	bash scripts/players.sh
	bash scripts/studio-check.sh
	bash scripts/slurm-check.sh
	bash scripts/notebooks.sh --small
	$(MAKE) docs

# The public API of Kinema and KinemaReference against CHANGELOG.md's latest release (swift package
# diagnose-api-breaking-changes), then the same with a public property made internal, which must fail.
api-check: setup
	bash scripts/api-check.sh

# Rewrites the sources in swift-format's layout; `make lint` (part of make test) fails on any difference.
format:
	swift format format --in-place --recursive --parallel $(SWIFT_SOURCES)

lint:
	swift format lint --strict --recursive --parallel $(SWIFT_SOURCES)

# CSS in headless Chromium and Lottie in ThorVG, against the closed forms (installs both if missing).
players: setup
	bash scripts/players.sh

# The studio on http://127.0.0.1:8080/ (release build); PORT=9000 make studio for another port.
studio: setup
	cd Studio && swift run -c release kinema-studio --port $${PORT:-8080}

# kinema-studio's tests (its own package, Studio/), its page in headless Chromium and its API under
# schemathesis and the studio fuzz leg (part of make test).
studio-check: setup
	bash scripts/studio-check.sh

# examples/sweep.sbatch on a single-node Slurm set up in a temporary directory (installs slurm-wlm if missing).
slurm-check: setup
	bash scripts/slurm-check.sh

# The fuzz suite at length (make test runs 120 cases of each kind on the debug build): random
# command lines, mutated scene files, valid input of the hardened classes and signals sent to every
# writer at random moments through the release binary, the one users run; then ten times as many
# hostile and valid requests to the release studio (scripts/fuzz-studio.py); FUZZ_SEED picks
# another seed.
fuzz: setup
	swift build -c release --product kinema
	KINEMA_FUZZ_BINARY=$$(swift build -c release --show-bin-path)/kinema \
		KINEMA_FUZZ_CASES=$${FUZZ_CASES:-3000} KINEMA_FUZZ_SECONDS=$${FUZZ_SECONDS:-1500} KINEMA_FUZZ_SEED=$${FUZZ_SEED:-17} \
		swift test --filter 'FuzzTests|SignalFuzzTests'
	cd Studio && swift build -c release --product kinema-studio
	python3 scripts/fuzz-studio.py Studio/.build/release/kinema-studio \
		--cases $$(( $${FUZZ_CASES:-3000} * 10 )) --seed $${FUZZ_SEED:-17} --costly

# Executes every notebook on full inputs against a release build; figures into docs/figures.
notebooks: setup
	bash scripts/notebooks.sh

notebooks-small: setup
	bash scripts/notebooks.sh --small

# DocC for the public modules; any warning fails.
docs: setup
	swift package --disable-sandbox generate-documentation --target Kinema --warnings-as-errors
	swift package --disable-sandbox generate-documentation --target KinemaReference --warnings-as-errors

# Man pages from the commands' own help (swift-argument-parser's generate-manual plugin; a release
# build, a few minutes): kinema.1 and one page per subcommand in man/. Read with man -l man/kinema.1.
man: setup
	swift package --disable-sandbox --allow-writing-to-package-directory generate-manual --multi-page
	rm -rf man && cp -R .build/plugins/GenerateManual/outputs/kinema man

# The benchmark suites (release; plain C and GSL measured in the same run). The Sweep suite runs
# the release kinema binary, built first.
benchmarks: setup
	bash scripts/setup.sh --benchmarks
	swift build -c release --product kinema
	cd Benchmarks && swift package --disable-sandbox benchmark

# Runs the suites above (about 15 minutes on 2 cores) and writes every table of docs/performance.md;
# the README's headline ratios are then copied from its headline table (make test checks them).
performance-report: setup
	bash scripts/setup.sh --benchmarks
	swift build -c release --product kinema
	python3 scripts/performance-report.py

# The sweep against a scipy solve_ivp loop on the same grid, timed in one run (needs PyPI).
benchmark-scipy: setup
	swift build -c release --product kinema
	test -x Benchmarks/scipy/.venv/bin/python || python3 -m venv Benchmarks/scipy/.venv
	Benchmarks/scipy/.venv/bin/pip install -q -r Benchmarks/scipy/requirements.txt
	Benchmarks/scipy/.venv/bin/python Benchmarks/scipy/sweep_scipy.py .build/release/kinema

# 1,000 elastic spheres in a box through kinema simulate against MuJoCo (PyPI), in one run.
benchmark-mujoco: setup
	swift build -c release --product kinema
	test -x Benchmarks/mujoco/.venv/bin/python || python3 -m venv Benchmarks/mujoco/.venv
	Benchmarks/mujoco/.venv/bin/pip install -q -r Benchmarks/mujoco/requirements.txt
	Benchmarks/mujoco/.venv/bin/python Benchmarks/mujoco/sphere_box.py .build/release/kinema

# Piles and rains through `kinema simulate` against pymunk (Chipmunk2D) from PyPI, in one run.
benchmark-pymunk: setup
	swift build -c release --product kinema
	test -x Benchmarks/pymunk/.venv/bin/python || python3 -m venv Benchmarks/pymunk/.venv
	Benchmarks/pymunk/.venv/bin/pip install -q -r Benchmarks/pymunk/requirements.txt
	Benchmarks/pymunk/.venv/bin/python Benchmarks/pymunk/contacts.py .build/release/kinema

# Allocation counts of every benchmark against the committed Benchmarks/Thresholds (p90); any
# increase fails. After a deliberate change: cd Benchmarks && swift package --disable-sandbox
#   --allow-writing-to-package-directory benchmark thresholds update --metric mallocCountTotal
# and delete the file it writes for Sweep.kinema.* (that count is Foundation launching a process).
benchmark-allocations: setup
	bash scripts/setup.sh --benchmarks
	cd Benchmarks && swift package --disable-sandbox benchmark thresholds check --metric mallocCountTotal

clean:
	rm -rf .build notebooks/.venv man

# kinema-studio under load (wrk from Debian, 30 s, 64 connections on loopback): a spring bake at
# tolerance 1e-3, the same request each time and a different spring each time; writes the table in
# docs/performance.md (scripts/performance-report.py --only studio).
benchmark-studio: setup
	command -v wrk >/dev/null || { apt-get update -qq && apt-get install -y -qq wrk; }
	cd Studio && swift build -c release --product kinema-studio
	python3 scripts/performance-report.py --only studio
