"""A set's recall cards as an Anki package (.apkg), built with genanki.

An .apkg is a zip holding an SQLite collection (`collection.anki2`) and a
`media` index.  genanki's own `write_to_file` stamps the zip entries with the
clock and the temporary file's mtime, so the same cards would give other
bytes on every run; here genanki fills the collection (its ids and
timestamps fixed from the set's seed) and the zip is written with fixed entry
dates, so the same seed gives the same bytes."""

from __future__ import annotations

import io
import os
import sqlite3
import tempfile
import zipfile

import genanki

from ..model import Prose
from ..render.cards import anki_fields

# One note type for every deck: Anki then recognises it on each import.
MODEL_ID = 1_607_392_319
_MODEL = genanki.Model(
    MODEL_ID, "Attention Drills recall card (and reversed)",
    fields=[{"name": "Front"}, {"name": "Back"}],
    templates=[
        {"name": "Question → answer", "qfmt": "{{Front}}",
         "afmt": '{{FrontSide}}<hr id="answer">{{Back}}'},
        {"name": "Answer → question", "qfmt": "{{Back}}",
         "afmt": '{{FrontSide}}<hr id="answer">{{Front}}'},
    ],
    css=".card { font-family: sans-serif; font-size: 20px; text-align: center; }",
)
_ZIP_DATE = (1980, 1, 1, 0, 0, 0)


def deck_id(seed: int) -> int:
    """A deck id in the range genanki advises, fixed by the set's seed."""
    return (1 << 30) + seed % (1 << 30)


def anki_package(title: str, code: str, seed: int, cards: list[tuple[Prose, Prose, str]]) -> bytes:
    """The .apkg bytes of one set's deck; cards are (question, answer, variant)."""
    deck = genanki.Deck(deck_id(seed), f"Attention Drills::{title}")
    for i, (q, a, variant) in enumerate(cards):
        deck.add_note(genanki.Note(model=_MODEL, fields=anki_fields(q, a), tags=["attention-drills", code],
                                   guid=genanki.guid_for("attention-drills", variant, i)))
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
