"""The channel layer: channels_redis' pub/sub layer, made to live through a Redis restart
with upstream's own options and the channel layer spec's methods only (docs/design.md,
"Public APIs only").

- A command on a connection that broke under it (a publish after a restart, the
  subscriber's read) is tried once more on a fresh connection: redis-py's `retry` and
  `retry_on_error` connection options, given to every host. redis-py's PubSub subscribes
  again to everything it had when it reconnects.
- What was published while Redis was away is gone, and nobody is told. So each event loop
  that holds a group member watches Redis with a question of its own (the server's run id,
  which a restart changes); once Redis answers again after a failure, or answers as a new
  server (a restart quicker than the watcher's pause), and a probe sent through the layer
  comes back (the subscriptions are renewed), every channel in a group here is sent
  `layer.reconnected`: it may have missed something and catches up from the database
  (games.live.table.TableConsumer).

The layer wraps `RedisPubSubChannelLayer` (settings.CHANNEL_LAYERS), not subclassing it.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable
from typing import Any

from channels_redis.pubsub import RedisPubSubChannelLayer
from redis.asyncio import Redis
from redis.asyncio.retry import Retry
from redis.backoff import ExponentialBackoff
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError

logger = logging.getLogger(__name__)

RECONNECTED = {"type": "layer.reconnected"}
PROBE = {"type": "layer.probe"}
BROKEN = (RedisConnectionError, RedisTimeoutError, ConnectionError, OSError, TimeoutError)
CHECK_SECONDS = 0.5  # between the watcher's questions
PROBE_SECONDS = 1.0  # a probe's wait for its own message; tried PROBES times
PROBES = 10
DEFAULT_HOSTS = [{"address": "redis://localhost:6379"}]


def with_retry(host: dict[str, Any]) -> dict[str, Any]:
    """A host's options with one retry, on a fresh connection, after a broken one."""
    return {"retry": Retry(ExponentialBackoff(cap=0.5, base=0.05), 1),
            "retry_on_error": [RedisConnectionError, RedisTimeoutError], **host}


def watching_client(host: dict[str, Any]) -> Redis:
    """A client of its own for the watcher's questions, never retried (a failure is news)."""
    options = {k: v for k, v in host.items() if k not in ("retry", "retry_on_error")}
    address = options.pop("address", None)
    return Redis.from_url(address, **options) if address else Redis(**options)


async def server_id(client: Redis) -> str:
    """The Redis server's run id: a new one after every restart."""
    info: dict[str, Any] = await client.info("server")
    return str(info.get("run_id", ""))


class ReconnectingPubSubChannelLayer:
    """`RedisPubSubChannelLayer`, telling its group members when Redis is back."""

    extensions = ["groups", "flush"]

    def __init__(self, hosts: list[dict[str, Any]] | None = None, **kwargs: Any) -> None:
        self.hosts = [with_retry(host) for host in (hosts or DEFAULT_HOSTS)]
        self.layer: Any = RedisPubSubChannelLayer(hosts=self.hosts, **kwargs)
        self.client: Callable[[dict[str, Any]], Any] = watching_client  # per watcher
        # per event loop: each channel here and its groups; the loop's watcher
        self.members: dict[asyncio.AbstractEventLoop, dict[str, set[str]]] = {}
        self.watchers: dict[asyncio.AbstractEventLoop, asyncio.Task[None]] = {}

    # The channel layer spec (channels.readthedocs.io, "Channel Layer Specification").
    async def send(self, channel: str, message: dict[str, Any]) -> None:
        await self.layer.send(channel, message)

    async def receive(self, channel: str) -> dict[str, Any]:
        message: dict[str, Any] = await self.layer.receive(channel)
        return message

    async def new_channel(self, prefix: str = "specific.") -> str:
        channel: str = await self.layer.new_channel(prefix)
        return channel

    async def group_send(self, group: str, message: dict[str, Any]) -> None:
        await self.layer.group_send(group, message)

    async def group_add(self, group: str, channel: str) -> None:
        await self.layer.group_add(group, channel)
        loop = asyncio.get_running_loop()
        self.members.setdefault(loop, {}).setdefault(channel, set()).add(group)
        watcher = self.watchers.get(loop)
        if watcher is None or watcher.done():
            self.watchers[loop] = loop.create_task(self.watch(loop))

    async def group_discard(self, group: str, channel: str) -> None:
        await self.layer.group_discard(group, channel)
        members = self.members.get(asyncio.get_running_loop(), {})
        groups = members.get(channel)
        if groups is not None:
            groups.discard(group)
            if not groups:
                del members[channel]

    async def flush(self) -> None:
        loop = asyncio.get_running_loop()
        watcher = self.watchers.pop(loop, None)
        if watcher is not None:
            watcher.cancel()
        self.members.pop(loop, None)
        await self.layer.flush()

    # --------------------------------------------------------------- Redis is back
    async def watch(self, loop: asyncio.AbstractEventLoop) -> None:
        """Ask Redis which server it is; once it answers after a failure, or a new server
        answers (it restarted between two questions), tell this loop's group members."""
        broken = False
        clients = [self.client(host) for host in self.hosts]  # this loop's own connections
        servers: list[str | None] = [None] * len(clients)
        try:
            while self.members.get(loop):
                await asyncio.sleep(CHECK_SECONDS)
                try:
                    now = [await server_id(client) for client in clients]
                except BROKEN as exc:
                    if not broken:
                        logger.warning("lost the channel layer's Redis connection: %s", exc)
                    broken = True
                    continue
                restarted = any(was is not None and was != is_ for was, is_ in zip(servers, now))
                servers = list(now)
                if broken or restarted:
                    broken = False
                    await self.tell_reconnected(loop)
        finally:
            if self.watchers.get(loop) is asyncio.current_task():
                del self.watchers[loop]
            for client in clients:
                with contextlib.suppress(Exception):
                    await client.aclose()

    async def tell_reconnected(self, loop: asyncio.AbstractEventLoop) -> None:
        """Once a probe comes back through the layer (this loop's subscriptions are
        renewed), send every channel in a group here `layer.reconnected`, once each."""
        for _ in range(PROBES):
            try:
                probe = await self.new_channel("probe.")
                await self.send(probe, PROBE)
                # A probe not heard in time is unsubscribed by receive(); a new one follows.
                await asyncio.wait_for(self.receive(probe), PROBE_SECONDS)
                with contextlib.suppress(*BROKEN, asyncio.TimeoutError):
                    # a receive given up unsubscribes its channel: the probe's is done
                    await asyncio.wait_for(self.receive(probe), 0.01)
                break
            except (TimeoutError, *BROKEN):
                await asyncio.sleep(CHECK_SECONDS)
        members = list(self.members.get(loop, {}))
        logger.warning("the channel layer's Redis connection is back; telling %d sockets",
                       len(members))
        for channel in members:
            try:
                await self.send(channel, RECONNECTED)
            except BROKEN:
                logger.warning("could not tell %s that Redis is back", channel)
