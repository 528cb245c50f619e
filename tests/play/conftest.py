"""The play page's fixtures: the replay tests' fog-of-war skirmish (a side sees only the enemy units next to its
own), for the served tests."""
from tests.replay.conftest import foggy  # noqa: F401  (the fixture)
