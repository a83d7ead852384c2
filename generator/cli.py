"""attndrills — the command line (DESIGN.md, "Command line").

Bad input ends with exit code 2 and one `error:` line; nothing else.
"""

from __future__ import annotations

import errno
import json
import os
import sys
from typing import Sequence

from . import kinds, text
from .cli_args import join_negative_values, parser
from .errors import UserError

# Each command imports what it needs inside its own function: `attndrills kinds`
# answers without numpy, sympy, matplotlib, Typst or the site builders
# (tests/test_cli.py checks which modules each command loads).

EXIT_USAGE = 2
EXIT_INTERNAL = 70
EXIT_INTERRUPTED = 130  # 128 + SIGINT, as shells report Ctrl-C
EXIT_TERMINATED = 143  # 128 + SIGTERM
_WRITE_ERRORS = {errno.ENOSPC, errno.EIO, errno.EFBIG, errno.EROFS, errno.EDQUOT}  # the output could not be written


def cmd_kinds(args) -> int:
    rows = [{"id": k.id, "slug": k.slug, "title": k.title, "level": k.level, "source": k.source,
             "summary": k.summary} for k in kinds.listing()]
    if args.json:
        print(json.dumps(rows, ensure_ascii=False, indent=2))
        return 0
    width = max(len(r["slug"]) for r in rows)
    for r in rows:
        level = f"L{r['level']}" if r["level"] else "  "
        print(f"{r['id']:<4} {level}  {r['slug']:<{width}}  {r['title']}  [{r['source']}]")
    return 0


def cmd_problem(args) -> int:
    from .pipeline import check_digits, given_problem, sample_problem, solve_problem
    from .seeding import fresh_seed, parse_seed, parse_variant

    check_digits(args.digits)
    _words(args)
    kind_name = args.kind
    seed = None
    decoded = parse_variant(args.kind)
    coded = bool(decoded and decoded[0].upper() in {k.id.upper() for k in kinds.listing()})
    if coded:
        kind_name, seed = decoded
    if args.seed is not None:
        if coded:  # the code names its seed: a second one was silently taken over it
            raise UserError(f"{args.kind} is a variant code, which holds its own seed; "
                            "give the code or a kind with --seed, not both")
        seed = parse_seed(args.seed)
    inputs = None
    if args.input is not None:
        from .loaded import MAX_NESTING, check_input, json_int

        try:
            inputs = json.loads(args.input, parse_int=json_int)
        except json.JSONDecodeError as exc:
            raise UserError(f"--input: not valid JSON ({exc.msg} at position {exc.pos})") from None
        except RecursionError:  # Python's JSON reader recurses once per level
            raise UserError(f"--input: nested more than {MAX_NESTING} deep; inputs are lists of numbers, "
                            "and states lists of such lists") from None
        if not isinstance(inputs, dict):
            raise UserError("--input: expected a JSON object such as {\"scores\": [\"0.3\", \"2.1\"]}")
        check_input(inputs, "--input")
    if args.scores is not None:
        inputs = dict(inputs or {})
        inputs["scores"] = args.scores.split(",")
    if inputs is not None:
        if coded:
            raise UserError(f"{args.kind} is a variant code, which draws its own inputs; give the kind "
                            f"({kind_name}) with --scores/--input")
        if seed is not None:
            raise UserError("--seed draws the inputs; give either --seed or --scores/--input, not both")
        problem = given_problem(kind_name, inputs)
    else:
        if seed is None:
            seed = fresh_seed()
            chosen = True
        else:
            chosen = False
        problem = sample_problem(kind_name, seed)
        if chosen:
            print(f"seed: {seed} (variant {problem.variant}; rerun with --seed {seed})", file=sys.stderr)
    solution = solve_problem(problem, args.digits)
    figures = None
    if args.figures is not None:
        from pathlib import Path

        from .figures import draw_figures
        from .writers.files import write_files

        figures = draw_figures(solution)
        write_files(Path(args.figures), {f.filename: f.data for f in figures})
    if args.format == "json":
        from .render.json import render_problem
        sys.stdout.write(render_problem(solution, figures))
    else:
        from .render.markdown import render_problem
        sys.stdout.write(render_problem(solution, figures=figures))
    return 0


