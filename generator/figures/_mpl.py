"""Shared drawing plumbing: deterministic SVG settings, no pyplot, and
Figure objects reused between drawings (creating one costs more than the
drawing itself)."""

from __future__ import annotations

import hashlib
import io
from contextlib import contextmanager

import matplotlib
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.backends.backend_mixed import MixedModeRenderer
from matplotlib.backends.backend_svg import RendererSVG
from matplotlib.figure import Figure as MplFigure
from matplotlib.font_manager import findfont, get_font
from matplotlib.patches import Rectangle

from .palette import INK
from ._canvas import Figure

# Deterministic SVG: fixed hash salt for element ids, no date, text kept as
# <text> (searchable, small, and the same on every machine).
RC = {
    "svg.hashsalt": "attention-drills",
    "svg.fonttype": "none",
    "font.family": "DejaVu Sans",
    "font.size": 9,
    "path.simplify": False,
    "hatch.linewidth": 0.8,
    "text.parse_math": False,  # a typed label such as "$5" is text, not mathtext
}
METADATA = {"Date": None, "Creator": "Attention Drills"}


@contextmanager
def style():
    """The project's matplotlib settings, for one drawing only (no global state).
    Only these keys are saved and restored: `rc_context` copies every setting,
    which costs more than drawing a small chart."""
    params = matplotlib.rcParams
    saved = {key: params[key] for key in RC}
    params.update(RC)
    try:
        yield
    finally:
        params.update(saved)


_METRICS: dict[tuple, tuple] = {}


class _SVGRenderer(RendererSVG):
    """matplotlib's SVG renderer with text metrics remembered across figures.
    matplotlib caches them per renderer, and every SVG file gets a new one, so
    each label, tick and printed number was measured afresh for every figure."""

    def get_text_width_height_descent(self, s, prop, ismath):
        return _remember((s, ismath, *_font_key(prop)),
                         lambda: super(_SVGRenderer, self).get_text_width_height_descent(s, prop, ismath))

    def _get_font_height_metrics(self, prop):
        """A font's ascent, descent and line gap at its size (SVG is drawn at
        72 dpi).  matplotlib 3.11 asks the renderer for them before reading the
        font's tables again for every text; without this hook it still does."""
        def measure():
            font = get_font(findfont(prop))
            for table_name, gap, ascent, descent in (("OS/2", "sTypoLineGap", "sTypoAscender", "sTypoDescender"),
                                                     ("hhea", "lineGap", "ascent", "descent")):
                table = font.get_sfnt_table(table_name)
                if table is not None:
                    # matplotlib's own expression, at the 72 dpi of SVG output (same float rounding)
                    scale = 1 / font.get_sfnt_table("head")["unitsPerEm"] * prop.get_size_in_points() * 72 / 72
                    return table[ascent] * scale, -table[descent] * scale, table[gap] * scale
            return None, None, None

        return _remember(("height", *_font_key(prop)), measure)


def _font_key(prop) -> tuple:
    return (tuple(prop.get_family()), prop.get_style(), prop.get_variant(), prop.get_weight(), prop.get_stretch(),
            prop.get_size_in_points(), prop.get_file(), prop.get_math_fontfamily())


def _remember(key: tuple, compute):
    hit = _METRICS.get(key)
    if hit is None:
        if len(_METRICS) > 50_000:
            _METRICS.clear()
        hit = _METRICS[key] = compute()
    return hit


class _Canvas(FigureCanvasAgg):
    """Agg for PNG; SVG through `_SVGRenderer` (savefig uses a canvas's own
    print_svg when it has one).  The body is matplotlib's FigureCanvasSVG.print_svg."""

    def print_svg(self, filename, *, bbox_inches_restore=None, metadata=None, **_):
        # (**_: savefig passes facecolor and the like, which the SVG writer never reads)
        fig = self.figure
        dpi = fig.dpi
        fig.dpi = 72
        width, height = fig.get_size_inches()
        renderer = MixedModeRenderer(
            fig, width, height, dpi, _SVGRenderer(width * 72, height * 72, filename, image_dpi=dpi, metadata=metadata),
            bbox_inches_restore=bbox_inches_restore)
        fig.draw(renderer)
        renderer.finalize()


