# This source file is part of the AuthKit open source project
#
# Copyright (c) 2026 the AuthKit project authors
# Licensed under Apache License v2.0 (see LICENSE)
#
# SPDX-License-Identifier: Apache-2.0

"""What `authlib_provider.py` serves besides its core flows, each with Authlib's own implementation
where Authlib has one:
- `POST /register`: dynamic client registration (RFC 7591, Authlib's `ClientRegistrationEndpoint`),
  open (no initial access token); `GET|PUT|DELETE /register/<client_id>`: its management
  (RFC 7592, Authlib's `ClientConfigurationEndpoint`) with the registration access token;
- `client_secret_jwt` client authentication (RFC 7523, Authlib's `JWTBearerClientAssertion` with
  the client secret as the HS256 key) for registered clients;
- `GET|POST /oauth/userinfo`: OpenID Connect userinfo (Authlib's `UserInfoEndpoint`) for a token
  with scope `openid`;
- token exchange (RFC 8693) at the token endpoint, for registered clients allowed the grant.
  Authlib ships no RFC 8693 grant (its `rfc8693` package is empty), so it is written here on
  Authlib's extension-grant mechanism (`BaseGrant` + `TokenEndpointMixin`): the subject token
  and the optional actor token must be live access tokens of this server; the issued token is
  for the subject's user, its actor (delegation) recorded and shown by `GET /api/exchanged`.

Test controls: `POST /_userinfo` with `sub` makes userinfo answer for another user (a
substitution); `POST /_registration` with `client_uri_origin` puts the management URI of the
next registrations on another origin; `POST /_exchange` with `seconds` sets the lifetime of
exchanged tokens.
"""

import secrets
import time
from urllib.parse import urlsplit

from authlib.oauth2.rfc6749 import ClientMixin
from authlib.oauth2.rfc6749.errors import InvalidGrantError, InvalidRequestError, UnauthorizedClientError
from authlib.oauth2.rfc6749.grants import BaseGrant, TokenEndpointMixin
from authlib.oauth2.rfc7523 import JWTBearerClientAssertion
from authlib.oauth2.rfc7591 import ClientRegistrationEndpoint
from authlib.oauth2.rfc7592 import ClientConfigurationEndpoint
from authlib.oidc.core import UserInfo, UserInfoEndpoint
from flask import jsonify, request
from joserfc.jwk import OctKey

from authlib_provider_models import issuer

TOKEN_EXCHANGE = "urn:ietf:params:oauth:grant-type:token-exchange"
ACCESS_TOKEN_TYPE = "urn:ietf:params:oauth:token-type:access_token"
REGISTERED = {}  # client id -> RegisteredClient


class RegisteredClient(ClientMixin):
    """A client registered at `/register`: what it registered decides what it may do."""

    def __init__(self, client_info, client_metadata):
        self.client_info = client_info
        self.client_metadata = client_metadata
        self.client_id = client_info["client_id"]
        self.registration_access_token = None

    @property
    def method(self):
        return self.client_metadata.get("token_endpoint_auth_method", "client_secret_basic")

    @property
    def client_secret(self):
        return self.client_info.get("client_secret")

    def get_client_id(self):
        return self.client_id

    def get_default_redirect_uri(self):
        return None

    def get_allowed_scope(self, scope):
        allowed = set(self.client_metadata.get("scope", "").split())
        return " ".join(s for s in (scope or "").split() if s in allowed)

    def check_redirect_uri(self, redirect_uri):
        parts = urlsplit(redirect_uri)
        for registered in self.client_metadata.get("redirect_uris", []):
            known = urlsplit(registered)
            if parts.scheme == known.scheme == "http" and parts.hostname == known.hostname == "127.0.0.1" and parts.path == known.path:
                return True  # RFC 8252 §7.3: any port on loopback
        return redirect_uri in self.client_metadata.get("redirect_uris", [])

    def check_client_secret(self, client_secret):
        return self.client_secret is not None and secrets.compare_digest(client_secret, self.client_secret)

    def check_endpoint_auth_method(self, method, endpoint):
        return method == self.method

    def check_response_type(self, response_type):
        return response_type in self.client_metadata.get("response_types", ["code"])

    def check_grant_type(self, grant_type):
        return grant_type in self.client_metadata.get("grant_types", ["authorization_code"])


