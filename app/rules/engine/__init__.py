"""The engine every game runs on: the states table, order syntax, the decide context, the shared events and
the Game declaration (docs/adding-a-game.md)."""
