# `make run` installs what is missing, builds, and opens Abacus on the demo ledger.
# `make test` runs the tests.

SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)
# A fresh machine often runs its own apt at boot: wait for apt's locks (up to two minutes)
# instead of failing on them. `apt-get update` does not wait by itself, so it is retried.
APT_UPDATE := for i in $$(seq 60); do $(SUDO) apt-get update -qq && break; sleep 2; done
APT_INSTALL := $(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=120 install -y -qq

.PHONY: run test build release deps

# The release build links the Swift runtime and Foundation into the binary
# (--static-swift-stdlib): every start is shorter, a warm start from the store image
# included (BENCHMARKS.md, "Start-up"). All release products take the same flags, as a
# change of flags rebuilds every module. The static FoundationNetworking asks the linker
# for -lcurl: an empty libcurl.a in .build/link-shims answers, because the binary carries
# libcurl's functions itself (Sources/CCurlOnDemand), which load libcurl.so.4 when rates
# are first fetched, so that no other start loads libcurl and the ~30 libraries it needs.
RELEASE_BUILD := swift build -c release --static-swift-stdlib -Xlinker -L.build/link-shims
PRODUCTS ?= abacus

deps:
	@dpkg -s libedit-dev >/dev/null 2>&1 || { \
		echo "Installing libedit-dev (line editing for the REPL)..."; \
		$(APT_UPDATE); $(APT_INSTALL) libedit-dev; }
	@dpkg -s libsqlite3-dev >/dev/null 2>&1 || { \
		echo "Installing libsqlite3-dev (reading the expense tracker app's database)..."; \
		$(APT_UPDATE); $(APT_INSTALL) libsqlite3-dev; }
	@ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || command -v initdb >/dev/null 2>&1 || { \
		echo "Installing postgresql (the tests of --db start a throwaway server on 127.0.0.1)..."; \
		$(APT_UPDATE); $(APT_INSTALL) postgresql; }

build: deps release

# The release binaries without `deps` (Benchmarks/run uses it): `make release PRODUCTS="abacus abacus-hash"`.
release: .build/link-shims/libcurl.a
	@for p in $(PRODUCTS); do echo "$(RELEASE_BUILD) --product $$p"; $(RELEASE_BUILD) --product $$p || exit 1; done

.build/link-shims/libcurl.a:
	@mkdir -p $(@D)
	@rm -f $(@D)/libcurl.so
	@printf '!<arch>\n' > $@

run: build
	.build/release/abacus

# The tests' scratch files (caches, store images, watch lists, PostgreSQL data) go to a
# folder of this run's own, removed afterwards whatever the outcome; others may enter it,
# as they may enter /tmp (initdb runs as the postgres user when the tests run as root).
test: deps
	@scratch=$$(mktemp -d "$${TMPDIR:-/tmp}/abacus-tests.XXXXXX") && chmod 755 "$$scratch" && \
	  TMPDIR="$$scratch" swift test; status=$$?; rm -rf "$$scratch"; exit $$status
