"""This machine's addresses on the local network, for the URLs phones at the table open."""

import ipaddress
import socket

import ifaddr


def addresses() -> list[str]:
    """The IPv4 addresses other devices can reach (no loopback, no link-local), stable order."""
    found = []
    for adapter in ifaddr.get_adapters():
        for ip in adapter.ips:
            if not isinstance(ip.ip, str):
                continue  # IPv6: phones on a table's Wi-Fi use IPv4 addresses.
            address = ipaddress.ip_address(ip.ip)
            if address.is_loopback or address.is_link_local or address.is_unspecified:
                continue
            found.append(ip.ip)
    return sorted(set(found), key=found.index)


def hostnames() -> list[str]:
    """Names this machine answers to, besides localhost."""
    name = socket.gethostname()
    return [name, f"{name}.local"] if name and name != "localhost" else []
