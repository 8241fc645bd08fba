"""/docs and /redoc without internet: every script, style and image from the installed packages.

`fastapi-offline` serves Swagger UI's and Redoc's bundles from its own package (under /docs-assets) and
/docs. Its Redoc bundle still draws the "API docs by Redocly" logo from a CDN; /redoc is served here
instead, with that one image address emptied (Redoc then leaves the logo out), so that neither page
asks any other host for anything.
"""
# No `from __future__ import annotations`: FastAPI reads the route annotations.

from functools import cache
from pathlib import Path

import fastapi_offline
from fastapi import FastAPI, Request
from fastapi.openapi.docs import get_redoc_html
from fastapi.responses import HTMLResponse, Response

ASSETS_URL = "/docs-assets"  # fastapi-offline's static files
REDOC_JS_URL = "/redoc-assets/redoc.standalone.js"
_PACKAGE_STATIC = Path(fastapi_offline.__file__).parent / "static"
_CDN_LOGO = "https://cdn.redoc.ly/redoc/logo-mini.svg"


@cache
def redoc_bundle() -> bytes:
    """The installed Redoc bundle with the CDN logo's address replaced by an empty image."""
    text = (_PACKAGE_STATIC / "redoc.standalone.js").read_text(encoding="utf-8")
    return text.replace(_CDN_LOGO, "data:,").encode("utf-8")


def install_redoc(app: FastAPI, url: str = "/redoc") -> None:
    """Serve Redoc at `url` from the patched bundle (create the app with redoc_url=None)."""

    @app.get(url, include_in_schema=False)
    def redoc(request: Request) -> HTMLResponse:
        root = request.scope.get("root_path", "")
        return get_redoc_html(
            openapi_url=f"{root}{app.openapi_url}",
            title=f"{app.title} - ReDoc",
            redoc_js_url=f"{root}{REDOC_JS_URL}",
            redoc_favicon_url=f"{root}{ASSETS_URL}/favicon.png",
            with_google_fonts=False,
        )

    @app.get(REDOC_JS_URL, include_in_schema=False)
    def redoc_js() -> Response:
        return Response(
            redoc_bundle(), media_type="text/javascript", headers={"Cache-Control": "public, max-age=86400"}
        )
