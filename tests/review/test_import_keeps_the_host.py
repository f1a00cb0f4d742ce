"""An import keeps who hosted, and the admin's refusals name the admin's own controls (issue 39)."""

from __future__ import annotations

import json
import re

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import CommandError, call_command
from django.urls import reverse
from django.utils import translation

from sixdice.review import exchange
from sixdice.review.summary import host_of
from sixdice.tables.models import Table

from .conftest import page_text, play

pytestmark = pytest.mark.django_db


def _hosted(name: str = "", seat: int | None = None):
    game = play("runbuster", ("Hana", "Bo"), seed=7)
    Table.objects.filter(pk=game.table_id).update(host_name=name, host_seat=seat)
    game.table.refresh_from_db()
    return game


@pytest.mark.parametrize(("name", "seat", "shown"), [
    ("Hana", 0, "Hana (seat 1)"),
    ("Inês", None, "Inês (not seated)"),
    ("", None, "Not recorded (no host name was given)"),
])
def test_the_host_survives_an_export_and_an_import(name, seat, shown):
    game = _hosted(name, seat)
    doc = exchange.export_game(game)
    assert doc["version"] == 5 and doc["table"]["host_name"] == name and doc["table"]["host_seat"] == seat
    game.table.delete()
    (imported,) = exchange.import_documents([json.loads(exchange.dumps(doc))])
    assert (imported.table.host_name, imported.table.host_seat) == (name, seat)
    with translation.override("en"):
        assert host_of(imported) == shown
    assert exchange.export_game(imported)["table"] == doc["table"]


@pytest.mark.parametrize(("table", "reason"), [
    ({"host_name": 3}, '"table.host_name" must be a string.'),
    ({"host_name": "A\x00"}, '"table.host_name" is not a valid name.'),
    ({"host_seat": 2}, '"table.host_seat" must be a seat of this game or null, not 2.'),
    ({"host_seat": True}, '"table.host_seat" must be a seat of this game or null, not True.'),
])
def test_a_bad_host_is_refused_in_words(table, reason):
    game = _hosted("Hana", 0)
    doc = exchange.export_game(game)
    game.table.delete()
    doc["table"].update(table)
    with pytest.raises(exchange.ImportRefused, match=re.escape(reason)):
        exchange.import_documents([doc], unsigned=True)
    assert not Table.objects.exists()


def test_a_version_3_file_has_no_host_recorded():
    game = _hosted("Hana", 0)
    doc = exchange.export_game(game)
    game.table.delete()
    doc["version"] = 3
    for key in ("host_name", "host_seat"):
        del doc["table"][key]
    (imported,) = exchange.import_documents([exchange.sign(doc)])
    assert (imported.table.host_name, imported.table.host_seat) == ("", None)


def test_the_admin_names_its_checkbox_and_the_command_its_flag_for_an_unsigned_file(staff, tmp_path):
    game = _hosted("Hana", 0)
    doc = {k: v for k, v in exchange.export_game(game).items() if k != "signature"}
    game.table.delete()
    form = staff.get(reverse("admin:tables_game_import")).content.decode()
    assert "--unsigned" not in form
    box = "Also take games this install did not sign"
    response = staff.post(reverse("admin:tables_game_import"),
                          {"file": SimpleUploadedFile("other.json", json.dumps(doc).encode())})
    page = page_text(response.content.decode())
    assert response.status_code == 400
    assert "The game is not signed by this install" in page and f"Tick “{box}” and import it again" in page
    assert "--unsigned" not in page
    two = staff.post(reverse("admin:tables_game_import"), {
        "file": SimpleUploadedFile("two.json", json.dumps([doc, {**doc, "version": 3}]).encode())})
    assert "Game 1 is not signed" in page_text(two.content.decode())
    staff.post("/i18n/setlang/", {"language": "pt", "next": "/"})
    in_pt = staff.post(reverse("admin:tables_game_import"),
                       {"file": SimpleUploadedFile("other.json", json.dumps(doc).encode())}, HTTP_ACCEPT_LANGUAGE="pt")
    pt_page = page_text(in_pt.content.decode())
    assert "não foi assinada" in pt_page and "--unsigned" not in pt_page
    path = tmp_path / "other.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    with pytest.raises(CommandError, match="import it with --unsigned"):
        call_command("import_game", str(path))
