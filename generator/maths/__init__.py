"""Exact (sympy/mpmath intervals) and numeric (numpy) paths, and their cross-check."""
