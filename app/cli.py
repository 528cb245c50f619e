"""Hexledger command line: play, inspect, fork, audit, export and import games.

Every command prints readable text by default and JSON with --json. The settings (docs/configuration.md) are read
from the environment once, when the command starts; the database is db/hexledger.sqlite3 unless --db (before or
after the command) or HEXLEDGER_DB says otherwise. A refused order exits with status 2
and names the rules case. The commands call the application service's facade (app/service/application.py) only.
"""
from __future__ import annotations

import json
import logging
import sys
from pathlib import Path

import click

from app import text
from app.numbers import LARGEST
from app.service.application import Application, Console, Settings, installed, replays, rule_sets, size_caches
from app.service.errors import (
    GameError,
    NoSuchPosition,
    OrderError,
    ReceiptError,
    StoreError,
    TextError,
    UnknownRules,
)

LOG = logging.getLogger("hexledger.cli")
EXIT_REFUSED = 2
EXIT_SOFTWARE = 70  # sysexits.h: a message could not be processed (ingest-email)
EXIT_TEMPFAIL = 75  # sysexits.h: try again later (ingest-email on a database that cannot take the write)
EVENT = click.IntRange(1, LARGEST)  # an event number (app/numbers.py): a larger one is refused as click refuses


class Context:
    """A command's settings (the environment's, then the flags), the rule sets it runs, and what it opens on
    them."""

    def __init__(self, settings: Settings, catalog=None):
        self.settings = settings
        self.catalog = catalog or installed()
        self._console: Console | None = None

    @property
    def console(self) -> Console:
        """The operator's console on the database, opened on first use: the command line holds no store."""
        if self._console is None:
            self._console = Console(self.settings, self.catalog)
        return self._console

    def mail(self):
        """The settings' outgoing mail (app/mail/transport.py)."""
        from app.mail.transport import MailConfig

        return MailConfig.from_settings(self.settings)

    def application(self) -> Application:
        """The play-by-email service on the database, its mail per the settings."""
        return Application.open(self.settings, self.mail(), catalog=self.catalog)


def invoked_as() -> str:
    """How the user ran the command line, for the commands a hint suggests: `hexledger` (the installed command)
    or `python cli.py` (a checkout's)."""
    name = click.get_current_context().find_root().info_name or "hexledger"
    return f"python {name}" if name.endswith(".py") else name


def emit(as_json: bool, data, text: str) -> None:
    click.echo(json.dumps(data, indent=2, ensure_ascii=False) if as_json else text)


def fail(as_json: bool, exc: Exception, code: int = 1) -> None:
    detail = getattr(exc, "detail", None)  # StoreUnavailable: the operator's log has it, the output never
    if detail:
        LOG.warning("%s", detail)
    data = exc.to_dict() if isinstance(exc, OrderError) else {"error": type(exc).__name__, "message": str(exc)}
    if as_json:
        click.echo(json.dumps(data, indent=2, ensure_ascii=False))
    else:
        click.echo(f"error: {exc}", err=True)
    sys.exit(code)


HANDLED = (StoreError, GameError, UnknownRules, NoSuchPosition, OrderError, ReceiptError, TextError)


def guarded(fn):
    """Turn the service's errors into a message and a non-zero exit, never a traceback."""
    import functools

    @functools.wraps(fn)
    def run(*args, **kwargs):
        as_json = kwargs.get("as_json", False)
        try:
            return fn(*args, **kwargs)
        except OrderError as exc:
            fail(as_json, exc, EXIT_REFUSED)
        except HANDLED as exc:
            fail(as_json, exc)

    return run


json_option = click.option("--json", "as_json", is_flag=True, help="Print JSON for scripts.")


def _db_given_after(ctx: click.Context, param: click.Parameter, value: str | None) -> None:
    """`--db` after the command's name: it names the database as it does before it."""
    if value is not None:
        found = ctx.find_object(Context)
        found.settings = found.settings.with_flags(db=value)


class Commands(click.Group):
    """The command group; every command takes `--db` too, so the option may stand before or after its name. Every
    argument is held to the rule for text from outside (app/text.py) before any command runs: an argument the
    shell passed as bytes that are not UTF-8 reaches Python as lone surrogates, which no event can hold."""

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        for n, arg in enumerate(args, start=1):
            found = text.problem(arg)
            if found:
                raise click.UsageError(f"argument {n} {found} (a byte that is not UTF-8, as the shell passed it); "
                                       "nothing was read or written", ctx)
        return super().parse_args(ctx, args)

    def add_command(self, cmd: click.Command, name: str | None = None) -> None:
        cmd.params.append(click.Option(["--db"], expose_value=False, callback=_db_given_after,
                                       help="The database, as --db before the command."))
        super().add_command(cmd, name)


@click.group(cls=Commands)
@click.option("--db", default=None, show_default="db/hexledger.sqlite3",
              help="SQLite database file, or a PostgreSQL database as postgresql://user@host/db (env HEXLEDGER_DB); "
                   "may also follow the command.")
