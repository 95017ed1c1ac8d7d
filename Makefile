# Two commands for a new user: `make run` and `make test`. Everything else is detail.
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: run test lint typecheck unit bench soak clean demo-clean

$(STAMP): pyproject.toml
	$(PY) -m venv $(VENV)
	$(BIN)/pip install -q --upgrade pip
	$(BIN)/pip install -q -e '.[dev]'
	touch $(STAMP)

install: $(STAMP)

## make run: start the embedded mail server, a demo 1914 game and the daemon
run: $(STAMP)
	$(BIN)/moderator demo

## make test: style, types, then the whole test suite
test: $(STAMP)
	$(BIN)/ruff check moderator tests maps
	$(BIN)/mypy
	$(BIN)/pytest

unit: $(STAMP)
	$(BIN)/pytest -m "not slow"

bench: $(STAMP)
	$(BIN)/python -m moderator.bench

## make soak: a whole war (26 turns) played by bots on every seat, through mail and the daemon.
## The summary is var/soak/summary.txt. SOAK_FLAGS= (empty) draws every report's map too (slow).
SOAK_FLAGS ?= --no-maps
soak: $(STAMP)
	rm -rf var/soak
	$(BIN)/moderator simulate --turns 26 --seed 1914 --seats all --mail $(SOAK_FLAGS) --dir var/soak --summary var/soak/summary.txt

demo-clean:
	rm -rf var/demo

clean:
	rm -rf $(VENV) var .pytest_cache .mypy_cache .ruff_cache
