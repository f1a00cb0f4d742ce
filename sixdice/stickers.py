"""The printable sticker sheet that turns ordinary dice into Six-Dice dice.

One page, A4 or US Letter, as PDF or SVG, drawn with ReportLab's graphics
(one :class:`~reportlab.graphics.shapes.Drawing`, rendered by its PDF and SVG
renderers).  One sticker per face: a block of six dresses one die, each
positive face above its opposite negative face (+1 over −1: stick them on
opposite sides), the positive faces +1, +2, +3 with 1 to 3 **blue round** pips inside a solid
line, the negative faces −1, −2, −3 with 1 to 3 **red square** pips inside
a dashed line: the colour says the sign and so do the shapes, as on the
app's dice (solid for +, dashed for −), for anyone who does not tell blue
from red.  Each sticker's cut line is a square of the die's side
(:data:`SIZES`: 16 mm by default).  The sheet carries no words (the page that
offers it says, in the reader's language, how to use it): only the size and
a 10 mm rule to check that the printer kept the scale.

No Django here.
"""

from __future__ import annotations

from dataclasses import dataclass

from reportlab.graphics import renderPDF, renderSVG
from reportlab.graphics.shapes import Circle, Drawing, Group, Line, Polygon, Rect, String
from reportlab.lib import colors
from reportlab.lib.pagesizes import A4, LETTER
from reportlab.lib.units import mm

SIZES = (12, 16, 19)  # mm: the sides of common small dice
DEFAULT_SIZE = 16
PAPERS = {"a4": A4, "letter": LETTER}  # width, height in points
FORMATS = ("pdf", "svg")
BLUE = colors.HexColor("#1558b0")  # the app's --blue and --red (static/css/app.css)
RED = colors.HexColor("#b3261e")
FACES = ((1, 2, 3), (-1, -2, -3))  # one die's stickers: the top row, the bottom row
MARGIN = 12 * mm
GAP = 2 * mm  # between the stickers of a die
SET_GAP = 6 * mm  # between dice
HEADER = 12 * mm
# Where the pips of 1, 2 and 3 sit on a face (fractions of the side, from the lower left): as on ordinary dice.
PIPS = {1: ((0.5, 0.5),), 2: ((0.27, 0.73), (0.73, 0.27)), 3: ((0.25, 0.75), (0.5, 0.5), (0.75, 0.25))}


@dataclass(frozen=True)
class Layout:
    """Where the stickers go: ``dice`` blocks of six (3 by 2) in ``rows`` rows of ``per_row`` blocks."""

    size: float  # the side of a sticker, in points
    per_row: int
    rows: int

    @property
    def dice(self) -> int:
        return self.per_row * self.rows


def layout(paper: str, size_mm: int) -> Layout:
    width, height = PAPERS[paper]
    side = size_mm * mm
    per_row = int((width - 2 * MARGIN + SET_GAP) // (3 * side + 2 * GAP + SET_GAP))
    rows = int((height - 2 * MARGIN - HEADER + SET_GAP) // (2 * side + GAP + SET_GAP))
    return Layout(side, per_row, rows)


def sticker(value: int, x: float, y: float, side: float) -> Group:
    """The sticker of face ``value`` with its lower left corner at (x, y): its cut line and its pips."""
    positive = value > 0
    tone = BLUE if positive else RED
    g = Group()
    # The cut line: a square of the die's side (solid for +, dashed for −, as the app draws its dice).
    g.add(Rect(x, y, side, side, fillColor=colors.white, strokeColor=tone, strokeWidth=0.8,
               strokeDashArray=None if positive else [2.2, 1.6]))
    pip = side * 0.09  # radius of a round pip, half the side of a square one
    for fx, fy in PIPS[abs(value)]:
        cx, cy = x + fx * side, y + fy * side
        if positive:
            g.add(Circle(cx, cy, pip, fillColor=tone, strokeColor=None))
        else:
            s = pip * 0.9
            g.add(Polygon([cx - s, cy - s, cx + s, cy - s, cx + s, cy + s, cx - s, cy + s], fillColor=tone, strokeColor=None))
    return g


def drawing(paper: str = "a4", size_mm: int = DEFAULT_SIZE) -> Drawing:
    """The whole sheet: as many dice's stickers as fit the page, and the size with a 10 mm rule at the top."""
    if paper not in PAPERS or size_mm not in SIZES:
        raise ValueError(f"paper is one of {sorted(PAPERS)} and size one of {SIZES}, not {paper!r}, {size_mm!r}")
    width, height = PAPERS[paper]
    lay = layout(paper, size_mm)
    d = Drawing(width, height)
    top = height - MARGIN
    # The heading without words: the dice size, and a 10 mm rule to check the print's scale.
    d.add(String(MARGIN, top - 5 * mm, f"{size_mm} mm", fontName="Helvetica-Bold", fontSize=11, fillColor=colors.black))
    rule_x, rule_y = MARGIN + 22 * mm, top - 4 * mm
    d.add(Line(rule_x, rule_y, rule_x + 10 * mm, rule_y, strokeColor=colors.black, strokeWidth=0.6))
    for tick in (rule_x, rule_x + 10 * mm):
        d.add(Line(tick, rule_y - 1.5 * mm, tick, rule_y + 1.5 * mm, strokeColor=colors.black, strokeWidth=0.6))
    d.add(String(rule_x + 12 * mm, top - 5 * mm, "10 mm", fontName="Helvetica", fontSize=8, fillColor=colors.black))
    side = lay.size
    block_w, block_h = 3 * side + 2 * GAP, 2 * side + GAP
    for row in range(lay.rows):
        y0 = top - HEADER - row * (block_h + SET_GAP)  # the top of this row of dice
        for k in range(lay.per_row):
            x0 = MARGIN + k * (block_w + SET_GAP)
            for line, faces in enumerate(FACES):
                y = y0 - (line + 1) * side - line * GAP
                for i, value in enumerate(faces):
                    d.add(sticker(value, x0 + i * (side + GAP), y, side))
    return d


def render(paper: str, size_mm: int, fmt: str) -> bytes:
    """The sheet as a PDF file or an SVG document."""
    d = drawing(paper, size_mm)
    if fmt == "pdf":
        return bytes(renderPDF.drawToString(d, title="Six-Dice stickers", author="Six-Dice"))
    if fmt == "svg":
        svg = renderSVG.drawToString(d)
        # The renderer gives the size in bare user units, which a browser prints as CSS pixels (96 to the inch,
        # not 72): say the page's size in points, so that it prints at its true size.
        w, h = f"{float(d.width)}", f"{float(d.height)}"
        svg = svg.replace(f'<svg width="{w}" height="{h}"', f'<svg width="{w}pt" height="{h}pt"', 1)
        svg = svg.replace(f'viewBox="0 0 {int(d.width)} {int(d.height)}"', f'viewBox="0 0 {w} {h}"', 1)  # not rounded down
        svg = svg.replace("<title>...</title>", "<title>Six-Dice stickers</title>", 1).replace("<desc>...</desc>", "", 1)
        return svg.encode("utf-8")
    raise ValueError(f"format is one of {FORMATS}, not {fmt!r}")
