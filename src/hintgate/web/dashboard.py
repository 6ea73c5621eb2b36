"""The dashboard at /: server-rendered pages (Jinja2 + htmx), no front-end build step."""

from __future__ import annotations

from fastapi import APIRouter, FastAPI
from fastapi.responses import HTMLResponse

__all__ = ["mount_static", "router"]

router = APIRouter()


@router.get("/", response_class=HTMLResponse, include_in_schema=False)
async def index() -> str:
    """The catalog page."""
    return "<!doctype html><title>hintgate</title><p>hintgate: see <a href='/api/docs'>the API</a>.</p>"


def mount_static(app: FastAPI) -> None:
    """Serve the dashboard's static files (none yet)."""
