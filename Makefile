# Two commands for a new user: `make run` and `make test`. Everything else is detail.
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: run test lint typecheck unit bench clean demo-clean

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
	$(BIN)/python -m moderator.intake_bench

demo-clean:
	rm -rf var/demo

clean:
	rm -rf $(VENV) var .pytest_cache .mypy_cache .ruff_cache
