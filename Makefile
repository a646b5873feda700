# The two commands of the README, and the steps they share.
SWIFT ?= swift

PREFIX ?= /usr/local
BUILD_CONFIG ?= release
# Release programs carry the Swift runtime and Foundation inside: resolving their symbols from
# shared libraries at every start cost about 30 ms of the launch (docs/performance.md).
STATIC ?= --static-swift-stdlib

.PHONY: run test test-full bench deps build install manual-tool docs

## Install what is needed, build, and start the app (on the default store; pass more with ARGS=...).
run: build
	.build/debug/uncloudnotes $(ARGS)

## Install what is needed, build, and run every test; then check every migration of the app's model.
# The tests run as several processes at once (scripts/run-tests.sh says why); TEST_JOBS=N sets how many.
test: deps
	$(SWIFT) build --build-tests
	SWIFT=$(SWIFT) scripts/run-tests.sh
	"$$($(SWIFT) build --show-bin-path)/uncloudnotes" model check

## Everything make test runs, with the fault suites' full sweeps instead of their daily samples
## (every N of every call, every scenario; many times as long).
test-full:
	UNCLOUDNOTES_FAULT_FULL=1 UNCLOUDNOTES_SYNC_FAULTS=all $(MAKE) test

## Measure migrations, launch and search (release build); writes docs/performance.md and .json.
# The benchmark runs the release uncloudnotes binary beside it (notes list), so both are built.
# swift run takes no --static-swift-stdlib, so the benchmark is built, then started from the bin path.
bench: deps
	$(SWIFT) build -c release $(STATIC) --product uncloudnotes
	$(SWIFT) build -c release $(STATIC) --product uncloudnotes-bench
	"$$($(SWIFT) build -c release $(STATIC) --show-bin-path)/uncloudnotes-bench" --output docs

## Build in release mode and install into $(PREFIX): $(PREFIX)/bin/uncloudnotes, with the program and
## its resources in $(PREFIX)/lib/uncloudnotes, shell completions (bash, zsh, fish) and the man page
## under $(PREFIX)/share (scripts/install.sh).
install: deps manual-tool
	$(SWIFT) build -c $(BUILD_CONFIG) $(STATIC) --product uncloudnotes
	scripts/install.sh "$$($(SWIFT) build -c $(BUILD_CONFIG) $(STATIC) --show-bin-path)" "$(PREFIX)" "$(MANUAL_TOOL)"

# The man page is written by generate-manual, the tool behind swift-argument-parser's
# generate-manual plugin, built as a product of this package's dependency, in the program's own
# build folder and configuration: it reuses the ArgumentParser already compiled for the program
# (about 10 s, where a build of its own took 90), and the plugin would build every product of this
# package again, the benchmark included, in a configuration of its own.
MANUAL_TOOL = $$($(SWIFT) build -c $(BUILD_CONFIG) $(STATIC) --show-bin-path)/generate-manual

## Build swift-argument-parser's generate-manual tool (for make install).
manual-tool:
	$(SWIFT) build -c $(BUILD_CONFIG) $(STATIC) --product generate-manual

build: deps
	$(SWIFT) build

# The engine's API reference, with the articles of Sources/ManagedStore/ManagedStore.docc, as a
# static site: serve the folder (python3 -m http.server -d docs/api) and open
# /documentation/managedstore.
# Generated, so ignored by git. Warnings (an unresolved symbol link) fail the build.
DOCS_OUTPUT ?= docs/api

## Build the ManagedStore documentation (DocC) into docs/api.
docs: deps
	$(SWIFT) package --allow-writing-to-directory $(DOCS_OUTPUT) generate-documentation \
		--target ManagedStore --output-path $(DOCS_OUTPUT) --transform-for-static-hosting \
		--warnings-as-errors

deps:
	@scripts/install-deps.sh