def install(app, server, store, protect, grant_auth_methods):
    """Adds registration, client_secret_jwt, userinfo and token exchange to the peer."""
    controls = {"userinfo_sub": None, "client_uri_origin": None, "exchange_seconds": 300}
    tokens = {}  # registration access token -> client id
    actors = {}  # exchanged access token -> (actor subject, actor client)
    auth_methods = ["none", "client_secret_basic", "client_secret_post", "client_secret_jwt"]

    def server_metadata():
        return {
            "grant_types_supported": ["authorization_code", "refresh_token", "client_credentials", TOKEN_EXCHANGE],
            "response_types_supported": ["code"],
            "token_endpoint_auth_methods_supported": auth_methods,
            "scopes_supported": ["openid", "profile", "read", "write"],
        }

    def management(client, token):
        base = controls["client_uri_origin"] or issuer()
        return {"registration_client_uri": f"{base}/register/{client.client_id}", "registration_access_token": token}

    class Registration(ClientRegistrationEndpoint):
        def authenticate_token(self, req):
            return True  # open registration: anyone may register a client

        def get_server_metadata(self):
            return server_metadata()

        def generate_client_info(self, req):
            info = super().generate_client_info(req)
            if req.payload.data.get("token_endpoint_auth_method") == "none":  # a public client gets no secret
                del info["client_secret"], info["client_secret_expires_at"]
            return info

        def save_client(self, client_info, client_metadata, req):
            client = RegisteredClient(client_info, client_metadata)
            REGISTERED[client.client_id] = client
            store.counts["registrations"] += 1
            return client

        def generate_client_registration_info(self, client, req):
            token = secrets.token_urlsafe(32)
            tokens[token] = client.client_id
            return management(client, token)

    class RegistrationToken:
        def __init__(self, token, client_id):
            self.token, self.client_id = token, client_id

        def check_client(self, client):
            return client.get_client_id() == self.client_id

    class Configuration(ClientConfigurationEndpoint):
        def authenticate_token(self, req):
            header = req.headers.get("Authorization", "")
            token = header[7:].strip() if header.lower().startswith("bearer ") else None
            client_id = tokens.get(token)
            return RegistrationToken(token, client_id) if client_id else None

        def authenticate_client(self, req):
            return REGISTERED.get(request.view_args["client_id"])

        def revoke_access_token(self, *arguments):
            for item in arguments:
                if isinstance(item, RegistrationToken):
                    tokens.pop(item.token, None)

        def check_permission(self, client, req):
            return True

        def delete_client(self, client, req):
            REGISTERED.pop(client.client_id, None)
            for token, owner in list(tokens.items()):
                if owner == client.client_id:
                    tokens.pop(token)
            store.counts["registrations_deleted"] += 1

        def update_client(self, client, client_metadata, req):
            client.client_metadata = {**client.client_metadata, **client_metadata}
            store.counts["registrations_updated"] += 1
            return client

        def generate_client_registration_info(self, client, req):
            return management(client, req.credential.token)

        def get_server_metadata(self):
            return server_metadata()

    class ClientSecretJWT(JWTBearerClientAssertion):
        CLIENT_AUTH_METHOD = "client_secret_jwt"

        def get_audiences(self):
            return [f"{issuer()}/oauth/token", issuer()]

        def validate_jti(self, claims, jti):
            if jti in store.jtis:
                store.counts["replayed_assertions"] += 1
                return False
            store.jtis.add(jti)
            store.counts["client_secret_jwt_assertions"] += 1
            return True

        def __call__(self, query_client, req):
            # Authlib tries each method in turn and a handler that cannot check a client raises:
            # this one answers only for registered clients of its method.
            def own(client_id):
                client = REGISTERED.get(client_id)
                return client if client is not None and client.method == self.CLIENT_AUTH_METHOD else None
            try:
                _, claims = self.extract_assertion(req.form.get("client_assertion") or "")
            except Exception:
                return None
            return super().__call__(own, req) if own(claims.get("sub")) else None

        def resolve_client_public_key(self, client):
            return OctKey.import_key(client.client_secret)

    class UserInfoAnswer(UserInfoEndpoint):
        def get_issuer(self):
            return issuer()

        def generate_user_info(self, user, scope):
            store.counts["userinfo"] += 1
            return UserInfo(sub=controls["userinfo_sub"] or user, name="Alice", email="alice@example.org", email_verified=True)

        def resolve_private_key(self):
            return None

    class TokenExchange(BaseGrant, TokenEndpointMixin):
        GRANT_TYPE = TOKEN_EXCHANGE
        TOKEN_ENDPOINT_AUTH_METHODS = ["client_secret_jwt", "client_secret_basic", "client_secret_post"]

        def live(self, name):
            form = self.request.payload.data
            value = form.get(name)
            if value is None:
                return None
            if form.get(f"{name}_type") != ACCESS_TOKEN_TYPE:
                raise InvalidRequestError(description=f"{name}_type must be {ACCESS_TOKEN_TYPE}")
            token = store.by_access.get(value)
            if token is None or token.revoked or token.is_expired():
                store.counts["token_exchange_refused"] += 1
                raise InvalidGrantError(description=f"the {name} is not a live access token of this server")
            return token

        def validate_token_request(self):
            client = self.authenticate_token_endpoint_client()
            if not client.check_grant_type(self.GRANT_TYPE):
                raise UnauthorizedClientError(description="the client may not exchange tokens")
            self.request.client = client
            form = self.request.payload.data
            if form.get("requested_token_type", ACCESS_TOKEN_TYPE) != ACCESS_TOKEN_TYPE:
                raise InvalidRequestError(description="only access tokens are issued")
            self.subject = self.live("subject_token")
            if self.subject is None:
                raise InvalidRequestError(description="subject_token is required")
            self.actor = self.live("actor_token")
            self.request.user = self.subject.subject

        def create_token_response(self):
            asked = (self.request.payload.data.get("scope") or self.subject.scope).split()
            scope = " ".join(s for s in asked if s in self.subject.scope.split())
            token = self.generate_token(user=self.subject.subject, scope=scope, expires_in=controls["exchange_seconds"], include_refresh_token=False)
            token["issued_token_type"] = ACCESS_TOKEN_TYPE
            self.save_token(token)
            if self.actor is not None:
                actors[token["access_token"]] = (self.actor.subject, self.actor.client_id)
            store.counts["token_exchanges"] += 1
            store.counts["token_exchanges_with_actor" if self.actor else "token_exchanges_without_actor"] += 1
            return 200, token, self.TOKEN_RESPONSE_HEADER

    grant_auth_methods.insert(0, "client_secret_jwt")  # before private_key_jwt, whose handler raises for a client it has no key for
    server.register_endpoint(Registration)
    server.register_endpoint(Configuration)
    server.register_client_auth_method(ClientSecretJWT.CLIENT_AUTH_METHOD, ClientSecretJWT())
    server.register_endpoint(UserInfoAnswer(resource_protector=protect))
    server.register_grant(TokenExchange)

    @app.post("/register")
    def register():
        return server.create_endpoint_response("client_registration")

    @app.route("/register/<client_id>", methods=["GET", "PUT", "DELETE"])
    def configure(client_id):
        return server.create_endpoint_response("client_configuration")

    @app.route("/oauth/userinfo", methods=["GET", "POST"])
    def userinfo():
        return server.create_endpoint_response("userinfo")

    @app.get("/api/exchanged")
    @protect()
    def exchanged():
        from authlib.integrations.flask_oauth2 import current_token
        actor = actors.get(current_token.access_token)
        return jsonify(sub=current_token.subject, client_id=current_token.client_id, scope=current_token.scope,
                       act={"sub": actor[0], "client_id": actor[1]} if actor else None)

    @app.post("/_userinfo")
    def set_userinfo_subject():
        controls["userinfo_sub"] = request.form.get("sub") or None
        return jsonify(sub=controls["userinfo_sub"])

    @app.post("/_registration")
    def set_registration():
        controls["client_uri_origin"] = request.form.get("client_uri_origin") or None
        return jsonify(client_uri_origin=controls["client_uri_origin"])

    @app.post("/_exchange")
    def set_exchange():
        controls["exchange_seconds"] = int(request.form["seconds"])
        return jsonify(seconds=controls["exchange_seconds"])

    return {"registration_endpoint": "register", "userinfo_endpoint": "oauth/userinfo"}
