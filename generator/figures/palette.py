"""One palette for every figure: Okabe–Ito, safe for the common colour-vision
deficiencies.  The winner is also hatched and outlined, so it stays
distinguishable in greyscale print."""

VERMILLION = "#D55E00"  # the winner / the point of the figure
SKY = "#56B4E9"  # every other bar
BLUE = "#0072B2"
GREEN = "#009E73"
ORANGE = "#E69F00"
PURPLE = "#CC79A7"
INK = "#222222"  # text, outlines, the context point
GRID = "#BBBBBB"
WINNER_HATCH = "////"
LINES = (  # colour, line style, marker: distinct in colour and in greyscale
    (BLUE, "-", "o"), (VERMILLION, "--", "s"), (GREEN, ":", "^"), (PURPLE, "-.", "D"),
    (ORANGE, (0, (5, 1, 1, 1)), "v"), (SKY, (0, (1, 1)), "P"),
)
HEATMAP = "Blues"  # sequential, one hue: darker means more focus, also in greyscale
