# Two commands on a fresh machine: `make demo` and `make test`.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: demo test lint bench html clean

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[test,notebooks]'
	touch $(STAMP)

demo: $(STAMP)
	$(BIN)/msanalysis analyze puzzles/positions/expert-midgame.txt --explain 0,9

# Unit tests, the docstring examples of the package and the README (pyproject.toml's pytest
# settings), and every notebook (nbmake), spread over every core (pytest-xdist), each file on
# one worker in order (the README's examples build on one another).
test: $(STAMP)
	$(BIN)/python -m pytest -n auto --dist loadfile tests msanalysis README.md --nbmake $(wildcard notebooks/*.ipynb)

# Ruff's rules and mypy's types (their settings are in pyproject.toml).
lint: $(STAMP)
	$(BIN)/ruff check msanalysis tests benchmarks
	$(BIN)/mypy

# Helpers, and the long studies (hours; resumable, run on their own: see the README).
NOT_BENCH = benchmarks/arguments.py benchmarks/seed003_backtrack.py benchmarks/tables.py benchmarks/longrun.py \
	benchmarks/opening_book.py benchmarks/race.py benchmarks/rollout_gain.py \
	benchmarks/rollout_fit.py benchmarks/losses.py benchmarks/changed_guesses.py \
	benchmarks/java_solver.py

bench: $(STAMP)
	$(BIN)/python -m pip install --quiet -e '.[bench]'
	for f in $(filter-out $(NOT_BENCH),$(wildcard benchmarks/*.py)); do $(BIN)/python $$f || exit 1; done

# Every notebook as HTML under build/notebooks/, to read them as a reader would (not committed).
html: $(STAMP)
	$(BIN)/jupyter nbconvert --to html --output-dir build/notebooks notebooks/*.ipynb

clean:
	rm -rf $(VENV)