@click.pass_context
def cli(ctx: click.Context, db: str) -> None:
    """Hexledger: hex-and-counter wargames with a tamper-evident history."""
    # the rule sets: those installed, or a catalog the caller passes as click's `obj` (tests: invoke(..., obj=...))
    try:
        settings = Settings.from_env().with_flags(db=db)
    except ValueError as exc:  # a variable that does not parse: named, before anything is read or written
        raise click.ClickException(str(exc)) from None
    size_caches(settings)
    ctx.obj = Context(settings, ctx.obj)


@cli.command("rules")
@json_option
@click.pass_obj
def rules_cmd(ctx: Context, as_json: bool) -> None:
    """The rule sets available, with their sides, scenarios and the policies an automated seat may play."""
    data = rule_sets(ctx.catalog)
    text = "\n".join(f"{d['name']:10} {d['title']}\n{'':10} sides: {', '.join(d['sides'])}; scenarios: "
                      f"{', '.join(d['scenarios'])}"
                      + "".join(f"\n{'':10} --auto SIDE:{name}  {about}" for name, about in d["policy_about"].items())
                      for d in data)
    emit(as_json, data, text)


@cli.command("new")
@click.argument("rules")
@click.option("--scenario", help="Scenario name (default: the rule set's first).")
@click.option("--map", "map_file", type=click.Path(dir_okay=False),
              help="Start on a custom map file (TOML, docs/map-format.md) instead of the printed one.")
@click.option("--position", "position_file", type=click.Path(dir_okay=False),
              help="Start from a position file (TOML, docs/custom-positions.md): units per hex, turn, phase.")
@click.option("--auto", "auto", multiple=True, metavar="SIDE[:POLICY]",
              help="The server plays this side (a practice opponent, or Olympic's programmed Japanese), by the "
                   "policy named or the rule set's default; repeatable. Default: the rule set's own automated seats.")
@click.option("--no-auto", is_flag=True, help="No side is automated, not even the rule set's own (Olympic).")
@click.option("--optional", "optional", multiple=True, metavar="RULE[,RULE...]",
              help="Play with these optional rules (Formosa: 25.1 to 25.10, docs/orders/formosa.md); repeatable.")
@json_option
@click.pass_obj
@guarded
def new_cmd(ctx: Context, rules: str, scenario: str | None, map_file: str | None, position_file: str | None,
            auto: tuple[str, ...], no_auto: bool, optional: tuple[str, ...], as_json: bool) -> None:
    """Create a game; the server commits to a secret dice seed. The map and position files and the optional
    rules chosen are stored in the game's first event, so the game replays, verifies and exports without them."""
    rules_chosen = [r.strip() for text in optional for r in text.split(",") if r.strip()]
    made = ctx.console.create(rules, scenario, map_file, position_file, auto=[] if no_auto else (list(auto) or None),
                              optional=rules_chosen)
    emit(as_json, made, made["game_id"])


@cli.command("join")
@click.argument("game")
@click.option("--side", required=True)
@click.option("--name", required=True, help="Player's name or email address.")
@click.option("--seed", "seed_text", default="", show_default="a random text made here",
              help="Your own text mixed into every later dice roll.")
@json_option
@click.pass_obj
@guarded
def join_cmd(ctx: Context, game: str, side: str, name: str, seed_text: str, as_json: bool) -> None:
    """Take a side in a game."""
    joined = ctx.console.join(game, side, name, seed_text)
    emit(as_json, joined, "\n".join([f"{name} plays {side} in {game}; your dice text: {joined['seed_text']}",
                                     *_rows_text(joined["automated"])]))


def _rows_text(rows: list[dict]) -> list[str]:
    return [f"{r['seq']:>5}  {r['text']}" for r in rows]


@cli.command("list")
@json_option
@click.pass_obj
@guarded
def list_cmd(ctx: Context, as_json: bool) -> None:
    """The games in the database."""
    rows = ctx.console.games()
    text = "\n".join(f"{g['game_id']}  {g['rules']:10} {g['scenario']:12} events {g['events']:>6}  "
                     f"{'fork of ' + g['parent'] + '@' + str(g['parent_seq']) if g['parent'] else ''}"
                     for g in rows) or "no games yet"
    emit(as_json, rows, text)


@cli.command("show")
@click.argument("game")
@json_option
@click.pass_obj
@guarded
def show_cmd(ctx: Context, game: str, as_json: bool) -> None:
    """Where a game stands: players, who acts, what they may order."""
    s = ctx.console.summary(game)
    lines = [f"{s['game_id']}: {s['rules']} ({s['scenario']}), {s['seq']} events",
             "players: " + (", ".join(f"{k}={text.escaped(v)}" for k, v in s["players"].items()) or "none yet")]
    if s["parent"]:
        lines.append(f"forked from {s['parent']['id']} after event {s['parent']['seq']}")
    if s["outcome"]:
        lines.append(f"game over: {s['outcome']['winner'] or 'draw'} - {s['outcome']['reason']}")
    else:
        lines.append(f"to act: {s['to_act']} ({s['step']})")
        if s["owed"]:
            lines.append(f"owed: {s['owed']['text']}")
        from app.mail.layout import render_kinds

        lines += ["orders now, by kind (each can be given as written):", render_kinds(s["kinds"], s["actions"])]
    emit(as_json, s, "\n".join(lines))


