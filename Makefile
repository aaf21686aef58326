# simcoinche — every target installs what it needs into .venv by itself.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed

.PHONY: run test lint docs bench bench-quick clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[test,plots,dask,docs]'
	touch $(STAMP)

## run: the main job — simulate one million donnes to runs/, print where and a summary
run: $(STAMP)
	$(BIN)/simcoinche simulate -n 1000000 --seed 1 --overwrite

## test: ruff, the import contracts (the layers), the user guide's build, the whole test suite
##       on every core, up to 4 (a file per worker at a time; the 30 slowest tests listed at
##       the end: where the suite's time goes, issue 24)
test: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/lint-imports --no-cache --no-logo
	$(BIN)/mkdocs build --strict --quiet --site-dir $(VENV)/site
	$(BIN)/python -m pytest -q -n auto --maxprocesses 4 --dist loadfile \
		--no-loadscope-reorder --durations=30

lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/lint-imports --no-cache --no-logo

## docs: build the user guide (docs/, mkdocs.yml) into site/
docs: $(STAMP)
	$(BIN)/mkdocs build --strict

## bench: full benchmark suite, JSON under benchmarks/results/
BENCH_STAMP := $(VENV)/.installed-bench

# The peer engine (colver) is optional: if it cannot be installed the harness says so.
$(BENCH_STAMP): $(STAMP)
	$(BIN)/pip install --quiet -e '.[bench]' || echo "colver could not be installed: the peer comparison will be reported as absent"
	touch $(BENCH_STAMP)

bench: $(BENCH_STAMP)
	$(BIN)/python -m benchmarks.run

bench-quick: $(BENCH_STAMP)
	$(BIN)/python -m benchmarks.run --quick

## clean: the virtualenv, tool caches and the compiled-kernel cache
clean:
	rm -rf $(VENV) .pytest_cache .ruff_cache "$${SIMCOINCHE_CACHE_DIR:-$${XDG_CACHE_HOME:-$$HOME/.cache}/simcoinche}"
