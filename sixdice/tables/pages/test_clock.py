"""``POST /__test__/clock/``: a test moves its test server's clock (sixdice/tables/core/clock.py).

Routed only on a test server with ``SIXDICE_TEST_CLOCK`` (refused unless
``SIXDICE_TESTING``).  The body is JSON with any of ``"bots"`` (``"held"`` or
``"free"``) and ``"advance"`` (seconds, at most a day); the answer is the
clock's state.
"""

from __future__ import annotations

import json
import math

from django.http import HttpRequest, HttpResponse, JsonResponse
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_POST

from sixdice.tables.core.clock import test_clock

MAX_ADVANCE = 24 * 3600.0


@csrf_exempt
@require_POST
def move_clock(request: HttpRequest) -> HttpResponse:
    clock = test_clock()
    try:
        body = json.loads(request.body or b"{}")
    except ValueError:
        return JsonResponse({"error": "the body is not JSON"}, status=400)
    if not isinstance(body, dict):
        return JsonResponse({"error": "the body is not a JSON object"}, status=400)
    bots = body.get("bots")
    advance = body.get("advance", 0)
    if bots not in (None, "held", "free"):
        return JsonResponse({"error": 'bots is "held" or "free"'}, status=400)
    if (isinstance(advance, bool) or not isinstance(advance, int | float) or not math.isfinite(advance)
            or not 0 <= advance <= MAX_ADVANCE):
        return JsonResponse({"error": "advance is a number of seconds from 0 to a day"}, status=400)
    if bots == "held":
        clock.hold_bots()
    elif bots == "free":
        clock.free_bots()
    if advance:
        clock.advance(float(advance))
    return JsonResponse(clock.as_json())
