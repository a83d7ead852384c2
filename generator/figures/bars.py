"""Weight bars: one bar per input position, the value printed on each, the
winner highlighted (colour, hatch and outline), and the amplification
exp(gap) marked where it is the point of the problem."""

from __future__ import annotations

from matplotlib.patches import Rectangle

from . import palette as P
from ._canvas import Figure, finish, new_figure, style

MAX_BARS = 12
_POOL = None  # one reusable figure: updating artists is ~6× faster than building a chart


class _Pool:
    def __init__(self):
        self.fig = new_figure(4.6, 2.7)
        ax = self.ax = self.fig.add_axes((0.03, 0.14, 0.94, 0.74))
        ax.set_axis_off()
        ax.set_ylim(-0.02, 1.18)
        self.bars = [ax.add_patch(Rectangle((i - 0.36, 0), 0.72, 0, visible=False)) for i in range(MAX_BARS)]
        self.values = [ax.text(i, 0, "", ha="center", va="bottom", fontsize=8.5, color=P.INK, visible=False)
                       for i in range(MAX_BARS)]
        self.labels = [ax.text(i, -0.04, "", ha="center", va="top", fontsize=8.5, color=P.INK, visible=False)
                       for i in range(MAX_BARS)]
        ax.axhline(0, color=P.INK, lw=0.8)
        self.title = ax.text(0.0, 1.16, "", transform=ax.transAxes, ha="left", va="top", fontsize=9, color=P.INK)
        self.arrow = ax.annotate("", xy=(0, 0), xytext=(0, 0), fontsize=8.5, color=P.VERMILLION, ha="center",
                                 arrowprops={"arrowstyle": "-|>", "color": P.VERMILLION, "lw": 1.2})


def fig_bars(problem, solution, spec=None, fmt: str = "svg") -> Figure:
    """Bars of the weights in `spec.data` (labels, values, shown, winner, ratio)."""
    global _POOL
    spec = spec or next(f for f in solution.figures if f.kind == "bars")
    d = spec.data
    n = len(d["values"])
    with style():
        if _POOL is None:
            _POOL = _Pool()
        pool = _POOL
        pool.ax.set_xlim(-0.6, max(n, 3) - 0.4)
        small = 7 if n > 6 else 8.5
        for i in range(MAX_BARS):
            on = i < n
            for artist in (pool.bars[i], pool.values[i], pool.labels[i]):
                artist.set_visible(on)
            if not on:
                continue
            v = d["values"][i]
            win = i == d.get("winner")
            bar = pool.bars[i]
            bar.set_height(v)
            bar.set_facecolor(P.VERMILLION if win else P.SKY)
            bar.set_edgecolor(P.INK if win else P.BLUE)
            bar.set_linewidth(1.4 if win else 0.6)
            bar.set_hatch(P.WINNER_HATCH if win else None)
            pool.values[i].set_position((i, v + 0.015))
            pool.values[i].set_text(d["shown"][i])
            pool.values[i].set_fontsize(small)
            pool.values[i].set_fontweight("bold" if win else "normal")
            pool.labels[i].set_text(d["labels"][i])
            pool.labels[i].set_fontsize(small)
        pool.title.set_text(d.get("title", "attention weights"))
        ratio = d.get("ratio")
        pool.arrow.set_visible(bool(ratio))
        if ratio:
            k, j = d["winner"], ratio["over"]
            top, low = d["values"][k], d["values"][j]
            pool.arrow.xy = (k, top * 0.5)
            pool.arrow.set_position((j, min(low + 0.22, 1.05)))
            pool.arrow.set_text(f"× {ratio['shown']} = exp({ratio['gap']})")
        return finish("bars", pool.fig, alt_text(d), fmt)


def alt_text(d: dict) -> str:
    parts = [f"{lab}: {val}" for lab, val in zip(d["labels"], d["shown"])]
    text = f"Bar chart of {d.get('title', 'attention weights')}, one bar per position — " + "; ".join(parts) + "."
    if d.get("winner") is not None:
        text += f" The highlighted bar is {d['labels'][d['winner']]}."
    if d.get("ratio"):
        text += f" It is {d['ratio']['shown']} times the bar of {d['labels'][d['ratio']['over']]}, exactly exp({d['ratio']['gap']})."
    return text