def cmd_site(args) -> int:
    from pathlib import Path

    from .seeding import fresh_seed, parse_seed
    from .exam.spec import MAX_SETS, load_spec
    from .writers.site import site_specs, write_site

    if args.sets is not None and not 1 <= args.sets <= MAX_SETS:
        raise UserError(f"--sets: use 1 to {MAX_SETS}")
    spec = load_spec(args.spec, args.lang) if args.spec else None
    _words(args, spec)
    from .writers.site import GENERATED

    _outside(Path(args.docs) / GENERATED, args.spec)
    specs = site_specs(spec, args.sets)
    if args.seed is not None:
        if not args.seed.strip():  # `make site` reads it from site-seed.txt
            raise UserError("--seed is empty (if from `make site`: site-seed.txt is empty; write a whole "
                            "number into it)")
        master = parse_seed(args.seed)
    elif spec is not None and spec.seed is not None:
        master = spec.seed
    else:
        master = fresh_seed()
    # MathJax goes into the docs folder (a complete copy of its own), not
    # through a builder's hook, so MkDocs and Zensical both publish it.  Its
    # folder is checked now and written after the pages: a run that fails
    # while building them leaves no DOCS/assets behind.
    from .writers.mathjax import check_mathjax, write_mathjax

    check_mathjax(Path(args.docs), args.force)
    # Every kind's module now, before write_site forks its worker: the site
    # shows every kind, and a worker forked after this inherits them imported.
    kinds.all_kinds()
    target = write_site(Path(args.docs), specs, master, args.pdf, args.force,
                        course=f"{spec.title} — whole course" if spec is not None else None)
    if write_mathjax(Path(args.docs), args.force) is None:
        print("warning: MathJax is not installed (pip install -e '.[site]'); "
              "the site's formulas will show as raw TeX", file=sys.stderr)
    if (lang := text.settings().lang) != "en":
        print(f"note: mkdocs.yml (sidebar titles, theme: language: {lang}), docs/index.md and docs/recipe.md are the "
              "course's own: write them in its language too (guide/texts.md)", file=sys.stderr)
    print(f"wrote {len(specs)} problem set(s) from seed {master} into {target} "
          f"(rerun with --seed {master})", file=sys.stderr)
    return 0


def _words(args, spec=None) -> None:
    """The run's language and edited sentences (--lang/--text, else the spec's)."""
    from .text.edits import choose_words

    choose_words(args.lang, args.text, spec)


def _master(args, spec) -> int:
    """--seed, else the spec's seed, else a fresh one (the closing line names it:
    printed before the work, it would sit above an `error:` line)."""
    from .seeding import fresh_seed, parse_seed

    if args.seed is not None:
        return parse_seed(args.seed)
    if spec.seed is not None:
        return spec.seed
    return fresh_seed()


def _outside(out, *inputs) -> None:
    """The output folder is replaced whole (--force included): an input the
    command reads must not lie inside it."""
    from pathlib import Path

    folder = Path(out).resolve()
    for given in filter(None, inputs):
        path = Path(given).resolve()
        if path == folder or folder in path.parents:
            raise UserError(f"{given} lies inside --out {out}, which is replaced whole; "
                            "write the output to another folder")


def cmd_sheet(args) -> int:
    from pathlib import Path

    from .exam.spec import load_spec
    from .writers.sheets import write_sheet
    from .writers.typst.compiler import font_warnings, use_fonts

    spec = load_spec(args.spec, args.lang)
    _words(args, spec)
    _outside(args.out, args.spec, *args.font_path)
    use_fonts(args.font_path)
    master = _master(args, spec)
    write_sheet(spec, master, Path(args.out), args.paper, args.force)
    _warn(font_warnings([("the title", spec.title)]))
    print(f"wrote {args.out}/sheet.pdf and {args.out}/key.pdf (seed {master}; rerun with --seed {master})",
          file=sys.stderr)
    return 0


