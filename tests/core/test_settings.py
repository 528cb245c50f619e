"""One settings object (app/settings.py, issue 26): every HEXLEDGER_* variable is read there and nowhere else, once
when a program starts, documented in one place (docs/configuration.md), and a flag overrides the environment."""
from __future__ import annotations

import re
import sqlite3
from dataclasses import fields
from pathlib import Path

import pytest
from click.testing import CliRunner

from app.mail.transport import MailConfig
from app.settings import CLIENT_VARIABLES, VARIABLES, Settings, document
from app.web import create_app
from cli import cli

ROOT = Path(__file__).resolve().parents[2]


def test_the_environment_is_read_in_one_module():
    readers = sorted(str(path.relative_to(ROOT)) for path in [*(ROOT / "app").rglob("*.py"), ROOT / "cli.py"]
                     if re.search(r"os\.environ|getenv|envvar=\"HEXLEDGER_(?!TOKEN)", path.read_text()))
    assert readers == ["app/settings.py"]


def test_every_variable_the_program_names_is_a_setting_and_documented():
    named = {name for path in (ROOT / "app").rglob("*.py") if path.name != "settings.py"
             for name in re.findall(r"HEXLEDGER_[A-Z_]*[A-Z]", path.read_text())} - {"HEXLEDGER_SMTP"}
    variables = {v.name for v in VARIABLES}
    assert named <= variables | set(CLIENT_VARIABLES), named - variables - set(CLIENT_VARIABLES)
    assert [v.field for v in VARIABLES] == [f.name for f in fields(Settings)]
    page = (ROOT / "docs" / "configuration.md").read_text()
    assert page == document(), "docs/configuration.md is made by `python -m app.settings`: run it again"
    assert set(re.findall(r"^\| `(HEXLEDGER_[A-Z_]+)`", page, re.M)) == variables | set(CLIENT_VARIABLES)
    assert "docs/configuration.md" in (ROOT / "README.md").read_text()


def test_unset_and_empty_variables_keep_their_defaults():
    assert Settings.from_env({}) == Settings() == Settings.from_env({"HEXLEDGER_DB": "", "HEXLEDGER_SMTP_PORT": " "})
    assert (Settings().db, Settings().snapshot_every, Settings().view_cache) == ("db/hexledger.sqlite3", 50, 512)


def test_values_are_parsed_and_flags_override_them():
    env = {"HEXLEDGER_DB": "a.sqlite3", "HEXLEDGER_SNAPSHOT_EVERY": " 10 ", "HEXLEDGER_BUSY_TIMEOUT": "2.5",
           "HEXLEDGER_OPEN_GAME_CREATION": "yes", "HEXLEDGER_SMTP_SECURITY": "STARTTLS",
           "HEXLEDGER_RECEIPT_RETIRED": " k1, ,k2 ", "HEXLEDGER_STRANGER_REPLY_HOURS": "0"}
    settings = Settings.from_env(env)
    assert (settings.db, settings.snapshot_every, settings.busy_timeout) == ("a.sqlite3", 10, 2.5)
    assert settings.open_game_creation and settings.smtp_security == "starttls"
    assert settings.receipt_retired == ("k1", "k2") and settings.stranger_reply_hours == 0
    assert settings.with_flags(db="b.sqlite3", busy_timeout=None).db == "b.sqlite3"
    assert settings.with_flags(db=None) == settings


def test_the_mail_settings_make_the_mail_configuration():
    mail = MailConfig.from_settings(Settings.from_env({"HEXLEDGER_SMTP_SECURITY": "ssl", "HEXLEDGER_MAIL_RETRY": "5",
                                                       "HEXLEDGER_ORDERS_ADDRESS": "o@x.example",
                                                       "HEXLEDGER_NOTIFY_PRIVATE_HOSTS": "ntfy.lan, ,10.0.0.7"}))
    assert (mail.smtp_port, mail.retry_seconds, mail.orders_address) == (465, 5.0, "o@x.example")
    assert mail.notify_private_hosts == ("ntfy.lan", "10.0.0.7")
    assert MailConfig.from_settings(Settings()).smtp_port == 25


@pytest.mark.parametrize("name, raw", [("HEXLEDGER_SNAPSHOT_EVERY", "0"), ("HEXLEDGER_SNAPSHOT_EVERY", "-5"),
                                       ("HEXLEDGER_SNAPSHOT_EVERY", "ten"), ("HEXLEDGER_SNAPSHOT_EVERY", "2.5"),
                                       ("HEXLEDGER_VIEW_CACHE", "-1"), ("HEXLEDGER_VIEW_CACHE", "many"),
                                       ("HEXLEDGER_STATE_CACHE", "-1"), ("HEXLEDGER_REPLAY_BUILDS", "0"),
                                       ("HEXLEDGER_BUSY_TIMEOUT", "0"), ("HEXLEDGER_BUSY_TIMEOUT", "soon"),
                                       ("HEXLEDGER_MAIL_RETRY", "-1"), ("HEXLEDGER_SMTP_SECURITY", "tls"),
                                       ("HEXLEDGER_MAIL_SENDER", "later"), ("HEXLEDGER_SMTP_PORT", "smtp")])
def test_a_bad_value_is_refused_with_its_variables_name(name, raw):
    with pytest.raises(ValueError, match=name):
        Settings.from_env({name: raw})