@cli.command("log")
@click.argument("game")
@click.option("--from", "from_seq", type=EVENT, default=1)
@json_option
@click.pass_obj
@guarded
def log_cmd(ctx: Context, game: str, from_seq: int, as_json: bool) -> None:
    """The game's history, one event a line."""
    rows = ctx.console.log(game, from_seq)
    emit(as_json, rows, "\n".join(f"{r['seq']:>5}  {r['actor']:14} {r['text']}" for r in rows))


@cli.command("do")
@click.argument("game")
@click.argument("order")
@click.option("--as", "side", required=True, help="The side giving the order.")
@click.option("--expect", "expected_seq", type=EVENT, help="Refuse if the game has moved past this event.")
@json_option
@click.pass_obj
@guarded
def do_cmd(ctx: Context, game: str, order: str, side: str, expected_seq: int | None, as_json: bool) -> None:
    """Give an order in the game's order language."""
    done = ctx.console.order(game, side, order, expected_seq)
    emit(as_json, done, "\n".join(_rows_text(done["events"] + done["automated"])))


@cli.command("standing")
@click.argument("game")
@click.argument("orders", nargs=-1)
@click.option("--as", "side", required=True, help="The side whose standing orders these are.")
@json_option
@click.pass_obj
@guarded
def standing_cmd(ctx: Context, game: str, orders: tuple[str, ...], side: str, as_json: bool) -> None:
    """Set a side's standing orders, each 'KIND: CLAUSE[; CLAUSE ...]' ('KIND: ask' takes one away), in its own
    turn; with none, show them and the kinds that may stand (docs/play-by-email.md, "Standing orders")."""
    done = ctx.console.standing(game, side, list(orders))
    kinds = [f"  {kind:16} orders: {', '.join(k['orders'])}; words: {', '.join(k['words'])}"
             for kind, k in done["kinds"].items()]
    emit(as_json, done, "\n".join([*(done["lines"] or [f"{side} has no standing orders: every decision is asked"]),
                                   "kinds that may stand:", *kinds, *_rows_text(done["automated"])]))


@cli.command("resign")
@click.argument("game")
@click.option("--as", "side", required=True, help="The side that resigns.")
@json_option
@click.pass_obj
@guarded
def resign_cmd(ctx: Context, game: str, side: str, as_json: bool) -> None:
    """Resign: the other side wins; the game is over and its dice seed is revealed."""
    done = ctx.console.resign(game, side)
    emit(as_json, done, done["done"])


@cli.command("draw")
@click.argument("game")
@click.argument("action", type=click.Choice(["offer", "accept", "decline"]))
@click.option("--as", "side", required=True, help="The side that offers, accepts or declines.")
@json_option
@click.pass_obj
@guarded
def draw_cmd(ctx: Context, game: str, action: str, side: str, as_json: bool) -> None:
    """Offer a draw, or accept or decline the other side's offer (accepted: the game ends in a draw)."""
    done = ctx.console.draw(game, side, action)
    emit(as_json, done, done["done"])


@cli.command("say")
@click.argument("game")
@click.argument("text")
@click.option("--as", "seat", required=True, help="The seat that writes: a side, or 'arbiter'.")
@click.option("--to", "to", type=click.Choice(["all", "arbiter"]), default="all", show_default=True,
              help="Every seat, or the arbiter only.")
@json_option
@click.pass_obj
@guarded
def say_cmd(ctx: Context, game: str, text: str, seat: str, to: str, as_json: bool) -> None:
    """Table talk: a message to the other seats (or the arbiter), stored in the game's history; it changes
    nothing in the game."""
    done = ctx.console.say(game, seat, text, to)
    emit(as_json, done, f"event {done['seq']}: {seat} to {'all' if to == 'all' else 'the arbiter'}")


@cli.command("preview")
@click.argument("game")
@click.argument("order")
@click.option("--as", "side", required=True, help="The side that would give the order.")
@json_option
@click.pass_obj
@guarded
def preview_cmd(ctx: Context, game: str, order: str, side: str, as_json: bool) -> None:
    """What an attack would do: strengths, odds, every shift with its case, the result per die; refused as the
    order would be now (out of turn: a preview for planning); an order the rules accept now but draw no preview of
    (a move, an advance) is said to be legal, with no preview. Writes nothing."""
    result = ctx.console.preview(game, side, order)
    emit(as_json, result, result["text"])


@cli.command("state")
@click.argument("game")
@click.option("--at", "at_seq", type=EVENT, help="Rewind: the state after this event.")
@click.option("--as", "side", help="See it as this side sees it (fog of war).")
@json_option
@click.pass_obj
@guarded
def state_cmd(ctx: Context, game: str, at_seq: int | None, side: str | None, as_json: bool) -> None:
    """The position, now or at any event: every stack on the map as a person reads it (hex, terrain and place,
    each side's counters), then the view's records in aligned tables, as the turn email shows them."""
    if as_json:
        emit(as_json, ctx.console.view(game, at_seq, side), "")
    else:
        click.echo(ctx.console.position(game, at_seq, side))


