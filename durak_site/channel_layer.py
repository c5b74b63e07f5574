"""The channel layer: channels_redis' pub/sub layer, made to live through a Redis restart.

channels_redis 4.3's `RedisPubSubChannelLayer` keeps one subscriber connection and one
publisher pool per event loop. When Redis goes away, its receive task logs the error,
waits a second and reads again; redis-py then reconnects and resubscribes. What was
published meanwhile is gone, and nobody is told. And a publish on a connection that broke
under it fails once and the event is dropped (the pool's connections never retry).

Here:
- a publish or a subscribe that fails on a broken connection is tried once more, on a
  fresh connection (redis-py drops the broken one when the command fails; a publish also
  closes the pool's idle connections, as broken as the first after a restart);
- once the receive task reads again after a failure, it subscribes to every channel and
  group again (whatever redis-py restored or not), then hands every consumer that is in a
  group a `layer.reconnected` event: it may have missed something, and catches up from
  the database (games.live.table.TableConsumer.layer_reconnected).
"""

from __future__ import annotations

import asyncio
import logging

from channels_redis.pubsub import (
    RedisPubSubChannelLayer,
    RedisPubSubLoopLayer,
    RedisSingleShardConnection,
)
from channels_redis.utils import _wrap_close, decode_hosts
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError

logger = logging.getLogger(__name__)

RECONNECTED = {"type": "layer.reconnected"}
BROKEN = (RedisConnectionError, RedisTimeoutError, ConnectionError, OSError)
RETRY_SECONDS = 0.5  # between reads while Redis is away


class Shard(RedisSingleShardConnection):
    async def publish(self, channel, message):
        try:
            await super().publish(channel, message)
        except BROKEN as exc:
            logger.warning("publishing to Redis failed (%s); trying once more", exc)
            await self._drop_idle_connections()
            await super().publish(channel, message)

    async def _drop_idle_connections(self):
        """After a restart every idle connection of the pool is broken, and the pool may
        hand one out again: close them, so that the next command connects afresh."""
        if self._redis is not None:
            try:
                await self._redis.connection_pool.disconnect(inuse_connections=False)
            except Exception:  # noqa: BLE001 - only a clean-up
                logger.debug("could not close idle Redis connections", exc_info=True)

    async def subscribe(self, channel):
        try:
            await super().subscribe(channel)
        except BROKEN as exc:
            logger.warning("subscribing in Redis failed (%s); trying once more", exc)
            await super().subscribe(channel)

    async def _do_receiving(self):
        broken = False
        while True:
            try:
                if self._pubsub and self._pubsub.subscribed:
                    message = await self._pubsub.get_message(
                        ignore_subscribe_messages=True, timeout=0.1)
                    if broken:
                        await self._resubscribe()
                        broken = False
                        self._tell_reconnected()
                    self._receive_message(message)
                else:
                    await asyncio.sleep(0.1)
            except (asyncio.CancelledError, GeneratorExit):  # the layer is flushed
                raise
            except Exception as exc:  # noqa: BLE001 - the loop must go on (a timeout too)
                if not broken:
                    logger.warning("lost the channel layer's Redis connection: %s", exc)
                broken = True
                await asyncio.sleep(RETRY_SECONDS)

    async def _resubscribe(self):
        async with self._lock:
            if self._subscribed_to:
                await self._pubsub.subscribe(*self._subscribed_to)
        logger.warning("the channel layer's Redis connection is back; %d subscriptions renewed",
                       len(self._subscribed_to))

    def _tell_reconnected(self):
        """Every local consumer in a group of this shard may have missed a group event."""
        layer = self.channel_layer
        event = layer.channel_layer.serialize(RECONNECTED)
        told: set[str] = set()
        for group, members in list(layer.groups.items()):
            if layer._get_shard(group) is not self:
                continue
            for channel in members - told:
                queue = layer.channels.get(channel)
                if queue is not None:
                    queue.put_nowait(event)
                    told.add(channel)


class LoopLayer(RedisPubSubLoopLayer):
    def __init__(self, hosts=None, *args, **kwargs):
        super().__init__(hosts, *args, **kwargs)
        self._shards = [Shard(host, self) for host in decode_hosts(hosts)]


class ReconnectingPubSubChannelLayer(RedisPubSubChannelLayer):
    """`RedisPubSubChannelLayer` with the shards above (settings.CHANNEL_LAYERS)."""

    def _get_layer(self):
        loop = asyncio.get_running_loop()
        try:
            return self._layers[loop]
        except KeyError:
            layer = LoopLayer(*self._args, **self._kwargs, channel_layer=self)
            self._layers[loop] = layer
            _wrap_close(self, loop)
            return layer
