"""The match page's replay without a script (tests/e2e/test_web_browser.py steps it in a
browser): ``?step=N`` shows step N of the match, the others of its deal hidden, with links to
the first, previous, next and last steps; every card of the deal is shown; a malformed or
out-of-range step is 404; a French server's replay speaks French."""

from __future__ import annotations

import re
from pathlib import Path

from tests.fakediscord import FakeDiscord

from .table_helpers import make_world
from .test_stats import played
from .test_web import BASE, get, site_of


def visible(html: str) -> list[int]:
    return [int(n) for n in re.findall(r'<article class="step" id="step-(\d+)" data-step="\d+">',
                                       html)]


def links(html: str, step: int) -> dict[str, int]:
    article = html.split(f'id="step-{step}"')[1].split("</article>")[0]
    nav = article.split('<nav class="stepper">')[1].split("</nav>")[0]
    return {rel: int(n) for n, rel in re.findall(r'\?step=(\d+)#replay" data-step="\d+" '
                                                 r'rel="(\w+)"', nav)}


async def test_each_step_has_its_address_and_links(fake_discord: FakeDiscord,
                                                   database_path: Path) -> None:
    w = await make_world(fake_discord, database_path, locale="fr", web_port=0,
                         web_base_url=BASE)
    w.members.append(w.guild.add_member("mod", manage_guild=True))
    table_id = await played(w, target=301)
    root = await site_of(w)
    page = f"{root}match/{table_id}"
    status, html, _, _ = await get(w, page)
    assert status == 200 and visible(html) == [0]
    count = int(re.findall(r'data-steps="(\d+)"', html)[0])
    assert links(html, 0) == {"next": 1, "last": count - 1}
    assert "Carte par carte" in html and "Donne 1\u00a0: ana distribue." in html
    assert '<script src="/static/replay.js?v=' in html
    bid = html.split('id="step-1"')[1].split("</article>")[0]  # the first call, and so far
    assert re.search(r"Enchères\u00a0: \w+\u00a0: (passe|prend)", bid), bid
    first_deal = [int(n) for n in re.findall(r'id="step-(\d+)"', html)]
    assert first_deal == list(range(len(first_deal))) and len(first_deal) < count

    status, html, _, _ = await get(w, f"{page}?step={count - 1}")
    assert status == 200 and visible(html) == [count - 1]
    assert links(html, count - 1) == {"first": 0, "prev": count - 2}
    result = await w.bot.db.results.match(w.guild.id, table_id)
    assert result is not None
    totals = "–".join(f"{n:,}".replace(",", "\u202f") for n in result.totals)
    assert f"Score final\u00a0: {totals}" in html
    # The deal's every card is in the page: 32 in the hands of its first step.
    deal_start = min(int(n) for n in re.findall(r'id="step-(\d+)"', html))
    status, html, _, _ = await get(w, f"{page}?step={deal_start}")
    article = html.split(f'id="step-{deal_start}"')[1].split("</article>")[0]
    assert article.count('class="card ') == 21  # five each dealt, and the card turned up

    status, _, headers, _ = await get(w, "/static/replay.js")
    assert status == 200 and headers["Content-Type"].startswith("text/javascript")
    for bad in ("?step=-1", f"?step={count}", "?step=x", "?step=1e3", "?step=99999999"):
        assert (await get(w, page + bad))[:2] == (404, "404"), bad