@cli.command("render")
@click.argument("game")
@click.option("--at", "at_seq", type=EVENT, help="The position after this event (default: the last).")
@click.option("--as", "side", help="Draw what this side sees (fog of war); after the game ends, everything.")
@click.option("-o", "--output", type=click.Path(dir_okay=False), required=True, help="The .svg file to write.")
@click.pass_obj
@guarded
def render_cmd(ctx: Context, game: str, at_seq: int | None, side: str | None, output: str) -> None:
    """Draw the map with the units at any event, as an SVG picture."""
    svg, seq, whose = ctx.console.render(game, at_seq, side)
    Path(output).write_text(svg, encoding="utf-8")
    click.echo(f"wrote {output}: {game} after event {seq}, {whose}")


@cli.command("analyze")
@click.argument("game")
@click.option("--as", "side", help="Analyse what this side has seen; after the game ends, everything.")
@click.option("-o", "--output", "out_dir", type=click.Path(file_okay=False),
              help="Write analysis.json and one SVG chart per section into this directory.")
@click.option("--chances", "with_chances", is_flag=True,
              help="Also each side's chance of victory after every Game-Turn, from playouts, and the turning points "
                   "(a running game: only without --as, as its arbiter). Ctrl-C cancels.")
@click.option("--playouts", type=click.IntRange(1, 10000), default=100, show_default=True,
              help="Playouts a Game-Turn for --chances.")
@click.option("--policy", default="search", show_default=True,
              help="What plays the playouts of --chances: search (the strong opponent's search at each Game-Turn, "
                   "its playouts carried through the next one by greedy), greedy or random (both sides, through the "
                   "next Game-Turn). docs/replay.md, \"Chances of victory\".")
@click.option("--workers", type=click.IntRange(1, 64), default=1, show_default=True,
              help="Processes working the Game-Turns out at once for --chances (2 on a 2-core machine that has "
                   "nothing else to do); the same chances.")
@json_option
@click.pass_obj
@guarded
def analyze_cmd(ctx: Context, game: str, side: str | None, out_dir: str | None, with_chances: bool, playouts: int,
                policy: str, workers: int, as_json: bool) -> None:
    """Step losses, victory-hex control, odds taken and die-roll luck, as text, JSON and SVG charts; with
    --chances, the chance of victory through the game."""
    result = ctx.console.analyse(game, side)
    if with_chances:
        result["chances"] = _chances(ctx, game, side, playouts, policy, workers)
    result["charts"] = ctx.console.chart_index(result)  # as the viewer's analysis.json lists them
    if out_dir:
        folder = Path(out_dir)
        folder.mkdir(parents=True, exist_ok=True)
        (folder / "analysis.json").write_text(json.dumps(result, indent=2), encoding="utf-8")
        for name, svg in ctx.console.charts(result).items():
            (folder / f"{name}.svg").write_text(svg, encoding="utf-8")
    lines = [f"{game}: {len(result['attacks'])} attacks, {result['view']}"]
    for s in result["sides"]:
        luck = result["luck"][s]
        lost = sum(result["step_losses"][s].values())
        taken = {c: n for c, n in result["odds"]["by_side"][s].items() if n} or "-"
        lines.append(f"  {s}: lost {lost} steps; {luck['attacks']} attacks at {taken}; luck {luck['score']:+.2f} "
                     f"(sd {luck['sd']:.2f}, z {luck['z']:+.2f}); results {luck['obtained']:+.2f} obtained, "
                     f"{luck['expected']:+.2f} expected")
    score = result.get("score")  # one running total, or one per side (Formosa's victory points)
    rows = ({"": score["by_turn"]} if "by_turn" in score else score["by_side"]) if score else {}
    for who, by_turn in rows.items():
        turns = ", ".join(f"{t}: {v}" for t, v in by_turn.items())
        lines.append(f"  {score['name']}{f' ({who})' if who else ''} at the end of each turn: {turns}")
    if result.get("chances"):
        lines += _chances_text(result["chances"])
    if out_dir:
        lines.append(f"  wrote {out_dir}/analysis.json and charts")
    emit(as_json, result, "\n".join(lines))


def _chances(ctx: Context, game: str, side: str | None, playouts: int, policy: str, workers: int) -> dict:
    """The chances of victory, with a progress bar on stderr; Ctrl-C cancels (nothing is written)."""
    with click.progressbar(length=1, label="playouts", file=sys.stderr) as bar:
        def progress(done: int, total: int) -> None:
            bar.length = total
            bar.update(done - bar.pos)

        try:
            return ctx.console.chances(game, side, playouts=playouts, policy=policy, progress=progress,
                                       workers=workers)
        except KeyboardInterrupt:
            raise click.ClickException(f"cancelled after {bar.pos} of {bar.length} playouts") from None
        except replays.Cancelled as exc:
            raise click.ClickException(f"cancelled: {exc}") from None


