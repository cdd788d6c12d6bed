# mockd — the two commands a newcomer needs are `make run` and `make test`.
SWIFT ?= swift
PORT ?= 8080
PREFIX ?= /usr/local

.PHONY: run test test-mhd1 build release static deps bench docker-test systemd-test install clean fuzz sanitize format lint

## Serve the bundled MockData/ and routes/ on http://127.0.0.1:$(PORT)
run: release
	.build/release/mockd --root MockData --routes routes --graphql /graphql --port $(PORT)

## Run every test (unit, HTTP integration, CLI, the README's examples, schemathesis, mockd mcp with an MCP client, GraphQL subscriptions with gql, a swift-openapi-generator client, the dashboard in Chromium)
test: deps lint
	$(SWIFT) build --build-tests
	$(SWIFT) test --skip-build
	scripts/readme-test.py README.md docs/ROUTES.md docs/ADMIN.md docs/RECORDING.md docs/WEBSOCKET.md docs/GRAPHQL.md docs/PUSHES.md
	scripts/schemathesis-test.sh
	scripts/mcp-test.sh
	scripts/graphql-client-test.sh
	SWIFT=$(SWIFT) scripts/generated-client-test.sh
	scripts/browser-test.sh

# The Swift sources' layout (.swift-format: the pretty-printer with four-space indents and
# 140 columns, no style rules); `make format` rewrites them, `make lint` fails on a difference.
SWIFT_SOURCES := Sources Tests Fuzz Package.swift

## Rewrite the Swift sources in the layout .swift-format describes
format:
	$(SWIFT) format format --in-place --recursive $(SWIFT_SOURCES)

## Fail when a Swift source is not laid out as `make format` would leave it, or when zizmor
## finds a fault in .github/workflows (scripts/zizmor-lint.sh installs it; SKIP_ZIZMOR=1 skips it)
lint:
	$(SWIFT) format lint --strict --recursive $(SWIFT_SOURCES)
	scripts/zizmor-lint.sh

# libmicrohttpd 1.0.x (Debian 13's source, built by scripts/mhd1-deps.sh into .build-mhd1/prefix)
MHD1_PREFIX := $(CURDIR)/.build-mhd1/prefix

## The whole Swift suite again, built against libmicrohttpd 1.0.x (what Homebrew and Debian 13
## ship) in its own scratch path; the library is linked statically, so no loader path can pick
## the system's 0.9.75 (LibraryVersionTests checks which one runs)
test-mhd1: deps
	scripts/mhd1-deps.sh $(MHD1_PREFIX)
	PKG_CONFIG_PATH=$(MHD1_PREFIX)/lib/pkgconfig $(SWIFT) build --build-tests --scratch-path .build-mhd1
	PKG_CONFIG_PATH=$(MHD1_PREFIX)/lib/pkgconfig MOCKD_EXPECT_LIBMICROHTTPD=$$(cat $(MHD1_PREFIX)/.done | cut -d- -f1) \
	  $(SWIFT) test --skip-build --scratch-path .build-mhd1

## Fuzz the parsers and the example generator with libFuzzer + ASan, FUZZ_SECONDS each (default 60); fails on a crash or a hang
fuzz: deps
	SWIFT=$(SWIFT) scripts/fuzz.sh

## The whole test suite under AddressSanitizer, then ThreadSanitizer; fails on any report
sanitize: deps
	SWIFT=$(SWIFT) scripts/sanitize.sh

build: deps
	$(SWIFT) build

# The Swift runtime linked in: a third less memory than loading the shared Swift and
# Foundation libraries, a faster start, and one file to deploy.
release: deps
	$(SWIFT) build -c release --static-swift-stdlib

# One fully static executable at .build/static/mockd, the container image's binary: no shared
# library at all (libmicrohttpd without HTTPS and libcurl built from Debian's sources by
# scripts/static-deps.sh, glibc linked in). For images and copying to another machine; `make
# run` keeps the release build, which loads the system's libmicrohttpd.
static: deps
	SWIFT=$(SWIFT) scripts/build-static.sh

deps:
	@scripts/install-deps.sh

## mockd against bare libmicrohttpd with wrk, a Markdown table (bench/compare.sh; docs/BENCHMARKS.md)
bench: release
	MOCKD=.build/release/mockd bench/compare.sh

docker-test:
	scripts/docker-test.sh

systemd-test:
	scripts/systemd-test.sh

## Install the binary, and on Linux the systemd unit (run as root, or with sudo)
# mkdir -p, not install -D: macOS's install has no -D.
install: release
	mkdir -p $(DESTDIR)$(PREFIX)/bin
	install -m 0755 .build/release/mockd $(DESTDIR)$(PREFIX)/bin/mockd
	if [ "$$(uname -s)" = Linux ]; then \
	  mkdir -p $(DESTDIR)/etc/systemd/system && \
	  install -m 0644 systemd/mockd.service $(DESTDIR)/etc/systemd/system/mockd.service; \
	fi

clean:
	rm -rf .build
