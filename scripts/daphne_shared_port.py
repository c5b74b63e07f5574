"""Run Daphne on its own listening socket on $HOST:$PORT, opened with SO_REUSEPORT, so
that the Procfile's two Daphne processes (web, web2) serve the one port: the kernel hands
each new connection to one of them, and the site uses both cores. The channel
layer (Redis) carries a table's pushes to sockets on either process.

    python scripts/daphne_shared_port.py [daphne options]

An IPv6 $HOST gets plain `daphne -b -p` (one process then holds the port; the other one
fails to bind and is restarted by scripts/supervise.py, so run one Daphne there).
"""

import os
import socket
import sys

from durak_site.env import envint, envstr

APP = "durak_site.asgi:application"


def listening_socket(host: str, port: int) -> socket.socket:
    """A listening IPv4 socket that other processes may open on the same port too."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEPORT, 1)
    sock.bind((host, port))
    sock.listen(1024)
    sock.set_inheritable(True)
    return sock


def main() -> None:
    host, port = envstr("HOST", "127.0.0.1"), envint("PORT", "8000")
    if ":" in host:
        os.execvp("daphne", ["daphne", "-b", host, "-p", str(port), *sys.argv[1:], APP])
    sock = listening_socket(host, port)
    os.execvp("daphne", ["daphne", "--fd", str(sock.fileno()), *sys.argv[1:], APP])


if __name__ == "__main__":
    main()
