"""A game's review page is paged by Django's Paginator: a page that is not one shows the nearest, and the links
name the first, the last and two either side of this page, with gaps."""

from __future__ import annotations

import pytest

from sixdice.review.desk import LOG_PAGE, review_desk

from .desk_games import long_game

pytestmark = pytest.mark.django_db


@pytest.fixture
def long(db):
    return long_game(events=300)


def test_the_log_pages_and_their_links(long):
    pages = -(-long.seq // LOG_PAGE)
    assert pages >= 12
    first = review_desk(long, None)["log"]
    assert (first["page"], first["pages"], first["first"], first["last"]) == (1, pages, 1, LOG_PAGE)
    assert first["previous"] is None and first["next"] == 2
    assert first["page_links"] == [1, 2, 3, first["gap"], pages]
    middle = review_desk(long, "6")["log"]
    assert middle["page_links"] == [1, middle["gap"], 4, 5, 6, 7, 8, middle["gap"], pages]
    assert [r["seq"] for r in middle["rows"]] == list(range(5 * LOG_PAGE + 1, 6 * LOG_PAGE + 1))
    for raw, shown in (("abc", 1), ("0", 1), ("-3", 1), ("", 1), (str(pages + 5), pages), (str(pages), pages)):
        log = review_desk(long, raw)["log"]
        assert log["page"] == shown, raw
    last = review_desk(long, str(pages))["log"]
    assert last["last"] == long.seq and last["next"] is None and last["total"] == long.seq
