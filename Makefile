# `make run` installs what is missing, builds, and opens Abacus on the demo ledger.
# `make test` runs the tests.

SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

.PHONY: run test build deps

deps:
	@dpkg -s libedit-dev >/dev/null 2>&1 || { \
		echo "Installing libedit-dev (line editing for the REPL)..."; \
		$(SUDO) apt-get update -qq && $(SUDO) apt-get install -y -qq libedit-dev; }
	@dpkg -s libsqlite3-dev >/dev/null 2>&1 || { \
		echo "Installing libsqlite3-dev (reading the expense tracker app's database)..."; \
		$(SUDO) apt-get update -qq && $(SUDO) apt-get install -y -qq libsqlite3-dev; }
	@ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || command -v initdb >/dev/null 2>&1 || { \
		echo "Installing postgresql (the tests of --db start a throwaway server on 127.0.0.1)..."; \
		$(SUDO) apt-get update -qq && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq postgresql; }

build: deps
	swift build -c release --product abacus

run: build
	.build/release/abacus

test: deps
	swift test
