"""The command behind ``make run``: work out where to serve, say it, then become daphne.

    python -m sixdice.serve [--host 127.0.0.1] [--port 8000] [--lan]

- Default: loopback only (``--host``, 127.0.0.1), as before.
- ``--lan`` (``make run LAN=1``): finds this machine's address on the local
  network, serves on it and on loopback, allows it (and only it, plus the
  loopback names) as a host, and prints it with a QR code for the phones.
  The home page, opened on this machine, shows it too (``SIXDICE_LAN_URL``).
- ``SIXDICE_HTTPS=1`` in the environment: daphne runs with ``--proxy-headers``,
  so behind a TLS proxy it takes the client's address and scheme from the
  proxy's ``X-Forwarded-*`` headers.

Finding the address sends nothing anywhere: ``connect()`` on a UDP socket only
asks the kernel which source address it would use for that destination.
"""

from __future__ import annotations

import argparse
import ipaddress
import os
import socket
import sys
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

import segno

LOOPBACK_HOSTS = ("127.0.0.1", "localhost", "[::1]")
# Private-range destinations that a home network routes somewhere: the kernel picks the
# source address (this machine's LAN address) for a route to one of them.  No packet is sent.
PROBES = ("192.168.255.254", "10.255.255.254", "172.31.255.254")


class NoLanAddress(RuntimeError):
    """This machine has no address on a local network (no Wi-Fi or cable?)."""


def usable_lan_address(address: str) -> bool:
    """An IPv4 address that phones on the same network can open: not loopback, link-local or unspecified."""
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return False
    return (ip.version == 4 and not ip.is_loopback and not ip.is_link_local and not ip.is_unspecified
            and not ip.is_multicast)


def find_lan_address() -> str:
    """This machine's address on the local network, as the kernel's routes choose it."""
    for probe in PROBES:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as sock:
            try:
                sock.connect((probe, 9))  # UDP: no packet leaves; only the route is looked up
            except OSError:
                continue
            address = sock.getsockname()[0]
        if usable_lan_address(address):
            return address
    raise NoLanAddress("no local network address found")


@dataclass(frozen=True)
class Plan:
    """How to run daphne: its arguments, its environment and the address to give the players."""

    argv: list[str]
    env: dict[str, str]
    url: str
    lan: bool


def plan(*, host: str, port: int, lan: bool, env: Mapping[str, str], daphne: str = "daphne",
         finder: Callable[[], str] = find_lan_address) -> Plan:
    env = dict(env)
    argv = [daphne, "-b", host, "-p", str(port)]
    url = f"http://{host}:{port}/"
    if lan:
        address = finder()
        if not usable_lan_address(address):
            raise NoLanAddress(f"{address} is not a local network address")
        url = f"http://{address}:{port}/"
        argv = [daphne, "-b", "127.0.0.1", "-p", str(port), "-e", f"tcp:port={port}:interface={address}"]
        env["ALLOWED_HOSTS"] = ",".join((address, *LOOPBACK_HOSTS))
        env["SIXDICE_LAN_URL"] = url
    if env.get("SIXDICE_HTTPS", "").strip().lower() in {"1", "true", "yes", "on"}:
        argv.append("--proxy-headers")
    argv.append("sixdice.asgi:application")
    return Plan(argv=argv, env=env, url=url, lan=lan)


def announce(p: Plan, out=None) -> None:
    out = out or sys.stdout
    print("", file=out)
    if p.lan:
        port = p.url.rstrip("/").rsplit(":", 1)[1]
        print(f"  Six-Dice is running: open http://127.0.0.1:{port}/ on this machine.", file=out)
        print(f"  Phones on the same network open {p.url} (or scan this code):", file=out)
    else:
        print(f"  Six-Dice is running: open {p.url}", file=out)
    if p.lan:
        out.flush()
        segno.make(p.url, error="m").terminal(out=out, compact=True)
    print("", file=out)
    out.flush()


def main(args: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m sixdice.serve", description=__doc__.splitlines()[0])
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=8000)
    parser.add_argument("--lan", action="store_true", help="serve on this machine's local network address")
    parser.add_argument("--daphne", default=os.path.join(os.path.dirname(sys.executable), "daphne"))
    opts = parser.parse_args(args)
    try:
        p = plan(host=opts.host, port=opts.port, lan=opts.lan, env=os.environ, daphne=opts.daphne)
    except NoLanAddress as exc:
        sys.exit(f"LAN=1: {exc}.  Is this machine on the network (Wi-Fi or cable)?  "
                 "Or give the address: make run HOST=<address> ALLOWED_HOSTS=<address>,127.0.0.1")
    announce(p)
    os.execve(p.argv[0], p.argv, p.env)


if __name__ == "__main__":
    main()
