"""Small in-memory maps for kernel tests (built through the real loader)."""

from app.rules.kernel.hexgrid import Hex
from app.rules.kernel.mapfile import GameMap, map_from_dict


def H(label: str) -> Hex:
    return Hex.parse(label)


def hs(*labels: str) -> list[Hex]:
    return [Hex.parse(x) for x in labels]


def make_map(
    cols=(1, 10),
    rows=(1, 10),
    parity="even-low",
    default="clear",
    terrain=None,
    hexsides=None,
    features=None,
    tags=None,
    roads=(),
    rails=(),
    edges=None,
    absent=(),
) -> GameMap:
    terrain = terrain or {}
    hexsides = hexsides or {}
    features = features or {}
    tags = tags or {}
    data = {
        "map": {
            "name": "test",
            "parity": parity,
            "cols": list(cols),
            "rows": list(rows),
            "absent": list(absent),
        },
        "vocabulary": {
            "terrain": sorted({default, *terrain}),
            "hexside": sorted(hexsides),
            "features": sorted(features),
        },
        "terrain": {"default": default, **{k: list(v) for k, v in terrain.items()}},
        "hexsides": {k: list(v) for k, v in hexsides.items()},
        "features": {k: list(v) for k, v in features.items()},
        "tags": {k: list(v) for k, v in tags.items()},
        "roads": [{"path": list(p)} for p in roads],
        "railroads": [{"path": list(p)} for p in rails],
        "edges": {k: list(v) for k, v in (edges or {}).items()},
    }
    return map_from_dict(data, source="test-map")
