"""With several processes (REDIS_URL), a consumer's wait for its next message never outlasts redis-py's read."""

from __future__ import annotations

import importlib
import os
from unittest import mock

from channels_redis.core import RedisChannelLayer


def test_the_layers_read_timeout_outlasts_its_blocking_wait():
    with mock.patch.dict(os.environ, {"REDIS_URL": "redis://127.0.0.1:6399/0"}):
        import sixdice.settings as settings_module

        try:
            fresh = importlib.reload(settings_module)
            host = fresh.CHANNEL_LAYERS["default"]["CONFIG"]["hosts"][0]
            layer = RedisChannelLayer(**fresh.CHANNEL_LAYERS["default"]["CONFIG"])
        finally:
            importlib.reload(settings_module)  # back to the test run's own environment
    assert host["socket_timeout"] > layer.brpop_timeout + 5
