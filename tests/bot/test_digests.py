"""The digest of what a message shows is the same in every process (it is stored, and compared
at the next start), whatever the hash seed of its strings."""

from __future__ import annotations

import os
import subprocess
import sys

from bot.digests import digest
from db import TableStatus
from game.cards import parse_card
from game.view import Stage

KEY = ("playing", 12, 555, None, None, frozenset({"a", "b", "c", "dd"}),
       ((0, 1, "ana", None, False), (1, None, "Computer", "easy", False)), Stage.PLAY)
CODE = ("from bot.digests import digest; from game.view import Stage; "
        f"print(digest({KEY!r}, 99))")


def test_the_digest_is_the_same_in_another_process() -> None:
    outs = set()
    for seed in ("1", "2", "3"):
        env = {**os.environ, "PYTHONHASHSEED": seed}
        out = subprocess.run([sys.executable, "-c", CODE.replace("<Stage.PLAY: 'play'>",
                                                                 "Stage.PLAY")],
                             env=env, capture_output=True, text=True, check=True)
        outs.add(out.stdout.strip())
    assert outs == {digest(KEY, 99)}


def test_a_different_state_or_message_has_another_digest() -> None:
    assert digest(KEY, 99) != digest(KEY, 100)
    assert digest(KEY, 99) != digest((*KEY[:1], 13, *KEY[2:]), 99)


def test_a_digest_stored_by_an_earlier_version_still_matches() -> None:
    # Pinned from the version before canonical() took its quick paths: a restart after an
    # upgrade compares the new digests with the stored ones, and a change would edit every table.
    key = (TableStatus.PLAYING, 12, 555, None, 1795771395.25, True, [1, "x"], {"b": 2, "a": (1,)},
           (parse_card("AS"), parse_card("10H")), frozenset({"a", "b"}),
           ((0, 1, "ana", None, False), (1, None, "Computer", "easy", False)), Stage.PLAY)
    assert digest(key, 99) == "46b04ce84718604f0dc3246fb9515fa5"
