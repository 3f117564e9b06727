# Every target does its own set-up: a .venv with the project and its test tools.
# Settings such as DISCORD_TOKEN may live in a .env file (see .env.example).
ifneq (,$(wildcard .env))
include .env
export
endif

PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: run test table bench content clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[test]'
	touch $(STAMP)

## make run: the bot with DISCORD_TOKEN set, the local table without it.
run: $(STAMP)
	$(BIN)/python -m bot $(ARGS)

## make test: the whole test suite, a worker per core (TEST_WORKERS=0: all in this one process).
TEST_WORKERS ?= auto
test: $(STAMP)
	$(BIN)/python -m pytest -q -n $(TEST_WORKERS) $(PYTEST_ARGS)

table: $(STAMP)
	$(BIN)/python -m bot table $(ARGS)

bench: $(STAMP)
	$(BIN)/python bench/engine.py
	$(BIN)/python bench/render.py

content: $(STAMP)
	$(BIN)/python -m bot content

clean:
	rm -rf $(VENV) .pytest_cache
