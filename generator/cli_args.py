"""The command line's arguments: the parser of every command (DESIGN.md,
"Command line"), whose mistakes are one `error:` line and exit code 2."""

from __future__ import annotations

import argparse

from . import __version__
from .errors import UserError


class _Parser(argparse.ArgumentParser):
    def error(self, message: str):  # one line, exit 2 — never argparse's usage dump
        raise UserError(message)

    def format_help(self) -> str:
        if callable(self.epilog):  # text that costs an import is made when help is asked for
            self.epilog = self.epilog()
        return super().format_help()


def _whole(text: str) -> int:
    """argparse's type for counts: int, except that a number of thousands of
    digits is not echoed back whole (nor converted: Python stops at 4300)."""
    if len(text.strip()) > 20:
        raise argparse.ArgumentTypeError(f"a number of {len(text.strip())} characters is far too large")
    return int(text)


_whole.__name__ = "int"  # argparse names the type in "invalid int value: 'x'"


def _accepted_forms() -> str:
    from .exam.marking import ACCEPTED_FORMS

    return ACCEPTED_FORMS


def _words(p: argparse.ArgumentParser) -> None:
    """--lang and --text: the language of the words and an instructor's edits of them."""
    p.add_argument("--lang", help="the language of the words: en (default, or the spec's lang)")
    p.add_argument("--text", metavar="DIR", help="edited text files (from `attndrills text export DIR`) "
                   "to use instead of the built-in sentences they change")


