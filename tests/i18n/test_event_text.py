"""An event's line comes from its stored notation, or from its stored text when the notation is unusable."""

from __future__ import annotations

from sixdice.tables.core.i18n import event_text


def test_a_malformed_stored_notation_falls_back_to_the_stored_text():
    assert event_text({"notation": [{"args": {}}], "text": "Ana adds 1"}) == "Ana adds 1"
    assert event_text({"notation": ["not a part"], "text": "Ana adds 1"}) == "Ana adds 1"
    assert event_text({"notation": [], "text": "Ana adds 1"}) == "Ana adds 1"


def test_the_notation_is_rendered_in_the_language_asked():
    parts = [{"msg": "%(name)s rolls %(dice)s", "args": {"name": "Ana", "dice": "1 2 3"}}]
    assert event_text({"notation": parts, "text": "stored"}, "en") == "Ana rolls 1 2 3"
    assert event_text({"notation": parts, "text": "stored"}, "fr") == "Ana lance 1 2 3"