def cmd_exam(args) -> int:
    from pathlib import Path

    from .exam.roster import load_roster, numbered, variant_sets
    from .exam.spec import load_spec
    from .writers.exams import write_exam
    from .writers.typst.compiler import font_warnings, use_fonts

    spec = load_spec(args.spec, args.lang)
    _words(args, spec)
    _outside(args.out, args.spec, args.roster, *args.font_path)
    pool = args.variants is not None
    if pool:
        if args.only is not None or args.solutions:
            raise UserError("--variants writes no papers; --only and --solutions need --students or --roster")
        students = variant_sets(args.variants)
    else:
        students = load_roster(args.roster) if args.roster else numbered(args.students)
    if args.workers is not None and not 1 <= args.workers <= 64:
        raise UserError("--workers: use 1 to 64")
    if args.qti and args.only is not None:
        raise UserError("--only rewrites one paper; --qti is written with the whole exam")
    use_fonts(args.font_path)
    master = _master(args, spec)
    n = write_exam(spec, students, master, Path(args.out), args.paper, args.only, args.force, args.workers,
                     args.solutions, papers=not pool, canvas=args.qti)
    printed = [] if pool else [s for s in students if args.only in (None, s.id)]
    _warn(font_warnings([("the title", spec.title)] +
                        [(f"student {s.id}" + (f" ({s.name})" if s.name else ""), f"{s.id} {s.name}") for s in printed]))
    what = f"a Moodle pool of {n} variant(s) of every question" if pool else f"{n} paper(s)"
    if args.qti:
        what += " and canvas-qti.zip for Canvas"
    print(f"wrote {what} into {args.out} (seed {master}; rerun with --seed {master})", file=sys.stderr)
    return 0


def cmd_text(args) -> int:
    from .text.edits import text_command

    return text_command(args)


def _warn(lines: list[str]) -> None:
    for line in lines:
        print(one_line(line), file=sys.stderr)


def cmd_grade(args) -> int:
    from pathlib import Path

    from .exam.grader import fmt, grade, results_csv, totals
    from .writers.files import write_text

    if args.out and Path(args.out).resolve() in (Path(args.answers).resolve(), Path(args.responses).resolve()):
        raise UserError(f"--out {args.out} is one of the files being graded; write the results to another file")
    _words(args)
    grading = grade(Path(args.answers), Path(args.responses))
    table = results_csv(grading.results)
    if args.out:
        write_text(Path(args.out), table)
        for student, got, total in totals(grading.results):
            lms = grading.moodle_grades.get(student)  # Moodle's or Canvas's own grade, from its report
            print(f"{student}\t{fmt(got)} / {fmt(total)}" + (f"\t{grading.lms}: {lms[0]} / {lms[1]}" if lms else ""))
    else:
        sys.stdout.write(table)
    # reported after the results are written, so a failed write leaves one error line
    for line in grading.reports:
        print(f"warning: {one_line(line)}", file=sys.stderr)
    print(grading.summary(), file=sys.stderr)
    return 1 if grading.unmatched else 0


def cmd_analyse(args) -> int:
    from pathlib import Path

    from .writers.analysis import write_analysis

    _outside(args.out, args.results, args.answers)
    site = args.site if not args.site or args.site.endswith("/") else args.site + "/"
    done = write_analysis(Path(args.results), Path(args.out), site, args.force,
                          Path(args.answers) if args.answers else None)
    for line in done["warnings"][:-1]:  # grade's, with --answers
        print(f"warning: {one_line(line)}", file=sys.stderr)
    if done["warnings"]:
        print(done["warnings"][-1], file=sys.stderr)
    print(f"wrote {args.out}/report.html, worked.html, items.csv, kinds.csv, misconceptions.csv and "
          "misconceptions_by_question.csv "
          f"({done['students']} students, {done['flagged']} question(s) flagged)", file=sys.stderr)
    return 0


