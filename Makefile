# The two commands a newcomer needs (see README): `make demo` and `make test`.
.PHONY: setup build demo test notebooks notebooks-small docs benchmarks clean

setup:
	bash scripts/setup.sh

build: setup
	swift build --product kinema

demo: build
	bash scripts/demo.sh

# The unit, CLI and accuracy tests; the notebooks on small inputs; the documentation, warnings as errors.
test: setup
	swift test
	bash scripts/notebooks.sh --small
	$(MAKE) docs

# Executes every notebook on full inputs against a release build; figures into docs/figures.
notebooks: setup
	bash scripts/notebooks.sh

notebooks-small: setup
	bash scripts/notebooks.sh --small

# DocC for the public modules; any warning fails.
docs: setup
	swift package --disable-sandbox generate-documentation --target Kinema --warnings-as-errors
	swift package --disable-sandbox generate-documentation --target KinemaReference --warnings-as-errors

clean:
	rm -rf .build notebooks/.venv
