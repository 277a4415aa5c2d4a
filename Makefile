# The two commands of the README: `make run` and `make test`. Both set up .venv on a fresh machine.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
LINTED := interpreter tests $(wildcard benchmarks/*.py)

.PHONY: run test lint typecheck pytest bench docs schema clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade -c constraints-dev.txt pip

$(VENV)/.installed: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e .
	touch $@

# The checkout's bytecode, written as a wheel's install writes it, and again when a module changes: with
# PYTHONDONTWRITEBYTECODE set, Python would compile every piglia module on every run, which takes longer than the
# rest of a small command's start (docs/performance.md, "Issue 12, third pass: startup").
$(VENV)/.compiled: $(wildcard interpreter/piglia/*.py interpreter/piglia/*/*.py) | $(BIN)/python
	$(BIN)/python -m compileall -q interpreter/piglia
	touch $@

# The test tools are pinned (constraints-dev.txt) so that `make test` next month runs the same ruff and mypy.
$(VENV)/.installed-dev: pyproject.toml constraints-dev.txt | $(BIN)/python
	$(BIN)/python -m pip install --quiet -c constraints-dev.txt -e '.[dev,cluster,plot,rl,web]'
	touch $@ $(VENV)/.installed

## run: simulate 1,000 deals of classic Scopa and print the summary
run: $(VENV)/.installed $(VENV)/.compiled
	$(BIN)/piglia simulate scopa --deals 1000 --seed 1

## test: ruff, mypy and pytest
test: $(VENV)/.installed-dev $(VENV)/.compiled lint typecheck pytest

lint: $(VENV)/.installed-dev
	$(BIN)/ruff check $(LINTED)
	$(BIN)/ruff format --check $(LINTED)

typecheck: $(VENV)/.installed-dev
	$(BIN)/mypy

# Every core (pytest-xdist); a test file stays on one worker, so its module fixtures are built once.
pytest: $(VENV)/.installed-dev
	$(BIN)/pytest -n auto --dist loadfile

## docs: regenerate docs/variants/<name>.md for every built-in variant (piglia rules)
docs: $(VENV)/.installed
	$(BIN)/python -c "from piglia.rulespage import write_docs; write_docs('docs/variants')"

## schema: regenerate grammar/variant.schema.json (variant.base.schema.json + the mechanics registry)
schema: $(VENV)/.installed
	$(BIN)/piglia schema -o grammar/variant.schema.json --force

bench: $(VENV)/.installed-dev
	$(BIN)/python benchmarks/run.py

clean:
	rm -rf $(VENV) build dist .pytest_cache .mypy_cache .ruff_cache
