# This source file is part of the AuthKit open source project
#
# Copyright (c) 2026 the AuthKit project authors
# Licensed under Apache License v2.0 (see LICENSE)
#
# SPDX-License-Identifier: Apache-2.0

"""Peer: a standard OAuth 2.0 authorization server built with Authlib, for AuthOAuth2's interop tests.

What AuthOAuth2 must obtain tokens from, served by Authlib's own implementations:
- `GET /.well-known/oauth-authorization-server` (RFC 8414 metadata; `iss` on authorization
  responses, RFC 9207);
- `GET /authorize`: the authorization code grant with PKCE required (RFC 7636), and OpenID
  Connect's code flow for `scope=openid` (an RS256 ID token, its key at `GET /jwks`). The user `alice`
  consents at once; `prompt=none` with `login_hint=deny` makes her refuse (`access_denied`);
- `POST /oauth/token`: authorization_code, refresh_token (rotating) and client_credentials;
- `POST /oauth/revoke`: RFC 7009 revocation; `POST /oauth/introspect`: RFC 7662, for the
  confidential clients;
- `POST /device_authorization` and the device_code grant (RFC 8628), polled no faster than
  `--device-interval` seconds (faster polls get `slow_down`); `POST /_device/decide` with
  `user_code` and `decision` (`approve` or `deny`) is the user's answer on another device;
- `GET /api/me`: Authlib's `ResourceProtector`, answering who the token is for; `GET /api/write`:
  the same for the scope `write` (Authlib's 403 `insufficient_scope` without it);
- `--refresh-seconds N`: refresh tokens expire after N seconds, and token responses say so as
  `refresh_token_expires_in`; an expired one presented counts `expired_refresh_tokens`;
- registration (RFC 7591/7592), `client_secret_jwt`, userinfo and token exchange (RFC 8693):
  see `authlib_provider_extensions.py`;
- `GET /_counters`, `POST /_expire` (ends every access token), `POST /_issue` (a fresh token family
  for `subject` at the client `app`, as if signed in elsewhere) for the tests. A rotated refresh
  token presented again counts `refresh_token_reuse` and revokes every token of its client and
  subject (reuse detection, RFC 9700 §4.14.2).

Clients: `app` (public, `none`, redirect URIs on any loopback port per RFC 8252 §7.3),
`svc-basic` and `svc-spaced` (`client_secret_basic`, the latter a secret with a space and reserved
characters), `svc-post` (`client_secret_post`) and `svc-jwt`
(`private_key_jwt`, RFC 7523: its public key registered by `POST /_clients/key` with `jwk`),
allowed only the client_credentials grant and the scopes `read write`.

    python authlib_provider.py --port 0 --access-seconds 2

prints `PORT <n>` as its first line once it listens on 127.0.0.1.
"""

import argparse
import json
import os
import time

from authlib.oidc.core import UserInfo
from authlib.oidc.core.grants import OpenIDCode
from joserfc.jwk import RSAKey
from authlib.integrations.flask_oauth2 import AuthorizationServer, ResourceProtector, current_token
from authlib.oauth2.rfc6749 import grants
from authlib.oauth2.rfc6750 import BearerTokenValidator
from authlib.oauth2.rfc7009 import RevocationEndpoint
from authlib.oauth2.rfc7523 import JWTBearerClientAssertion
from authlib.oauth2.rfc7636 import CodeChallenge
from authlib.oauth2.rfc7662 import IntrospectionEndpoint
from authlib.oauth2.rfc8628 import DeviceAuthorizationEndpoint, DeviceCodeGrant, DeviceCredentialDict
from authlib.oauth2.rfc9207 import IssuerParameter
from flask import Flask, jsonify, request

from authlib_provider_extensions import REGISTERED, TOKEN_EXCHANGE, install as install_extensions
from authlib_provider_models import PUBLIC_KEYS, SECRETS, AuthorizationCode, Client, Store, Token, issuer
from peer_support import serve

