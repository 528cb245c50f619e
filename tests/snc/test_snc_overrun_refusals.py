"""SNC 9.6 refusals a player reads in an overrun's reply or preview: each names 9.6 and why (mutation survivors
of issue 19: the reason and the case could change unnoticed)."""
import pytest
from snc_given import position

from app.rules.errors import IllegalOrder
from app.rules.snc.movement import check_overrun


def test_9_6_an_overrun_is_refused_to_the_chinese_and_to_units_from_two_hexes_naming_9_6():
    s = position({"jp-d3-r6": "2806", "jp-d3-r18": "2808", "cn-d7": "2707"}, plan=("move", "fight"))
    with pytest.raises(IllegalOrder, match="SNC 9.6: only the Japanese overrun"):
        check_overrun(s, "chinese", "2806", ["cn-d7"])
    with pytest.raises(IllegalOrder, match="SNC 9.6: units moving together must start in one hex"):
        check_overrun(s, "japanese", "2707", ["jp-d3-r6", "jp-d3-r18"])
