"""The load benchmark: python -m tests.load.bench (not collected by pytest)."""
