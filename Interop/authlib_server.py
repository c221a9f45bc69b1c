# This source file is part of the AuthKit open source project
#
# Copyright (c) 2026 the AuthKit project authors
# Licensed under Apache License v2.0 (see LICENSE)
#
# SPDX-License-Identifier: Apache-2.0

"""Peer B: an OAuth 2.0 authorization server built with Authlib, for AuthKit's interop tests.

Authlib's `AuthorizationServer` answers `POST /oauth/token` for the password grant (the first
tokens) and the refresh_token grant, which rotates: every refresh issues a new refresh token and
revokes the old one; presenting a revoked one again revokes its whole family. `GET /api/me` is
protected by Authlib's `ResourceProtector` with a `BearerTokenValidator`. Storage is in memory.
The client is public (`client_id` in the form, no secret): AuthKit's default refresher.
`POST /_expire` ends every access token issued so far, for a test to force a renewal.

    python authlib_server.py --port 0 --access-seconds 2 --renewed-access-seconds 30

prints `PORT <n>` as its first line once it listens on 127.0.0.1.
"""

import argparse
import os
import threading
import time
import uuid
from collections import Counter
from dataclasses import dataclass, field

from authlib.integrations.flask_oauth2 import AuthorizationServer, ResourceProtector, current_token
from authlib.oauth2.rfc6749 import ClientMixin, TokenMixin, grants
from authlib.oauth2.rfc6750 import BearerTokenValidator
from flask import Flask, jsonify, request

from peer_support import serve

os.environ.setdefault("AUTHLIB_INSECURE_TRANSPORT", "1")  # plain http on 127.0.0.1
CLIENT_ID = "interop-tests"
USERS = {"alice": "correct horse battery staple", "bob": "correct horse battery staple"}


class PublicClient(ClientMixin):
    """The one registered client: public, allowed the password and refresh_token grants."""

    def get_client_id(self):
        return CLIENT_ID

    def get_allowed_scope(self, scope):
        return scope or ""

    def check_client_secret(self, client_secret):
        return False

    def check_endpoint_auth_method(self, method, endpoint):
        return method == "none"

    def check_grant_type(self, grant_type):
        return grant_type in ("password", "refresh_token")


@dataclass
class Token(TokenMixin):
    """An issued token pair; `family` links every pair rotated from one password grant."""

    username: str
    access_token: str
    refresh_token: str
    expires_in: int
    family: str
    issued_at: float = field(default_factory=time.time)
    rotated: bool = False  # its refresh token was used once
    revoked: bool = False  # its family was revoked

    def check_client(self, client):
        return client.get_client_id() == CLIENT_ID

    def get_scope(self):
        return ""

    def get_expires_in(self):
        return self.expires_in

    def is_expired(self):
        return time.time() >= self.issued_at + self.expires_in

    def is_revoked(self):
        return self.revoked

    def get_user(self):
        return self.username

    def get_client(self):
        return PublicClient()


class Store:
    """Tokens by access and refresh token, and the counters, behind one lock."""

    def __init__(self):
        self.lock = threading.RLock()
        self.by_access, self.by_refresh = {}, {}
        self.counts, self.paths = Counter(), Counter()

    def save(self, token, request):
        with self.lock:
            previous = getattr(request, "refresh_token", None)
            family = previous.family if previous else uuid.uuid4().hex
            saved = Token(request.user, token["access_token"], token["refresh_token"], token["expires_in"], family)
            self.by_access[saved.access_token] = saved
            self.by_refresh[saved.refresh_token] = saved

    def revoke_family(self, family):
        for token in self.by_access.values():
            if token.family == family:
                token.revoked = True


class PasswordGrant(grants.ResourceOwnerPasswordCredentialsGrant):
    TOKEN_ENDPOINT_AUTH_METHODS = ["none"]

    def authenticate_user(self, username, password):
        return username if USERS.get(username) == password else None


def refresh_grant(store):
    class RotatingRefreshGrant(grants.RefreshTokenGrant):
        TOKEN_ENDPOINT_AUTH_METHODS = ["none"]
        INCLUDE_NEW_REFRESH_TOKEN = True

        def authenticate_refresh_token(self, refresh_token):
            token = store.by_refresh.get(refresh_token)
            if token and token.rotated:  # reuse of a rotated token: revoke the family
                store.counts["rejected_reuse"] += 1
                store.revoke_family(token.family)
            return None if token is None or token.rotated or token.revoked else token

        def authenticate_user(self, refresh_token):
            return refresh_token.username

        def revoke_old_credential(self, refresh_token):
            refresh_token.rotated = True

    return RotatingRefreshGrant


def create_app(access_seconds, renewed_access_seconds):
    app = Flask(__name__)
    lifetimes = {"password": access_seconds, "refresh_token": renewed_access_seconds}
    app.config.update(OAUTH2_REFRESH_TOKEN_GENERATOR=True, OAUTH2_TOKEN_EXPIRES_IN=lifetimes)
    store = Store()
    server = AuthorizationServer(app, query_client=lambda cid: PublicClient() if cid == CLIENT_ID else None, save_token=store.save)
    server.register_grant(PasswordGrant)
    server.register_grant(refresh_grant(store))

    class Validator(BearerTokenValidator):
        def authenticate_token(self, token_string):
            return store.by_access.get(token_string)

    require_oauth = ResourceProtector()
    require_oauth.register_token_validator(Validator())

    @app.before_request
    def count_request():
        with store.lock:
            store.paths[request.path] += 1

    @app.post("/oauth/token")
    def token():
        with store.lock:  # one grant at a time: rotation and reuse detection stay exact
            response = server.create_token_response()
            if response.status_code == 200:
                store.counts[request.form.get("grant_type", "") + "_grants"] += 1
            return response

    @app.get("/api/me")
    @require_oauth()
    def me():
        return jsonify(username=current_token.username)

    @app.post("/_expire")
    def expire():
        with store.lock:
            for token in store.by_access.values():
                token.issued_at = 0
        return jsonify(expired=True)

    @app.get("/_counters")
    def counters():
        with store.lock:
            return jsonify(counts=dict(store.counts), requests=dict(store.paths))

    return app


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--port", type=int, default=0, help="0 picks a free port")
    parser.add_argument("--access-seconds", type=int, default=2, help="lifetime of access tokens from the password grant")
    parser.add_argument("--renewed-access-seconds", type=int, help="lifetime of refreshed ones (default: the same)")
    args = parser.parse_args()
    serve(create_app(args.access_seconds, args.renewed_access_seconds or args.access_seconds), args.port)
