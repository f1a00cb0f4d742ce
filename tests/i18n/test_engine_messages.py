"""The rules' refusals (groupings, moves, table options) reach each player in their own language."""

from __future__ import annotations

import pytest
from asgiref.sync import sync_to_async
from django.conf import settings
from django.test import Client
from django.utils import translation

from runbuster.engine import ENGINE as RUNBUSTER
from sixdice import rules
from sixdice.engine import ENGINE as SIXDICE
from sixdice.gamekit.errors import IllegalMove, OptionsError
from sixdice.tables.core.i18n import game_error_message
from sixdice.tables.core.keys import Credentials
from sixdice.tables.writes import checked_path, services
from tests.live_client import connect, receive_until

# Ana's six dice allow two groupings; Bo's only one, so the game then waits for Ana's choice.
ANA_ROLL = [3, -3, 2, -1, -1, 1]
BO_ROLL = [3, -3, 2, -2, 1, -1]


def _in(lang: str, exc) -> str:
    with translation.override(lang):
        return game_error_message(exc)


# ---------------------------------------------------------------- without a table


def test_a_grouping_refusal_keeps_its_english_text_and_carries_msgid_and_params():
    with pytest.raises(rules.IllegalGrouping) as info:
        rules.check_grouping(BO_ROLL, rules.Grouping(((3, -2, -1),), (), (-3, 2, 1)))
    exc = info.value
    assert str(exc) == "Only 1 zero-sum group; this hand allows 3 (form as many as possible)."
    assert exc.msgid.singular == "Only %(count)s zero-sum group; this hand allows %(best)s (form as many as possible)."
    assert exc.msgid.plural == "Only %(count)s zero-sum groups; this hand allows %(best)s (form as many as possible)."
    assert exc.params == {"count": 1, "best": 3}


@pytest.mark.parametrize(
    ("count", "english", "ukrainian"),
    [(1, "Only 1 zero-sum group;", "Лише 1 нульова група,"), (2, "Only 2 zero-sum groups;", "Лише 2 нульові групи,"),
     (5, "Only 5 zero-sum groups;", "Лише 5 нульових груп,")],
)
def test_a_count_in_a_refusal_takes_the_plural_form_of_each_language(count, english, ukrainian):
    """No "group(s)": the kit's ngettext keeps both forms, and each language picks the form its count asks for."""
    from sixdice.gamekit.notation import Refusal, ngettext

    refusal = Refusal(ngettext("Only %(count)s zero-sum group; this hand allows %(best)s (form as many as possible).",
                               "Only %(count)s zero-sum groups; this hand allows %(best)s (form as many as possible).",
                               count), params={"count": count, "best": 6})
    exc = IllegalMove(refusal.msgid, params=refusal.params)  # as the adapters pass a rules' refusal on
    assert str(exc).startswith(english) and _in("en", exc).startswith(english)
    assert _in("uk", exc).startswith(ukrainian)
    assert "(s)" not in _in("fr", exc) and "(en)" not in _in("nl", exc) and "(s)" not in _in("pt", exc)


def test_the_adapter_passes_the_rules_message_on_for_translation():
    state = rules.new_game(["Ana", "Bo"], dice="physical").to_dict()
    with pytest.raises(IllegalMove) as info:
        SIXDICE.apply(state, {"type": "flip"}, actor=0)
    exc = info.value
    assert str(exc) == "The game waits for Ana's roll (the 6 starting dice), not a flip."
    assert _in("uk", exc) == "Гра чекає на кидок гравця Ana (6 стартових кубиків), а не перегортання."
    assert _in("fr", exc) == "La partie attend le lancer de Ana (les 6 dés de départ), pas un retournement."
    assert _in("en", exc) == str(exc)


@pytest.mark.parametrize(
    ("raw", "players", "french"),
    [
        ({"bank": "3"}, 2, "La banque doit contenir de 12 à 100 dés pour 2 joueurs"),
        ({"rounds": "0"}, 3, "Le nombre de manches doit être de 1 à 99."),
        ({"rounds": "many"}, 3, "Le nombre de manches doit être un nombre entier, pas 'many'."),
        ({"time_limit_minutes": "9999"}, 3, "La limite de temps doit être de 1 à 1440 minutes"),
        ({"dice": "cards"}, 3, "Les dés doivent être \"app\" (l'application lance) ou \"physical\""),
        ({"auto_balance": "maybe"}, 3, "Équilibre automatique doit être activé ou désactivé, pas 'maybe'."),
    ],
)
def test_every_sixdice_options_error_is_translated(raw, players, french):
    with pytest.raises(OptionsError) as info:
        SIXDICE.clean_options(raw, players=players)
    assert _in("fr", info.value).startswith(french)
    assert _in("uk", info.value) != str(info.value)


def test_run_buster_options_and_moves_are_translated():
    with pytest.raises(OptionsError) as info:
        RUNBUSTER.clean_options({"dice": "cards"}, players=2)
    assert _in("nl", info.value) == ("Dobbelstenen moeten \"app\" (de app gooit) of \"physical\" (echte dobbelstenen) "
                                      "zijn, niet 'cards'.")  # the kit's dice option, as Six-Dice says it
    with pytest.raises(OptionsError) as info:
        RUNBUSTER.clean_options({"series": "maybe"}, players=2)
    assert _in("fr", info.value) != str(info.value) and "maybe" in _in("fr", info.value)
    state = RUNBUSTER.start(players=["Ana", "Bo"], options={"dice": "physical"})
    with pytest.raises(IllegalMove) as info:
        RUNBUSTER.apply(state, {"type": "roll", "values": [1, 2]}, actor=0)
    assert str(info.value) == "Roll exactly 6 dice (the dice in the cup), not 2."
    assert _in("pt", info.value) == "Role exatamente 6 dados (os dados do copo), não 2."