def _chances_text(found: dict) -> list[str]:
    lines = [f"  chance of victory after each Game-Turn ({found['method']}, then the strong opponent's "
             "evaluation):"]
    for p in found["points"]:
        lines.append(f"    turn {p['turn']:>2}: " + ", ".join(f"{s} {v:.0%}" for s, v in p["chances"].items()))
    for t in found["turning_points"]:
        swing = ", ".join(f"{s} {v:+.0%}" for s, v in t["swing"].items())
        cause = (f"{t['order']['text']} (event {t['order']['seq']})" if t["order"] else t["event"]) or \
            "no one event moved the evaluation"
        dice = f"; {'; '.join(t['dice'])}" if t["dice"] else ""
        lines.append(f"  turning point, turn {t['turn']}: {swing}: {cause}{dice}")
    return lines


@cli.command("fork")
@click.argument("game")
@click.option("--at", "at_seq", type=EVENT, required=True, help="Branch after this event.")
@click.option("--invite/--no-invite", default=True, show_default=True,
              help="A game played by email: invite its players to the fork (or keep it to yourself).")
@json_option
@click.pass_obj
@guarded
def fork_cmd(ctx: Context, game: str, at_seq: int, invite: bool, as_json: bool) -> None:
    """A new game branching from any event of another; the parent is untouched. The players of a game played by
    email are invited to it, each at their address (their invitations go now)."""
    done = ctx.console.fork(game, at_seq, invite)
    if done["invited"]:
        ctx.application().sender_round()  # the invitations and the fork's first turn email, now
    emit(as_json, done, done["game_id"] + (" (its players are invited)" if done["invited"] else ""))


@cli.group("board")
def board_group() -> None:
    """Analysis boards: from any event of a finished game or a fork, a sandbox where you choose the dice, edit
    units and let any policy play either side. A board is never a played game (docs/replay.md)."""


@board_group.command("open")
@click.argument("game")
@click.option("--at", "at_seq", type=int, help="After this event (default: the game's last).")
@json_option
@click.pass_obj
@guarded
def board_open_cmd(ctx: Context, game: str, at_seq: int | None, as_json: bool) -> None:
    """Open a board on GAME after an event; prints the board's id (b-...)."""
    board = ctx.console.open_board(game, at_seq)
    emit(as_json, {"board": board, "from": game, "at": at_seq}, board)


@board_group.command("do")
@click.argument("board")
@click.argument("order")
@click.option("--as", "side", required=True, help="The side giving the order.")
@click.option("--dice", default="", help="The dice the order takes, in turn (comma-separated, e.g. 6,3); "
                                         "the rest are drawn from the board's public seed.")
@json_option
@click.pass_obj
@guarded
def board_do_cmd(ctx: Context, board: str, order: str, side: str, dice: str, as_json: bool) -> None:
    """Give ORDER for a side on the board, with the dice you choose."""
    try:
        chosen = [int(v) for v in dice.split(",") if v.strip()]
    except ValueError:
        raise click.BadParameter(f"dice are whole numbers, comma-separated, not {dice!r}") from None
    rows = ctx.console.board_order(board, side, order, chosen)
    emit(as_json, rows, "\n".join(_rows_text(rows)))


@board_group.command("edit")
@click.argument("board")
@click.argument("unit")
@click.argument("changes", nargs=-1, required=True, metavar="FIELD=VALUE...")
@json_option
@click.pass_obj
@guarded
def board_edit_cmd(ctx: Context, board: str, unit: str, changes: tuple[str, ...], as_json: bool) -> None:
    """Set fields of UNIT on the board: hex=3512 steps=1 (a value is read as JSON: numbers, true, null)."""
    parsed = {}
    for change in changes:
        name, eq, value = change.partition("=")
        if not eq:
            raise click.BadParameter(f"{change!r} is not FIELD=VALUE")
        try:
            parsed[name] = json.loads(value)
        except ValueError:
            parsed[name] = value
    rows = ctx.console.board_edit(board, unit, parsed)
    emit(as_json, rows, "\n".join(_rows_text(rows)))


@board_group.command("play")
@click.argument("board")
@click.option("--as", "side", required=True, help="The side the policy plays.")
@click.option("--policy", default="greedy", show_default=True, help="greedy, random, search, search:N, ...")
@click.option("--orders", type=click.IntRange(1, 500), default=1, show_default=True,
              help="At most this many orders, while it is that side's turn.")
@json_option
@click.pass_obj
@guarded
def board_play_cmd(ctx: Context, board: str, side: str, policy: str, orders: int, as_json: bool) -> None:
    """Let a policy give a side's next orders on the board."""
    given = ctx.console.board_play(board, side, policy, orders)
    emit(as_json, given, "\n".join(f"{side} ({policy}) orders: {t}" for t in given) or "no order: not its turn")


@cli.command("reveal")
@click.argument("game")
@click.option("--reason", default="arbiter request")
@json_option
@click.pass_obj
@guarded
def reveal_cmd(ctx: Context, game: str, reason: str, as_json: bool) -> None:
    """Publish a game's dice seed (arbiter); no die can be rolled in it afterwards."""
    revealed = ctx.console.reveal(game, reason)
    emit(as_json, revealed, f"seed: {revealed['seed']}")


KEY_OPTION = click.option("--key", "keys", multiple=True, metavar="ed25519:...",
                          help="A receipt key you trust (your invitation's, or the server's "
                               "/.well-known/hexledger-receipts); keys announced in invitations among the receipts "
                               "are trusted too.")


