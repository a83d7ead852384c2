"""Text metrics of DejaVu Sans, the figures' font, without matplotlib.

Text in the figures stays <text> (the reader's renderer draws the glyphs), so
only a few placements need a width: where an arrow leaves a label, where a
rotated label sits. They are read from the font file the installed matplotlib
ships (found without importing it; the same file Typst is given), once per
process, with a small reader of the three tables that matter (cmap, hmtx,
kern).  Widths are those matplotlib 3.11 measures: the advances of the
glyphs, pair-kerned by the legacy kern table, unhinted."""

from __future__ import annotations

import bisect
import importlib.util
import struct
from pathlib import Path

FAMILY = "DejaVu Sans"
_FILES = {False: "DejaVuSans.ttf", True: "DejaVuSans-Bold.ttf"}
_FACES: dict[bool, "_Face"] = {}


def font_dir() -> Path:
    """matplotlib's folder of TrueType fonts, found without importing matplotlib."""
    spec = importlib.util.find_spec("matplotlib")
    if spec is None or not spec.submodule_search_locations:
        raise RuntimeError("matplotlib (which ships the DejaVu Sans font of the figures) is not installed")
    return Path(spec.submodule_search_locations[0], "mpl-data", "fonts", "ttf")


class _Face:
    """The parts of one TrueType file that horizontal text layout needs."""

    def __init__(self, data: bytes):
        self.data = data
        tables = {}
        for i in range(struct.unpack_from(">H", data, 4)[0]):
            tag, _, offset, length = struct.unpack_from(">4sIII", data, 12 + 16 * i)
            tables[tag.decode("latin-1")] = offset
        self.tables = tables
        head = tables["head"]
        self.units = struct.unpack_from(">H", data, head + 18)[0]
        self.n_metrics = struct.unpack_from(">H", data, tables["hhea"] + 34)[0]
        self.ascender, self.descender = struct.unpack_from(">hh", data, tables["OS/2"] + 68)
        self._segments = self._cmap4()
        self._kern = self._kern_pairs()
        self._glyph: dict[str, int] = {}
        self._advance: dict[int, int] = {}

    def _cmap4(self) -> tuple:
        """The Windows Unicode BMP subtable (format 4) as parallel arrays."""
        data, cmap = self.data, self.tables["cmap"]
        for i in range(struct.unpack_from(">H", data, cmap + 2)[0]):
            platform, encoding, offset = struct.unpack_from(">HHI", data, cmap + 4 + 8 * i)
            if (platform, encoding) == (3, 1):
                sub = cmap + offset
                break
        else:
            raise RuntimeError("the figure font has no Unicode character map")
        n = struct.unpack_from(">H", data, sub + 6)[0] // 2
        ends = struct.unpack_from(f">{n}H", data, sub + 14)
        starts = struct.unpack_from(f">{n}H", data, sub + 16 + 2 * n)
        deltas = struct.unpack_from(f">{n}h", data, sub + 16 + 4 * n)
        range_at = sub + 16 + 6 * n
        ranges = struct.unpack_from(f">{n}H", data, range_at)
        return ends, starts, deltas, ranges, range_at

    def _kern_pairs(self) -> dict:
        """Pair kerning of the legacy kern table (what FreeType's FT_Get_Kerning reads)."""
        at = self.tables.get("kern")
        if at is None:
            return {}
        data, pairs = self.data, {}
        at += 4
        for _ in range(struct.unpack_from(">H", data, at - 2)[0]):
            _, length, coverage = struct.unpack_from(">HHH", data, at)
            if coverage >> 8 == 0 and coverage & 1:  # format 0, horizontal
                n = struct.unpack_from(">H", data, at + 6)[0]
                for k in range(n):
                    left, right, value = struct.unpack_from(">HHh", data, at + 14 + 6 * k)
                    pairs[left << 16 | right] = value
            at += length
        return pairs

    def glyph(self, char: str) -> int:
        g = self._glyph.get(char)
        if g is None:
            code = ord(char)
            ends, starts, deltas, ranges, range_at = self._segments
            i = bisect.bisect_left(ends, code)
            g = 0  # .notdef, as FreeType gives for a character the font lacks
            if i < len(ends) and starts[i] <= code:
                if ranges[i] == 0:
                    g = (code + deltas[i]) & 0xFFFF
                else:
                    at = range_at + 2 * i + ranges[i] + 2 * (code - starts[i])
                    g = struct.unpack_from(">H", self.data, at)[0]
                    g = (g + deltas[i]) & 0xFFFF if g else 0
            self._glyph[char] = g
        return g

    def advance(self, g: int) -> int:
        hit = self._advance.get(g)
        if hit is None:
            at = self.tables["hmtx"] + 4 * min(g, self.n_metrics - 1)
            hit = self._advance[g] = struct.unpack_from(">H", self.data, at)[0]
        return hit

    def width(self, text: str) -> int:
        """Advance width in font units, kerned pair by pair (matplotlib's layout of a line)."""
        pen, previous = 0, None
        for char in text:
            g = self.glyph(char)
            if previous is not None:
                pen += self._kern.get(previous << 16 | g, 0)
            pen += self.advance(g)
            previous = g
        return pen


def _face(bold: bool) -> _Face:
    face = _FACES.get(bold)
    if face is None:
        face = _FACES[bold] = _Face((font_dir() / _FILES[bold]).read_bytes())
    return face


def text_width(text: str, size: float, bold: bool = False) -> float:
    """Width in points of one line of text at `size` points."""
    face = _face(bold)
    return face.width(text) * size / face.units


def ascent_descent(size: float, bold: bool = False) -> tuple[float, float]:
    """The font's typographic ascent and descent at `size` points: the height of
    a text box, as matplotlib lays out a single line (no line gap)."""
    face = _face(bold)
    return face.ascender * size / face.units, -face.descender * size / face.units
