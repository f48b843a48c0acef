"""The demo corpus fixture lives in tests/conftest.py (the normaliser's tests read names too)."""
