"""scripts/supervise.py with toy processes: back-off, stop order, grace, failed steps."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SUPERVISE = ROOT / "scripts" / "supervise.py"


def start(tmp_path: Path, procfile: str, *args: str, **env: str) -> subprocess.Popen:
    (tmp_path / "Procfile").write_text(procfile)
    return subprocess.Popen(
        [sys.executable, str(SUPERVISE), str(tmp_path / "Procfile"), *args],
        cwd=tmp_path, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
        env={**os.environ, **env}, start_new_session=True)


def alive(pid: int) -> bool:
    """Running, not a zombie waiting for init to reap it."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()[0]
    except OSError:
        return False
    return state not in ("Z", "X")


def wait_for(predicate, timeout: float = 30.0) -> None:
    """Poll until `predicate()` holds (a generous bound: the machine may be busy)."""
    deadline = time.monotonic() + timeout
    while not predicate():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.05)


def lines(path: Path) -> int:
    return len(path.read_text().splitlines()) if path.exists() else 0


def stop(proc: subprocess.Popen, after: float = 0) -> str:
    time.sleep(after)
    proc.send_signal(signal.SIGTERM)
    out, _ = proc.communicate(timeout=20)
    return out


def test_a_dying_process_is_restarted_with_a_growing_back_off(tmp_path):
    proc = start(tmp_path, "flaky: sh -c 'echo run >> runs; exit 3'\n")
    wait_for(lambda: lines(tmp_path / "runs") >= 3)  # the next run is 4 s away
    out = stop(proc)
    assert "flaky (pid " in out and "died (exit status 3); restarting it in 1 s" in out, out
    assert "restarting it in 2 s" in out, out
    assert (tmp_path / "runs").read_text().count("run") == 3  # at 0, 1 and 3 s
    assert proc.returncode == 0


def test_processes_stop_in_the_reverse_order_of_their_start_and_children_too(tmp_path):
    procfile = ("first: sleep 600\n"
                "second: sh -c 'sleep 600 & echo $! > child; wait'\n"
                "third: sh -c 'touch third; exec sleep 600'\n")
    proc = start(tmp_path, procfile)
    wait_for(lambda: lines(tmp_path / "child") and (tmp_path / "third").exists())
    child = int((tmp_path / "child").read_text())
    out = stop(proc)
    stops = [out.find(f"{name} stopped") for name in ("third", "second", "first")]
    assert -1 not in stops and stops == sorted(stops), out
    assert not alive(child), "the child of 'second' was left running"


def test_one_that_ignores_sigterm_is_killed_after_the_grace(tmp_path):
    proc = start(tmp_path, "stubborn: sh -c 'trap \"\" TERM; touch ready; "
                 "while :; do sleep 0.1; done'\n", SUPERVISE_GRACE="0.5")
    wait_for((tmp_path / "ready").exists)  # SIGTERM before the trap would simply end it
    out = stop(proc)
    # The grace given, not the default 10 s, is what the supervisor waited before SIGKILL.
    assert "stubborn did not stop within 0.5 s: SIGKILL" in out, out


def test_a_failed_step_stops_what_was_started(tmp_path):
    procfile = "server: sleep 600\nmigrate: exit 4\nlater: sleep 600\n"
    proc = start(tmp_path, procfile, "--once", "migrate")
    out, _ = proc.communicate(timeout=20)
    assert proc.returncode == 1
    assert "migrate failed (exit status 4)" in out and "server stopped" in out, out
    assert "later started" not in out


def test_a_busy_port_is_named_before_anything_starts(tmp_path):
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        proc = start(tmp_path, "server: touch started\n", "--free", f"PORT=127.0.0.1:{port}")
        out, _ = proc.communicate(timeout=20)
    assert proc.returncode == 2
    assert f"port {port} (PORT)" in out and "PORT=<free port> scripts/run" in out, out
    assert not (tmp_path / "started").exists()


def test_when_the_supervisor_is_killed_its_processes_stop_too(tmp_path):
    proc = start(tmp_path, "server: sh -c 'echo $$ > pid; exec sleep 600'\n")
    pid_file = tmp_path / "pid"
    deadline = time.monotonic() + 10
    while not pid_file.exists() or not pid_file.read_text().strip():
        assert time.monotonic() < deadline
        time.sleep(0.05)
    server = int(pid_file.read_text())
    assert alive(server)
    proc.kill()
    proc.communicate(timeout=10)
    deadline = time.monotonic() + 5
    while alive(server) and time.monotonic() < deadline:
        time.sleep(0.05)
    orphaned = alive(server)
    if orphaned:
        os.kill(server, signal.SIGKILL)
    assert not orphaned, "orphaned when the supervisor died"
