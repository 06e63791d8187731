# playpost: two commands on a fresh machine: `make run` and `make test`.
PYTHON ?= python3
VENV   := .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.installed
TSTAMP := $(VENV)/.installed-test

.PHONY: run test bench lint clean

$(PY):
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip

$(STAMP): pyproject.toml | $(PY)
	$(PY) -m pip install --quiet -e .
	touch $@

$(TSTAMP): pyproject.toml | $(PY)
	$(PY) -m pip install --quiet -e '.[test]'
	touch $@ $(STAMP)

run: $(STAMP)
	$(VENV)/bin/playpost

test: $(TSTAMP)
	$(PY) -m pytest

bench: $(TSTAMP)
	$(PY) -m pip install --quiet -e '.[test,bench]'
	$(VENV)/bin/playpost bench --json data/bench.json

lint: | $(PY)
	$(PY) -m pip install --quiet -e '.[dev]'
	$(PY) -m ruff check bot games render storage tests

clean:
	rm -rf $(VENV) build *.egg-info