def new_figure(width: float, height: float) -> MplFigure:
    fig = MplFigure(figsize=(width, height), dpi=100)
    _Canvas(fig)
    return fig


class Pool:
    """One figure kind's Figure, Axes and artists, made once and updated for
    every drawing: making an artist costs more than drawing it.  A drawing
    shows the artists it takes; `done` hides the rest.  Each use sets every
    property any use sets (only changed values reach matplotlib, whose setters
    are not free), and every group draws at its own z-order, so neither the
    order in which artists were made nor the previous drawing changes the
    output (the determinism tests check it)."""

    TEXT = {"ha": "center", "va": "center", "fontsize": 9, "color": INK, "fontweight": "normal",
            "rotation": 0}
    RECT = {"facecolor": "none", "edgecolor": "none", "linewidth": 0.0, "hatch": None, "alpha": None}

    _POOLS: dict[str, "Pool"] = {}

    def __init__(self, width: float, height: float, rect: tuple):
        self.fig = new_figure(width, height)
        self.ax = self.fig.add_axes(rect)
        self.ax.set_axis_off()
        self._groups: dict[str, list] = {}
        self._used: dict[str, int] = {}
        self._props: dict[int, dict] = {}  # id(artist) → the properties last set

    @classmethod
    def of(cls, kind: str, width: float, height: float, rect: tuple, setup=None) -> "Pool":
        """The pool of one figure kind, made (and given its fixed artists by
        `setup`) on first use; call inside style(), like every drawing."""
        pool = cls._POOLS.get(kind)
        if pool is None:
            pool = cls._POOLS[kind] = cls(width, height, rect)
            if setup is not None:
                setup(pool)
        return pool

    def start(self, width: float, height: float, xlim: tuple, ylim: tuple) -> None:
        self.fig.set_size_inches(width, height)
        self.ax.set_xlim(*xlim)
        self.ax.set_ylim(*ylim)
        self._used = {}

    def take(self, group: str, z: float, make, props: dict):
        artists = self._groups.setdefault(group, [])
        k = self._used.get(group, 0)
        self._used[group] = k + 1
        if k == len(artists):
            artists.append(make())
            artists[k].set_zorder(z)
        artist = artists[k]
        last = self._props.setdefault(id(artist), {})
        changed = {key: value for key, value in props.items() if key not in last or last[key] != value}
        if changed:
            artist.update(changed)
            last.update(changed)
        return artist

    def text(self, group: str, z: float, x: float, y: float, s: str, **props):
        return self.take(group, z, lambda: self.ax.text(0, 0, ""),
                         {**self.TEXT, **props, "position": (x, y), "text": s, "visible": True})

    def rect(self, group: str, z: float, x: float, y: float, w: float, h: float, **props):
        return self.take(group, z, lambda: self.ax.add_patch(Rectangle((0, 0), 1, 1)),
                         {**self.RECT, **props, "bounds": (x, y, w, h), "visible": True})

    def done(self, kind: str, alt: str, fmt: str) -> "Figure":
        """Hide what this drawing did not take, then render."""
        for group, artists in self._groups.items():
            for artist in artists[self._used.get(group, 0):]:
                if self._props[id(artist)].get("visible"):
                    artist.set_visible(False)
                    self._props[id(artist)]["visible"] = False
        return finish(kind, self.fig, alt, fmt)


def render(fig: MplFigure, fmt: str = "svg") -> bytes:
    """SVG (or PNG, for image comparison) bytes of a figure; call it inside style()."""
    if fmt == "svg":
        text = io.StringIO()
        fig.savefig(text, format="svg", metadata=METADATA)
        return text.getvalue().encode("utf-8")
    buf = io.BytesIO()
    fig.savefig(buf, format=fmt, metadata={"Software": None})
    return buf.getvalue()


def finish(kind: str, fig: MplFigure, alt: str, fmt: str) -> Figure:
    data = render(fig, fmt)
    digest = hashlib.sha256(data).hexdigest()[:12]
    return Figure(data, f"{kind}-{digest}.{fmt}", alt)
