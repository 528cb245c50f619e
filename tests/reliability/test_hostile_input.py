"""Issue 8: random and malformed input never crashes, never changes state, always gets a clear error.

The strategies and properties live in tests/reliability/hostile.py (bench/hostile_inputs.py runs them bigger)."""
from __future__ import annotations

import pytest
from hypothesis import given

from app.events.backends import open_store
from app.rules.catalog import installed
from app.service import games, transfer
from tests.reliability import hostile

CATALOG = installed()  # the rule sets installed here

pytestmark = pytest.mark.slow  # hypothesis-generated orders, payloads and exports


@pytest.fixture(scope="module")
def skirmish_world(module_db_location):
    """A skirmish both seats joined, on each backend."""
    return hostile.skirmish_world(module_db_location)


@hostile.ci_budget(hostile.ORDERS)
@given(**hostile.ORDER_INPUTS)
def test_random_orders_are_refused_cleanly_or_accepted_legally(skirmish_world, order, side):
    hostile.check_order(*skirmish_world, order, side)


@hostile.ci_budget(hostile.PAYLOADS)
@given(**hostile.PAYLOAD_INPUTS)
def test_random_event_payloads_are_refused_with_a_schema_error(type_, version, payload):
    hostile.check_payload(type_, version, payload)


@pytest.fixture(scope="module")
def exported(tmp_path_factory) -> list[str]:
    return hostile.exported_lines(str(tmp_path_factory.mktemp("exp") / "source.sqlite3"))


@pytest.fixture(scope="module")
def import_store(module_db_location):
    """A store of each backend that every damaged file is imported into."""
    store = open_store(module_db_location)
    yield store
    store.close()


@hostile.ci_budget(hostile.EXPORTS)
@given(**hostile.EXPORT_INPUTS)
def test_damaged_export_files_are_refused_and_nothing_written(exported, import_store, data):
    hostile.check_damaged_export(exported, import_store, data)


@pytest.fixture(scope="module")
def languages(tmp_path_factory) -> dict:
    """Positions along a random game of each rule set (skirmish, SNC, Ichi-Go, Dai Senso, Olympic, Formosa)."""
    return hostile.language_world(str(tmp_path_factory.mktemp("lang") / "games.sqlite3"), orders_per_game=30,
                                  every=10)


@hostile.ci_budget(hostile.LANGUAGES)
@given(**hostile.LANGUAGE_INPUTS)
def test_hostile_orders_in_every_games_order_language_are_refused_cleanly(languages, data):
    hostile.check_language_order(languages, data)


@pytest.mark.parametrize("rules_name", hostile.ORDER_GAMES)
@pytest.mark.parametrize("digits", ["\u00b2", "\u0663", "\u0660\u0662\u0660\u0662", "\uff10\uff12\uff10\uff12"])
def test_numbers_and_hexes_in_other_scripts_digits_are_refused_in_every_order_language(languages, rules_name,
                                                                                       digits):
    """`commit ²` raised in the Ichi-Go parser, `commit ٣` committed 3 regiments: every slot of every order of
    every game filled with digits that are not ASCII is refused with an order error, at every position."""
    from app.events import dice
    from app.rules.errors import OrderError

    rules = CATALOG.rules(rules_name)
    tried = 0
    for name, state, _, syntaxes in languages["positions"]:
        if name != rules_name:
            continue
        for syntax in syntaxes:
            words = [w for w in syntax.replace("[", " ").replace("]", " ").split() if w != "..."]
            if not any(w.isupper() for w in words):
                continue
            text = " ".join(digits if w.isupper() else w.split("|")[0] for w in words)
            for side in state.meta.sides:
                tried += 1
                with pytest.raises(OrderError):
                    command = games.parse_order(rules, state, side, text)
                    games.decide_checked(rules, state, command, dice.NoDice(next_index=state.meta.rolls))
    assert tried