@cli.command("verify")
@click.argument("game")
@click.option("--dice", "check_dice", is_flag=True, help="Also recompute every die roll from the revealed seed.")
@click.option("--seed", help="A seed you were given (arbiter), for rolls not yet revealed in the stream.")
@click.option("--receipts", "receipts_from", type=click.Path(exists=True), multiple=True,
              help="Also check every receipt you kept (a folder of emails or saved chains, or an mbox) against it; "
                   "again for the other player's, to check both against one chain.")
@KEY_OPTION
@json_option
@click.pass_obj
@guarded
def verify_cmd(ctx: Context, game: str, check_dice: bool, seed: str | None, receipts_from: tuple[str, ...],
               keys: tuple[str, ...], as_json: bool) -> None:
    """Audit a game (an id, or an exported .jsonl file): hash chain, every order re-run, dice, receipts. A player's
    own export before the end (their view) is checked against their receipts only: the audit needs every event."""
    if receipts_from and ctx.console.is_player_view(game):
        data, ok, text = {}, True, [f"{game}: a player's view; the audit needs the whole stream (after the end)"]
    else:
        report = ctx.console.verify(game, check_dice, seed)
        text = [f"{report.game_id}: {report.events} events, chain intact and {report.orders_replayed} orders "
                "replayed" if report.ok else f"{report.game_id}: FAILED at event {report.first_bad_seq}"]
        text += [f"  {p}" for p in report.problems]
        if check_dice:
            text.append(f"  dice: {report.rolls_checked} rolls recomputed, {report.rolls_unchecked} not checkable")
            text += [f"  {n}" for n in report.dice_notes]
        data, ok = report.to_dict(), report.ok
    if receipts_from:
        found = ctx.console.check_receipts(game, list(receipts_from), list(keys))
        data["receipts"], ok = found.to_dict(), ok and found.ok
        text += _receipts_text(found)
    emit(as_json, data, "\n".join(text))
    if not ok:
        sys.exit(1)


def _receipts_text(found) -> list[str]:
    """A receipts check (app/events/receipts.py `Check`) as lines."""
    head = (f"receipts: {found.receipts} of game {found.game_id} checked against its {found.head} events, all match"
            if found.ok and not found.differences else
            f"receipts: the chain DIFFERS from what the server signed, first at event {found.first_bad_seq}"
            if found.differences else f"receipts: {len(found.rejected)} receipt(s) rejected")
    lines = [head, f"  chain links recomputed from digests: {found.links_checked}"
                   + (f" ({found.links_unchecked} old events not checkable so)" if found.links_unchecked else "")]
    lines += [f"  {d}" for d in found.differences]
    lines += [f"  rejected, {d}" for d in found.rejected]
    lines += [f"  note: {n}" for n in found.notes]
    return lines


@cli.command("chain")
@click.argument("game")
@click.option("--server", required=True, help="The game's server, e.g. https://hexledger.example")
@click.option("--token", envvar="HEXLEDGER_TOKEN", required=True, help="Your token from the invitation "
                                                                         "(env HEXLEDGER_TOKEN).")
@click.option("--receipts", "receipts_from", type=click.Path(exists=True),
              help="The receipts you kept (a folder of emails or saved chains, or an mbox) to check against it.")
@click.option("--keep", is_flag=True, help="Save the fetched chain in the --receipts folder: a later check then "
                                           "pins any rewrite to its exact event.")
@KEY_OPTION
@json_option
@guarded
def chain_cmd(game: str, server: str, token: str, receipts_from: str | None, keep: bool, keys: tuple[str, ...],
              as_json: bool) -> None:
    """During play: fetch the game's chain of hashes (no payload) and check every receipt you kept against it."""
    from app.service.application import evidence

    listing = evidence.fetch_chain(server, game, token)
    kept = evidence.gather(receipts_from) if receipts_from else evidence.Evidence()
    found = evidence.check_listing(listing, kept, list(keys))
    data = found.to_dict()
    if keep:
        if not receipts_from or not Path(receipts_from).is_dir():
            raise GameError("--keep saves the chain in the --receipts folder: name a folder")
        data["kept"] = str(evidence.keep_chain(receipts_from, listing))
    emit(as_json, data, "\n".join(_receipts_text(found) + ([f"  chain saved: {data['kept']}"] if keep else [])))
    if not found.ok:
        sys.exit(1)


@cli.command("receipt-key")
@click.option("--new", "new_file", type=click.Path(dir_okay=False), default=None,
              help="Write a new Ed25519 key to this file (PEM) for HEXLEDGER_RECEIPT_KEY: rotation.")
@json_option
@click.pass_obj
@guarded
def receipt_key_cmd(ctx: Context, new_file: str | None, as_json: bool) -> None:
    """The server's receipt keys: the one signing now and the retired ones; --new makes the next one."""
    keys = ctx.console.receipt_keys()
    if new_file:
        from app.service.application import receipts

        keys["new"] = receipts.new_key_file(new_file)
    text = [f"current: {keys['current']}"] + [f"retired: {k}" for k in keys["retired"]]
    if new_file:
        text += [f"new: {keys['new']} written to {new_file}",
                 f"to rotate: HEXLEDGER_RECEIPT_KEY={new_file} and add {keys['current']} to HEXLEDGER_RECEIPT_RETIRED"]
    emit(as_json, keys, "\n".join(text))


