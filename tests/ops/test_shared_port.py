"""scripts/daphne_shared_port.py: the Procfile's two Daphne processes open the same port."""

import importlib.util
import socket
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def load():
    spec = importlib.util.spec_from_file_location("daphne_shared_port",
                                                  ROOT / "scripts" / "daphne_shared_port.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_two_listeners_share_one_port_and_both_take_connections():
    shared = load()
    first = shared.listening_socket("127.0.0.1", 0)
    port = first.getsockname()[1]
    second = shared.listening_socket("127.0.0.1", port)  # a plain bind would fail here
    try:
        assert second.getsockname()[1] == port
        for _ in range(4):
            socket.create_connection(("127.0.0.1", port), timeout=2).close()
    finally:
        first.close()
        second.close()


def test_the_procfile_runs_two_daphnes_through_it():
    lines = (ROOT / "Procfile").read_text().splitlines()
    web = [line for line in lines if line.startswith(("web:", "web2:"))]
    assert len(web) == 2 and all("scripts/daphne_shared_port.py" in line for line in web)
