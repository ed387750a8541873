"""End-to-end fixtures: the fake Discord (tests/fakediscord) and the no-network guard."""

from tests.fakediscord.fixtures import _no_network, fake_discord

__all__ = ["_no_network", "fake_discord"]
