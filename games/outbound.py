"""The one door for requests to addresses that users give (web push endpoints now, anything
later; docs/design.md, "Requests out"). Nothing else in the site opens such connections
(tests/games/test_outbound.py walks the code).

A URL passes only if it is https, has no user-info, and its host (allowed by `hosts` when
given) resolves, once, to addresses that are all public: loopback, private, link-local,
unique-local, multicast, reserved and unspecified addresses are refused, IPv4 and IPv6,
IPv4-mapped, -compatible, 6to4 and Teredo forms too. The connection is made to the address
checked (no second lookup), with TLS to the host's name; no redirects are followed,
connecting, each read and the whole exchange have short timeouts, and at most MAX_READ
bytes are read back.
"""

from __future__ import annotations

import http.client
import ipaddress
import socket
import ssl
import threading
from collections.abc import Collection, Mapping
from dataclasses import dataclass
from urllib.parse import urlsplit

from django.utils.translation import gettext as _

from .kept import memo

CONNECT_TIMEOUT = 3.0  # seconds to connect (and for TLS to begin)
READ_TIMEOUT = 3.0  # seconds each read may wait for the other side
TOTAL_TIMEOUT = 8.0  # seconds for a whole exchange, however slowly the answer trickles
MAX_READ = 16 * 1024  # bytes of an answer kept (a push service answers with a few)
MAX_URL = 1000

IP = ipaddress.IPv4Address | ipaddress.IPv6Address
# Beyond what ipaddress calls not global: all of the IETF's protocol block.
ALSO_FORBIDDEN = [ipaddress.ip_network("192.0.0.0/24")]


class Refused(ValueError):
    """The URL is not one the site connects to; str(): words for the player."""


@dataclass(frozen=True)
class Target:
    """A URL that passed: its host's name, port, path, and the one address to connect to."""

    host: str
    port: int
    path: str
    address: str


@dataclass(frozen=True)
class Response:
    status: int
    headers: Mapping[str, str]
    body: bytes  # at most MAX_READ bytes


def forbidden(ip: IP) -> bool:
    """Whether `ip` is anything but a public address (the IPv4 inside IPv6 forms counts)."""
    if isinstance(ip, ipaddress.IPv6Address):
        inner = _inner_ipv4(ip)
        if inner is not None and forbidden(inner):
            return True
        if ip.is_site_local:
            return True
    if any(ip in network for network in ALSO_FORBIDDEN):
        return True
    return (ip.is_loopback or ip.is_private or ip.is_link_local or ip.is_multicast
            or ip.is_reserved or ip.is_unspecified or not ip.is_global)


def _inner_ipv4(ip: ipaddress.IPv6Address) -> ipaddress.IPv4Address | None:
    if ip.ipv4_mapped is not None:  # ::ffff:a.b.c.d
        return ip.ipv4_mapped
    if int(ip) >> 32 == 0:  # ::a.b.c.d, the deprecated IPv4-compatible form
        return ipaddress.IPv4Address(int(ip) & 0xFFFFFFFF)
    if ip.sixtofour is not None:  # 2002:a.b.c.d::
        return ip.sixtofour
    if ip.teredo is not None:  # 2001::/32: the client's address
        return ip.teredo[1]
    return None


def _host_allowed(host: str, hosts: Collection[str]) -> bool:
    """`hosts` as Django's ALLOWED_HOSTS: a name, or ".name" for it and its subdomains."""
    for allowed in hosts:
        allowed = allowed.lower()
        if host == allowed.lstrip(".") or (allowed.startswith(".") and host.endswith(allowed)):
            return True
    return False


