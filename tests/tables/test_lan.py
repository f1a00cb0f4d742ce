"""``make run LAN=1``: serve the phones on the local network in one setting.

The command behind it (``python -m sixdice.serve --lan``) finds this machine's
local network address, serves on it and on loopback, allows it and only it
(plus the loopback names) as a host, and prints it with a QR code.  The home
page, opened on the machine itself, shows it to give to the phones.  The
network interface is faked here: the tests send nothing anywhere.
"""

from __future__ import annotations

import io
import socket

import pytest
from django.test import Client, override_settings

from sixdice import serve
from sixdice.tables.core import keys
from sixdice.tables.transport.origins import host_allowed, origin_allowed
from sixdice.tables.writes import checked_path

LAN = "192.168.1.20"


def test_lan_serves_on_the_network_address_and_allows_only_it_and_loopback():
    p = serve.plan(host="127.0.0.1", port=8000, lan=True, env={"ALLOWED_HOSTS": "*"}, finder=lambda: LAN)
    assert p.url == f"http://{LAN}:8000/"
    assert p.argv[:5] == ["daphne", "-b", "127.0.0.1", "-p", "8000"]  # loopback, for the host's own browser ...
    assert f"tcp:port=8000:interface={LAN}" in p.argv  # ... and the network address, not every interface
    assert "0.0.0.0" not in " ".join(p.argv)
    assert p.env["ALLOWED_HOSTS"].split(",") == [LAN, "127.0.0.1", "localhost", "[::1]"]
    assert p.env["SIXDICE_LAN_URL"] == p.url
    assert p.argv[-1] == "sixdice.asgi:application"


def test_lan_address_passes_the_host_and_websocket_origin_checks():
    p = serve.plan(host="127.0.0.1", port=8000, lan=True, env={}, finder=lambda: LAN)
    with override_settings(ALLOWED_HOSTS=p.env["ALLOWED_HOSTS"].split(","), DEBUG=False):
        assert host_allowed(f"{LAN}:8000") and host_allowed("127.0.0.1:8000")
        assert not host_allowed("192.168.1.21:8000")
        assert origin_allowed(f"http://{LAN}:8000", f"{LAN}:8000", "ws")


def test_default_stays_loopback_only():
    p = serve.plan(host="127.0.0.1", port=8000, lan=False, env={}, finder=lambda: pytest.fail("no lookup"))
    assert p.argv == ["daphne", "-b", "127.0.0.1", "-p", "8000", "sixdice.asgi:application"]
    assert "ALLOWED_HOSTS" not in p.env and "SIXDICE_LAN_URL" not in p.env
    assert p.url == "http://127.0.0.1:8000/"


class FakeUdp:
    """A UDP socket whose kernel would pick ``source`` for a route; records what it was asked."""

    connected: list[tuple[str, int]] = []
    sent = 0

    def __init__(self, source: str, family: int, kind: int) -> None:
        assert (family, kind) == (socket.AF_INET, socket.SOCK_DGRAM)
        self.source = source

    def __enter__(self) -> FakeUdp:
        return self

    def __exit__(self, *exc: object) -> None:
        return None

    def connect(self, address: tuple[str, int]) -> None:
        FakeUdp.connected.append(address)

    def getsockname(self) -> tuple[str, int]:
        return (self.source, 40000)

    def send(self, *args: object) -> None:  # never called: finding the address sends nothing
        FakeUdp.sent += 1


def test_the_finder_asks_the_kernel_for_a_private_route_and_sends_nothing(monkeypatch):
    FakeUdp.connected, FakeUdp.sent = [], 0
    monkeypatch.setattr(serve.socket, "socket", lambda family, kind: FakeUdp(LAN, family, kind))
    assert serve.find_lan_address() == LAN
    assert FakeUdp.sent == 0
    assert all(ip.startswith(("10.", "172.", "192.168.")) for ip, _port in FakeUdp.connected)


def test_without_a_network_the_finder_says_so(monkeypatch):
    monkeypatch.setattr(serve.socket, "socket", lambda family, kind: FakeUdp("127.0.0.1", family, kind))
    with pytest.raises(serve.NoLanAddress):
        serve.find_lan_address()
    with pytest.raises(serve.NoLanAddress):
        serve.plan(host="127.0.0.1", port=8000, lan=True, env={}, finder=lambda: "169.254.3.4")  # link-local


def test_the_address_is_printed_with_a_qr_code():
    out = io.StringIO()
    serve.announce(serve.plan(host="127.0.0.1", port=8000, lan=True, env={}, finder=lambda: LAN), out=out)
    text = out.getvalue()
    assert f"http://{LAN}:8000/" in text
    assert sum(line.count("█") + line.count("▀") + line.count("▄") for line in text.splitlines()) > 100  # the QR


@pytest.mark.django_db
@override_settings(SIXDICE_LAN_URL=f"http://{LAN}:8000/", ALLOWED_HOSTS=[LAN, "127.0.0.1", "testserver"])
def test_home_page_shows_the_lan_address_to_a_browser_on_this_machine_only():
    here = Client(REMOTE_ADDR="127.0.0.1").get("/")
    assert f'<a id="lan-url" href="http://{LAN}:8000/">' in here.content.decode()
    assert "<svg" in here.content.decode()
    phone = Client(REMOTE_ADDR="192.168.1.33", HTTP_HOST=f"{LAN}:8000").get("/")
    assert phone.status_code == 200 and 'id="lan-url"' not in phone.content.decode()


@pytest.mark.django_db
def test_home_page_says_nothing_of_a_lan_when_serving_loopback_only():
    assert 'id="lan-url"' not in Client(REMOTE_ADDR="127.0.0.1").get("/").content.decode()


@pytest.mark.django_db
@override_settings(SIXDICE_LAN_URL=f"http://{LAN}:8000/", ALLOWED_HOSTS=[LAN, "127.0.0.1", "testserver"])
def test_a_host_on_this_machine_invites_the_phones_by_the_lan_address():
    host = Client(REMOTE_ADDR="127.0.0.1")
    created = host.post("/new/sixdice/", {"players": "2"})
    assert created.status_code == 302
    page = host.get(created.url).content.decode()
    code = created.url.split("/")[2]
    key = keys.join_key(checked_path.load_table(code))
    assert f'href="http://{LAN}:8000/t/{code}/?k={key}"' in page
