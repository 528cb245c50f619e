"""Game data read inside the test, so the mutation run traces the reading (issue 19): a CRT that counts losses
in whole units (Formosa, Olympic) keeps that unit, and a map's terrain overrides reach the hexes they name."""
import pytest
from combat_tables import FORMOSA_CRT

from app.rules.kernel.crt import CRT
from app.rules.kernel.hexgrid import Hex
from app.rules.kernel.mapfile import MapError, loads_map


def test_a_crt_whose_losses_are_whole_units_says_so_and_a_bad_loss_unit_is_refused():
    assert CRT.from_dict(FORMOSA_CRT).loss_unit == "unit"
    assert CRT.from_dict({**FORMOSA_CRT, "loss_unit": "step"}).loss_unit == "step"
    with pytest.raises(ValueError, match="loss_unit must be 'step' or 'unit'"):
        CRT.from_dict({**FORMOSA_CRT, "loss_unit": "division"})


def _map(override: str):
    return loads_map('[map]\nname = "m"\nparity = "odd-low"\ncols = [1, 3]\nrows = [1, 3]\n'
                     '[vocabulary]\nterrain = ["clear", "sea"]\n'
                     f'[terrain]\ndefault = "clear"\n[terrain.override]\n{override}', source="m.toml")


def test_a_terrain_override_of_a_declared_terrain_applies_and_an_undeclared_one_is_refused():
    assert _map('"0202" = "sea"').terrain_of(Hex.parse("0202")) == "sea"
    with pytest.raises(MapError, match="unknown terrain 'swamp'"):
        _map('"0202" = "swamp"')
