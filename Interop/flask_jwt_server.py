# This source file is part of the AuthKit open source project
#
# Copyright (c) 2026 the AuthKit project authors
# Licensed under Apache License v2.0 (see LICENSE)
#
# SPDX-License-Identifier: Apache-2.0

"""Peer A: a Flask app secured by flask-jwt-extended, for AuthKit's interop tests.

JWTs travel in cookies (with flask-jwt-extended's CSRF double submit) or in the Authorization
header. Besides flask-jwt-extended's own cookie refresh (`POST /refresh`), an OAuth 2.0 shaped
token endpoint (`POST /oauth/token`, RFC 6749 section 6) rotates refresh tokens: a used one is
remembered, and presenting it again revokes its whole family. Access tokens from `/login` live
`--access-seconds`, renewed ones (from `/refresh` or `/oauth/token`) `--renewed-access-seconds`.
`GET /_counters` counts sign-ins, renewals (also per user, `oauth_refreshes:<user>`, and the
distinct expiries of the renewed access tokens, `renewed_expiries:<user>`), rejected reuse, 401
answers (`unauthorized`) and refusals of an expired access token (`expired`, `expired:<user>`).
`--clock-ahead` makes the server's clock read ahead of the machine's, as on another host.

    python flask_jwt_server.py --port 0 --access-seconds 2 --renewed-access-seconds 30

prints `PORT <n>` as its first line once it listens on 127.0.0.1, and exits when its standard
input, if a pipe, closes (so a crashed test leaves no server behind).
"""

import argparse
import secrets
import threading
import uuid
from collections import Counter, defaultdict
from datetime import timedelta

from flask import Flask, jsonify, request
from flask_jwt_extended import (
    JWTManager,
    create_access_token,
    create_refresh_token,
    decode_token,
    get_jwt,
    get_jwt_identity,
    jwt_required,
    set_access_cookies,
    set_refresh_cookies,
)
from flask_jwt_extended.default_callbacks import default_expired_token_callback
from flask_jwt_extended.exceptions import JWTExtendedException
from jwt.exceptions import PyJWTError

from peer_support import serve

USERS = {"alice": "correct horse battery staple", "bob": "correct horse battery staple"}


