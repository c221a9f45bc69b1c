# This source file is part of the AuthKit open source project
#
# Copyright (c) 2026 the AuthKit project authors
# Licensed under Apache License v2.0 (see LICENSE)
#
# SPDX-License-Identifier: Apache-2.0

"""The registered clients and the stored grants of `authlib_provider.py` (Authlib's model mixins)."""

import threading
import time
from collections import Counter
from dataclasses import dataclass, field
from urllib.parse import urlsplit

from authlib.oauth2.rfc6749 import ClientMixin, TokenMixin
from authlib.oauth2.rfc8628 import DeviceCodeGrant
from flask import request

SECRETS = {"svc-basic": ("client_secret_basic", "svc-basic-s3cret"), "svc-spaced": ("client_secret_basic", "a secret with spaces+plus&amp=%:colon/slash"), "svc-post": ("client_secret_post", "svc-post-s3cret"), "svc-jwt": ("private_key_jwt", None)}
PUBLIC_KEYS = {}  # client id -> the JWK its private_key_jwt assertions are checked with


def issuer():
    return request.host_url.rstrip("/")


class Client(ClientMixin):
    client_metadata = {}  # nothing registered: Authlib's UserInfoEndpoint answers unsigned JSON

    def __init__(self, client_id):
        self.client_id = client_id
        self.method, self.secret = SECRETS.get(client_id, ("none", None))

    def get_client_id(self):
        return self.client_id

    def get_default_redirect_uri(self):
        return None

    @property
    def confidential(self):
        return self.method != "none"

    def get_allowed_scope(self, scope):
        allowed = {"read", "write"} if self.confidential else {"openid", "profile", "read"}
        return " ".join(s for s in (scope or "").split() if s in allowed)

    def check_redirect_uri(self, redirect_uri):
        parts = urlsplit(redirect_uri)
        return not self.confidential and parts.scheme == "http" and parts.hostname == "127.0.0.1" and parts.path == "/callback"

    def check_client_secret(self, client_secret):
        return self.secret is not None and client_secret == self.secret

    def check_endpoint_auth_method(self, method, endpoint):
        return method == self.method

    def check_response_type(self, response_type):
        return not self.confidential and response_type == "code"

    def check_grant_type(self, grant_type):
        if self.confidential:
            return grant_type == "client_credentials"
        return grant_type in ("authorization_code", "refresh_token", DeviceCodeGrant.GRANT_TYPE)


@dataclass
class Token(TokenMixin):
    client_id: str
    subject: str
    access_token: str
    refresh_token: str
    scope: str
    expires_in: int
    issued_at: float = field(default_factory=time.time)
    revoked: bool = False
    rotated: bool = False

    def check_client(self, client):
        return client.get_client_id() == self.client_id

    def get_scope(self):
        return self.scope

    def get_expires_in(self):
        return self.expires_in

    def is_expired(self):
        return time.time() >= self.issued_at + self.expires_in

    def is_revoked(self):
        return self.revoked

    def get_user(self):
        return self.subject

    def get_client(self):
        return Client(self.client_id)


@dataclass
class AuthorizationCode:
    code: str
    client_id: str
    redirect_uri: str
    scope: str
    user: str
    code_challenge: str
    code_challenge_method: str
    nonce: str = None
    auth_time: int = field(default_factory=lambda: int(time.time()))

    def get_redirect_uri(self):
        return self.redirect_uri

    def get_scope(self):
        return self.scope

    def get_nonce(self):
        return self.nonce

    def get_auth_time(self):
        return self.auth_time

    def get_acr(self):
        return None

    def get_amr(self):
        return None


class Store:
    def __init__(self):
        self.lock = threading.RLock()
        self.by_access, self.by_refresh, self.codes = {}, {}, {}
        self.devices, self.decisions, self.last_poll = {}, {}, {}
        self.jtis = set()
        self.refresh_expiry = {}  # refresh token -> when it expires (--refresh-seconds)
        self.counts = Counter()

    def save_token(self, token, req):
        with self.lock:
            subject = req.user if req.user else req.client.get_client_id()
            saved = Token(req.client.get_client_id(), subject, token["access_token"], token.get("refresh_token"), token.get("scope", ""), token["expires_in"])
            self.by_access[saved.access_token] = saved
            if saved.refresh_token:
                self.by_refresh[saved.refresh_token] = saved
            self.counts[f"{req.payload.grant_type}_grants"] += 1
