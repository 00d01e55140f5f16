"""The tests' own helpers where a mistake in them would make other tests flaky.

:func:`support.start_listening` starts a server on a port and returns only once that
process listens there itself. A CI run (stop 31) started a worker on a port from
``free_port()`` that another program took before the worker bound it; the test's
"does it answer yet" loop read that program's binary bytes as the worker's answer
(``BadStatusLine``) and the cluster test errored at setup.
"""

from __future__ import annotations

import socket
import subprocess
import sys
import threading
import urllib.request
from collections.abc import Iterator

import pytest

import support

pytest.importorskip("psutil")


def http_server(port: int) -> list[str]:
    """Python's own HTTP server on loopback: it exits when the port is taken."""
    return [sys.executable, "-m", "http.server", "--bind", "127.0.0.1", str(port)]


@pytest.fixture
def stranger() -> Iterator[int]:
    """Another program on a port: it answers every connection with binary bytes."""
    listener = socket.create_server(("127.0.0.1", 0))
    listener.settimeout(0.2)
    done = threading.Event()

    def answer() -> None:
        while not done.is_set():
            try:
                connection, _ = listener.accept()
            except TimeoutError:
                continue
            with connection:
                connection.sendall(bytes([0x92, 0x00, 0x40, 0xFE, 0x13]) * 8)

    thread = threading.Thread(target=answer, daemon=True)
    thread.start()
    try:
        yield int(listener.getsockname()[1])
    finally:
        done.set()
        thread.join()
        listener.close()


def stop(process: subprocess.Popen[bytes]) -> None:
    process.terminate()
    process.wait(timeout=10)


def test_a_port_taken_before_the_bind_is_exchanged_for_another(
    stranger: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    ports = iter([stranger, stranger])
    chosen = support.free_port
    monkeypatch.setattr(support, "free_port", lambda: next(ports, None) or chosen())
    process, port = support.start_listening(
        http_server, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
    )
    try:
        assert port != stranger
        assert support.listens(process, port)
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=10) as page:
            assert page.status == 200  # HTTP, from the server started, not the stranger
    finally:
        stop(process)


def test_a_given_port_held_by_another_program_is_an_error_not_its_bytes(stranger: int) -> None:
    with pytest.raises(AssertionError, match="before listening"):
        support.start_listening(
            http_server, port=stranger, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
        )


def test_a_server_that_listens_is_returned_with_its_port() -> None:
    process, port = support.start_listening(
        http_server, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
    )
    try:
        assert support.listens(process, port)
        assert not support.listens(process, port + 1 if port < 65535 else port - 1)
    finally:
        stop(process)
    assert not support.listens(process, port)  # gone with its process
