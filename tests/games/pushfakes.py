"""Stand-ins around the door for requests out (games.outbound) where no real push service
exists: a DNS that knows a few public names, a push service on 127.0.0.1 that the door's
transport is pointed at, and local listeners that must get no connection or never answer."""

import http.client
import socket
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from games import outbound

PUBLIC = "93.184.215.14"  # a public address: names below resolve to it (or to their own)


class FakeDNS:
    """`names` → addresses; anything else (an IP literal, localhost) as the system has it."""

    def __init__(self, monkeypatch, names: dict[str, list[str]] | None = None):
        self.names = dict(names or {})
        self.asked: list[str] = []
        real = outbound._addresses

        def addresses(host, port):
            self.asked.append(host)
            if host in self.names:
                return list(self.names[host])
            if host.endswith(".invalid"):
                raise socket.gaierror(socket.EAI_NONAME, "Name or service not known")
            if host.endswith((".example.com", ".example.org", ".example.net")):
                return [PUBLIC]
            return real(host, port)

        monkeypatch.setattr(outbound, "_addresses", addresses)


class LocalPushService:
    """An HTTP push service on 127.0.0.1; the door's transport delivers to it what is sent
    to `host` (after the door's checks, which saw the public name and its public address)."""

    def __init__(self, monkeypatch, host: str = "push.example.com"):
        self.host, self.received, self.status, self.targets = host, [], 201, []
        service = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self):
                body = self.rfile.read(int(self.headers["Content-Length"]))
                service.received.append(
                    (self.path, {k.lower(): v for k, v in self.headers.items()}, body))
                self.send_response(service.status)
                self.end_headers()

            def log_message(self, *args):
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"https://{host}"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()
        real = outbound._exchange

        def exchange(target, method, body, headers):
            if target.host != service.host:
                return real(target, method, body, headers)
            service.targets.append(target)
            connection = http.client.HTTPConnection(
                "127.0.0.1", self.server.server_address[1], timeout=outbound.READ_TIMEOUT)
            try:
                connection.request(method, target.path, body=body, headers=dict(headers))
                answer = connection.getresponse()
                return outbound.Response(answer.status, dict(answer.getheaders()),
                                         answer.read(outbound.MAX_READ))
            finally:
                connection.close()

        monkeypatch.setattr(outbound, "_exchange", exchange)

    def close(self):
        self.server.shutdown()
        self.server.server_close()


class Listener:
    """A TCP listener on 127.0.0.1 that counts connections; `silent`: it accepts and never
    answers (holds each connection open)."""

    def __init__(self):
        self.sock = socket.socket()
        self.sock.bind(("127.0.0.1", 0))
        self.sock.listen(16)
        self.port = self.sock.getsockname()[1]
        self.accepted: list[socket.socket] = []
        self.sock.settimeout(0.2)
        self._stop = threading.Event()
        self.thread = threading.Thread(target=self._accept, daemon=True)
        self.thread.start()

    def _accept(self):
        while not self._stop.is_set():
            try:
                conn, _addr = self.sock.accept()
            except OSError:
                continue
            self.accepted.append(conn)  # kept open, never answered

    def close(self):
        self._stop.set()
        self.thread.join(2)
        for conn in self.accepted:
            conn.close()
        self.sock.close()
