"""mpmath's multiprecision core (`mpmath.libmp`), imported without the rest
of mpmath.

Importing any part of mpmath first runs the package's `__init__`, which
builds its number contexts and function tables: about three quarters of
mpmath's import time, and nothing the exact path uses.  Here the package
module is created but not run, so only `libmp` loads.  The package runs in
place the first time anything asks it for a name it lacks (as sympy does
when it is imported), so the rest of the program sees the whole of mpmath.
"""

from __future__ import annotations

import importlib.util
import sys
import threading


def _defer_package() -> None:
    spec = importlib.util.find_spec("mpmath")
    package = importlib.util.module_from_spec(spec)
    lock, started = threading.RLock(), []

    def __getattr__(name: str):
        with lock:
            if not started:
                started.append(True)
                spec.loader.exec_module(package)
                return getattr(package, name)
        raise AttributeError(f"module 'mpmath' has no attribute {name!r}")

    package.__getattr__ = __getattr__
    sys.modules["mpmath"] = package


if "mpmath" not in sys.modules:
    _defer_package()

from mpmath.libmp import (fone, from_rational, mpf_add, mpf_log, round_ceiling, round_floor,  # noqa: E402
                          round_nearest, to_float)
from mpmath.libmp.libmpi import mpi_add, mpi_div, mpi_exp, mpi_log, mpi_mul  # noqa: E402

__all__ = ["fone", "from_rational", "mpf_add", "mpf_log", "round_ceiling", "round_floor", "round_nearest",
           "to_float", "mpi_add", "mpi_div", "mpi_exp", "mpi_log", "mpi_mul"]
