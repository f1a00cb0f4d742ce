"""The printable sticker sheet (issue 43): one page, A4 or Letter, stickers of the chosen size, measured in the PDF."""

from __future__ import annotations

import io
from xml.etree import ElementTree

import pytest
from pypdf import PdfReader
from pypdf.generic import ContentStream

from sixdice import stickers

MM = 72 / 25.4  # points per millimetre
PAGES = {"a4": (210.0, 297.0), "letter": (215.9, 279.4)}  # mm


def _multiply(a: list[float], b: list[float]) -> list[float]:
    """The PDF matrix a × b (each [a b c d e f])."""
    return [a[0] * b[0] + a[1] * b[2], a[0] * b[1] + a[1] * b[3], a[2] * b[0] + a[3] * b[2], a[2] * b[1] + a[3] * b[3],
            a[4] * b[0] + a[5] * b[2] + b[4], a[4] * b[1] + a[5] * b[3] + b[5]]


def rectangles(pdf: bytes) -> tuple[int, tuple[float, float], list[tuple[float, float, float, float]]]:
    """The pages, the page size (mm) and every rectangle the page draws, in mm on the page: (x, y, w, h).

    Follows the graphics state (q, Q, cm) so that a rectangle is measured where and as large as it prints.
    """
    reader = PdfReader(io.BytesIO(pdf))
    page = reader.pages[0]
    box = page.mediabox
    size = (float(box.width) / MM, float(box.height) / MM)
    ctm, stack, found = [1.0, 0, 0, 1.0, 0, 0], [], []
    for operands, op in ContentStream(page.get_contents(), reader).operations:
        if op == b"q":
            stack.append(ctm)
        elif op == b"Q":
            ctm = stack.pop()
        elif op == b"cm":
            ctm = _multiply([float(x) for x in operands], ctm)
        elif op == b"re":
            x, y, w, h = (float(v) for v in operands)
            sx, sy = ctm[0], ctm[3]
            assert ctm[1] == ctm[2] == 0  # no rotation on this sheet
            found.append(((x * sx + ctm[4]) / MM, (y * sy + ctm[5]) / MM, abs(w * sx) / MM, abs(h * sy) / MM))
    return len(reader.pages), size, found


@pytest.mark.parametrize("paper", ["a4", "letter"])
@pytest.mark.parametrize("size", [12, 16, 19])
def test_the_pdf_is_one_page_and_its_stickers_measure_the_chosen_size(paper, size):
    pages, page_size, rects = rectangles(stickers.render(paper, size, "pdf"))
    assert pages == 1
    assert page_size == pytest.approx(PAGES[paper], abs=0.5)
    # the stickers' cut lines: squares of about the die's side (the page's clip box and the like are far bigger)
    cut = [r for r in rects if 5 < r[2] < 40 and 5 < r[3] < 40]
    lay = stickers.layout(paper, size)
    assert len(cut) == 6 * lay.dice and lay.dice >= 10  # one sticker per face, for at least 10 dice
    for x, y, w, h in cut:
        assert abs(w - size) <= 0.5 and abs(h - size) <= 0.5, (w, h)
        # on the page, inside the margins a printer keeps
        assert x >= 5 and x + w <= page_size[0] - 5 and y >= 5 and y + h <= page_size[1] - 5


def test_sizes_and_papers_are_checked():
    with pytest.raises(ValueError):
        stickers.render("a5", 16, "pdf")
    with pytest.raises(ValueError):
        stickers.render("a4", 15, "pdf")
    with pytest.raises(ValueError):
        stickers.render("a4", 16, "png")


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_the_svg_prints_at_true_size_with_one_sticker_per_face(paper):
    svg = stickers.render(paper, 16, "svg")
    root = ElementTree.fromstring(svg)
    width, height = root.get("width"), root.get("height")
    assert width.endswith("pt") and height.endswith("pt")
    assert float(width[:-2]) / MM == pytest.approx(PAGES[paper][0], abs=0.5)
    assert float(height[:-2]) / MM == pytest.approx(PAGES[paper][1], abs=0.5)
    view = [float(v) for v in root.get("viewBox").split()]
    assert view[2:] == pytest.approx([float(width[:-2]), float(height[:-2])])  # one user unit is one point
    ns = "{http://www.w3.org/2000/svg}"
    squares = [r for r in root.iter(ns + "rect") if abs(float(r.get("width")) / MM - 16) <= 0.5
               and abs(float(r.get("height")) / MM - 16) <= 0.5]
    assert len(squares) == 6 * stickers.layout(paper, 16).dice
    dice = stickers.layout(paper, 16).dice
    blue, red = "rgb(8%,34%,69%)", "rgb(70%,14%,11%)"  # the app's --blue #1558b0 and --red #b3261e
    style = [r.get("style", "").replace(" ", "") for r in squares]
    # blue for +, red for −, and the shapes say it too: a solid line and round pips for +, a dashed line and
    # square pips for −
    assert sum(f"stroke:{blue}" in s and "dasharray" not in s for s in style) == 3 * dice
    assert sum(f"stroke:{red}" in s and "dasharray" in s for s in style) == 3 * dice
    circles = [c.get("style", "").replace(" ", "") for c in root.iter(ns + "circle")]
    squares_pips = [c.get("style", "").replace(" ", "") for c in root.iter(ns + "polygon")]
    assert len(circles) == len(squares_pips) == 6 * dice  # 1 + 2 + 3 pips on each side of a die
    assert all(f"fill:{blue}" in c for c in circles) and all(f"fill:{red}" in c for c in squares_pips)


@pytest.mark.django_db
def test_the_sheet_is_served_from_the_rules_and_the_new_table_form(client):
    response = client.get("/rules/sixdice/stickers.pdf?paper=letter&size=19")
    assert response.status_code == 200 and response["Content-Type"] == "application/pdf"
    pages, size, rects = rectangles(response.content)
    assert pages == 1 and size == pytest.approx(PAGES["letter"], abs=0.5)
    assert client.get("/rules/sixdice/stickers.svg").status_code == 200  # A4, 16 mm by default
    bad = client.get("/rules/sixdice/stickers.pdf?paper=a5&size=16")
    assert bad.status_code == 400 and b"A4 or Letter" in bad.content
    assert client.get("/rules/sixdice/stickers.pdf?size=13").status_code == 400
    assert client.get("/rules/sixdice/stickers.png").status_code == 404
    assert client.get("/rules/runbuster/stickers.pdf").status_code == 404  # a game without a sheet
    for page in ("/rules/sixdice/", "/new/sixdice/"):
        html = client.get(page).content.decode()
        for size_mm in (12, 16, 19):
            assert f'/rules/sixdice/stickers.pdf?paper=a4&amp;size={size_mm}' in html, page
            assert f'/rules/sixdice/stickers.pdf?paper=letter&amp;size={size_mm}' in html, page
