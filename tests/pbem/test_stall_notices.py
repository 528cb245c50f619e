"""An automated seat that cannot give an order is told to the game's players and its arbiter by email (issue 29):
the reaction to core.SeatStalled, once, naming the side, its policy and what went wrong (never the cause's
message), and that the game waits for the arbiter."""
from app.mail import inbound
from app.rules import practice

RED, ARBITER = "red@players.example", "arbiter@players.example"


def test_the_players_and_the_arbiter_are_told_once_when_the_automated_seat_stalls(pbem, smtp, store, monkeypatch):
    game_id, tokens = pbem.setup.create("skirmish", {"red": RED}, arbiter=ARBITER, auto={"blue": "greedy"})
    pbem.setup.join(pbem.seats.authenticate(game_id, tokens["red"]), "red's words")

    def fails(*args, **kwargs):
        raise TypeError("unsupported operand type(s) for +: 'int' and 'str' at the hidden unit B3")

    monkeypatch.setattr(practice, "choose", fails)
    red = pbem.seats.authenticate(game_id, tokens["red"])
    while pbem.reads.prompt(red)["to_act"] == "red":
        pbem.orders.order(red, "end")
    pbem.sender_round()
    pbem.sender_round()  # a second round, tick's catch-up: told already
    for address in (RED, ARBITER):
        [told] = [m for m in smtp.inbox(address) if "cannot give an order" in m["Subject"]]
        body = inbound.body_text(told)
        assert "The automated blue (greedy) cannot give an order" in body
        assert "its policy failed (an engine fault)" in body and "waits for the arbiter" in body
        assert "hidden unit" not in body and "TypeError" not in body
