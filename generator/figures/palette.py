"""One palette for every figure: Okabe–Ito, safe for the common colour-vision
deficiencies.  The winner is also hatched ("////", Canvas.hatch) and
outlined, so it stays distinguishable in greyscale print."""

VERMILLION = "#D55E00"  # the winner / the point of the figure
SKY = "#56B4E9"  # every other bar
BLUE = "#0072B2"
GREEN = "#009E73"
ORANGE = "#E69F00"
PURPLE = "#CC79A7"
INK = "#222222"  # text, outlines, the context point
GRID = "#BBBBBB"
LINES = (  # colour, line style, marker: distinct in colour and in greyscale
    (BLUE, "-", "o"), (VERMILLION, "--", "s"), (GREEN, ":", "^"), (PURPLE, "-.", "D"),
    (ORANGE, (0, (5, 1, 1, 1)), "v"), (SKY, (0, (1, 1)), "P"),
)

# The heatmap's scale, sequential in one hue (darker means more focus, also in
# greyscale): ColorBrewer's nine "Blues", which matplotlib's colormap of that
# name is built from.
_BLUES = ("#F7FBFF", "#DEEBF7", "#C6DBEF", "#9ECAE1", "#6BAED6", "#4292C6", "#2171B5", "#08519C", "#08306B")
_BLUES_RGB = tuple(tuple(int(c[k:k + 2], 16) / 255 for k in (1, 3, 5)) for c in _BLUES)


def blues(value: float) -> str:
    """The colour of `value` in [0, 1] on the heatmap's scale, as matplotlib's
    colormaps["Blues"](value) gives it: 256 steps, each interpolated between
    the nine anchors, written as #rrggbb."""
    step = min(max(int(value * 256), 0), 255)
    at = step * (1 / 255) * 8  # where the step sits among the eight gaps between anchors
    k = min(int(at), 7)
    low, high = _BLUES_RGB[k], _BLUES_RGB[k + 1]
    t = (step * (1 / 255) - k / 8) / 0.125
    return "#" + "".join(f"{round(min(max(t * (b - a) + a, 0.0), 1.0) * 255):02x}" for a, b in zip(low, high))