@pytest.mark.parametrize("number", ["Infinity", "-Infinity", "NaN", "1e400"])
def test_an_export_line_with_a_non_finite_number_is_refused_as_not_json(number):
    with pytest.raises(games.GameError, match="line 1: not JSON"):
        transfer.parse_lines(['{"game_id": "g", "seq": ' + number + "}\n"])


@pytest.fixture(scope="module")
def unicode_world(module_db_location):
    """Games joined and not, a mail world and an export, on each backend (issue 25)."""
    world = hostile.unicode_world(module_db_location)
    yield world
    world["store"].close()


@hostile.ci_budget(hostile.UNICODE)
@given(**hostile.UNICODE_INPUTS)
def test_text_that_is_not_valid_unicode_is_refused_at_every_door(unicode_world, door, text):
    hostile.check_unicode(unicode_world, door, text)


@pytest.fixture(scope="module")
def spoofing_world(module_db_location):
    world = hostile.spoofing_world(module_db_location)
    yield world
    world["store"].close()


@hostile.ci_budget(hostile.SPOOFING)
@given(**hostile.SPOOFING_INPUTS)
def test_player_written_text_never_starts_a_line_of_the_history(spoofing_world, field, text):
    hostile.check_spoofing(spoofing_world, field, text)


@pytest.fixture(scope="module")
def takebacks(tmp_path_factory) -> dict:
    return hostile.takeback_world(str(tmp_path_factory.mktemp("takebacks") / "server.sqlite3"))


@hostile.ci_budget(hostile.RETRACTIONS)
@given(**hostile.RETRACTION_INPUTS)
def test_any_change_to_who_retracted_what_is_refused(takebacks, import_store, data):
    hostile.check_forged_retraction(takebacks, import_store, data)


@pytest.fixture(scope="module")
def game_ids_world(module_db_location):
    return hostile.game_ids_world(module_db_location)


@hostile.ci_budget(hostile.GAME_IDS)
@given(**hostile.GAME_ID_INPUTS)
def test_an_unknown_game_is_refused_as_a_forbidden_one_at_every_door(game_ids_world, route, credential, unknown):
    hostile.check_game_ids(game_ids_world, route, credential, unknown)


@pytest.fixture(scope="module")
def strangers_world(module_db_location):
    world = hostile.strangers_world(module_db_location)
    yield world
    world["pbem"].store.close()


@hostile.ci_budget(hostile.STRANGERS)
@given(**hostile.STRANGER_INPUTS)
def test_a_stranger_mailbox_gets_one_answer_a_period(strangers_world, messages):
    hostile.check_strangers(strangers_world, messages)


@pytest.fixture(scope="module")
def receipts_world(tmp_path_factory):
    """On SQLite: the property reads only the player's files and the chain listing fetched once, never the store
    (the listing on each backend: the test after it)."""
    server = tmp_path_factory.mktemp("server") / "receipts.sqlite3"
    world = hostile.receipts_world(str(server), tmp_path_factory.mktemp("receipts"))
    yield world
    world["pbem"].store.close()


@hostile.ci_budget(hostile.RECEIPTS)
@given(**hostile.RECEIPT_INPUTS)
def test_forged_receipts_and_signatures_are_rejected_and_never_accuse_an_honest_chain(receipts_world, data):
    hostile.check_hostile_receipt(receipts_world, data)


def test_the_chain_listing_of_each_backend_matches_the_players_receipts(db_location, tmp_path):
    """The world the forged receipts are checked in, on each backend: the chain a seat fetches and the receipts in
    its mail agree (no difference, every receipt matched, the listing's own counted)."""
    from app.service import evidence

    (tmp_path / "mail").mkdir()
    world = hostile.receipts_world(db_location, tmp_path / "mail")
    try:
        checked = evidence.check_listing(world["listing"], world["honest"], [world["key"]])
        assert not checked.differences and checked.receipts == len(world["honest"].receipts) + 1, checked.to_dict()
    finally:
        world["pbem"].store.close()
