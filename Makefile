# The two commands of the README: `make run` and `make test`. Both set up .venv on a fresh machine.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
LINTED := interpreter tests $(wildcard benchmarks/*.py)

.PHONY: run test lint typecheck pytest test-compiled bench docs schema clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade -c constraints-dev.txt pip

# The checkout's own install is editable and pure Python (PIGLIA_PURE: no Cython fetched, nothing compiled), so
# that an edit of a module takes effect at once; `pip install .` elsewhere builds the compiled wheel.
$(VENV)/.installed: pyproject.toml | $(BIN)/python
	PIGLIA_PURE=1 $(BIN)/python -m pip install --quiet -e .
	touch $@

# The checkout's bytecode, written as a wheel's install writes it, and again when a module changes: with
# PYTHONDONTWRITEBYTECODE set, Python would compile every piglia module on every run, which takes longer than the
# rest of a small command's start (docs/performance.md, "Issue 12, third pass: startup").
$(VENV)/.compiled: $(wildcard interpreter/piglia/*.py interpreter/piglia/*/*.py) | $(BIN)/python
	$(BIN)/python -m compileall -q interpreter/piglia
	touch $@

# The test tools are pinned (constraints-dev.txt) so that `make test` next month runs the same ruff and mypy.
$(VENV)/.installed-dev: pyproject.toml constraints-dev.txt | $(BIN)/python
	PIGLIA_PURE=1 $(BIN)/python -m pip install --quiet -c constraints-dev.txt -e '.[dev,cluster,plot,rl,web]'
	touch $@ $(VENV)/.installed

## run: simulate 1,000 deals of classic Scopa and print the summary
run: $(VENV)/.installed $(VENV)/.compiled
	$(BIN)/piglia simulate scopa --deals 1000 --seed 1

## test: ruff, mypy and pytest, then pytest again on the compiled build (COMPILED=0: not that)
COMPILED ?= 1
test: $(VENV)/.installed-dev $(VENV)/.compiled lint typecheck pytest $(if $(filter 1,$(COMPILED)),test-compiled)

lint: $(VENV)/.installed-dev
	$(BIN)/ruff check $(LINTED)
	$(BIN)/ruff format --check $(LINTED)

typecheck: $(VENV)/.installed-dev
	$(BIN)/mypy

# Every core (pytest-xdist); a test file stays on one worker, so its module fixtures are built once.
pytest: $(VENV)/.installed-dev
	$(BIN)/pytest -n auto --dist loadfile

# The compiled build (interpreter/hatch_build.py) in a venv of its own: the wheel `pip install .` builds, then the
# suite again on it (the tests of the extras it lacks skip), which pins every seed's deals, moves and records to
# what the source gives. Rebuilt when a module changes (about a minute and a half on two cores).
CVENV := .venv-compiled
$(CVENV)/.installed: pyproject.toml constraints-dev.txt interpreter/hatch_build.py \
		$(wildcard interpreter/piglia/*.py interpreter/piglia/*/*.py)
	rm -rf $(CVENV) build/wheel
	$(PYTHON) -m venv $(CVENV)
	$(CVENV)/bin/python -m pip install --quiet --upgrade -c constraints-dev.txt pip
	$(CVENV)/bin/python -m pip wheel --quiet --no-deps -w build/wheel .
	$(CVENV)/bin/python -m pip install --quiet -c constraints-dev.txt "$$(echo build/wheel/piglia-*.whl)[web]" \
		pytest pytest-xdist hypothesis httpx hatchling cython
	touch $@

test-compiled: $(CVENV)/.installed
	PIGLIA_EXPECT_COMPILED=1 $(CVENV)/bin/pytest -n auto --dist loadfile -p no:cacheprovider

## docs: regenerate docs/variants/<name>.md for every built-in variant (piglia rules)
docs: $(VENV)/.installed
	$(BIN)/python -c "from piglia.rulespage import write_docs; write_docs('docs/variants')"

## schema: regenerate grammar/variant.schema.json (variant.base.schema.json + the mechanics registry)
schema: $(VENV)/.installed
	$(BIN)/piglia schema -o grammar/variant.schema.json --force

bench: $(VENV)/.installed-dev
	$(BIN)/python benchmarks/run.py

clean:
	rm -rf $(VENV) $(CVENV) build dist .pytest_cache .mypy_cache .ruff_cache
