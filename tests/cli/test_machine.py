"""The hosts that reach a listener of this machine: its own names and addresses when bound to all of them."""

from __future__ import annotations

import socket
from pathlib import Path

import psutil

from hintgate.cli.machine import reaching


def hosts_file(tmp_path: Path) -> Path:
    path = tmp_path / "hosts"
    path.write_text(
        "127.0.0.1 localhost localhost.localdomain\n"
        "127.0.1.1 buildbox.example.test buildbox  # Debian's line for the hostname\n"
        "::1 ip6-localhost ip6-loopback\n"
        "192.0.2.9 lanname\n"
        "203.0.113.5 elsewhere\n"
    )
    return path


def test_bound_to_every_address_the_hostname_and_every_interface_address_reach_it(tmp_path: Path) -> None:
    found = set(reaching("0.0.0.0", hosts_file=hosts_file(tmp_path)))
    hostname = socket.gethostname()
    assert {hostname, f"{hostname}.local"} <= found
    interfaces = {
        entry.address.partition("%")[0]
        for addresses in psutil.net_if_addrs().values()
        for entry in addresses
        if entry.family in (socket.AF_INET, socket.AF_INET6)
    }
    assert interfaces <= found
    assert {"localhost.localdomain", "buildbox", "ip6-localhost"} <= found
    assert "elsewhere" not in found
    assert set(reaching("::", hosts_file=hosts_file(tmp_path))) == found


def test_bound_to_one_address_that_address_and_its_names_reach_it(tmp_path: Path) -> None:
    found = set(reaching("192.0.2.9", hosts_file=hosts_file(tmp_path)))
    assert {"192.0.2.9", "lanname", "localhost.localdomain"} <= found
    assert socket.gethostname() not in found or socket.gethostname() in {"lanname", "buildbox"}
    assert "elsewhere" not in found


def test_bound_to_loopback_the_names_the_hosts_file_gives_loopback_reach_it(tmp_path: Path) -> None:
    assert set(reaching("127.0.0.1", hosts_file=hosts_file(tmp_path))) == {
        "127.0.0.1",
        "localhost",
        "localhost.localdomain",
        "buildbox.example.test",
        "buildbox",
        "ip6-localhost",
        "ip6-loopback",
    }
    assert "127.0.0.1" in reaching("127.0.0.1", hosts_file=tmp_path / "missing")
