"""Recall cards as Anki packages (.apkg), built with genanki: one deck per
set and one of the whole course.

A note's GUID is a hash of its text (front and back), so a card that several
sets share is one note in Anki whichever of their decks are imported, and
one note in the course deck.  A card is asked question → answer (a basic
note type) unless its kind built it as `model.TwoWay`: only those notes take
the "and reversed" type, whose second card makes the answer the prompt.

An .apkg is a zip holding an SQLite collection (`collection.anki2`) and a
`media` index.  genanki's own `write_to_file` stamps the zip entries with the
clock and the temporary file's mtime, so the same cards would give other
bytes on every run; here genanki fills the collection (its ids and
timestamps fixed from the deck's seed) and the zip is written with fixed entry
dates, so the same seed gives the same bytes."""

from __future__ import annotations

import io
import os
import sqlite3
import tempfile
import zipfile

from functools import lru_cache

import genanki

from ..model import Prose, two_way
from ..render.cards import anki_fields, distinct_cards
from ..text import Sayer

# Two note types for every deck, the same in each (Anki then recognises them
# on each import): one way, and both ways (the id the decks have always used).
_CSS = ".card { font-family: sans-serif; font-size: 20px; text-align: center; }"
MODEL_ID = 1_607_392_320
TWO_WAY_MODEL_ID = 1_607_392_319
_ZIP_DATE = (1980, 1, 1, 0, 0, 0)
# The decks' own words (decks.* in text/<lang>/ui.yaml): the note types', their
# cards' and their fields' names, as Anki shows them
_WORDS = ("decks.note_type", "decks.note_type_two_way", "decks.card_forward", "decks.card_backward", "decks.front",
          "decks.back")


def _models() -> tuple[genanki.Model, genanki.Model]:
    """The one-way and the two-way note type, named in the run's language."""
    say = Sayer("ui")
    return _named_models(tuple(say.text(w) for w in _WORDS))


@lru_cache(maxsize=4)
def _named_models(words: tuple[str, ...]) -> tuple[genanki.Model, genanki.Model]:
    one_way, two_way_name, forward_name, backward_name, front, back = words
    # a field is put into a card template by its name in double braces
    fields = [{"name": front}, {"name": back}]
    forward = {"name": forward_name, "qfmt": "{{%s}}" % front, "afmt": '{{FrontSide}}<hr id="answer">{{%s}}' % back}
    backward = {"name": backward_name, "qfmt": "{{%s}}" % back, "afmt": '{{FrontSide}}<hr id="answer">{{%s}}' % front}
    return (genanki.Model(MODEL_ID, one_way, fields=fields, templates=[forward], css=_CSS),
            genanki.Model(TWO_WAY_MODEL_ID, two_way_name, fields=fields, templates=[forward, backward], css=_CSS))


def deck_id(seed: int) -> int:
    """A deck id in the range genanki advises, fixed by the deck's seed."""
    return (1 << 30) + seed % (1 << 30)


def note_guid(fields: list[str]) -> str:
    """A card's GUID, from its text alone: the same card is the same note in
    every deck (a set's, another set's, the course's)."""
    return genanki.guid_for("attention-drills", *fields)


def anki_package(title: str, tag: str, seed: int, cards: list[tuple[Prose, Prose]]) -> bytes:
    """The .apkg bytes of one deck, `Attention Drills::title` (decks.deck):
    the recall cards (question, answer) in their order, each once, tagged
    `attention-drills` and `tag`; the seed fixes its ids."""
    deck = genanki.Deck(deck_id(seed), Sayer("ui").text("decks.deck", title=title))
    model, two_way_model = _models()
    for card in distinct_cards(cards):
        fields = anki_fields(*card)
        deck.add_note(genanki.Note(model=two_way_model if two_way(card) else model, fields=fields,
                                   tags=["attention-drills", tag], guid=note_guid(fields)))
    # Fixed timestamp (seconds): note and card ids count up from it in ms;
    # spread by seed so two sets' ids do not collide in one collection.
    timestamp = 1_600_000_000 + (seed % 10**8) / 1000
    fd, db = tempfile.mkstemp(suffix=".anki2")
    os.close(fd)
    try:
        conn = sqlite3.connect(db)
        # a throw-away file: no journal and no fsync (genanki's schema script
        # commits statement by statement, 0.3 s a deck with them)
        conn.execute("PRAGMA journal_mode = OFF")
        conn.execute("PRAGMA synchronous = OFF")
        genanki.Package(deck).write_to_db(conn.cursor(), timestamp, _ids(timestamp))
        conn.commit()
        conn.close()
        with open(db, "rb") as f:
            collection = f.read()
    finally:
        os.unlink(db)
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as z:
        for name, data in (("collection.anki2", collection), ("media", b"{}")):
            info = zipfile.ZipInfo(name, _ZIP_DATE)
            info.compress_type = zipfile.ZIP_DEFLATED
            info.external_attr = 0o644 << 16
            z.writestr(info, data)
    return out.getvalue()


def _ids(timestamp: float):
    import itertools

    return itertools.count(int(timestamp * 1000))