@cli.command("export")
@click.argument("game")
@click.option("-o", "--output", type=click.Path(dir_okay=False), required=True)
@json_option
@click.pass_obj
@guarded
def export_cmd(ctx: Context, game: str, output: str, as_json: bool) -> None:
    """Write the whole game as JSON Lines (one event a line, hashes included)."""
    lines = ctx.console.export(game)
    Path(output).write_text("".join(lines), encoding="utf-8")
    emit(as_json, {"game_id": game, "events": len(lines), "file": output}, f"{len(lines)} events -> {output}")


@cli.command("import")
@click.argument("file", type=click.Path(exists=True, dir_okay=False))
@json_option
@click.pass_obj
@guarded
def import_cmd(ctx: Context, file: str, as_json: bool) -> None:
    """Load an exported game; a file that does not verify is refused whole."""
    with open(file, encoding="utf-8") as fh:
        game_id = ctx.console.import_game(fh)
    emit(as_json, {"game_id": game_id}, f"imported {game_id}")


@cli.command("demo")
@click.option("--rules", "rules_name", default="snc", show_default=True, help="Which game's scripted opening.")
@json_option
@click.pass_obj
@guarded
def demo_cmd(ctx: Context, rules_name: str, as_json: bool) -> None:
    """Create a sample game with some history and print its id."""
    game_id, played = ctx.console.demo(rules_name)
    url = ctx.console.open_link(ctx.mail(), game_id)
    me = invoked_as()
    text = "\n".join([f"demo game {game_id}: {len(played)} orders played", *[f"  {o}" for o in played],
                      f"next: {me} show {game_id}   |   {me} log {game_id}   |   {me} verify {game_id}",
                      f"watch it in the browser ({ctx.console.whose_view(game_id)}): {me} serve, then open {url}"])
    emit(as_json, {"game_id": game_id, "orders": played, "url": url}, text)


@cli.command("open")
@click.argument("game")
@click.option("--as", "side", help="See it as this side sees it (fog of war); default: the referee's view.")
@click.option("--server", help="The server's address (default: HEXLEDGER_PUBLIC_URL, else http://127.0.0.1:8080/, "
                               "where `serve` listens).")
@click.option("--browser", is_flag=True, help="Also open the link in the web browser.")
@json_option
@click.pass_obj
@guarded
def open_cmd(ctx: Context, game: str, side: str | None, server: str | None, browser: bool, as_json: bool) -> None:
    """A link that opens a game in the replay viewer, as a side or as the referee: for the database's owner, who
    can read every game in it anyway (a game made here has no seats, so no player's link). The link's key opens
    that game's viewer only, as that view, and gives no orders (docs/replay.md, "The owner's link")."""
    url = ctx.console.open_link(ctx.mail(), game, side, server)
    view = ctx.console.whose_view(game, side)
    emit(as_json, {"game_id": game, "view": side or "all", "url": url},
         f"{url}\n  {game}, {view}; needs the server running: {invoked_as()} serve")
    if browser:
        import webbrowser

        webbrowser.open(url)


@cli.command("serve")
@click.option("--host", default="127.0.0.1", show_default=True)
@click.option("--port", default=8080, show_default=True, type=int)
@click.option("--threads", default=8, show_default=True, type=click.IntRange(1),
              help="Worker threads: requests served at once.")
@click.option("--connection-limit", default=512, show_default=True, type=click.IntRange(1),
              help="Open connections served (kept-alive ones included); a connection past it gets 503 with "
                   "Retry-After and is closed.")
@click.option("--request-queue", default=128, show_default=True, type=click.IntRange(0),
              help="Requests that may wait for a worker thread; one more gets 503 with Retry-After at once.")
@click.option("--backlog", default=1024, show_default=True, type=click.IntRange(1),
              help="Connections the kernel holds before the server accepts them (listen backlog).")
@click.option("--channel-timeout", default=120, show_default=True, type=click.IntRange(1),
              help="Seconds an idle kept-alive connection stays open.")
@click.option("--retry-after", default=1, show_default=True, type=click.IntRange(1),
              help="The Retry-After (seconds) of a 503 past these limits.")
@click.option("--admin-token-file", type=click.File("r"), default=None,
              help="A file holding the operator's key, which creating a game needs (POST /games, bearer); "
                   "default HEXLEDGER_ADMIN_TOKEN. Without a key, creating games is closed.")
@click.option("--open-game-creation", is_flag=True, default=False,
              help="Let anyone create games when no operator's key is set (HEXLEDGER_OPEN_GAME_CREATION=1).")
