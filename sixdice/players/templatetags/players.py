from __future__ import annotations

from typing import Any

from django import template

from ..models import Profile

register = template.Library()


@register.simple_tag(takes_context=True)
def device_profile(context: dict[str, Any]) -> Profile | None:
    """The profile the browser of this request holds (for the join page's one-tap choice)."""
    request = context.get("request")
    if request is None:
        return None
    from ..views import device_profile as lookup

    return lookup(request)


@register.inclusion_tag("players/_avatar.html")
def avatar(profile: Profile | None, size: str = "") -> dict[str, Any]:
    return {"profile": profile, "size": size}
