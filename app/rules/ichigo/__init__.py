"""Operation Ichi-Go (Against the Odds, 2020; China 1944-45). Data only so far: see docs/ichigo-data.md."""