os.environ.setdefault("AUTHLIB_INSECURE_TRANSPORT", "1")  # plain http on 127.0.0.1


def create_app(access_seconds, device_interval=1, device_expires=60, refresh_seconds=None):
    app = Flask(__name__)
    app.config.update(OAUTH2_REFRESH_TOKEN_GENERATOR=True, OAUTH2_TOKEN_EXPIRES_IN={"client_credentials": access_seconds, "authorization_code": access_seconds, "refresh_token": access_seconds})
    store = Store()
    def save_token(token, req):
        # With --refresh-seconds, refresh tokens expire, and the token response says when as
        # `refresh_token_expires_in` (the name Microsoft's and GitHub's use; not RFC 6749).
        if refresh_seconds is not None and "refresh_token" in token:
            token["refresh_token_expires_in"] = refresh_seconds
            store.refresh_expiry[token["refresh_token"]] = time.time() + refresh_seconds
        store.save_token(token, req)

    server = AuthorizationServer(app, query_client=lambda cid: REGISTERED.get(cid) or (Client(cid) if cid in SECRETS or cid == "app" else None), save_token=save_token)

    class CodeGrant(grants.AuthorizationCodeGrant):
        TOKEN_ENDPOINT_AUTH_METHODS = ["none"]

        def save_authorization_code(self, code, req):
            data = req.payload.data
            store.codes[code] = AuthorizationCode(code, req.client.get_client_id(), req.payload.redirect_uri, req.payload.scope, req.user, data.get("code_challenge"), data.get("code_challenge_method"), data.get("nonce"))

        def query_authorization_code(self, code, client):
            found = store.codes.get(code)
            return found if found and found.client_id == client.get_client_id() else None

        def delete_authorization_code(self, authorization_code):
            store.codes.pop(authorization_code.code, None)

        def authenticate_user(self, authorization_code):
            return authorization_code.user

    class ClientCredentials(grants.ClientCredentialsGrant):
        TOKEN_ENDPOINT_AUTH_METHODS = ["client_secret_basic", "client_secret_post", "private_key_jwt"]

    class PrivateKeyJWT(JWTBearerClientAssertion):
        CLIENT_AUTH_METHOD = "private_key_jwt"

        def get_audiences(self):
            return [f"{issuer()}/oauth/token", issuer()]

        def validate_jti(self, claims, jti):
            if jti in store.jtis:
                store.counts["replayed_assertions"] += 1
                return False
            store.jtis.add(jti)
            store.counts["client_assertions"] += 1
            return True

        def resolve_client_public_key(self, client):
            return PUBLIC_KEYS[client.get_client_id()]

    class RotatingRefresh(grants.RefreshTokenGrant):
        TOKEN_ENDPOINT_AUTH_METHODS = ["none"]
        INCLUDE_NEW_REFRESH_TOKEN = True

        def authenticate_refresh_token(self, refresh_token):
            with store.lock:
                token = store.by_refresh.get(refresh_token)
                if token is not None and token.rotated:
                    # Reuse detection (RFC 9700 §4.14.2): a rotated refresh token presented again
                    # revokes every token of its client and subject.
                    store.counts["refresh_token_reuse"] += 1
                    for other in list(store.by_access.values()) + list(store.by_refresh.values()):
                        if other.client_id == token.client_id and other.subject == token.subject:
                            other.revoked = True
                    return None
                expiry = store.refresh_expiry.get(refresh_token)
                if token is not None and expiry is not None and time.time() >= expiry:
                    store.counts["expired_refresh_tokens"] += 1
                    return None
                return None if token is None or token.revoked else token

        def authenticate_user(self, refresh_token):
            return refresh_token.subject

        def revoke_old_credential(self, refresh_token):
            refresh_token.revoked = True
            refresh_token.rotated = True

    class Revocation(RevocationEndpoint):
        CLIENT_AUTH_METHODS = ["none", "client_secret_basic", "client_secret_post"]

        def query_token(self, token_string, token_type_hint):
            if token_type_hint == "access_token":
                return store.by_access.get(token_string)
            if token_type_hint == "refresh_token":
                return store.by_refresh.get(token_string)
            return store.by_access.get(token_string) or store.by_refresh.get(token_string)

        def revoke_token(self, token, req):
            token.revoked = True
            store.counts[f"revoked_{req.form.get('token_type_hint', 'unhinted')}"] += 1

    class Introspection(IntrospectionEndpoint):
        CLIENT_AUTH_METHODS = ["client_secret_basic", "client_secret_post"]

        def query_token(self, token_string, token_type_hint):
            return store.by_access.get(token_string) or store.by_refresh.get(token_string)

        def check_permission(self, token, client, req):
            return client.secret is not None

        def introspect_token(self, token):
            store.counts["introspections"] += 1
            return {
                "active": True, "client_id": token.client_id, "token_type": "Bearer", "scope": token.scope,
                "sub": token.subject, "username": token.subject, "iss": issuer(),
                "exp": int(token.issued_at + token.expires_in), "iat": int(token.issued_at),
            }

    class DeviceEndpoint(DeviceAuthorizationEndpoint):
        CLIENT_AUTH_METHODS = ["none"]
        INTERVAL = device_interval
        EXPIRES_IN = device_expires

        def get_verification_uri(self):
            return f"{issuer()}/device"

        def save_device_credential(self, client_id, scope, data):
            store.devices[data["device_code"]] = DeviceCredentialDict(client_id=client_id, scope=scope, expires_at=time.time() + device_expires, **data)
            store.counts["device_authorizations"] += 1

    class DeviceGrant(DeviceCodeGrant):
        TOKEN_ENDPOINT_AUTH_METHODS = ["none"]

        def query_device_credential(self, device_code):
            store.counts["device_polls"] += 1
            return store.devices.get(device_code)

        def query_user_grant(self, user_code):
            return store.decisions.get(user_code)

        def should_slow_down(self, credential):
            now, code = time.time(), credential["device_code"]
            previous = store.last_poll.get(code)
            store.last_poll[code] = now
            slow = previous is not None and now - previous < device_interval - 0.05
            if slow:
                store.counts["slow_down"] += 1
            return slow

    signing_key = RSAKey.generate_key(2048, parameters={"kid": "peer-rs256", "alg": "RS256", "use": "sig"})

    class OpenID(OpenIDCode):
        def resolve_client_private_key(self, client):
            return signing_key

        def get_client_algorithm(self, client):
            return "RS256"

        def get_client_claims(self, client):
            return {"iss": issuer(), "aud": [client.get_client_id()]}

        def get_encode_header(self, client):
            return {"alg": "RS256", "kid": "peer-rs256"}

        def exists_nonce(self, nonce, req):
            return any(code.nonce == nonce for code in store.codes.values())

        def generate_user_info(self, user, scope):
            store.counts["id_tokens"] += 1
            return UserInfo(sub=user, name="Alice")

    class Issuer(IssuerParameter):
        def get_issuer(self):
            return issuer()

    server.register_grant(CodeGrant, [CodeChallenge(required=True), OpenID(require_nonce=True)])
    server.register_grant(ClientCredentials)
    server.register_client_auth_method(PrivateKeyJWT.CLIENT_AUTH_METHOD, PrivateKeyJWT())
    server.register_grant(RotatingRefresh)
    server.register_endpoint(Revocation)
    server.register_endpoint(DeviceEndpoint)
    server.register_endpoint(Introspection)
    server.register_grant(DeviceGrant)
    server.register_extension(Issuer())

    class Validator(BearerTokenValidator):
        def authenticate_token(self, token_string):
            return store.by_access.get(token_string)

    protect = ResourceProtector()
    protect.register_token_validator(Validator())
    install_extensions(app, server, store, protect, ClientCredentials.TOKEN_ENDPOINT_AUTH_METHODS)

    @app.get("/.well-known/oauth-authorization-server")
    def metadata():
        base = issuer()
        return jsonify(
            issuer=base,
            authorization_endpoint=f"{base}/authorize",
            token_endpoint=f"{base}/oauth/token",
            revocation_endpoint=f"{base}/oauth/revoke",
            device_authorization_endpoint=f"{base}/device_authorization",
            introspection_endpoint=f"{base}/oauth/introspect",
            jwks_uri=f"{base}/jwks",
            registration_endpoint=f"{base}/register",
            userinfo_endpoint=f"{base}/oauth/userinfo",
            grant_types_supported=["authorization_code", "refresh_token", "client_credentials", DeviceCodeGrant.GRANT_TYPE, TOKEN_EXCHANGE],
            response_types_supported=["code"],
            token_endpoint_auth_methods_supported=["none", "client_secret_basic", "client_secret_post", "private_key_jwt", "client_secret_jwt"],
            code_challenge_methods_supported=["S256"],
            authorization_response_iss_parameter_supported=True,
            scopes_supported=["openid", "profile", "read", "write"],
        )

    @app.get("/authorize")
    def authorize():
        store.counts["authorize"] += 1
        user = None if request.args.get("login_hint") == "deny" else "alice"
        return server.create_authorization_response(grant_user=user)

    @app.post("/oauth/token")
    def token():
        return server.create_token_response()

    @app.post("/oauth/revoke")
    def revoke():
        return server.create_endpoint_response("revocation")

    @app.get("/jwks")
    def jwks():
        return jsonify(keys=[signing_key.as_dict(private=False)])

    @app.post("/oauth/introspect")
    def introspect():
        return server.create_endpoint_response("introspection")

    @app.post("/device_authorization")
    def device_authorization():
        return server.create_endpoint_response("device_authorization")

    @app.post("/_clients/key")
    def register_key():
        PUBLIC_KEYS[request.form["client_id"]] = json.loads(request.form["jwk"])
        return jsonify(registered=True)

    @app.post("/_device/decide")
    def decide():
        store.decisions[request.form["user_code"]] = ("alice", request.form["decision"] == "approve")
        return jsonify(decided=True)

    @app.get("/api/me")
    @protect()
    def me():
        return jsonify(sub=current_token.subject, client_id=current_token.client_id, scope=current_token.scope)

    @app.get("/api/write")
    @protect("write")
    def write():
        # Needs the scope `write`: a token without it gets Authlib's 403 insufficient_scope.
        return jsonify(sub=current_token.subject, written=True)

    @app.post("/_issue")
    def issue():
        # A sign-in done elsewhere: a fresh token family for `subject` at the public client `app`
        # (the tests' shortcut past the browser step of the code flow).
        from authlib.oauth2.rfc6749 import OAuth2Request
        subject = request.form.get("subject", "alice")
        req = OAuth2Request("POST", request.url)
        req.client = Client("app")
        req.user = subject
        req.payload = type("Payload", (), {"grant_type": "issued", "scope": "read"})()
        generated = server.generate_token(client=req.client, grant_type="authorization_code", user=subject, scope="read", include_refresh_token=True)
        save_token(generated, req)
        return jsonify(generated)

    @app.get("/_counters")
    def counters():
        return jsonify(counts=dict(store.counts), requests={})

    @app.post("/_expire")
    def expire():
        with store.lock:
            for token in store.by_access.values():
                token.expires_in = 0
        return jsonify(expired=True)

    return app


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--port", type=int, default=0)
    parser.add_argument("--access-seconds", type=int, default=300)
    parser.add_argument("--renewed-access-seconds", type=int, default=300)  # the harness passes it; unused
    parser.add_argument("--device-interval", type=int, default=1)
    parser.add_argument("--device-expires", type=int, default=60)
    parser.add_argument("--refresh-seconds", type=int, default=None)
    arguments = parser.parse_args()
    serve(create_app(arguments.access_seconds, arguments.device_interval, arguments.device_expires, arguments.refresh_seconds), arguments.port)
