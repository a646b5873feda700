# The two commands of the README, and the steps they share.
SWIFT ?= swift

.PHONY: run test bench deps build

## Install what is needed, build, and start the app (on the default store; pass more with ARGS=...).
run: build
	.build/debug/uncloudnotes $(ARGS)

## Install what is needed, build, and run every test.
test: deps
	$(SWIFT) build --build-tests
	$(SWIFT) test --disable-xctest

## Measure migrations, launch and search (release build); writes docs/performance.md and .json.
# The benchmark runs the release uncloudnotes binary beside it (notes list), so both are built.
bench: deps
	$(SWIFT) build -c release --product uncloudnotes
	$(SWIFT) run -c release uncloudnotes-bench --output docs

build: deps
	$(SWIFT) build

deps:
	@scripts/install-deps.sh