# ---------------------------------------------------------------- the create-table form


@pytest.mark.django_db
@pytest.mark.parametrize("how", ["cookie", "accept-language"])
def test_an_options_error_on_the_create_form_is_shown_in_french(how):
    if how == "cookie":
        client = Client()
        client.cookies[settings.LANGUAGE_COOKIE_NAME] = "fr"
    else:
        client = Client(HTTP_ACCEPT_LANGUAGE="fr-FR,fr;q=0.9,en;q=0.5")
    response = client.post("/new/sixdice/", {"players": "2", "bank": "3", "rounds": "12", "dice": "app"})
    assert response.status_code == 400
    page = response.content.decode()
    assert "La banque doit contenir de 12 à 100 dés pour 2 joueurs" in page
    assert "The bank must hold" not in page
    response = client.post("/new/runbuster/", {"players": "2", "dice": "cards"})
    assert response.status_code == 400
    assert "Les dés doivent être" in response.content.decode() and "must be" not in response.content.decode()


# ---------------------------------------------------------------- over the WebSocket


def _table_waiting_for_anas_grouping():
    table, host = services.create_table(game="sixdice", options={"dice": "physical"}, capacity=2)
    for name in ("Ana", "Bo"):
        services.join_table(table=table, name=name)
    game = services.start_game(table=table).game
    as_host = Credentials(host_secret=host)
    for values in (ANA_ROLL, BO_ROLL):
        seq = checked_path.load_table(table.code).games.order_by("-id").first().seq
        checked_path.apply_action(
            table_code=table.code, credentials=as_host, action={"type": "roll", "values": values}, expected_seq=seq, as_host=True
        )
    game.refresh_from_db()
    assert game.state["pending"]["kind"] == "group" and game.state["pending"]["seat"] == 0
    return table, host


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_an_illegal_grouping_built_by_the_host_is_refused_in_ukrainian():
    table, host = await sync_to_async(_table_waiting_for_anas_grouping)()
    comm, welcome = await connect(table.code, lang="uk", host=host)
    seq = welcome["game"]["seq"]
    too_few = {"type": "group", "zero_groups": [[3, -3]], "pairs": []}
    await comm.send_json_to({"type": "action", "id": 1, "seq": seq, "as_host": True, "action": too_few})
    error = await receive_until(comm, "error")
    assert error["code"] == "illegal"
    assert error["message"] == "Лише 1 нульова група, а ця рука дозволяє 2 (складіть якомога більше)."
    not_minimal = {"type": "group", "zero_groups": [[3, -3, 2, -1, -1]], "pairs": []}
    await comm.send_json_to({"type": "action", "id": 2, "seq": seq, "as_host": True, "action": not_minimal})
    error = await receive_until(comm, "error")
    assert error["message"] == "Група (+3 −3 +2 −1 −1) не мінімальна: її частина (+3 −3) уже дає в сумі 0."
    await comm.disconnect()
    english, welcome = await connect(table.code, host=host)
    await english.send_json_to({"type": "action", "id": 3, "seq": seq, "as_host": True, "action": too_few})
    error = await receive_until(english, "error")
    assert error["message"] == "Only 1 zero-sum group; this hand allows 2 (form as many as possible)."
    await english.disconnect()


def _runbuster_table():
    table, host = services.create_table(game="runbuster", options={"dice": "physical"}, capacity=2)
    secrets = [services.join_table(table=table, name=name)[1] for name in ("Ana", "Bo")]
    game = services.start_game(table=table).game
    return table, host, secrets, game


def _host_rolls(table, host, values):
    game = checked_path.load_table(table.code).games.order_by("-id").first()
    checked_path.apply_action(
        table_code=table.code,
        credentials=Credentials(host_secret=host),
        action={"type": "roll", "values": values},
        expected_seq=game.seq,
        as_host=True,
    )


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_a_run_buster_illegal_choice_arrives_translated():
    table, host, secrets, game = await sync_to_async(_runbuster_table)()
    current = game.state["current"]
    comm, welcome = await connect(table.code, lang="nl", seat=secrets[current])
    seq = welcome["game"]["seq"]
    await comm.send_json_to({"type": "action", "id": 1, "seq": seq, "action": {"type": "choose", "straight": [1, 2]}})
    error = await receive_until(comm, "error")
    assert (error["code"], error["message"]) == ("illegal", "Eerst gooien.")
    await comm.disconnect()
    await sync_to_async(_host_rolls)(table, host, [1, 1, 1, 1, 1, 1])
    comm, welcome = await connect(table.code, lang="uk", seat=secrets[current])
    seq = welcome["game"]["seq"]
    await comm.send_json_to({"type": "action", "id": 2, "seq": seq, "action": {"type": "choose", "straight": [2]}})
    error = await receive_until(comm, "error")
    assert (error["code"], error["message"]) == ("illegal", "Після цього кидка не можна тримати [2]; оберіть одне з: 1.")
    await comm.send_json_to({"type": "action", "id": 3, "seq": seq, "action": {"type": "end_turn"}})
    error = await receive_until(comm, "error")
    assert error["message"] == "Коли можете, ви мусите додати до руки хоча б один кубик."
    await comm.disconnect()
