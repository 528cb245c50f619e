"""The API's blueprints: flask-smorest's, with its documentation recorded on each route rather than run as wrappers
around it on every request (issue 26). The game routes (app/web/routes.py) and the replay viewer's data
(app/web/replay.py, with the analysis boards and chances that join it) are each an `ApiBlueprint`."""
from __future__ import annotations

import functools

from flask import request
from flask_smorest import Blueprint
from marshmallow import Schema, ValidationError


class ApiBlueprint(Blueprint):
    """flask-smorest's Blueprint, each route's argument schema made once: given a Schema class, webargs makes an
    instance of it on every request (about 25 us of a state read's CPU, issue 15); one serves them all
    (the schemas keep no state between loads). A request with no query string gets its query arguments as the
    schema loads nothing, worked out once (`_defaults_without_query`), not parsed again (issue 26). `doc`,
    `alt_response` and `own_response` record their documentation on the route itself instead of wrapping it in one
    more call per request (`_documentation_only`, issue 26)."""

    @staticmethod
    def doc(**kwargs):
        return _documentation_only(Blueprint.doc(**kwargs))

    def alt_response(self, status_code, *args, **kwargs):
        return _documentation_only(super().alt_response(status_code, *args, **kwargs))

    def own_response(self, status_code, *args, **kwargs):
        """`response` for a route that always answers a Response it made itself (a read with its ETag, a picture,
        a kept page of frames): flask-smorest's wrapper would hand that Response on as it is, so only the
        documentation it records is kept (`_documentation_only`)."""
        return _documentation_only(super().response(status_code, *args, **kwargs))

    def arguments(self, schema, **options):
        schema = schema() if isinstance(schema, type) else schema
        decorate = super().arguments(schema, **options)
        return decorate if options.get("location") != "query" else _defaults_without_query(schema, decorate)


def _documentation_only(document):
    """flask-smorest's documenting decorator `document` without its run-time part: the documentation it records
    on the wrapper it makes is recorded on the route itself, and the wrapper, whose only work is to call the route
    (through `ensure_sync`), is dropped. A state read went through three of them, an order submit five."""

    def decorator(func):
        func._apidoc = document(func)._apidoc  # flask-smorest's copy: the function's own is not changed
        return func

    return decorator


def _defaults_without_query(schema: Schema, decorate):
    """`decorate` (webargs' query parsing, with its documentation), except that a request without a query string
    passes the route what the schema loads from nothing (each field's default) without parsing: the same
    arguments, as every request with an empty query got them. A schema that refuses nothing (a required field)
    is parsed every time, so its refusal stays webargs'."""

    def decorator(func):
        parsed = decorate(func)
        empty: list[dict | None] = []

        @functools.wraps(parsed)
        def route(*args, **kwargs):
            if not empty:
                try:
                    empty.append(schema.load({}))
                except ValidationError:
                    empty.append(None)
            if request.query_string or empty[0] is None:
                return parsed(*args, **kwargs)
            return func(*args, dict(empty[0]), **kwargs)

        return route

    return decorator
