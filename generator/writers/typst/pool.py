"""Typst compiles in small processes of their own, beside the process that
solves, draws and renders.

For many PDFs in a row (one sheet and key per student), this process draws
and renders each one while the previous ones compile in `TypstPool`'s
processes: both cores work, and no process holds all of it.  This process
holds its Python modules (about 40 MB: numpy, Jinja, the kinds); a compile
process imports only Typst (15 MB) and holds Typst's fonts and caches: under
100 MB while it compiles a worked-solutions PDF with figures (`make bench`
measures the peak of every process).

Each compile process is `python -m generator.writers.typst.pool`; it reads
length-prefixed Typst sources on stdin and writes each PDF back on stdout.
It builds its compiler as `compiler.compile_pdf` does (the same fonts, the same
inputs, the same cache trimming), so a PDF is the same bytes either way.
This module imports nothing heavy: the compile processes import it too."""

from __future__ import annotations

import json
import os
import re
import signal
import struct
import subprocess
import sys
import tempfile
import threading
from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path

from ..atomic import remove_abandoned
from ..lifeline import die_with_parent

_HEADER = struct.Struct("<BQ")  # status (0 ok, 1 error), length

# Typst lays a document out at most five times, until what its pages ask of
# each other (page counts, where a figure's text ends) stops changing; then it
# warns that the document "did not converge" and keeps the last layout.
_UNSETTLED = "did not converge"
_MORE_LAYOUTS = 3


def compile_settled(compiler, source: bytes, inputs: dict[str, str]) -> bytes:
    """Typst source → PDF bytes, laid out until it settles.

    A figure is sized from where the text before it ends (setup.typ.j2's
    fitted-figure), and a figure drawn smaller moves every page after it: each
    layout pass settles one more figure of such a chain.  Worked solutions with
    ten or more figures could need more than Typst's five passes, and then
    printed a stale layout: "page 15 of 15" on the 14th and last page, a
    figure sized for a place it no longer had (17 of the 300 students of
    bench/exam-300.yaml).  Such a document is laid out again, each figure
    starting at the width it ended with (sys.inputs "fig-widths"), so Typst
    goes on where it stopped.  The source goes through a file of its own, so
    that the laid-out document can be asked for those widths (a query of the
    compile just done costs under a millisecond); the PDF is the same bytes."""
    _sweep_once()
    with tempfile.TemporaryDirectory(prefix=f"attndrills-typst-{os.getpid()}-") as folder:
        main = os.path.join(folder, "main.typ")
        with open(main, "wb") as f:
            f.write(source)
        pdf, warnings = compiler.compile_with_warnings(input=main, root=folder)
        again = 0
        try:
            while again < _MORE_LAYOUTS and any(_UNSETTLED in w.message for w in warnings):
                again += 1
                widths = [float(re.search(r"([\d.]+)pt", w).group(1))  # "0% + 293.56pt"
                          for w in json.loads(compiler.query("image", field="width"))]
                pdf, warnings = compiler.compile_with_warnings(
                    input=main, root=folder, sys_inputs={**inputs, "fig-widths": json.dumps(widths)})
        finally:
            # the next document starts without them, even after an error (an
            # empty compile; stating the inputs on every compile would rebuild
            # Typst's library each time: 0.5 ms)
            if again:
                compiler.compile(input=b"", sys_inputs=inputs)
    return pdf


_SWEPT: list[int] = []  # the process that swept the temporary folder (a fork sweeps again)


def _sweep_once() -> None:
    """Remove the source folders that killed runs left (SIGKILL runs no
    clean-up): each is named by its process, so a folder whose process is gone
    is abandoned.  Once per process, before its first compile."""
    if _SWEPT != [os.getpid()]:
        _SWEPT[:] = [os.getpid()]
        sweep_abandoned()


def sweep_abandoned() -> None:
    """Remove the source folders of compiles whose process is gone."""
    try:
        remove_abandoned(Path(tempfile.gettempdir()), re.compile(r"attndrills-typst-(\d+)-.*"))
    except OSError:  # a temporary folder we may not list: its leftovers stay
        pass


def age_out_cache(compiler, compiles: int) -> None:
    """Typst's memo cache is process-wide; after each compile the binding drops
    the entries that went unused for about ten compiles.  `compiles` empty
    compiles age the last document's entries out now: a process then holds
    about 190 MB instead of 320 (`make bench` measures it)."""
    for _ in range(compiles):
        compiler.compile(input=b"")