def parser() -> argparse.ArgumentParser:
    """The command line's parser: every command, its arguments and help."""
    p = _Parser(prog="attndrills", description="Exercises and worked solutions on attention "
                "(score → softmax → blend).")
    p.add_argument("--version", action="version", version=f"attndrills {__version__}")
    sub = p.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)

    k = sub.add_parser("kinds", help="list every problem kind")
    k.add_argument("--json", action="store_true", help="machine-readable list")

    q = sub.add_parser("problem", help="one problem and its worked solution to stdout")
    q.add_argument("kind", metavar="KIND", help="A…I, 1.1…5.3, a slug, or a variant code such as A-7KQ2M9XD4R")
    q.add_argument("--seed", help="whole number; without it a fresh seed is drawn and printed")
    q.add_argument("--scores", help="comma-separated scores, e.g. 0.3,2.1,0.5 (or -2,1,0)")
    q.add_argument("--input", help="the inputs as a JSON object, e.g. '{\"scores\": [\"0.3\", \"2.1\"]}'")
    q.add_argument("--format", choices=("md", "json"), default="md")
    q.add_argument("--digits", type=_whole, default=4, help="decimal places shown (default 4)")
    q.add_argument("--figures", metavar="DIR", help="draw the figures as SVG files into DIR and embed "
                   "them (save the Markdown in DIR too: it refers to them by file name)")
    _words(q)

    s = sub.add_parser("site", help="fresh problem sets into the MkDocs docs folder")
    s.add_argument("--sets", type=_whole, help="how many sets (default: 3, or the spec's `sets`)")
    s.add_argument("--seed", help="master seed (default: the spec's, else fresh each run)")
    s.add_argument("--spec", help="a problem-set spec (YAML); without it the sets cover every cell and level")
    s.add_argument("--docs", default="docs", help="the MkDocs docs folder (default docs)")
    s.add_argument("--pdf", action="store_true", help="also each set's printable sheet and key (Typst PDFs)")
    s.add_argument("--force", action="store_true", help="replace a DOCS/generated folder attndrills did not write")
    _words(s)

    sh = sub.add_parser("sheet", help="a printable problem sheet and its answer key (PDF)")
    sh.add_argument("spec", metavar="SPEC")
    sh.add_argument("--seed", help="master seed (default: the spec's, else fresh)")
    sh.add_argument("--out", required=True, metavar="DIR", help="writes DIR/sheet.pdf and DIR/key.pdf")
    sh.add_argument("--paper", default="a4", help="a4 (default) or letter")
    sh.add_argument("--force", action="store_true", help="replace a folder attndrills did not write")
    sh.add_argument("--font-path", action="append", default=[], metavar="DIR",
                    help="also take fonts from DIR (repeatable), for names in scripts the packaged fonts lack")
    _words(sh)

    ex = sub.add_parser("exam", help="randomized per-student exams, key, answers.csv, manifest, Moodle XML")
    ex.add_argument("spec", metavar="SPEC")
    who = ex.add_mutually_exclusive_group(required=True)
    who.add_argument("--students", type=_whole, metavar="N", help="N numbered students s001…")
    who.add_argument("--roster", metavar="CSV", help="a CSV with a header holding id (and name)")
    who.add_argument("--variants", type=_whole, metavar="N",
                     help="no papers: a Moodle pool of N variants of every question (with key and answers.csv)")
    ex.add_argument("--seed", help="master seed (default: the spec's, else fresh)")
    ex.add_argument("--out", required=True, metavar="DIR")
    ex.add_argument("--paper", default="a4", help="a4 (default) or letter")
    ex.add_argument("--only", metavar="STUDENT", help="regenerate one student's paper")
    ex.add_argument("--workers", type=_whole, help="worker processes (default: up to 2)")
    ex.add_argument("--solutions", action="store_true",
                    help="also DIR/solutions/<id>.pdf: each student's variants worked, with figures")
    ex.add_argument("--qti", action="store_true",
                    help="also DIR/canvas-qti.zip: the variants as a QTI 1.2 package for Canvas Classic Quizzes")
    ex.add_argument("--force", action="store_true", help="replace a folder attndrills did not write")
    ex.add_argument("--font-path", action="append", default=[], metavar="DIR",
                    help="also take fonts from DIR (repeatable), for names in scripts the packaged fonts lack")
    _words(ex)

    g = sub.add_parser(
        "grade", help="mark responses against answers.csv", formatter_class=argparse.RawDescriptionHelpFormatter,
        description="Mark each response against its row of answers.csv: the credit, and the named mistake\n"
        "a wrong answer matches (or a hint). Responses whose student or question is unknown\n"
        "(one line per unknown id, with how many rows it skipped), second responses to a question\n"
        "and students without responses are reported on stderr; the summary counts missing\n"
        "answers. The exit code is 1 when a response was not graded (the results are still\n"
        "written). Fields are separated by commas (or semicolons, or tabs). Cells that a\n"
        "spreadsheet would run as a formula (=, +, -, @) are written with a ' in front.",
        epilog=_accepted_forms)
    g.add_argument("answers", metavar="KEY_CSV", help="the exam's answers.csv")
    g.add_argument("responses", metavar="RESPONSES_CSV",
                   help="a CSV with the columns student, question, response (any case, in any order)")
    g.add_argument("--out", metavar="CSV", help="results CSV (default: stdout); each student's total goes to stdout")
    _words(g)
    an = sub.add_parser(
        "analyse", help="item analysis of graded results: facility, discrimination, reliability, mistakes",
        description="Item analysis of the results.csv that attndrills grade writes: per exam question and per\n"
        "kind, facility, discrimination (Moodle's discrimination index and discriminative efficiency,\n"
        "and the upper-lower 27 % index), Cronbach's alpha, the score distribution and the named\n"
        "mistakes, each on each question part linked to the worked step and recall card that address\n"
        "it. Writes DIR/report.html, worked.html, items.csv, kinds.csv, misconceptions.csv and\n"
        "misconceptions_by_question.csv.", formatter_class=argparse.RawDescriptionHelpFormatter)
    an.add_argument("results", metavar="RESULTS_CSV",
                    help="the results.csv of attndrills grade; with --answers, what grade reads instead: "
                         "responses, Moodle's Responses report or Canvas's Student Analysis")
    an.add_argument("--answers", metavar="KEY_CSV",
                    help="the exam's answers.csv: grade RESULTS_CSV against it first (warnings as grade's)")
    an.add_argument("--out", required=True, metavar="DIR")
    an.add_argument("--site", default="", metavar="URL",
                    help="the course site's address, for the links to its practice pages and its MathJax "
                         "(default: relative links)")
    an.add_argument("--force", action="store_true", help="replace a folder attndrills did not write")

    t = sub.add_parser("text", help="the sentences of the problems: copy them out to edit, check them")
    ts = t.add_subparsers(dest="action", metavar="ACTION", parser_class=_Parser)
    te = ts.add_parser("export", help="copy the built-in text files of KINDs (default: all) into DIR/LANG/",
                       description="Copy the built-in text files into DIR/LANG/ to edit: the files of the "
                       "kinds named (ids or slugs) and the shared sentences, or every file. Keep the keys and "
                       "the {placeholders}; delete what you do not change. Use them with --text DIR.")
    te.add_argument("kinds", nargs="*", metavar="KIND")
    te.add_argument("dir", metavar="DIR")
    te.add_argument("--lang", default="en", help="the language to copy (default en)")
    te.add_argument("--force", action="store_true", help="replace files already there")
    tc = ts.add_parser("check", help="render every kind in every language and report what a translator must fix",
                       description="Render every kind x seeds x languages and report missing keys, unused keys, "
                       "placeholders that differ from the English, and sentences left in English. With --text, "
                       "check a folder of edits instead. Exit code 1 when anything is reported.")
    tc.add_argument("--lang", action="append", help="a language to check (repeatable; default all)")
    tc.add_argument("--text", metavar="DIR", help="a folder of edited text files to check")
    tc.add_argument("--seeds", type=_whole, default=3, help="seeds per kind and language (default 3)")
    return p


def join_negative_values(argv: list[str]) -> list[str]:
    """`--scores -2,1,0`: a value list starting with a minus sign is a value, not an option."""
    out = []
    i = 0
    while i < len(argv):
        arg = argv[i]
        nxt = argv[i + 1] if i + 1 < len(argv) else ""
        if arg in ("--scores", "--seed", "--digits") and nxt.startswith("-") and not nxt.startswith("--"):
            out.append(f"{arg}={argv[i + 1]}")
            i += 2
            continue
        out.append(arg)
        i += 1
    return out
