"""The recall decks as Anki reads them: every deck of a course imported into
one fresh collection with Anki's own importer (the `anki` package from PyPI,
the library of the desktop app), and Obsidian's notes as its
spaced-repetition plugin reads them (`::` one way, `:::` both ways).

- a card that several sets give is one note (its GUID is a hash of its text),
  so a course's decks give one note per distinct card;
- a card is asked question → answer only, unless its kind built it as
  `model.TwoWay`: only then does its answer become a prompt;
- the course's deck holds every card of every set, once.

Skipped with a reason only where `anki` cannot be installed (it is in the
`test` extra)."""

from __future__ import annotations

import pytest

from generator.model import prose
from generator.render.cards import anki_fields, render_obsidian
from generator.writers.cards import anki_package
from generator.writers.site import site_files, site_specs

MASTER = 2026  # site-seed.txt's: the course `make site` builds, whose sets share cards


@pytest.fixture(scope="module")
def course():
    """The default course's generated files (three sets), as `make site` writes them."""
    return site_files(site_specs(None, None), MASTER, workers=1)


def _anki():
    return pytest.importorskip("anki.collection", reason="the anki package (pip install anki) does not install "
                               "here; it is in the test extra")


def _collection(tmp_path, name="collection"):
    anki = _anki()
    return anki.Collection(str(tmp_path / f"{name}.anki2"))


def _import(col, tmp_path, name: str, data: bytes) -> None:
    from anki.collection import ImportAnkiPackageOptions, ImportAnkiPackageRequest

    path = tmp_path / name
    path.write_bytes(data)
    col.import_anki_package(ImportAnkiPackageRequest(package_path=str(path), options=ImportAnkiPackageOptions()))


def _notes(col) -> list:
    return [col.get_note(nid) for nid in col.find_notes("")]


def _set_cards(files: dict) -> dict[str, bytes]:
    """Each set's deck by its file name."""
    return {k: v for k, v in files.items() if k.startswith("cards/set-") and k.endswith(".apkg")}


def test_a_courses_decks_import_as_one_note_per_distinct_card(course, tmp_path):
    sets = _set_cards(course)
    assert len(sets) == 3
    # each set's deck alone: its cards, in a collection of its own
    per_set = []
    for name, data in sorted(sets.items()):
        col = _collection(tmp_path, name.replace("/", "-"))
        _import(col, tmp_path, name.replace("/", "-"), data)
        per_set.append({(n["Front"], n["Back"]) for n in _notes(col)})
        col.close()
    distinct = set().union(*per_set)
    assert sum(map(len, per_set)) > len(distinct)  # the sets share cards (24 cards, 20 distinct)
    # every deck (the sets' and the course's) into one fresh collection
    col = _collection(tmp_path)
    for name, data in sorted(course.items()):
        if name.endswith(".apkg"):
            _import(col, tmp_path, name.replace("/", "-"), data)
    notes = _notes(col)
    assert len(notes) == len(distinct), "a card shared by several sets is one note"
    assert {(n["Front"], n["Back"]) for n in notes} == distinct
    # no card of today's kinds is two-way: one card per note, the question its prompt
    assert col.card_count() == len(notes)
    for note in notes:
        (card,) = note.cards()
        assert card.template()["name"] == "Question → answer"
        assert note["Back"] not in card.question()
    col.close()


def test_the_course_deck_holds_every_card_once(course, tmp_path):
    col = _collection(tmp_path, "sets")
    for name, data in sorted(_set_cards(course).items()):
        _import(col, tmp_path, name.replace("/", "-"), data)
    every = {(n["Front"], n["Back"]) for n in _notes(col)}
    col.close()
    col = _collection(tmp_path, "course")
    _import(col, tmp_path, "course.apkg", course["cards/course.apkg"])
    notes = _notes(col)
    assert {(n["Front"], n["Back"]) for n in notes} == every and len(notes) == len(every)
    decks = {col.decks.name(c.did) for n in notes for c in n.cards()}
    assert decks == {"Attention Drills::Whole course"}
    col.close()
    # its Obsidian note likewise: every card once, one way
    text = course["cards/course-obsidian.md.txt"]
    lines = [line for line in text.splitlines() if " :: " in line or " ::: " in line]
    assert len(lines) == len(every) and all(" ::: " not in line for line in lines)


def test_a_two_way_card_is_asked_both_ways_and_only_it(tmp_path):
    from generator.model import TwoWay

    one = (prose("Adding the same constant to every score does what to the weights?"),
           prose("Nothing — softmax is shift-invariant."))
    both = TwoWay(prose("shift invariance"), prose("adding one constant to every score leaves the weights as they are"))
    data = anki_package("Two-way", "test", 11, [one, both, one])
    col = _collection(tmp_path)
    _import(col, tmp_path, "two-way.apkg", data)
    by_front = {n["Front"]: n for n in _notes(col)}
    assert len(by_front) == 2  # the repeated card is one note
    forward = by_front[anki_fields(*one)[0]].cards()
    assert [c.template()["name"] for c in forward] == ["Question → answer"]
    cards = sorted(by_front[anki_fields(*both)[0]].cards(), key=lambda c: c.ord)
    assert [c.template()["name"] for c in cards] == ["Question → answer", "Answer → question"]
    assert "leaves the weights" in cards[1].question() and "shift invariance" not in cards[1].question()
    col.close()
    text = render_obsidian("Two-way", "A test.", [one, both])
    assert " :: Nothing" in text and "shift invariance ::: adding" in text


def test_course_deck_same_seed_same_bytes(course):
    """The course deck, as every file of the site, comes byte for byte from the seed."""
    from generator.writers.site import course_decks

    files: dict = {}
    cards = [(prose("q"), prose("a")), (prose("q2"), prose("a2"))]
    course_decks(cards, MASTER, files)
    again: dict = {}
    course_decks(cards, MASTER, again)
    assert files == again
    assert site_files(site_specs(None, None), MASTER, workers=1)["cards/course.apkg"] == course["cards/course.apkg"]


def test_set_pages_and_index_link_the_course_decks(course):
    for page in ("set-01.md", "set-02.md", "set-03.md", "index.md"):
        text = course[page]
        assert "(cards/course.apkg)" in text and "(cards/course-obsidian.md.txt)" in text, page
    assert "(cards/set-02.apkg)" in course["set-02.md"]


def test_json_says_which_cards_are_two_way():
    import dataclasses
    import json

    from generator.model import TwoWay
    from generator.pipeline import sample_problem, solve_problem
    from generator.render.json import render_problem

    sol = solve_problem(sample_problem("D", 3))
    assert [set(c) for c in json.loads(render_problem(sol))["recall"]] == [{"question", "answer"}]
    both = dataclasses.replace(sol, recall=(TwoWay(*sol.recall[0]),))
    assert json.loads(render_problem(both))["recall"][0]["two_way"] is True
