"""Draw the app's icons: a blue die showing six, as an SVG and as PNGs (run after changing the drawing).

    .venv/bin/python tools/make_icons.py       # writes static/icons/

The PNGs are drawn from the same numbers as the SVG, four times larger, then
scaled down, so the same Pillow draws the same pixels every time
(tests/test_icons.py checks the committed files against this drawing).
Pillow is only needed here and in that test (the ``test`` extra), not to serve.
"""

from __future__ import annotations

import sys
from pathlib import Path

from PIL import Image, ImageDraw

OUT = Path(__file__).resolve().parents[1] / "static" / "icons"
SIDE = 512
BLUE = "#1558b0"  # the app's blue die (static/css/app.css, --blue)
PIP = "#ffffff"
FACE = (32, 32, 480, 480)  # the die's face on a 512 square ...
RADIUS = 96  # ... and its rounded corners
PIPS = [(x, y) for y in (144, 256, 368) for x in (168, 344)]  # six: two columns of three
PIP_RADIUS = 42
MASKABLE_SCALE = 0.8  # a maskable icon is cut to a circle (or another shape) of 80 %: the pips stay inside it
SIZES = {"icon-192.png": (192, False), "icon-512.png": (512, False), "icon-maskable-512.png": (512, True),
         "apple-touch-icon.png": (180, True)}


def pips(maskable: bool) -> list[tuple[float, float, float]]:
    scale = MASKABLE_SCALE if maskable else 1.0
    c = SIDE / 2
    return [(c + (x - c) * scale, c + (y - c) * scale, PIP_RADIUS * scale) for x, y in PIPS]


def svg(maskable: bool = False) -> str:
    face = (f'<rect width="{SIDE}" height="{SIDE}" fill="{BLUE}"/>' if maskable else
            f'<rect x="{FACE[0]}" y="{FACE[1]}" width="{FACE[2] - FACE[0]}" height="{FACE[3] - FACE[1]}" '
            f'rx="{RADIUS}" fill="{BLUE}"/>')
    dots = "".join(f'<circle cx="{x:g}" cy="{y:g}" r="{r:g}"/>' for x, y, r in pips(maskable))
    return (f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {SIDE} {SIDE}">'
            f'{face}<g fill="{PIP}">{dots}</g></svg>\n')


def png(size: int, maskable: bool) -> Image.Image:
    k = 4 * size / SIDE  # drawn four times larger, then scaled down: smooth edges
    big = round(4 * size)
    image = Image.new("RGBA", (big, big), (0, 0, 0, 0))
    draw = ImageDraw.Draw(image)
    if maskable:
        draw.rectangle((0, 0, big, big), fill=BLUE)
    else:
        draw.rounded_rectangle(tuple(v * k for v in FACE), radius=RADIUS * k, fill=BLUE)
    for x, y, r in pips(maskable):
        draw.ellipse(((x - r) * k, (y - r) * k, (x + r) * k, (y + r) * k), fill=PIP)
    return image.resize((size, size), Image.Resampling.LANCZOS)


def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    (OUT / "die.svg").write_text(svg(), encoding="utf-8")
    for name, (size, maskable) in SIZES.items():
        image = png(size, maskable)
        if maskable:  # no transparency: a launcher fills the shape it cuts with the picture
            image = image.convert("RGB")
        image.save(OUT / name, optimize=True)
        print(OUT / name, file=sys.stderr)


if __name__ == "__main__":
    main()
