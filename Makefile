# The two commands a newcomer needs (see README): `make demo` and `make test`.
.PHONY: setup build demo test clean

setup:
	bash scripts/setup.sh

build: setup
	swift build --product kinema

demo: build
	bash scripts/demo.sh

test: setup
	swift test

clean:
	rm -rf .build