def one_line(text: str) -> str:
    """Messages quote what users typed: show control characters escaped, so the
    error stays one printable line whatever was typed."""
    return "".join(ch if ch.isprintable() else ch.encode("unicode_escape").decode("ascii") for ch in text)


class Terminated(KeyboardInterrupt):
    """SIGTERM (`kill`, `timeout`, a cancelled CI job), handled as Ctrl-C is:
    the workers finish the papers they are writing and stop, nothing is
    half-written.  Left to its default, it killed this process alone and
    left the workers waiting for work that never came."""


def _terminate(signum, frame):
    raise Terminated


def main(argv: Sequence[str] | None = None) -> int:
    program = argv is None  # the program itself, not a caller in Python
    argv = join_negative_values(list(sys.argv[1:] if argv is None else argv))
    import signal
    import threading

    previous = None
    if threading.current_thread() is threading.main_thread():
        previous = signal.signal(signal.SIGTERM, _terminate)
    try:
        args = parser().parse_args(argv)
        if args.command is None:
            raise UserError("no command given; try `attndrills kinds` or `attndrills problem A`")
        # an empty path is the current folder to Python: refused, not taken as "here"
        for option in ("out", "docs", "figures", "roster"):
            if isinstance(getattr(args, option, None), str) and not getattr(args, option).strip():
                raise UserError(f"--{option} is empty; give a path")
        commands = {"kinds": cmd_kinds, "problem": cmd_problem, "site": cmd_site, "sheet": cmd_sheet,
                    "exam": cmd_exam, "grade": cmd_grade, "analyse": cmd_analyse, "text": cmd_text}
        from .text import use

        with use():  # the words' language and edits are chosen by the command (_words)
            code = commands[args.command](args)
        sys.stdout.flush()  # here, so a full disk is reported as one error line, not at exit
        return code
    except UserError as exc:
        print(f"error: {one_line(str(exc))}", file=sys.stderr)
        for detail in exc.details:
            print(f"  {one_line(detail)}", file=sys.stderr)
        return EXIT_USAGE
    except BrokenPipeError:
        return 0
    except KeyboardInterrupt as exc:
        print("interrupted: output folders are left as they were", file=sys.stderr)
        code = EXIT_TERMINATED if isinstance(exc, Terminated) else EXIT_INTERRUPTED
        if program:  # end now (a caller in Python gets the code)
            _exit_now(code)
        return code
    except OSError as exc:
        if exc.errno not in _WRITE_ERRORS:
            return _internal(exc)
        _drop_stdout()
        print(f"error: cannot write the output: {exc.strerror}", file=sys.stderr)
        return EXIT_USAGE
    except Exception as exc:  # a bug: one line, unless asked for the traceback
        return _internal(exc)
    finally:
        if previous is not None:
            signal.signal(signal.SIGTERM, previous)


def _exit_now(code: int) -> None:
    """End the process without Python's shutdown.  Everything is cleaned up by
    now (workers gone, staging folder removed); what is left is freeing every
    module's objects (numpy, sympy, Jinja, the kinds), which took up to a
    second of a loaded machine after Ctrl-C, where the guide (guide/command-line.md) promises that
    Ctrl-C stops within a second."""
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError):
            pass
    os._exit(code)


def _internal(exc: Exception) -> int:
    if os.environ.get("ATTNDRILLS_DEBUG"):
        raise exc
    print(f"error: internal error ({type(exc).__name__}: {one_line(str(exc))}); please report it "
          "(ATTNDRILLS_DEBUG=1 shows the traceback)", file=sys.stderr)
    return EXIT_INTERNAL


def _drop_stdout() -> None:
    """What could not be written to stdout is dropped, so Python's own flush
    at exit does not fail a second time."""
    try:
        sys.stdout = open(os.devnull, "w")
    except OSError:
        pass


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