def test_the_command_line_reads_the_environment_and_its_db_flag_wins(monkeypatch, tmp_path):
    monkeypatch.setenv("HEXLEDGER_DB", str(tmp_path / "from-env.sqlite3"))
    runner = CliRunner()
    assert runner.invoke(cli, ["new", "skirmish"]).exit_code == 0
    assert runner.invoke(cli, ["--db", str(tmp_path / "flag.sqlite3"), "new", "skirmish"]).exit_code == 0
    assert runner.invoke(cli, ["new", "skirmish", "--db", str(tmp_path / "after.sqlite3")]).exit_code == 0
    assert sorted(p.name for p in tmp_path.glob("*.sqlite3")) == ["after.sqlite3", "flag.sqlite3", "from-env.sqlite3"]


def test_a_bad_variable_stops_a_command_before_it_writes(monkeypatch, tmp_path):
    monkeypatch.setenv("HEXLEDGER_DB", str(tmp_path / "never.sqlite3"))
    monkeypatch.setenv("HEXLEDGER_STATE_CACHE", "lots")
    result = CliRunner().invoke(cli, ["new", "skirmish"])
    assert result.exit_code == 1 and "HEXLEDGER_STATE_CACHE" in result.output and "Traceback" not in result.output
    assert not list(tmp_path.iterdir())


def test_the_snapshot_interval_reaches_the_store_a_command_opens(monkeypatch, tmp_path):
    db = str(tmp_path / "s.sqlite3")
    monkeypatch.setenv("HEXLEDGER_DB", db)
    monkeypatch.setenv("HEXLEDGER_SNAPSHOT_EVERY", "3")
    runner = CliRunner()
    game = runner.invoke(cli, ["new", "skirmish"]).output.strip()
    for side in ("red", "blue"):
        assert runner.invoke(cli, ["join", game, "--side", side, "--name", side]).exit_code == 0
    for n in range(4):
        assert runner.invoke(cli, ["do", game, "end", "--as", "red" if n % 4 < 2 else "blue"]).exit_code == 0
    seqs = [row[0] for row in sqlite3.connect(db).execute("SELECT seq FROM snapshots WHERE game_id = ?", [game])]
    assert len(seqs) >= 2 and max(seqs) < 50  # at the default of 50 events, a game this short has none


def test_create_app_takes_the_environment_and_its_config_as_flags(monkeypatch, tmp_path):
    monkeypatch.setenv("HEXLEDGER_DB", str(tmp_path / "env.sqlite3"))
    monkeypatch.setenv("HEXLEDGER_RATE_LIMIT", "5 per minute")
    app = create_app({"HEXLEDGER_DB": str(tmp_path / "flag.sqlite3"), "OPEN_GAME_CREATION": True,
                      "MAIL": MailConfig(outbox=str(tmp_path / "outbox"))})
    settings = app.config["SETTINGS"]
    assert (settings.db, settings.rate_limit, settings.open_game_creation) == (
        str(tmp_path / "flag.sqlite3"), "5 per minute", True)
    client = app.test_client()
    made = client.post("/games", json={"rules": "skirmish", "players": {"red": "r@x.example", "blue": "b@x.example"}})
    assert made.status_code == 201 and (tmp_path / "flag.sqlite3").exists() and not (tmp_path / "env.sqlite3").exists()
    assert made.headers["X-RateLimit-Limit"] == "5"


def test_serve_flags_override_the_environment(monkeypatch, tmp_path):
    """`serve --open-game-creation` over an environment that closes it; the banner says so (the server is not run:
    `make_server` is where it would start)."""
    from app.web import server

    monkeypatch.setenv("HEXLEDGER_OPEN_GAME_CREATION", "0")
    monkeypatch.setenv("HEXLEDGER_OUTBOX", str(tmp_path / "outbox"))
    started = {}

    class NotRun:
        def run(self):
            started["ran"] = True

    def make_server(app, host, port, limits):
        started["settings"] = app.config["SETTINGS"]
        app.extensions["hexledger_sender"].stop()
        return NotRun()

    monkeypatch.setattr(server, "make_server", make_server)
    result = CliRunner().invoke(cli, ["--db", str(tmp_path / "s.sqlite3"), "serve", "--open-game-creation"])
    assert result.exit_code == 0, result.output
    assert "creating games: open to anyone" in result.output and started["ran"]
    assert started["settings"].open_game_creation and started["settings"].mail_sender == "process"
    assert started["settings"].db == str(tmp_path / "s.sqlite3")


def test_the_caches_a_program_keeps_are_sized_by_the_settings(monkeypatch, tmp_path):
    """HEXLEDGER_*_CACHE and HEXLEDGER_REPLAY_BUILDS size the process's caches when the web app starts (the command
    line and the sender process likewise: application.size_caches); 0 keeps none."""
    from app.projections import cache
    from app.service import audit, replays

    sized = [(cache.STATES, "capacity"), (cache.VIEWS, "capacity"), (audit.REPORTS, "capacity"),
             (replays.KEPT, "capacity"), (replays.OPEN, "capacity"), (replays.BUILDS, "max_builds")]
    for holder, name in sized:  # put back as they were once the test ends
        monkeypatch.setattr(holder, name, getattr(holder, name))
    for name, value in [("HEXLEDGER_STATE_CACHE", "0"), ("HEXLEDGER_VIEW_CACHE", "7"), ("HEXLEDGER_AUDIT_CACHE", "5"),
                        ("HEXLEDGER_REPLAY_CACHE", "2"), ("HEXLEDGER_REPLAY_ACCESS_CACHE", "9"),
                        ("HEXLEDGER_REPLAY_BUILDS", "3")]:
        monkeypatch.setenv(name, value)
    create_app({"HEXLEDGER_DB": str(tmp_path / "c.sqlite3"), "MAIL": MailConfig(outbox=str(tmp_path / "outbox"))})
    assert [getattr(holder, name) for holder, name in sized] == [0, 7, 5, 2, 9, 3]
