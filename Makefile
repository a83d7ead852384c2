# Two commands do everything on a fresh machine with Python 3.10+:
#   make site   – venv, install, fresh problem sets, the MkDocs site and printable PDFs
#   make test   – the whole test suite
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed

.PHONY: site test bench install clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

# Reinstall whenever pyproject.toml changes.
$(STAMP): pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e '.[test,site]'
	touch $(STAMP)

install: $(STAMP)

test: $(STAMP)
	$(BIN)/python -m pytest

site: $(STAMP)
	$(BIN)/attndrills site --pdf
	NO_MKDOCS_2_WARNING=1 $(BIN)/mkdocs build --strict --quiet
	@echo "Site built in site/ (static files: host them anywhere)."
	@echo "Preview it with: $(BIN)/mkdocs serve   then open http://127.0.0.1:8000/"

bench: $(STAMP)
	$(BIN)/python bench/run.py

clean:
	rm -rf site docs/generated .pytest_cache
