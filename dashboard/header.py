"""The page header: the brand, the navigation and who is signed in (the `whoami` slot the router fills).

On a wide screen the links stand in a row; on a phone the header is one row — the brand, who is signed in and a
☰ button — and the links open under it. The menu is a <details> element: it opens and closes without any
script, and a screen reader announces it as a button that is expanded or collapsed (assets/style.css lays it
out; assets/phone.js only closes it once a link is followed, as the page does not reload)."""

from __future__ import annotations

from typing import Any

from dash import dcc, html

LINKS = (
    ("Matches", "/", "nav-matches"),
    ("Statistics", "/stats", "nav-stats"),
    ("Players", "/players", "nav-players"),
    ("Tournaments", "/tournaments", "nav-tournaments"),
    ("Ratings", "/ratings", "nav-ratings"),
    ("Record", "/record", "nav-record"),
)


def aria(**values: str) -> Any:
    """aria-* attributes by their names without the prefix (Dash passes them through; typed Any for the stubs)."""
    return {f"aria-{k}": v for k, v in values.items()}


def header() -> html.Header:
    """The header of every page."""
    links: list[dcc.Link | html.A] = [dcc.Link(text, href=href, className="nav-link", id=key)
                                      for text, href, key in LINKS]
    links.append(html.A("API", href="/docs", className="nav-link"))
    return html.Header(className="top", children=[
        dcc.Link(html.Span(["Score", html.B("book")]), href="/", className="brand"),
        html.Details(className="menu", id="nav-menu", children=[
            html.Summary(html.Span("☰", **aria(hidden="true")), className="menu-button", id="nav-menu-button",
                         title="Menu", **aria(label="Menu")),
            html.Nav(links, **aria(label="Pages")),
        ]),
        html.Div(id="whoami", className="whoami-slot"),
    ])
