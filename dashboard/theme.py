"""Colours and small formatting helpers shared by the pages and figures."""

from __future__ import annotations

from collections.abc import Sequence

# Seat colours: distinct, readable on white, and colour-blind friendly enough (Okabe–Ito based).
SEAT_COLOURS = ("#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#7F7F7F", "#8C564B")
# Light tints of the same, for filled shapes that carry dark text.
SEAT_TINTS = ("#CFE3F2", "#F6D6C2", "#C7EBDF", "#F1DDE9", "#F8E5BF", "#D9EEFA", "#E3E3E3", "#E5D6D1")
HIGHLIGHT = "#F2B705"  # the last move
INK = "#1F2430"
MUTED = "#6B7280"
GRID = "#E5E7EB"
PAPER = "#FFFFFF"
FONT = "Inter, 'Segoe UI', 'DejaVu Sans', Arial, sans-serif"
MONO = "DejaVu Sans Mono, monospace"  # numbers on tiles: every digit the same width

def seat_colours(player_ids: Sequence[str]) -> dict[str, str]:
    return {pid: SEAT_COLOURS[i % len(SEAT_COLOURS)] for i, pid in enumerate(player_ids)}


def seat_tints(player_ids: Sequence[str]) -> dict[str, str]:
    return {pid: SEAT_TINTS[i % len(SEAT_TINTS)] for i, pid in enumerate(player_ids)}


def signed(n: int) -> str:
    return f"+{n}" if n > 0 else f"−{-n}" if n < 0 else "0"


def base_layout(**extra: object) -> dict[str, object]:
    """A clean plotly layout: white paper, no mode bar clutter, our font."""
    layout: dict[str, object] = {
        "paper_bgcolor": PAPER,
        "plot_bgcolor": PAPER,
        "font": {"family": FONT, "color": INK, "size": 13},
        "margin": {"l": 10, "r": 10, "t": 10, "b": 10},
        "showlegend": False,
        "hoverlabel": {"font": {"family": FONT}},
    }
    layout.update(extra)
    return layout


def hidden_axis(lo: float, hi: float, **extra: object) -> dict[str, object]:
    axis: dict[str, object] = {
        "range": [lo, hi],
        "visible": False,
        "showgrid": False,
        "zeroline": False,
        "fixedrange": True,
    }
    axis.update(extra)
    return axis
