"""Optional compiled build of the rules core.

``BELOTE_MYPYC=1 pip install .`` compiles the hot modules of game/ with mypyc (part of mypy):
same code, same behaviour, several times faster (see bench/bench_rules.py and the README).
Without the variable the package is plain Python, as in development and CI.
"""

import os

from setuptools import setup

COMPILED = [
    "game/cards.py",
    "game/rules.py",
    "game/actions.py",
    "game/contract.py",
    "game/announcements.py",
    "game/bidding.py",
    "game/scoring.py",
    "game/deal.py",
    "game/match.py",
    "game/deck.py",
]

ext_modules = []
if os.environ.get("BELOTE_MYPYC") == "1":
    from mypyc.build import mypycify

    ext_modules = mypycify(COMPILED, opt_level="3")

setup(ext_modules=ext_modules)
