"""How a ``tarneeb serve`` process runs: its database, its bots, and every limit it keeps.

Each limit has a default fit for a server on the open internet; ``docs/server.md``
lists them. Limits "per client" count by the client's IP address as the
server sees it (behind a reverse proxy, the proxy's: run one per client
address there, or raise the limits).
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["Settings"]


@dataclass(frozen=True)
class Settings:
    """How a server runs (every limit per client is per client IP address)."""

    db_url: str | None = None
    """SQLAlchemy URL; ``None``: a SQLite file in the user's data directory."""
    bot_delay: float = 0.6
    """Seconds a bot waits before it acts, so people can follow the play."""
    allowed_origins: tuple[str, ...] = ()
    """Browser origins allowed besides the server's own."""
    rate_per_s: float = 20.0
    """Frames a second one WebSocket may send on average ..."""
    rate_burst: float = 40.0
    """... and at once."""
    max_tables: int = 10000
    """Tables in memory (waiting, playing, or finished and watched) at most."""
    timer_bot: str = "heuristic"
    """The bot that plays for a seat whose turn timer ran out, or that holds an absent player's seat."""
    db_threads: int = 4
    """Threads that talk to the database (one for SQLite, which writes one at a time)."""
    commit_retry_first: float = 0.1
    """Seconds before a bot's or the timer's failed commit is tried again; doubled each time ..."""
    commit_retry_max: float = 10.0
    """... up to this many seconds between tries."""
    tables_per_minute: float = 10.0
    """New tables one client may create a minute (a burst of as many, then one every 60/N s);
    0: no limit."""
    open_tables_per_client: int = 20
    """Tables one client may have created that are in memory and not finished (a waiting one
    until it expires, a started one until ``idle_table_release`` lets it go); 0: no limit."""
    waiting_table_ttl: float | None = 3600.0
    """Seconds a table that has not started may sit with nobody connected and no change
    before it expires (its seats and links go; a restart does not bring it back). ``None``: never."""
    idle_table_release: float | None = 900.0
    """Seconds a started table may sit with nobody connected before it leaves memory: the
    store has all of it, and the next connection or request brings it back as it was. Until
    then it counts among its creator's open tables, after it no more. ``None``: kept while
    the process lives (every abandoned match stayed in memory, and twenty of them shut their
    creator out of new tables)."""
    bots_play_unwatched: bool = False
    """Whether bots (and turn timers) play at a table nobody is connected to; by default
    they wait until someone (a player or a spectator) connects."""
    takeover_gap: float = 10.0
    """Seconds after a player came back to a seat a bot held before a bot may take it
    over again (each takeover and return is a stored event)."""
    chat_per_minute: float = 20.0
    """Chat lines one seat of a table may send a minute, whatever its connections ..."""
    chat_burst: float = 5.0
    """... and at once."""
    connections_per_client: int = 100
    """WebSocket connections one client may hold at once, over all tables; 0: no limit."""
    api_per_second: float = 30.0
    """Requests of the API (``/api/...``) one client may make a second, over all tables
    (one address asking for the lobby in a loop drew 2,700 answers a second, the server's
    whole core); 0: no limit ..."""
    api_burst: float = 120.0
    """... and at once."""
    connects_per_minute: float = 300.0
    """New WebSocket connections one client may open a minute, over all tables and events
    (a reconnect loop drew 700 welcomes a second, the server's whole core); 0: no limit ..."""
    connect_burst: float = 60.0
    """... and at once (a household or a club behind one address, back after a drop)."""
    max_spectators: int = 300
    """Spectator connections a table takes; one more is refused (``conflict``)."""
    analysis_workers: int = 1
    """Threads that run double-dummy analyses of played deals (DDS runs one at a time)."""
    analysis_queue: int = 8
    """Analyses that may wait for a worker; past that a request gets 429 (try again)."""
    analysis_cache: int = 256
    """Analyses kept in memory (per table and deal)."""
    hint_bot: str = "heuristic"
    """The bot that answers ``hint`` (from the asking seat's view only)."""
    hints_per_minute: float = 30.0
    """Hints one seat of a table may ask a minute (a hint at every turn, a turn every two
    seconds, is never refused; 10 a minute refused a learner against instant bots) ..."""
    hint_burst: float = 5.0
    """... and at once."""
    reactions_per_minute: float = 12.0
    """Quick reactions one seat of a table may send a minute ..."""
    reaction_burst: float = 3.0
    """... and at once."""
    links_per_minute: float = 5.0
    """Seat links and invites one seat may make a minute (a burst of as many)."""
    worker_id: str | None = None
    """This worker's id, one of many over one PostgreSQL (:mod:`.cluster`); ``None``: one
    process plays every table."""
    worker_address: str | None = None
    """Where the other workers reach this one, ``HOST:PORT`` (a worker of many)."""
    lease_seconds: float = 3.0
    """How long a worker's lease on a table lasts unless renewed (a third of it apart):
    a dead worker's tables are taken over this long after its last renewal."""
    presence_delay: float = 0.25
    """Of many workers: seconds between two writes of a worker's tables' presence (who is
    connected, countdowns, reactions) for the others: a change is written at once, the
    ones that follow it within this time together, once it has passed."""
    logins_per_minute: float = 5.0
    """Sign-in (and recovery) attempts a minute for one player's name; four times as many
    from one client address."""
    cookie_secure: bool = False
    """Mark the session cookie ``Secure`` (it is anyway for a request that came over https:
    behind a TLS proxy, set this or let uvicorn trust the proxy's ``X-Forwarded-Proto``)."""
    ranked_bot_wait: float = 60.0
    """Seconds in the ranked queue before a player is offered bots (a table then not rated)."""
    ranked_turn_seconds: float | None = 60.0
    """The turn timer of a ranked table (a player who stalls has the timer's bot play)."""
