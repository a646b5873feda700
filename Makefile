# The two commands of the README, and the steps they share.
SWIFT ?= swift

PREFIX ?= /usr/local
BUILD_CONFIG ?= release
# Release programs carry the Swift runtime and Foundation inside: resolving their symbols from
# shared libraries at every start cost about 30 ms of the launch (docs/performance.md).
STATIC ?= --static-swift-stdlib

.PHONY: run test bench deps build install

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
	$(SWIFT) build -c release $(STATIC) --product uncloudnotes
	$(SWIFT) run -c release $(STATIC) uncloudnotes-bench --output docs

## Build in release mode and install into $(PREFIX): $(PREFIX)/bin/uncloudnotes, with the program and
## its resources in $(PREFIX)/lib/uncloudnotes (scripts/install.sh).
install: deps
	$(SWIFT) build -c $(BUILD_CONFIG) $(STATIC) --product uncloudnotes
	scripts/install.sh "$$($(SWIFT) build -c $(BUILD_CONFIG) $(STATIC) --show-bin-path)" "$(PREFIX)"

build: deps
	$(SWIFT) build

deps:
	@scripts/install-deps.sh