@click.pass_obj
def serve_cmd(ctx: Context, host: str, port: int, threads: int, connection_limit: int, request_queue: int,
              backlog: int, channel_timeout: int, retry_after: int, admin_token_file,
              open_game_creation: bool) -> None:
    """Run the HTTP API and the replay viewer (waitress, app/web/server.py) on the database; mail per
    HEXLEDGER_SMTP_* (default: .eml files in outbox/), sent from the outbox by a sender process; links in emails need
    HEXLEDGER_PUBLIC_URL. Past its limits the server answers 503 with Retry-After at once (README, "Serving").
    Prints an access log: one line per request (app/web/access.py)."""
    from app.web import create_app, server
    from app.web.access import AccessLog

    settings = ctx.settings.with_flags(  # mail laid out and sent by a process of its own
        mail_sender="process", admin_token=admin_token_file.read().strip() if admin_token_file else None,
        open_game_creation=open_game_creation or None)
    try:
        app = create_app(settings=settings)
    except ValueError as exc:
        raise click.UsageError(str(exc)) from None
    app.wsgi_app = AccessLog(app.wsgi_app, click.echo)  # one line per request on standard output
    limits = server.Limits(threads=threads, connection_limit=connection_limit, request_queue=request_queue,
                    backlog=backlog, channel_timeout=channel_timeout, retry_after=retry_after)
    creation = ("needs the operator's key" if settings.admin_token else
                "open to anyone" if settings.open_game_creation else "closed (no operator's key set)")
    click.echo(f"Hexledger API on http://{host}:{port}/  (docs: /docs, OpenAPI: /openapi.json, replay viewer: "
               f"/replay/GAME/; db {ctx.console.shown}; creating games: {creation}; {threads} threads, "
               f"{connection_limit} connections, {request_queue} waiting requests)")
    server.make_server(app, host, port, limits).run()


@cli.command("ingest-email")
@click.argument("file", default="-", type=click.File("rb"))
@click.option("--maildir", type=click.Path(exists=True, file_okay=False),
              help="Process every new message in this maildir instead (each moves to cur/ when done, or to the "
                   "folder .quarantine if it cannot be processed).")
@json_option
@click.pass_obj
@guarded
def ingest_cmd(ctx: Context, file, maildir: str | None, as_json: bool) -> None:
    """Apply the orders in an email (a file, or - for stdin); the sender gets a reply listing each order.
    Exit status (docs/play-by-email.md): 0 when every message was processed and answered, its orders refused or
    not, or had been processed before; 75 (EX_TEMPFAIL: an MTA tries again) if the database could not take a
    message now (nothing of it written); 70 if a message could not be processed (set aside, logged)."""
    from app.mail import inbound

    app = ctx.application()
    results = inbound.ingest_maildir(app, maildir) if maildir else [inbound.ingest(app, file.read())]
    data = [{"game_id": r.game_id, "applied": r.applied, "refused": r.refused, "deferred": r.deferred,
             "quarantined": r.quarantined, "lines": r.lines} for r in results]
    emit(as_json, data, "\n".join(f"{r.game_id or '-'}: {r.summary}\n" + "\n".join(f"  {x}" for x in r.lines)
                                  for r in results) or "no new messages")
    if any(r.deferred for r in results):
        click.echo("error: the database could not take the message now; nothing of it was written: run again "
                   "later", err=True)
        sys.exit(EXIT_TEMPFAIL)
    if any(r.quarantined for r in results):
        sys.exit(EXIT_SOFTWARE)


@cli.command("tick")
@json_option
@click.pass_obj
@guarded
def tick_cmd(ctx: Context, as_json: bool) -> None:
    """Run from cron: the reactions any write is still owed (turn emails, notices), reminders before a move is due,
    what a passed deadline causes, and the mail that is due."""
    done = ctx.application().deadlines.tick()
    emit(as_json, done, "\n".join(done) or "nothing due")


@cli.command("outbox")
@click.option("--send", is_flag=True, help="Send the mail that is due now (as tick and the server's sender do).")
@click.option("--retry", is_flag=True, help="Queue the mail refused for good (5xx) again, due now.")
@json_option
@click.pass_obj
@guarded
def outbox_cmd(ctx: Context, send: bool, retry: bool, as_json: bool) -> None:
    """The mail not yet delivered (docs/play-by-email.md, "The outbox"): each row's recipient, attempts and last
    error, never its text (an invitation carries a token); turn emails superseded by newer ones, never sent (kept
    HEXLEDGER_OUTBOX_KEEP_DAYS after they fell due)."""
    app = ctx.application()
    if retry:
        click.echo(f"{app.mailroom.retry_failed()} failed email(s) queued again", err=True)
    if send:
        app.reactions.catch_up()  # what the stored events still owe, as the sender's round does
        report = app.mailroom.deliver()
        click.echo(f"{report.sent} sent, {len(report.failed)} failed, {report.superseded} superseded, "
                   f"{report.pruned} superseded deleted", err=True)
    rows = app.mailroom.mail_queue()
    emit(as_json, rows, "\n".join(f"{r['id']:>6} {r['status']:10} {r['kind']:8} {r['game_id'] or '-':11} "
                                  f"{r['recipient']}  attempts {r['attempts']}, next {r['next_attempt_at']}"
                                  + (f"\n         {r['last_error']}" if r["last_error"] else "")
                                  + (f"\n         superseded by mail {r['superseded_by']}: not sent"
                                     if r["superseded_by"] else "") for r in rows)
         or "the outbox is empty")
