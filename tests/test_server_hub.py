"""The hub's connections: a client that stops reading is cut off, not buffered for ever."""

from __future__ import annotations

import asyncio

import ws_support  # noqa: F401 - skips without the server's dependencies
from tarneeb.server.hub import CLOSE_BEHIND, MAX_BACKLOG, Connection


def test_a_client_too_far_behind_is_closed_and_its_backlog_dropped() -> None:
    async def scenario() -> tuple[list[str], list[int], int, bool]:
        sent: list[str] = []
        closed: list[int] = []
        stuck = asyncio.Event()

        async def send(text: str) -> None:
            sent.append(text)
            await stuck.wait()  # the client reads nothing more

        async def abort(code: int) -> None:
            closed.append(code)

        conn = Connection("t", None, send, abort)
        conn.start()
        for n in range(MAX_BACKLOG + 10):
            conn.push({"n": n})
            await asyncio.sleep(0)
        backlog = conn.queue.qsize()
        stuck.set()
        await conn.close()
        return sent, closed, backlog, conn.overflowed

    sent, closed, backlog, overflowed = asyncio.run(scenario())
    assert closed == [CLOSE_BEHIND]
    assert overflowed
    assert backlog == 1  # only the writer's stop mark is left
    assert sent == ['{"n":0}']


def test_a_reading_client_gets_every_frame_in_order() -> None:
    async def scenario() -> tuple[list[str], list[int]]:
        sent: list[str] = []
        closed: list[int] = []

        async def send(text: str) -> None:
            sent.append(text)

        async def abort(code: int) -> None:
            closed.append(code)

        conn = Connection("t", None, send, abort)
        conn.start()
        for n in range(3 * MAX_BACKLOG):
            conn.push({"n": n})
            if n % 100 == 0:
                await asyncio.sleep(0)
        await conn.close()
        return sent, closed

    sent, closed = asyncio.run(scenario())
    assert closed == []
    assert sent == [f'{{"n":{n}}}' for n in range(3 * MAX_BACKLOG)]
