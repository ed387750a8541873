"""The pages' HTML: a layout and the pieces each page is made of. Every word comes from the
catalogue and every value (a member's name above all) is escaped here: a name is text, never
markup. Nothing is shown that a Discord message of the bot would not show."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from hashlib import sha256
from html import escape
from importlib.resources import files
from typing import Final

from i18n import Words

# The style sheet is cached for a day: its address changes with its content.
STYLE: Final = "/static/site.css?v=" + sha256(
    files("web").joinpath("static", "site.css").read_bytes()).hexdigest()[:10]


def page(w: Words, title: str, home: str, body: str) -> str:
    return ("<!doctype html>"
            f'<html lang="{escape(w.language)}"><head><meta charset="utf-8">'
            '<meta name="viewport" content="width=device-width,initial-scale=1">'
            '<meta name="referrer" content="no-referrer">'
            f"<title>{escape(title)}</title>"
            f'<link rel="stylesheet" href="{STYLE}"></head><body>'
            f'<header><a href="{escape(home)}">{escape(w("web.nav.boards"))}</a></header>'
            f"<main><h1>{escape(title)}</h1>{body}</main></body></html>")


def link(href: str, text: str, *, on: bool = False) -> str:
    mark = ' class="on" aria-current="page"' if on else ""
    return f'<a href="{escape(href)}"{mark}>{escape(text)}</a>'


def choices(links: Iterable[str]) -> str:
    return f'<nav class="choices">{"".join(links)}</nav>'


def table(heads: Sequence[tuple[str, str]], rows: Iterable[Sequence[str]]) -> str:
    """``heads``: (css class, escaped text); each row's cells are HTML already escaped."""
    head = "".join(f'<th class="{c}">{t}</th>' for c, t in heads)
    body = "".join("<tr>" + "".join(f'<td class="{heads[i][0]}">{cell}</td>'
                                    for i, cell in enumerate(row)) + "</tr>" for row in rows)
    return f"<table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"


def lines(texts: Iterable[str]) -> str:
    return '<ul class="lines">' + "".join(f"<li>{escape(t)}</li>" for t in texts) + "</ul>"


def paragraph(text: str) -> str:
    return f"<p>{escape(text)}</p>"


def chart(values: Sequence[float], label: str) -> str:
    """The rating over the matches, as an inline SVG line (no script, no image request)."""
    if len(values) < 2:
        return ""
    low, high = min(values), max(values)
    span = (high - low) or 1.0
    width, height = 600, 200
    points = " ".join(f"{i * width / (len(values) - 1):.1f},"
                      f"{height - 10 - (v - low) * (height - 20) / span:.1f}"
                      for i, v in enumerate(values))
    return (f'<svg viewBox="0 0 {width} {height}" role="img" aria-label="{escape(label)}">'
            f'<rect width="{width}" height="{height}" fill="#fffdf6"/>'
            f'<polyline points="{points}" fill="none" stroke="#1f5130" stroke-width="3"/>'
            "</svg>")