def _read(stream, n: int) -> bytes | None:
    data = stream.read(n)
    return data if len(data) == n else None


def _send(stream, status: int, data: bytes) -> None:
    stream.write(_HEADER.pack(status, len(data)))
    stream.write(data)
    stream.flush()


def _receive(stream) -> tuple[int, bytes] | None:
    head = _read(stream, _HEADER.size)
    if head is None:
        return None
    status, size = _HEADER.unpack(head)
    data = _read(stream, size)
    return None if data is None else (status, data)


def serve() -> None:
    """The compile process: first message the settings (JSON), then one
    Typst source per message, each answered with its PDF or its error."""
    die_with_parent()  # a killed run's compile process no longer waits for its input for ever
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C reaches the group; the parent stops us by closing stdin
    import typst

    inp, out = sys.stdin.buffer, sys.stdout.buffer
    first = _receive(inp)
    if first is None:
        return
    settings = json.loads(first[1])
    compiler = typst.Compiler(ignore_system_fonts=True, font_paths=settings["font_paths"],
                              sys_inputs=settings["sys_inputs"])
    while (message := _receive(inp)) is not None:
        try:
            reply = (0, compile_settled(compiler, message[1], settings["sys_inputs"]))
        except Exception as exc:  # noqa: BLE001 - the parent raises it with the message
            reply = (1, str(exc).encode("utf-8", "replace"))
        age_out_cache(compiler, settings["age_out"])  # as compile_pdf does
        _send(out, *reply)


class TypstPool:
    """`workers` compile processes (default: one per core, at most 2), each
    fed by a thread of this process.  `compile(source)` returns a Future of
    the PDF bytes; futures complete in any order, each with its own PDF.
    Use as a context manager, or call `close()`."""

    def __init__(self, font_paths: list[str], sys_inputs: dict[str, str], age_out: int,
                 workers: int | None = None):
        self._settings = json.dumps({"font_paths": font_paths, "sys_inputs": sys_inputs,
                                     "age_out": age_out}).encode()
        self._local = threading.local()
        self._procs: list[subprocess.Popen] = []
        self._lock = threading.Lock()
        self._closed = False
        self._threads = ThreadPoolExecutor(max_workers=workers or min(2, os.cpu_count() or 1),
                                           thread_name_prefix="typst")

    def _proc(self) -> subprocess.Popen:
        proc = getattr(self._local, "proc", None)
        if proc is None:
            if self._closed:
                raise RuntimeError("the Typst pool is closed")
            # this very package, wherever it was imported from (a checkout, a wheel)
            home = str(Path(__file__).resolve().parents[3])
            path = os.pathsep.join([home, *filter(None, [os.environ.get("PYTHONPATH")])])
            proc = subprocess.Popen([sys.executable, "-m", "generator.writers.typst.pool"],
                                    stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                    env={**os.environ, "PYTHONPATH": path})
            _send(proc.stdin, 0, self._settings)
            self._local.proc = proc
            with self._lock:
                self._procs.append(proc)
        return proc

    def _compile(self, source: bytes) -> bytes:
        proc = self._proc()
        try:
            _send(proc.stdin, 0, source)
            reply = _receive(proc.stdout)
        except (OSError, ValueError):  # ValueError: close() shut the pipe meanwhile
            reply = None
        if reply is None:
            raise RuntimeError(f"a Typst compile process stopped (exit code {proc.poll()})")
        status, data = reply
        if status:
            raise RuntimeError(f"Typst could not compile the document: {data.decode('utf-8', 'replace')}")
        return data

    def compile(self, source: str) -> Future:
        return self._threads.submit(self._compile, source.encode("utf-8"))

    def close(self) -> None:
        """Stop the compile processes: a compile still running is dropped."""
        self._closed = True
        self._threads.shutdown(wait=False, cancel_futures=True)
        with self._lock:
            procs, self._procs = self._procs, []
        for proc in procs:
            try:
                proc.stdin.close()  # the process ends at the end of its input
            except OSError:
                pass
        for proc in procs:
            try:
                proc.wait(timeout=5)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()
            proc.stdout.close()
        self._threads.shutdown(wait=True)

    def __enter__(self) -> TypstPool:
        return self

    def __exit__(self, *exc) -> None:
        self.close()


if __name__ == "__main__":
    serve()
