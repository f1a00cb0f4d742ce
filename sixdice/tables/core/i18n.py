"""Languages at a table: each connection reads the game in its own language.

* :func:`render_notation` turns an event's structured notation (see
  ``describe_parts`` in :mod:`sixdice.gamekit.engine`) into one line in a
  language; names and die values are arguments and stay as they are.
* :func:`connection_language` picks a WebSocket's language at connect: the
  ``django_language`` cookie that the language switcher sets, else the
  browser's ``Accept-Language``, else English.
* :func:`localize_frame` gives the log lines of an outgoing frame in a
  connection's language.
* :func:`game_error_message` is an engine's refusal in the active language.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable, Mapping
from typing import Any

from django.conf import settings
from django.utils import translation
from django.utils.translation import gettext, ngettext, trans_real

from sixdice.gamekit import notation
from sixdice.gamekit.errors import GameError

log = logging.getLogger(__name__)



def render_parts(parts: Iterable[Mapping[str, Any]]) -> str:
    """The parts as one line in the active language (counts of things with the language's plural forms)."""
    return notation.render_parts(parts, gettext, ngettext)


def render_notation(parts: Iterable[Mapping[str, Any]] | None, language: str | None) -> str:
    """One log line in ``language`` (``None``: the active language); ``""`` when there are no parts."""
    parts = list(parts or [])
    if not parts:
        return ""
    if language is None:
        return render_parts(parts)
    with translation.override(language):
        return render_parts(parts)


def event_text(event: Mapping[str, Any], language: str | None = None) -> str:
    """An event payload's line in ``language``: from its notation, else its stored (English) text."""
    try:
        return render_notation(event.get("notation"), language) or str(event.get("text", ""))
    except (KeyError, TypeError, ValueError, AttributeError):  # malformed stored parts: the stored text stands
        log.exception("could not render the notation of an event")
        return str(event.get("text", ""))


def localize_events(events: Any, language: str) -> Any:
    """Event payloads with ``text`` in ``language`` (and without the raw notation); ``rule``: the anchor of the
    rule the line applies, when it applies one (the log links to it)."""
    if not isinstance(events, list):
        return events
    out = []
    for event in events:
        if isinstance(event, Mapping):
            text = event_text(event, language)
            parts = event.get("notation") if isinstance(event.get("notation"), list) else None
            rule = notation.first_rule(parts)
            yours = _yours(parts, language)
            lines, again = _notice(parts, language)
            seq = event.get("seq")
            event = {k: v for k, v in event.items() if k != "notation"}
            event["text"] = text
            if rule:
                event["rule"] = rule  # the anchor of the rule the line applies, on the game's rules page
            if yours:
                event["yours"] = yours  # the news worded for each seat it concerns (that seat's phone shows it)
            if lines:
                event["notice"] = " ".join(line["text"] for line in lines)  # what an undo changed, the last round
                event["notice_lines"] = lines  # the same, a sentence each: a seat's own one worded for its phone
            if again:
                event["act_again"] = again  # with real dice: the seats the notice asks to set dice, move or roll again
            if yours or lines:  # the news's lifetime: the board it describes, until the next write
                about = notation.news_about(parts)
                event["about"] = about if about is not None else seq
                event["ends"] = "next_write"
        out.append(event)
    return out


def _notice(parts: list[Any] | None, language: str) -> tuple[list[dict[str, Any]], list[int]]:
    """The line's notice for every phone, in ``language``, a sentence each: an undo's sentences (``notice``) and
    the parts the engine announces (``announce``: the last round); and the seats an undo asks to act again.

    A sentence addressed to a seat ("Jo: make your move again.") is ``{"text", "seat", "you"}``: ``you`` is the
    same sentence worded for that seat's own phone ("You: make your move again."), which shows it first.
    """
    said: list[dict[str, Any]] = []
    again: list[int] = []
    try:
        for p in parts or ():
            if not isinstance(p, Mapping):
                continue
            if isinstance(p.get("notice"), list):
                for s in p["notice"]:
                    if not isinstance(s, Mapping):
                        continue
                    line: dict[str, Any] = {"text": render_notation([s], language)}
                    seat, you = s.get("seat"), s.get("you")
                    if isinstance(seat, int) and not isinstance(seat, bool) and isinstance(you, Mapping):
                        line.update(seat=seat, you=render_notation([you], language))
                    said.append(line)
            if p.get("announce"):
                said.append({"text": render_notation([p], language)})
            if isinstance(p.get("again"), list):
                again.extend(s for s in p["again"] if isinstance(s, int) and not isinstance(s, bool))
    except (KeyError, TypeError, ValueError, AttributeError):
        log.exception("could not render the notice of an event")
        return [], []
    return said, again


def _yours(parts: list[Any] | None, language: str) -> dict[str, str]:
    try:
        return {seat: render_notation(own, language) for seat, own in notation.personal_parts(parts).items()}
    except (KeyError, TypeError, ValueError, AttributeError):
        log.exception("could not render the personal lines of an event")
        return {}


def localize_frame(payload: dict[str, Any], language: str) -> dict[str, Any]:
    """A frame for one connection: every log line in it rendered in ``language``."""
    out = dict(payload)
    for key in ("events", "missed"):
        if key in out:
            out[key] = localize_events(out[key], language)
    game = out.get("game")
    if isinstance(game, Mapping) and "log" in game:
        out["game"] = {**game, "log": localize_events(game["log"], language)}
    snapshot = out.get("snapshot")
    if isinstance(snapshot, Mapping):
        out["snapshot"] = localize_frame(dict(snapshot), language)
    return out


def _supported(code: str | None) -> str | None:
    if not code:
        return None
    try:
        return translation.get_supported_language_variant(code)
    except LookupError:
        return None


def language_from_headers(cookie: str | None, accept_language: str | None) -> str:
    """The language cookie if it names a supported language, else the best of Accept-Language, else English."""
    chosen = _supported(cookie)
    if chosen:
        return chosen
    for code, _quality in trans_real.parse_accept_lang_header(accept_language or ""):
        if code == "*":
            break
        chosen = _supported(code)
        if chosen:
            return chosen
    return _supported(settings.LANGUAGE_CODE) or "en"


def connection_language(scope: Mapping[str, Any]) -> str:
    """A WebSocket's language, from its ASGI scope (cookies and headers)."""
    cookies = scope.get("cookies") or {}
    accept = ""
    for name, value in scope.get("headers") or []:
        if name.lower() == b"accept-language":
            accept = value.decode("latin-1")
    return language_from_headers(cookies.get(settings.LANGUAGE_COOKIE_NAME), accept)


def game_error_message(exc: GameError) -> str:
    """An engine's refusal in the active language (English when it has no msgid).

    ``params`` may hold notation parts (``{"msg": ..., "args": ...}``), which
    are translated too; a ``msgid`` with a plural form (``notation.ngettext``)
    takes the form its count asks for; a translation that does not fit falls back to English.
    """
    msgid = getattr(exc, "msgid", None)
    if not msgid:
        return str(exc)
    params = getattr(exc, "params", None) or {}
    if not params and not isinstance(msgid, notation.Plural):
        return gettext(msgid)
    try:
        return notation.render_parts([notation.as_part(msgid, params)], gettext, ngettext)
    except (KeyError, ValueError, TypeError):
        return str(exc)
