# playpost: two commands on a fresh machine: `make run` and `make test` (the suite and the gates);
# `make check` runs the gates alone.
PYTHON ?= python3
VENV   := .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.installed
TSTAMP := $(VENV)/.installed-test

# everything ruff checks; mypy's packages are listed in pyproject.toml
LINTED := bot games render storage tests tools

.PHONY: run test check bench lint clean

$(PY):
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip

$(STAMP): pyproject.toml | $(PY)
	$(PY) -m pip install --quiet -e .
	touch $@

# the test environment has the gates' tools too (ruff, mypy: the dev extra)
$(TSTAMP): pyproject.toml | $(PY)
	$(PY) -m pip install --quiet -e '.[test,dev]'
	touch $@ $(STAMP)

run: $(STAMP)
	$(VENV)/bin/playpost

# the whole suite, then the gates (ruff, mypy); fails if either does
test: $(TSTAMP)
	@status=0; \
	$(PY) -m pytest -n auto --dist worksteal || status=1; \
	$(MAKE) --no-print-directory check || status=1; \
	exit $$status

# ruff and mypy; both run (and report) even when the first fails
check: $(TSTAMP)
	@status=0; \
	$(PY) -m ruff check $(LINTED) || status=1; \
	$(PY) -m mypy || status=1; \
	exit $$status

bench: $(TSTAMP)
	$(PY) -m pip install --quiet -e '.[test,bench]'
	$(VENV)/bin/playpost bench --json data/bench.json

lint: $(TSTAMP)
	$(PY) -m ruff check $(LINTED)

clean:
	rm -rf $(VENV) build *.egg-info
