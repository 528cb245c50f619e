"""Hexledger web: the HTTP API and the replay viewer (blueprints registered on one Flask app)."""