def check(url: str, hosts: Collection[str] = ()) -> tuple[str, int, str]:
    """(host, port, path) of `url` if its form may pass (no lookup yet); else Refused."""
    if not isinstance(url, str) or len(url) > MAX_URL or not url.isascii() \
            or any(c.isspace() or ord(c) < 32 for c in url) or "\\" in url:
        raise Refused(_("This web address can't be used."))
    try:
        parts = urlsplit(url)
        port = parts.port or 443
    except ValueError:
        raise Refused(_("This web address can't be used.")) from None
    if parts.scheme != "https":
        raise Refused(_("Only https web addresses can be used."))
    if "@" in parts.netloc or parts.username is not None or parts.password is not None:
        raise Refused(_("A web address with a user name or password can't be used."))
    host = (parts.hostname or "").rstrip(".")
    if not host or parts.fragment:
        raise Refused(_("This web address can't be used."))
    if hosts and not _host_allowed(host, hosts):
        raise Refused(_("This push service is not one the site sends to."))
    path = parts.path or "/"
    return host, port, path + (f"?{parts.query}" if parts.query else "")


def _addresses(host: str, port: int) -> list[str]:
    """The host's addresses (one DNS lookup; tests replace this)."""
    found = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM, proto=socket.IPPROTO_TCP)
    return [str(info[4][0]) for info in found]


def aim(url: str, hosts: Collection[str] = ()) -> Target:
    """`url` checked and its host resolved: every address it has must be public."""
    host, port, path = check(url, hosts)
    try:
        addresses = _addresses(host, port)
    except (OSError, UnicodeError):
        raise Refused(_("This web address's host can't be found.")) from None
    ips = []
    for address in addresses:
        try:
            ips.append(ipaddress.ip_address(address.split("%", 1)[0]))
        except ValueError:
            raise Refused(_("This web address can't be used.")) from None
    if not ips or any(forbidden(ip) for ip in ips):
        raise Refused(_("This web address is not on the public internet."))
    return Target(host=host, port=port, path=path, address=str(ips[0]))


def post(url: str, body: bytes, headers: Mapping[str, str],
         hosts: Collection[str] = ()) -> Response:
    """POST `body` to `url` through the door: Refused if it may not be reached; OSError
    (timeouts and TLS errors among them) if the other side fails."""
    return post_to(aim(url, hosts), body, headers)


def post_to(target: Target, body: bytes, headers: Mapping[str, str]) -> Response:
    """POST to a target that `aim` passed (the address it checked)."""
    return _exchange(target, "POST", body, headers)


@memo("outbound.tls", maxsize=1, lasting=True)
def _tls() -> ssl.SSLContext:
    return ssl.create_default_context()


def _dial(address: tuple[str, int], timeout: float) -> socket.socket:
    """A TCP connection to the checked address (tests point it at a local listener)."""
    return socket.create_connection(address, timeout=timeout)


class _Pinned(http.client.HTTPSConnection):
    """HTTPS to the checked address, with the host's name for TLS (SNI, the certificate)
    and the Host header."""

    def __init__(self, target: Target) -> None:
        super().__init__(target.host, target.port, timeout=READ_TIMEOUT, context=_tls())
        self.target = target

    def connect(self) -> None:
        sock = _dial((self.target.address, self.target.port), CONNECT_TIMEOUT)
        sock.settimeout(READ_TIMEOUT)
        try:
            tls = _tls().wrap_socket(sock, server_hostname=self.target.host,
                                     do_handshake_on_connect=False)
        except BaseException:
            sock.close()
            raise
        self.sock = tls  # before the handshake, so that TOTAL_TIMEOUT can cut it
        tls.do_handshake()


def _cut(connection: _Pinned) -> None:
    """TOTAL_TIMEOUT has passed: end the exchange (a blocked read returns at once)."""
    if connection.sock is not None:
        try:
            connection.sock.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass


def _exchange(target: Target, method: str, body: bytes, headers: Mapping[str, str]) -> Response:
    """One request to a checked target and its answer (no redirects: a 3xx is an answer)."""
    connection = _Pinned(target)
    deadline = threading.Timer(TOTAL_TIMEOUT, _cut, [connection])
    deadline.daemon = True
    deadline.start()
    try:
        connection.request(method, target.path, body=body, headers=dict(headers))
        answer = connection.getresponse()
        data = answer.read(MAX_READ)
        return Response(status=answer.status, headers=dict(answer.getheaders()), body=data)
    except http.client.HTTPException as exc:
        raise OSError(f"bad answer: {exc!r}") from exc
    finally:
        deadline.cancel()
        connection.close()
