"""The one job driver of the site, the sheets and the exams: a run is a list
of independent jobs (a student's paper, a set, a practice variant), each
writing its own files into the staging folder; their results come back in
the order of the jobs, whoever ran them, counted on a terminal; then the
caller writes what the jobs share, and the folder is swapped in whole
(`two_phase`), so a failed or interrupted run leaves nothing half-written."""

from __future__ import annotations

import gc
import multiprocessing as mp
import os
import re
import shutil
import signal
import tempfile
import threading
from collections.abc import Callable, Iterator
from concurrent.futures import ProcessPoolExecutor
from contextlib import contextmanager
from pathlib import Path

from .atomic import MARKER, marker_text, remove_abandoned, staged, write_into
from .lifeline import die_with_parent, map_in_order, stop_pool
from .progress import shown
from .. import text
from .typst import compiler

# One rule for every run (the site's was a pool for 2+ jobs where Python can
# fork, the exam's a pool for 8+ where it has a forkserver): a pool from 8
# jobs on, where a forkserver can stand in for an unsafe fork (pool_context).  Below
# that the workers cost more than a second core saves: an exam of 4 students
# took 1.88 s in this process and 2.18 s with a pool (medians of 3
# alternating runs, load 10 on 2 cores).  The site always has hundreds of
# jobs (20 practice variants per kind), so the threshold only ever decides
# for small exams, as it did before.  One job per chunk, as the site had (the
# exam sent two): a worker takes the next job as it frees up, so both cores
# stay busy to the end; 100 students took 12.8 s against 14.1 s before
# (medians of 3 alternating runs, load 8 to 10), the same files.
MIN_POOLED = 8

# A job allocates many short-lived objects (exact fractions, maths nodes,
# SVG strings) and makes few reference cycles: collecting the youngest generation
# every 20 000 allocations instead of every 700 saves about 6 % of the time.
_GC_THRESHOLD = (20_000, 20, 20)


def run_jobs(run: Callable, jobs: list, label: str, workers: int | None = None) -> Iterator:
    """`run(job)` for each job, yielded in the order of `jobs`; a process
    pool of `workers` (default: up to 2) when there are enough jobs, this
    process otherwise; progress (`label k/n`) only on a terminal."""
    return shown(_results(run, jobs, workers), label, len(jobs))


def _results(run: Callable, jobs: list, workers: int | None) -> Iterator:
    _sweep_scratch()
    workers = workers or min(2, os.cpu_count() or 1)
    if workers > 1 and len(jobs) >= MIN_POOLED and "forkserver" in mp.get_all_start_methods():
        # The workers' temporary files (a deck's SQLite file, Typst's source
        # folders) go to a folder of this run's own, removed once the workers
        # are gone: a worker killed by Ctrl-C mid-deck cannot clean up after
        # itself; a killed run's folder is removed by the next run (above).
        scratch = tempfile.mkdtemp(prefix=f"attndrills-jobs-{os.getpid()}-")
        pool = ProcessPoolExecutor(max_workers=workers, mp_context=pool_context(), initializer=pool_worker,
                                   initargs=(compiler.extra_fonts(), os.getpid(), scratch, text.settings()))
        try:
            try:
                yield from map_in_order(pool, run, jobs)  # one job per chunk (MIN_POOLED says why)
            except BaseException:  # Ctrl-C or a failed job: stopped at once, the staging folder goes
                stop_pool(pool)
                raise
            pool.shutdown()
        finally:
            shutil.rmtree(scratch, ignore_errors=True)
        return
    threshold = gc.get_threshold()
    gc.set_threshold(*_GC_THRESHOLD)
    try:
        yield from map(run, jobs)
    finally:
        gc.set_threshold(*threshold)


def _sweep_scratch() -> None:
    try:
        remove_abandoned(Path(tempfile.gettempdir()), re.compile(r"attndrills-jobs-(\d+)-.*"))
    except OSError:  # a temporary folder we may not list: its leftovers stay
        pass


def pool_worker(extra_fonts: tuple[str, ...] = (), run: int | None = None, scratch: str | None = None,
                words: text.Settings | None = None) -> None:
    """A worker's set-up: it ends with the run (`run`, the command's process),
    takes the run's --font-path folders and its language and edited
    sentences (`words`), keeps its temporary files in `scratch`, ignores the
    signals the main process handles, and keeps its garbage collector off
    what it inherited."""
    die_with_parent(run)
    if words is not None:
        text.choose(words.lang, words.text_dir)
    if scratch is not None:
        tempfile.tempdir = scratch
    compiler.take_fonts(extra_fonts)
    # Ctrl-C (and a SIGTERM to the group) reaches every worker: the main process handles it
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    gc.freeze()  # what the worker inherited is never scanned (nor copied on write by the scan)
    gc.set_threshold(*_GC_THRESHOLD)


def pool_context():
    """Fork this process when that is safe: it has imported everything, so the
    workers start at once.  Forking is safe only while no other thread runs
    (one could hold a lock mid-fork and deadlock the child): a Typst compile
    starts Rust threads, a test runner or a GUI starts Python threads (numpy's
    BLAS threads re-initialise after a fork).  Otherwise a forkserver imports
    the heavy modules once, single-threaded, and forks every worker from there."""
    if not compiler.has_compiled() and threading.active_count() == 1 and "fork" in mp.get_all_start_methods():
        return mp.get_context("fork")
    ctx = mp.get_context("forkserver")
    ctx.set_forkserver_preload(["generator.writers.exams", "generator.kinds", "generator.figures"])
    return ctx


@contextmanager
def two_phase(out: Path, marker: str) -> Iterator[Path]:
    """Phase one: the jobs, then what they share, write into a staging
    sibling of `out`; phase two, once all of it is written: the marker that
    says this tool wrote the folder, and the folder swapped in whole."""
    with staged(out) as folder:
        yield folder
        write_into(folder, {MARKER: marker_text(marker, folder)})
