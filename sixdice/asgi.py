"""ASGI entry point: HTTP through Django, WebSockets through Channels (served by daphne)."""

import gc
import os

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "sixdice.settings")

from django.core.asgi import get_asgi_application  # noqa: E402

django_asgi_app = get_asgi_application()

from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402

from sixdice.tables.routing import websocket_urlpatterns  # noqa: E402
from sixdice.tables.transport import autobahn_debug_log  # noqa: E402
from sixdice.tables.transport.flood_control import FlowControl  # noqa: E402
from sixdice.tables.transport.origins import SameOriginValidator  # noqa: E402
from sixdice.tables.transport.socket_sessions import SocketSessionMiddlewareStack  # noqa: E402

application = ProtocolTypeRouter(
    {
        "http": django_asgi_app,
        "websocket": SameOriginValidator(SocketSessionMiddlewareStack(FlowControl(URLRouter(websocket_urlpatterns)))),
    }
)

autobahn_debug_log.install()  # autobahn formats its debug lines only when they are written


def _tune_gc() -> None:
    """Freeze what start-up built out of the garbage collector, and collect less often.

    Everything imported and configured so far lives as long as the process, so
    ``gc.freeze()`` takes it out of every future collection; the thresholds
    then make young collections rarer (they scan only what is new) and full
    ones (which walk every connection's objects) rarer still.
    """
    from django.conf import settings

    if settings.SIXDICE_GC == "default":
        return
    gc.collect()
    gc.freeze()
    gc.set_threshold(*settings.SIXDICE_GC_THRESHOLDS)


_tune_gc()
