"""A database that cannot be reached (issue 25): no answer to a client names the infrastructure (the database's
user, host, port, name or password), on any route, with or without a credential; the operator's log has the
detail, every password in it masked, in every form libpq takes one (the URL's user:PASSWORD@ and the ?password= and
&sslpassword= parameters). On main an anonymous 503 named the user, host, port and database, and ?password= showed
in full. The store's StoreUnavailable carries the two apart (its message, its `detail`); app/events/backends.py
`shown` masks."""
from __future__ import annotations

import logging

import pytest
from click.testing import CliRunner

from app.events.backends import shown
from app.mail.transport import MailConfig
from app.web import create_app
from bench.reliability import free_port
from cli import cli
from tests.outbox import Outbox

USER, HOST, NAME = "hexowner", "127.0.0.1", "hexledger_games"
SECRETS = ("s3cret-in-userinfo", "pw-in-query", "key-in-sslpassword")


@pytest.fixture
def unreachable() -> tuple[str, str]:
    """A PostgreSQL URL nobody listens at, with a password in each place libpq takes one; and its port."""
    port = str(free_port())
    return (f"postgresql://{USER}:{SECRETS[0]}@{HOST}:{port}/{NAME}?password={SECRETS[1]}&sslpassword={SECRETS[2]}"
            "&connect_timeout=2"), port


def infrastructure(text: str, port: str) -> list[str]:
    return [part for part in (USER, HOST, port, NAME, "PostgreSQL", "postgresql", *SECRETS) if part in text]


def test_no_answer_to_a_client_names_the_database_and_the_log_has_it_masked(unreachable, caplog):
    url, port = unreachable
    app = create_app({"HEXLEDGER_DB": url, "MAIL": MailConfig(), "MAIL_TRANSPORT": Outbox(),
                      "ADMIN_TOKEN": "the-operator-key-of-this-test", "HEXLEDGER_BUSY_TIMEOUT": 2})
    client = app.test_client()
    caplog.set_level(logging.WARNING, logger="hexledger.web")
    requests = [("GET", "/games", {}, None), ("GET", "/games/g-00000000/state", {}, None),
                ("GET", "/games/g-00000000/history", {"Authorization": "Bearer not-a-token"}, None),
                ("POST", "/games/g-00000000/orders", {"Authorization": "Bearer not-a-token"}, "end"),
                ("GET", "/replay/g-00000000/frames.json", {}, None),
                ("POST", "/games", {"Authorization": "Bearer the-operator-key-of-this-test"},
                 {"rules": "skirmish", "players": {"red": "r@x.example", "blue": "b@x.example"}})]
    for method, path, headers, body in requests:
        answer = client.open(path, method=method, headers=headers, **({"json": body} if isinstance(body, dict) else
                                                                      {"data": body}))
        text = answer.get_data(as_text=True) + str(answer.headers)
        assert answer.status_code == 503 and "cannot reach the database" in text, (path, answer.status_code, text)
        assert infrastructure(text, port) == [], (path, text)
    logged = caplog.text
    assert f"{USER}:***@{HOST}:{port}/{NAME}" in logged and "password=***" in logged and "sslpassword=***" in logged
    assert not any(secret in logged for secret in SECRETS), logged


def test_the_command_line_says_what_failed_and_logs_where(unreachable, caplog):
    url, port = unreachable
    caplog.set_level(logging.WARNING, logger="hexledger.cli")
    result = CliRunner().invoke(cli, ["--db", url, "list"])
    assert result.exit_code == 1 and "cannot reach the database" in result.output, result.output
    assert infrastructure(result.output, port) == [], result.output
    assert f"{USER}:***@{HOST}:{port}/{NAME}" in caplog.text and not any(s in caplog.text for s in SECRETS)


@pytest.mark.parametrize(("location", "masked"), [
    ("postgresql://u:pw@h:5432/d", "postgresql://u:***@h:5432/d"),
    ("postgresql://u@h/d?password=pw&sslmode=require", "postgresql://u@h/d?password=***&sslmode=require"),
    ("postgres://u:p%40w@h/d?sslmode=require&PASSWORD=pw&sslpassword=k", "postgres://u:***@h/d?sslmode=require&"
                                                                         "PASSWORD=***&sslpassword=***"),
    ("postgresql:///d?host=/run/postgresql&password=pw", "postgresql:///d?host=/run/postgresql&password=***"),
    ("postgresql://u@[::1]:5432/d", "postgresql://u@[::1]:5432/d"),
    ("db/hexledger.sqlite3", "db/hexledger.sqlite3"),
])
def test_shown_masks_every_password_and_keeps_the_rest(location, masked):
    assert shown(location) == masked
