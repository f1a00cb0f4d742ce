# Two commands do all the set-up on a fresh Debian/Ubuntu machine:
#   make run    serve the app on http://127.0.0.1:8000/ (SQLite, in-memory channel layer, one process);
#               LAN=1 serves it to the phones on the local network too (sixdice/serve.py)
#   make test   lint (ruff), type-check (mypy), check the layers (lint-imports) and run the whole test suite;
#               any error fails it
VENV ?= .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed
HOST ?= 127.0.0.1
PORT ?= 8000
# The suite runs on this many processes (pytest-xdist), a test file to a process; each process
# keeps one server and one browser for all its files.  TEST_WORKERS=0 runs it in this process.
TEST_WORKERS ?= 2
# The tests run in a shuffled order (pytest-randomly), the same order for the same seed: no test
# depends on another's leftovers.  make flake-hunt tries other orders.
TEST_SEED ?= 20261204
SYSTEM_PACKAGES := chromium redis-server postgresql gettext

.PHONY: run dev test lint bench system-deps flake-hunt

run: export SIXDICE_STATIC_MANIFEST=1
run: $(STAMP)
	$(PY) manage.py migrate --noinput
	$(PY) manage.py collectstatic --noinput -v0
	$(PY) -m sixdice.serve --host $(HOST) --port $(PORT) $(if $(filter 1 yes true on,$(LAN)),--lan)

dev:
	SIXDICE_DEV=1 $(MAKE) run

test: $(STAMP) system-deps
	$(VENV)/bin/ruff check .
	$(VENV)/bin/mypy
	$(VENV)/bin/lint-imports
	$(PY) -m pytest -n $(TEST_WORKERS) --dist loadfile --randomly-seed $(TEST_SEED) $(PYTEST_ARGS)

# The browser and multi-process tests, 5 times in other orders with every core kept busy;
# lists every test that failed in any run (tools/flake_hunt.py).
flake-hunt: $(STAMP) system-deps
	$(PY) tools/flake_hunt.py

lint: $(STAMP)
	$(VENV)/bin/ruff check .
	$(VENV)/bin/mypy
	$(VENV)/bin/lint-imports

bench: $(STAMP)
	$(PY) -m sixdice.lab.bench
	$(PY) -m sixdice.lab.labbench
	$(PY) -m sixdice.lab.botbench
	$(PY) -m runbuster.lab.bench
	$(PY) -m tests.load.bench $(BENCH_ARGS)
	$(PY) -m tests.load.browserbench

$(STAMP): pyproject.toml
	@$(MAKE) --no-print-directory python-venv
	python3 -m venv $(VENV)
	$(PY) -m pip install -q --upgrade pip "uv>=0.5"
	@# uv installs the same packages as pip, several times faster; pip does it where uv cannot
	$(VENV)/bin/uv pip install -q --python $(PY) -e ".[test,lab]" || $(PY) -m pip install -q -e ".[test,lab]"
	touch $(STAMP)

# Debian/Ubuntu ship venv separately; as root, install it, else say how.
.PHONY: python-venv
python-venv:
	@python3 -c "import ensurepip, venv" 2>/dev/null || { \
	  if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null; then \
	    apt-get update -qq && apt-get install -y -qq python3-venv; \
	  else echo "Please install python3-venv first: sudo apt-get install python3-venv"; exit 1; fi; }

# Browsers and servers for the browser and multi-process tests.  As root on
# Debian/Ubuntu they are installed; otherwise those tests say why they skip.
system-deps:
	@missing=""; \
	command -v chromium >/dev/null || missing="$$missing chromium"; \
	command -v redis-server >/dev/null || missing="$$missing redis-server"; \
	[ -x /usr/lib/postgresql/15/bin/initdb ] || ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || missing="$$missing postgresql"; \
	command -v msgfmt >/dev/null || missing="$$missing gettext"; \
	if [ -n "$$missing" ]; then \
	  if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null; then \
	    echo "Installing:$$missing"; apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$missing >/dev/null; \
	  else echo "Not installed:$$missing (needs root: sudo apt-get install$$missing). Tests that need them will skip."; fi; \
	fi
