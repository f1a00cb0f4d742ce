"""ASGI entry point: HTTP through Django, WebSockets through Channels (served by daphne)."""

import os

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "sixdice.settings")

from django.core.asgi import get_asgi_application  # noqa: E402

django_asgi_app = get_asgi_application()

from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from channels.sessions import SessionMiddlewareStack  # noqa: E402

from sixdice.tables.flow import FlowControl  # noqa: E402
from sixdice.tables.routing import websocket_urlpatterns  # noqa: E402
from sixdice.tables.security import SameOriginValidator  # noqa: E402

application = ProtocolTypeRouter(
    {
        "http": django_asgi_app,
        "websocket": SameOriginValidator(SessionMiddlewareStack(FlowControl(URLRouter(websocket_urlpatterns)))),
    }
)
