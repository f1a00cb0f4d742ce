"""The committed icons are what tools/make_icons.py draws: an SVG and PNGs of the sizes the manifest names."""

from __future__ import annotations

import importlib.util
import json

import pytest
from django.test import Client
from PIL import Image, ImageChops

from tests.load.infra import ROOT

ICONS = ROOT / "static" / "icons"


def _tool():
    spec = importlib.util.spec_from_file_location("make_icons", ROOT / "tools" / "make_icons.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_svg_is_the_drawing():
    assert (ICONS / "die.svg").read_text(encoding="utf-8") == _tool().svg()


@pytest.mark.parametrize("name", ["icon-192.png", "icon-512.png", "icon-maskable-512.png", "apple-touch-icon.png"])
def test_png_is_the_drawing(name):
    tool = _tool()
    size, maskable = tool.SIZES[name]
    committed = Image.open(ICONS / name)
    assert committed.size == (size, size)
    assert committed.mode == ("RGB" if maskable else "RGBA")  # maskable: no transparent corners to cut
    drawn = tool.png(size, maskable).convert(committed.mode)
    # the same pixels, give or take a rounding step of another Pillow's resampling
    assert max(hi for _lo, hi in ImageChops.difference(committed, drawn).getextrema()) <= 2


@pytest.mark.django_db
def test_manifest_names_icons_that_exist_with_their_sizes():
    manifest = json.loads(Client().get("/manifest.webmanifest").content)
    purposes = set()
    for icon in manifest["icons"]:
        path = ICONS / icon["src"].rsplit("/", 1)[-1]
        assert path.exists(), icon
        if icon["type"] == "image/png":
            width, height = Image.open(path).size
            assert icon["sizes"] == f"{width}x{height}"
        purposes.add((icon["sizes"], icon["purpose"]))
    assert {("192x192", "any"), ("512x512", "any"), ("512x512", "maskable")} <= purposes
    assert manifest["display"] == "standalone" and manifest["start_url"] == "/" and manifest["scope"] == "/"
    assert manifest["name"] and manifest["short_name"] and manifest["theme_color"] and manifest["background_color"]
