"""Optional compiled build of the rules core.

With ``BELOTE_MYPYC=1`` the hot modules of game/ are compiled with mypyc (part of mypy): same
code, same behaviour, several times faster (see bench/bench_rules.py and the README). mypy is
not a build requirement, so plain installs stay light; the compiled build uses the environment's
own mypy and a C compiler:

    pip install "setuptools>=70.1" wheel "mypy==2.4.1"
    BELOTE_MYPYC=1 pip install --no-build-isolation .

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
    "game/analysis/search.py",
    "game/analysis/situation.py",
    "game/analysis/solver.py",
]

ext_modules = []
if os.environ.get("BELOTE_MYPYC") == "1":
    try:
        from mypyc.build import mypycify
    except ImportError:
        raise SystemExit(
            "BELOTE_MYPYC=1 needs mypy in the build environment: run "
            '`pip install "setuptools>=70.1" wheel "mypy==2.4.1"`, then '
            "`BELOTE_MYPYC=1 pip install --no-build-isolation .`") from None

    ext_modules = mypycify(COMPILED, opt_level="3")

setup(ext_modules=ext_modules)