def create_app(access_seconds, renewed_access_seconds, secure_cookies=False):
    app = Flask(__name__)
    app.config.update(
        JWT_SECRET_KEY=secrets.token_hex(32),
        JWT_TOKEN_LOCATION=["cookies", "headers"],
        JWT_COOKIE_CSRF_PROTECT=True,
        JWT_COOKIE_SECURE=secure_cookies,  # `Secure` cookies, as deployed, even over http on 127.0.0.1
        JWT_ACCESS_TOKEN_EXPIRES=timedelta(seconds=access_seconds),
        JWT_REFRESH_TOKEN_EXPIRES=timedelta(days=1),
    )
    jwt = JWTManager(app)
    lock = threading.Lock()
    counts, paths = Counter(), Counter()
    used_refresh_jtis, revoked_families = set(), set()
    renewed_expiries = defaultdict(set)  # user -> the distinct `exp` of the access tokens renewed for them

    def count(name):
        with lock:
            counts[name] += 1

    renewed = timedelta(seconds=renewed_access_seconds)

    def issue(username, family, lifetime=None):
        claims = {"family": family}
        return (create_access_token(username, additional_claims=claims, expires_delta=lifetime),
                create_refresh_token(username, additional_claims=claims))

    @jwt.expired_token_loader
    def expired(header, payload):
        # Counted per user: a test can tell its accounts' refusals apart.
        with lock:
            counts["expired"] += 1
            counts[f"expired:{payload.get('sub')}"] += 1
        return default_expired_token_callback(header, payload)

    @jwt.token_in_blocklist_loader
    def is_revoked(_header, payload):
        return payload.get("family") in revoked_families

    @app.before_request
    def count_request():
        with lock:
            paths[request.path] += 1

    @app.after_request
    def count_status(response):
        if response.status_code == 401:
            count("unauthorized")
        return response

    @app.post("/login")
    def login():
        body = request.get_json(silent=True) or {}
        username = body.get("username")
        if USERS.get(username) is None or USERS[username] != body.get("password"):
            return jsonify(msg="Bad username or password"), 401
        count("logins")
        access, refresh = issue(username, uuid.uuid4().hex)
        response = jsonify(access_token=access, refresh_token=refresh)
        set_access_cookies(response, access)
        set_refresh_cookies(response, refresh)
        return response

    @app.post("/refresh")
    @jwt_required(refresh=True)
    def cookie_refresh():
        count("cookie_refreshes")
        response = jsonify(refreshed=True)
        claims = {"family": get_jwt().get("family")}
        set_access_cookies(response, create_access_token(get_jwt_identity(), additional_claims=claims, expires_delta=renewed))
        return response

    @app.post("/oauth/token")
    def oauth_token():
        if request.form.get("grant_type") != "refresh_token":
            return jsonify(error="unsupported_grant_type"), 400
        try:
            claims = decode_token(request.form.get("refresh_token", ""))
        except (JWTExtendedException, PyJWTError):
            return jsonify(error="invalid_grant"), 400
        with lock:
            family = claims.get("family")
            if claims.get("type") != "refresh" or family in revoked_families:
                return jsonify(error="invalid_grant"), 400
            if claims["jti"] in used_refresh_jtis:
                counts["rejected_reuse"] += 1
                revoked_families.add(family)
                return jsonify(error="invalid_grant", error_description="refresh token reused"), 400
            used_refresh_jtis.add(claims["jti"])
            counts["oauth_refreshes"] += 1
            counts[f"oauth_refreshes:{claims['sub']}"] += 1
        access, refresh = issue(claims["sub"], family, renewed)
        with lock:
            renewed_expiries[claims["sub"]].add(decode_token(access)["exp"])
            counts[f"renewed_expiries:{claims['sub']}"] = len(renewed_expiries[claims["sub"]])
        return jsonify(access_token=access, token_type="Bearer", expires_in=int(renewed.total_seconds()), refresh_token=refresh)

    @app.get("/api/me")
    @jwt_required()
    def me():
        return jsonify(username=get_jwt_identity())

    @app.post("/api/notes")
    @jwt_required()
    def notes():
        return jsonify(username=get_jwt_identity(), note=request.get_json(silent=True))

    @app.get("/_counters")
    def counters():
        with lock:
            return jsonify(counts=dict(counts), requests=dict(paths))

    return app


def run_clock_ahead(seconds):
    """Makes this server's clock read `seconds` ahead of the machine's, as a server on another
    host whose clock differs: the tokens' `iat` and `exp`, their verification (PyJWT) and the
    `Date` of every response."""
    import http.server
    import time
    from datetime import datetime

    import flask_jwt_extended.config
    import flask_jwt_extended.tokens
    import jwt.api_jwt

    class ServerClock(datetime):
        @classmethod
        def now(cls, tz=None):
            return cls.fromtimestamp(time.time() + seconds, tz)

    for module in (jwt.api_jwt, flask_jwt_extended.tokens, flask_jwt_extended.config):
        module.datetime = ServerClock
    stamp = http.server.BaseHTTPRequestHandler.date_time_string
    http.server.BaseHTTPRequestHandler.date_time_string = lambda self, timestamp=None: stamp(self, time.time() + seconds if timestamp is None else timestamp)


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--port", type=int, default=0, help="0 picks a free port")
    parser.add_argument("--access-seconds", type=int, default=2, help="lifetime of access tokens from /login")
    parser.add_argument("--renewed-access-seconds", type=int, help="lifetime of renewed ones (default: the same)")
    parser.add_argument("--secure-cookies", action="store_true", help="mark the JWT and CSRF cookies Secure, as a deployed app does")
    parser.add_argument("--clock-ahead", type=float, default=0, help="seconds this server's clock reads ahead of the machine's")
    args = parser.parse_args()
    if args.clock_ahead:
        run_clock_ahead(args.clock_ahead)
    serve(create_app(args.access_seconds, args.renewed_access_seconds or args.access_seconds, args.secure_cookies), args.port)
