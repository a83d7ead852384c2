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


def run_chunk(fn, chunk: list) -> list:
    return [fn(job) for job in chunk]


def map_in_order(pool, fn, jobs: list, chunksize: int = 1):
    """`pool.map(fn, jobs, chunksize=…)`, whose results it yields in the order
    of `jobs`, without pool.map's clean-up: on Ctrl-C that cancelled the
    futures still queued, and the pool's manager thread, seeing the killed
    workers (stop_pool), then failed to mark those as broken (Python 3.11's
    InvalidStateError, printed with its traceback under 'interrupted:')."""
    futures = [pool.submit(run_chunk, fn, jobs[i:i + chunksize]) for i in range(0, len(jobs), chunksize)]
    for future in futures:
        yield from future.result()


def stop_pool(pool) -> None:
    """Stop a ProcessPoolExecutor at once (Ctrl-C, SIGTERM, a failed job):
    its workers are killed where they are instead of finishing the jobs under
    way.  Waiting for those took 1 to 6 s on a loaded machine (a worker's job
    is two papers, or a set with its PDFs), where Ctrl-C promises a second;
    what they were writing is in the staging folder, which the caller removes
    once they are gone.  The Typst source folders of their compiles go too."""
    workers = list((getattr(pool, "_processes", None) or {}).values())  # Python 3.14 has pool.kill_workers()
    for worker in workers:
        try:
            worker.kill()
        except (OSError, ValueError, AttributeError):  # already gone, or closed
            pass
    for worker in workers:
        try:
            worker.join()
        except (OSError, ValueError, AttributeError, AssertionError):
            pass
    # A worker killed while sending its result leaves half a message in the
    # result pipe: the pool's manager thread waited in recv() for the rest,
    # and shutdown() for it, for ever (1 Ctrl-C in 25 of a 400-student exam
    # on a loaded machine).  With the workers gone, this process holds the
    # pipe's last write end: closed, that recv() ends (EOF) and the manager
    # marks the pool broken.
    writer = getattr(getattr(pool, "_result_queue", None), "_writer", None)
    if writer is not None:
        writer.close()
    pool.shutdown(wait=True)
    from .typst.pool import sweep_abandoned

    sweep_abandoned()
