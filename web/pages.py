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
from rendering.chart import rating_scale

# The style sheet is cached for a day: its address changes with its content.
STYLE: Final = "/static/site.css?v=" + sha256(
    files("web").joinpath("static", "site.css").read_bytes()).hexdigest()[:10]
# The rating chart's plot: its drawing's width and height, and the room round its line (above
# its top rating and below its bottom one: site.css puts the scale's numbers at the same
# heights, 5% and 95%; before its first rating and after its last, whose dot stays whole).
CHART_SIZE: Final = (600, 200, 10)


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


def chart(values: Sequence[float], label: str, w: Words) -> str:
    """The rating over the matches, as an inline SVG line (no script, no image request) with
    its scale: the bottom and top ratings (rendering/chart.py's, as the image of /belote stats
    draws them) written in the page's language, beside the plot as text, so that they stay
    readable at any width while the plot stretches to it."""
    if len(values) < 2:
        return ""
    low, high = rating_scale(values)
    width, height, pad = CHART_SIZE

    def y(v: float) -> str:
        return f"{height - pad - (v - low) * (height - 2 * pad) / (high - low):.1f}"

    side = 2 * pad  # the plot is stretched wider than it is drawn: more room at its ends
    points = [(f"{side + i * (width - 2 * side) / (len(values) - 1):.1f}", y(v))
              for i, v in enumerate(values)]
    line = 'vector-effect="non-scaling-stroke"'
    grid = "".join(f'<line x1="0" y1="{y(v)}" x2="{width}" y2="{y(v)}" stroke="#d6d0bf"'
                   f' stroke-width="1" {line}/>' for v in (low, high))
    last_x, last_y = points[-1]
    bottom, top = w.number(round(low)), w.number(round(high))
    scale = w("web.player.scale", low=bottom, high=top)
    # The numbers sit at the plot's heights (placed, they take no room): the wider one,
    # unseen, gives their column its width (site.css).
    wide = max(bottom, top, key=len)
    return (f'<figure class="chart"><figcaption>{escape(label)}</figcaption>'
            f'<div class="plot" role="img" aria-label="{escape(f"{label} ({scale})")}">'
            f'<div class="scale" data-wide="{escape(wide)}" aria-hidden="true">'
            f'<span class="top">{escape(top)}</span><span class="low">{escape(bottom)}</span>'
            "</div>"
            f'<svg viewBox="0 0 {width} {height}" preserveAspectRatio="none"'
            f' aria-hidden="true"><rect width="{width}" height="{height}" fill="#fffdf6"/>'
            f"{grid}"
            f'<polyline points="{" ".join(f"{x},{yy}" for x, yy in points)}" fill="none"'
            f' stroke="#1f5130" stroke-width="3" stroke-linejoin="round" {line}/>'
            # The last rating, marked as the image marks it: a dot (a line of no length
            # with round ends stays round however the plot is stretched).
            f'<line class="last" x1="{last_x}" y1="{last_y}" x2="{last_x}" y2="{last_y}"'
            f' stroke="#c89b2a" stroke-width="10" stroke-linecap="round" {line}/>'
            "</svg></div></figure>")
