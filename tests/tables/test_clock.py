"""The test clock (sixdice/tables/core/clock.py): time and bots that only the test moves."""

from __future__ import annotations

import asyncio
import json
from datetime import timedelta

import pytest
from django.test import RequestFactory

from sixdice.tables.core import clock as clock_module
from sixdice.tables.core.clock import BOT_STEP, Clock, TestClock, get_clock
from sixdice.tables.pages.test_clock import move_clock
from tests.test_only_settings import check_refused_outside_a_test_server


def test_the_real_clock_is_used_unless_the_test_clock_is_asked_for(settings):
    settings.SIXDICE_TEST_CLOCK = False
    assert type(get_clock()) is Clock
    settings.SIXDICE_TEST_CLOCK = True
    assert isinstance(get_clock(), TestClock)


def test_time_moves_by_what_the_test_advances():
    c = TestClock()
    before = c.now()
    c.advance(30)
    assert c.now() - before >= timedelta(seconds=30)
    with pytest.raises(ValueError):
        c.advance(-1)


async def test_held_bots_wait_for_advanced_time_and_keep_an_advance_made_before_they_wait():
    c = TestClock()
    c.hold_bots()
    pause = asyncio.ensure_future(c.bot_pause(5))  # held: the server's delay does not count, the test's time does
    await asyncio.sleep(0.05)
    assert not pause.done()
    c.advance(BOT_STEP)
    await asyncio.wait_for(pause, 1)
    c.advance(2 * BOT_STEP)  # before anyone waits: two moves' worth, kept
    await asyncio.wait_for(c.bot_pause(5), 1)
    await asyncio.wait_for(c.bot_pause(5), 1)
    third = asyncio.ensure_future(c.bot_pause(5))
    await asyncio.sleep(0.05)
    assert not third.done()  # the budget is spent
    c.free_bots()  # freed: it goes at the server's pace
    third.cancel()


async def test_free_bots_keep_the_servers_pace():
    c = TestClock()
    await asyncio.wait_for(c.bot_pause(0), 1)


async def test_a_timer_asleep_wakes_when_the_test_advances():
    c = TestClock()
    wake = asyncio.Event()
    sleeper = asyncio.ensure_future(c.sleep(3600, wake))
    await asyncio.sleep(0.05)
    assert not sleeper.done()
    c.advance(1)
    await asyncio.wait_for(sleeper, 1)
    wake.set()
    await asyncio.wait_for(c.sleep(3600, wake), 1)  # woken as the real clock is


@pytest.fixture
def fresh_test_clock(settings, monkeypatch):
    settings.SIXDICE_TEST_CLOCK = True
    monkeypatch.setattr(clock_module, "_TEST", None)


def post(body: object) -> tuple[int, dict]:
    request = RequestFactory().post("/__test__/clock/", data=json.dumps(body), content_type="application/json")
    response = move_clock(request)
    return response.status_code, json.loads(response.content)


def test_the_endpoint_moves_the_clock(fresh_test_clock):
    status, state = post({"bots": "held", "advance": 2})
    assert status == 200 and state == {"offset": 2.0, "bots": "held", "bot_budget": 2.0}
    status, state = post({"bots": "free"})
    assert status == 200 and state["bots"] == "free" and state["offset"] == 2.0


@pytest.mark.parametrize("body", [{"advance": -1}, {"advance": "10"}, {"advance": True}, {"advance": 1e9},
                                  {"bots": "asleep"}, [1], "x"])
def test_the_endpoint_refuses_bad_input_and_changes_nothing(fresh_test_clock, body):
    status, answer = post(body)
    assert status == 400 and "error" in answer
    assert get_clock().as_json() == {"offset": 0.0, "bots": "free", "bot_budget": 0.0}


def test_a_server_refuses_the_test_clock_unless_it_is_a_test_server():
    check_refused_outside_a_test_server("SIXDICE_TEST_CLOCK", "1", refusal="SIXDICE_TEST_CLOCK is for tests only",
                                        shown="True", default="False")
