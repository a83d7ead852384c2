"""A time bound for the symbolic steps whose cost sympy cannot promise
(limit, nsimplify): past it the problem is rejected with a clear error
instead of hanging the build."""

from __future__ import annotations

import signal
import threading
from contextlib import contextmanager

from ..errors import ProblemRejected

SYMPY_SECONDS = 20.0


@contextmanager
def sympy_budget(what: str, seconds: float = SYMPY_SECONDS):
    # signal timers work only in the main thread; elsewhere the step runs unbounded
    if threading.current_thread() is not threading.main_thread() or not hasattr(signal, "setitimer"):
        yield
        return

    def expire(signum, frame):
        raise TimeoutError

    previous = signal.signal(signal.SIGALRM, expire)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    except TimeoutError:
        raise ProblemRejected(f"sympy needed more than {seconds:g} s for {what}; "
                              "try simpler numbers (fewer digits)") from None
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
