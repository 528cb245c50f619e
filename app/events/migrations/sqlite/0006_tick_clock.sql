-- When `cli.py tick` last ran, by the server's clock: a run that finds the clock moved by more than a game's move
-- deadline since then withholds that game's auto-pass and tells the arbiter (app/service/pbem.py, Pbem.tick).
CREATE TABLE IF NOT EXISTS tick_clock (
    name TEXT PRIMARY KEY,
    at TEXT NOT NULL
);
