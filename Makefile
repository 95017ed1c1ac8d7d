# Two commands for a new user: `make run` and `make test`. Everything else is detail.
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

# The suite runs on every core (pytest-xdist; worksteal evens out the long end-to-end tests):
# each test has its own tmp_path, ports and mail servers. PYTEST_PARALLEL= runs it in one process.
PYTEST_PARALLEL ?= -n auto --dist worksteal

.PHONY: run test lint typecheck unit bench soak clean demo-clean integration-servers browser postgres-server

$(STAMP): pyproject.toml
	$(PY) -m venv $(VENV)
	$(BIN)/pip install -q --upgrade pip
	$(BIN)/pip install -q -e '.[dev]'
	touch $(STAMP)

install: $(STAMP)

## make run: start the embedded mail server, a demo 1914 game and the daemon
run: $(STAMP)
	$(BIN)/moderator demo

## The public page's test renders it in Chromium: installed from the system's packages
## where this machine can (root with apt-get), else that one test is skipped and says why.
browser:
	@command -v chromium >/dev/null 2>&1 || command -v chromium-browser >/dev/null 2>&1 || \
	  { [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1 && apt-get update -qq && \
	    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends chromium >/dev/null; } || \
	  echo "no Chromium here: the public page's browser test will be skipped (apt-get install chromium)"

## PostgreSQL for the store's tests against a real server (tests/postgres.py starts its own
## cluster in a temporary directory): Debian's package where apt-get runs as root, else
## those tests are skipped and say why.
postgres-server:
	@if command -v initdb >/dev/null 2>&1 && command -v postgres >/dev/null 2>&1 || ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1; then \
	  echo "postgres: PostgreSQL is installed"; \
	elif [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then \
	  echo "postgres: installing postgresql from Debian's packages"; \
	  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends postgresql >/dev/null; \
	else echo "postgres: PostgreSQL is not installed and apt-get cannot run as root here; the PostgreSQL" \
	  "tests will be skipped (apt-get install postgresql to run them)"; fi

## make test: style, types, then the whole test suite (with the Dovecot integration tests
## wherever Debian's package can be installed, the PostgreSQL tests where Debian's postgresql
## can, and the public page's browser test where Chromium can; elsewhere those are skipped
## and say why)
test: $(STAMP) browser
	-@$(MAKE) --no-print-directory integration-servers
	-@$(MAKE) --no-print-directory postgres-server
	$(BIN)/ruff check moderator tests maps
	$(BIN)/mypy
	$(BIN)/pytest $(PYTEST_PARALLEL)

unit: $(STAMP)
	$(BIN)/pytest $(PYTEST_PARALLEL) -m "not slow"

# The benchmark's own environment: the MILA `diplomacy` adjudicator, whose per-unit cost
# the engine is measured against (moderator/bench_unit_cost.py); never a dependency of ours.
BENCH_VENV := .venv-bench
$(BENCH_VENV)/.installed:
	$(PY) -m venv $(BENCH_VENV)
	$(BENCH_VENV)/bin/pip install -q diplomacy
	touch $@

# The intake bench runs its burst on the embedded server, then on Dovecot fed by Postfix
# where integration-servers can install them (else it says why it did not).
bench: $(STAMP) $(BENCH_VENV)/.installed
	-@$(MAKE) --no-print-directory integration-servers
	MODERATOR_BENCH_DIPLOMACY=$(BENCH_VENV)/bin/python $(BIN)/python -m moderator.bench
	$(BIN)/python -m moderator.intake_bench

## make soak: a whole war (26 turns) played by bots on every seat, through mail and the daemon.
## The summary is var/soak/summary.txt, with the daemon's own peak memory (it runs apart) and the
## engine's per-unit cost beside MILA's. SOAK_FLAGS= (empty) draws every report's map too (slow).
SOAK_FLAGS ?= --no-maps
soak: $(STAMP)
	-@$(MAKE) --no-print-directory $(BENCH_VENV)/.installed  # MILA for the per-unit row; the soak runs without it
	rm -rf var/soak
	MODERATOR_BENCH_DIPLOMACY=$(BENCH_VENV)/bin/python $(BIN)/moderator simulate --turns 26 --seed 1914 --seats all \
		--mail --deployment --daemon-apart --unit-cost $(SOAK_FLAGS) --dir var/soak --summary var/soak/summary.txt

demo-clean:
	rm -rf var/demo

clean:
	rm -rf $(VENV) $(BENCH_VENV) var .pytest_cache .mypy_cache .ruff_cache

## make integration-servers: Dovecot and Postfix from Debian's packages for tests/test_dovecot.py
## (installed only, never started as system services: the tests run their own instances)
INTEGRATION_PACKAGES := dovecot-imapd dovecot-lmtpd postfix
integration-servers:
	@if command -v dovecot >/dev/null 2>&1 && [ -x /usr/lib/dovecot/lmtp ] && command -v postfix >/dev/null 2>&1; then \
	  echo "integration: Dovecot and Postfix are installed"; \
	elif [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then \
	  echo "integration: installing $(INTEGRATION_PACKAGES) from Debian's packages"; \
	  echo "postfix postfix/main_mailer_type select No configuration" | debconf-set-selections; \
	  DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends $(INTEGRATION_PACKAGES) >/dev/null; \
	else echo "integration: Dovecot/Postfix are not installed and apt-get cannot run as root here;" \
	  "tests/test_dovecot.py will be skipped (apt-get install $(INTEGRATION_PACKAGES) to run it)"; fi
