"""Skirmish data files (docs/rules/skirmish.md): the map and the tables, read by data_load."""
