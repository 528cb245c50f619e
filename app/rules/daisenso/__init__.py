"""Dai Senso (Totaler Krieg family), the Combat Phase (chapter 4) as a game on its own maps."""
