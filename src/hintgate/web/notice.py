"""A short page that tells a person one thing, with at most one form: the sign-in and login steps' pages.

The sign-in flows (`hintgate.web.signin`, `hintgate.web.person_logins`) show
a page between two redirects: a sign-in that did not start in this browser,
the question before another person's cookie replaces the one there, who is
about to log in to an upstream. They are plain HTML (no script, no htmx):
their forms are plain posts to this gateway, which the security check takes
without the write header and refuses from another origin (`FORM_POSTS`).
"""

from __future__ import annotations

import html
from collections.abc import Mapping, Sequence

from fastapi.responses import HTMLResponse

__all__ = ["FORM_POSTS", "Button", "notice"]

FORM_POSTS = ("/login/identity/switch", "/login/upstream/")
"""Paths (or prefixes, ending in /) whose plain form posts need no `X-Hintgate-Request` header."""

Button = tuple[str, Mapping[str, str]]
"""A submit button's label and the hidden fields its form sends."""

_PAGE = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width">
<title>hintgate: {title}</title></head>
<body><main><h1>{title}</h1>{paragraphs}{form}</main></body></html>
"""


def notice(
    title: str,
    lines: Sequence[str],
    status: int = 200,
    *,
    action: str | None = None,
    buttons: Sequence[Button] = (),
    links: Sequence[tuple[str, str]] = (),
) -> HTMLResponse:
    """A page with a title, paragraphs, a form posting to `action` (one submit per button) and links.

    Every value is escaped; `links` are (text, href) pairs shown after the form.
    """
    paragraphs = "".join(f"<p>{html.escape(line)}</p>" for line in lines)
    form = ""
    if action is not None:
        for label, fields in buttons:
            hidden = "".join(
                f'<input type="hidden" name="{html.escape(k)}" value="{html.escape(v)}">' for k, v in fields.items()
            )
            form += (
                f'<form method="post" action="{html.escape(action)}">{hidden}'
                f'<button type="submit">{html.escape(label)}</button></form>'
            )
    form += "".join(f'<p><a href="{html.escape(href)}">{html.escape(text)}</a></p>' for text, href in links)
    page = _PAGE.format(title=html.escape(title), paragraphs=paragraphs, form=form)
    headers = {
        "Cache-Control": "no-store",
        "X-Frame-Options": "DENY",
        "Content-Security-Policy": "frame-ancestors 'none'",
    }
    return HTMLResponse(page, status_code=status, headers=headers)
