"""Workers end with the run that started them, however it ends.

A run killed with SIGKILL runs no clean-up: its worker processes (the papers'
and the site's process pools, the Typst compile processes) lived on, waiting
for work that never came, ignoring SIGTERM (as they must: the main process
stops them), and holding the caller's stdout, so a caller reading the run's
output through a pipe waited for ever.  Each worker now asks Linux to kill it
when its parent ends (prctl PR_SET_PDEATHSIG), and a thread of its own checks
its parent four times a second where that is not available (or the parent
ended before the request was made).  This module imports nothing heavy: the
Typst compile processes import it too."""

from __future__ import annotations

import os
import signal
import threading
import time

from .atomic import _alive  # a killed run not yet reaped counts as gone

_PR_SET_PDEATHSIG = 1
_EVERY = 0.25  # seconds between two looks at the parent


def _ask_the_kernel() -> None:
    try:
        import ctypes

        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
    except (OSError, AttributeError):  # not Linux: the watching thread alone
        pass


def _end() -> None:
    os.kill(os.getpid(), signal.SIGKILL)  # as the kernel would: no clean-up that could wait on anything


def die_with_parent(run: int | None = None) -> None:
    """Call first thing in a worker process: it ends within a second of its
    parent (and of `run`, the process of the command, when that is another
    one: a forkserver's workers are its children).  A worker's parent is the
    thread that started it as far as the kernel is concerned; every pool here
    is started by the thread that lives as long as the pool."""
    parent = os.getppid()
    _ask_the_kernel()
    if os.getppid() != parent or (run is not None and not _alive(run)):  # ended before the request
        _end()

    def watch() -> None:
        while True:
            time.sleep(_EVERY)
            if os.getppid() != parent or (run is not None and not _alive(run)):
                _end()

    threading.Thread(target=watch, name="lifeline", daemon=True).start()
