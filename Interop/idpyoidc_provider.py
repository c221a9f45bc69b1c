# This source file is part of the AuthKit open source project
#
# Copyright (c) 2026 the AuthKit project authors
# Licensed under Apache License v2.0 (see LICENSE)
#
# SPDX-License-Identifier: Apache-2.0

"""Peer: an OpenID Connect provider built with idpyoidc (the Identity Python OP), for AuthOAuth2's interop tests.

A second independent provider beside `authlib_provider.py`, for what Authlib does not serve:
- `GET /.well-known/openid-configuration` (OpenID Connect Discovery; `issuer` is
  `http://127.0.0.1:<port>`), `GET /jwks`: the provider's signing keys (RS256 and ES256);
- `POST /par`: pushed authorization requests (RFC 9126); `--require-par` announces
  `require_pushed_authorization_requests` and refuses an authorization request that was not
  pushed;
- `GET /authorization`: the code flow with PKCE; request objects (JAR, RFC 9101: `request`
  signed with the client's registered key, `request_object_signing_alg`). The user is `alice`,
  signed in at once (no page). Two authentication levels: `acr_values=urn:peer:acr:mfa` signs
  her in with that `acr`, anything else with `urn:peer:acr:password`; the ID token's `acr` says
  which;
- `POST /token`: authorization_code, refresh_token and token exchange (RFC 8693, subject token
  an access or refresh token of this provider);
- `POST /registration`: dynamic client registration (RFC 7591, OpenID Connect Registration);
  `GET /registration_api`: reading a registration (RFC 7592) with its registration access token;
- `GET /userinfo`: the user's claims for an access token;
- `GET /session`: RP-initiated logout (`end_session_endpoint`); the confirmation page
  idpyoidc sends the browser to (`/verify_logout`) is confirmed at once, which ends the session
  and redirects to the client's `post_logout_redirect_uri` with `state`;
- `GET /api/acr`: a resource that needs `urn:peer:acr:mfa` (RFC 9470): a token whose sign-in had
  a lower `acr` gets 401 `insufficient_user_authentication` with `acr_values`; `GET /api/write`:
  needs the scope `write` (RFC 6750 §3.1 `insufficient_scope`, 403);
- `GET /_counters` for the tests.

No client is preregistered: a test registers the ones it needs at `/registration` (JSON; idpyoidc
reads the logout redirect from `post_logout_redirect_uri`, a string; a client that signs request
objects or client assertions registers its public key as `jwks`). What idpyoidc 5.0.0 itself asks
of a client: an authorization request (also one with `request_uri` from `/par`) carries
`response_type`, `redirect_uri` and `scope` in its query besides any request object; logout needs
the browser's session cookie from the authorization (it is `Secure`: a test keeps it itself).
Small patches (at the top) work around idpyoidc 5.0.0 defects with cryptojwt 1.11 and in its
end-session endpoint, and let a loopback redirect URI match on any port (RFC 8252 §7.3);
idpyoidc decides everything else.

    python idpyoidc_provider.py --port 0 [--require-par] [--no-mfa] [--access-seconds 300]

`--no-mfa` leaves only the password level: a request for `urn:peer:acr:mfa` gets `alice` signed
in with `urn:peer:acr:password` (a provider that cannot meet a step-up).

prints `PORT <n>` as its first line once it listens on 127.0.0.1.
"""

import argparse
import json
import logging
import shutil
import tempfile
import threading
from collections import Counter
from urllib.parse import unquote, urlsplit

from cryptojwt.exception import IssuerNotFound
from cryptojwt.key_jar import KeyJar
from flask import Flask, Response, jsonify, make_response, redirect, request
from werkzeug.serving import make_server

from idpyoidc.message.oidc import AccessTokenRequest
from idpyoidc.server import Server
from idpyoidc.server.configure import OPConfiguration
from idpyoidc.server.oauth2 import authorization as oauth2_authorization
from idpyoidc.server.oidc import session as oidc_session
from idpyoidc.server.oidc.session import Session
from idpyoidc.server.session.database import DIVIDER
from idpyoidc.server.session.manager import SessionManager
from idpyoidc.server.oidc.token import Token

from peer_support import serve_http_server


def _key_summary(original):
    # idpyoidc 5.0.0's registration logs the new client's keys with `key_summary`, which
    # cryptojwt 1.11 makes raise for a client without keys (one with a secret): summarised as
    # none, so that registration works.
    def summary(self, issuer_id):
        try:
            return original(self, issuer_id)
        except IssuerNotFound:
            return ""
    return summary


KeyJar.key_summary = _key_summary(KeyJar.key_summary)

# RP-initiated logout authenticates no client (the id_token_hint says who); idpyoidc 5.0.0's
# end-session endpoint reads a bearer token from any client authentication it finds, and the
# "none" method it always finds has none: no client authentication there.
Session.client_authentication = lambda self, request, http_info=None, **kwargs: {}


def _session_info(original):
    # idpyoidc 5.0.0's session cookie holds the plain session key, which its end-session
    # endpoint then looks up as if it were the encrypted one: encrypted first.
    def lookup(self, session_id, *arguments, **options):
        if DIVIDER in session_id:
            session_id = self.encrypted_session_id(*session_id.split(DIVIDER))
        return original(self, session_id, *arguments, **options)
    return lookup


SessionManager.get_session_info = _session_info(SessionManager.get_session_info)


def _loopback_any_port(original):
    # RFC 8252 §7.3: a native app's loopback redirect URI matches a registered one on any port
    # (the app takes a free port each time); idpyoidc compares them exactly. A redirect (or
    # post-logout redirect) to http://127.0.0.1:<port><path> is checked as the registered
    # loopback URI with the same path.
    def verify(context, request, uri_type, client_id=None, endpoint_type="oidc"):
        asked = request.get(uri_type)
        parts = urlsplit(unquote(asked)) if asked else None
        if parts is not None and parts.scheme == "http" and parts.hostname == "127.0.0.1":
            identifier = request.get("client_id", client_id)
            registered = (context.cdb.get(identifier) or {}).get(f"{uri_type}s" if uri_type == "redirect_uri" else uri_type) or []
            for item in registered:
                base = item if isinstance(item, str) else item[0]
                known = urlsplit(base)
                if known.scheme == "http" and known.hostname == "127.0.0.1" and known.path == parts.path and not parts.query:
                    return original(context, {"client_id": identifier, uri_type: base}, uri_type, client_id, endpoint_type)
        return original(context, request, uri_type, client_id, endpoint_type)
    return verify


oauth2_authorization.verify_uri = _loopback_any_port(oauth2_authorization.verify_uri)
oidc_session.verify_uri = oauth2_authorization.verify_uri

PASSWORD_ACR = "urn:peer:acr:password"
MFA_ACR = "urn:peer:acr:mfa"
TOKEN_EXCHANGE = "urn:ietf:params:oauth:grant-type:token-exchange"


def configuration(issuer, access_seconds, require_par, mfa=True):
    authn_kwargs = {"user": "alice"}
    return {
        "issuer": issuer,
        "httpc_params": {"verify": False, "timeout": 4},
        "keys": {"uri_path": "jwks", "key_defs": [{"type": "RSA", "use": ["sig"]}, {"type": "EC", "crv": "P-256", "use": ["sig"]}]},
        "token_handler_args": {
            "code": {"lifetime": 600},
            "token": {"class": "idpyoidc.server.token.jwt_token.JWTToken", "kwargs": {"lifetime": access_seconds, "add_claims_by_scope": True}},
            "refresh": {"kwargs": {"lifetime": 86400}},
            "id_token": {"class": "idpyoidc.server.token.id_token.IDToken", "kwargs": {}},
        },
        "cookie_handler": {
            "class": "idpyoidc.server.cookie_handler.CookieHandler",
            "kwargs": {"keys": {"key_defs": [{"type": "OCT", "use": ["enc"], "kid": "enc"}, {"type": "OCT", "use": ["sig"], "kid": "sig"}]},
                       "name": {"session": "oidc_op", "register": "oidc_op_rp", "session_management": "sman"}},
        },
        "authz": {
            "class": "idpyoidc.server.authz.AuthzHandling",
            "kwargs": {"grant_config": {
                "usage_rules": {
                    "authorization_code": {"supports_minting": ["access_token", "refresh_token", "id_token"], "max_usage": 1},
                    "access_token": {"supports_minting": ["access_token", "refresh_token"], "expires_in": access_seconds},
                    "refresh_token": {"supports_minting": ["access_token", "refresh_token", "id_token"]},
                },
                "expires_in": 43200,
            }},
        },
        "authentication": {
            "password": {"acr": PASSWORD_ACR, "class": "idpyoidc.server.user_authn.user.NoAuthn", "kwargs": authn_kwargs},
            **({"mfa": {"acr": MFA_ACR, "class": "idpyoidc.server.user_authn.user.NoAuthn", "kwargs": authn_kwargs}} if mfa else {}),
        },
        "userinfo": {"class": "idpyoidc.server.user_info.UserInfo", "kwargs": {"db": {"alice": {
            "sub": "alice", "name": "Alice", "email": "alice@example.org", "email_verified": True}}}},
        "add_on": {"pkce": {"function": "idpyoidc.server.oauth2.add_on.pkce.add_support", "kwargs": {"essential": True, "code_challenge_method": "S256"}}},
        "preference": {"subject_types_supported": ["public"]},
        "endpoint": {
            "provider_info": {"path": ".well-known/openid-configuration", "class": "idpyoidc.server.oidc.provider_config.ProviderConfiguration", "kwargs": {}},
            "registration": {"path": "registration", "class": "idpyoidc.server.oidc.registration.Registration", "kwargs": {}},
            "registration_read": {"path": "registration_api", "class": "idpyoidc.server.oidc.read_registration.RegistrationRead", "kwargs": {"client_authn_method": ["bearer_header"]}},
            "authorization": {"path": "authorization", "class": "idpyoidc.server.oidc.authorization.Authorization", "kwargs": {
                "request_parameter_supported": True, "request_uri_parameter_supported": True,
                "response_types_supported": ["code"], "response_modes_supported": ["query"]}},
            "pushed_authorization": {"path": "par", "class": "idpyoidc.server.oauth2.pushed_authorization.PushedAuthorization", "kwargs": {
                "client_authn_method": ["client_secret_post", "client_secret_basic", "private_key_jwt", "none"]}},
            "token": {"path": "token", "class": "idpyoidc.server.oidc.token.Token", "kwargs": {
                "client_authn_method": ["client_secret_post", "client_secret_basic", "client_secret_jwt", "private_key_jwt", "none"],
                "grant_types_helpers": {
                    "authorization_code": {"class": "idpyoidc.server.oidc.token_helper.access_token.AccessTokenHelper"},
                    "refresh_token": {"class": "idpyoidc.server.oidc.token_helper.refresh_token.RefreshTokenHelper"},
                    TOKEN_EXCHANGE: {"class": "idpyoidc.server.oidc.token_helper.token_exchange.TokenExchangeHelper", "kwargs": {
                        "requested_token_types_supported": ["urn:ietf:params:oauth:token-type:access_token", "urn:ietf:params:oauth:token-type:refresh_token"],
                        "default_requested_token_type": "urn:ietf:params:oauth:token-type:access_token",
                        "policy": {"": {"function": "idpyoidc.server.oauth2.token_helper.token_exchange.validate_token_exchange_policy", "kwargs": {"scope": ["openid", "read", "write"]}}},
                    }},
                }}},
            "userinfo": {"path": "userinfo", "class": "idpyoidc.server.oidc.userinfo.UserInfo", "kwargs": {}},
            "end_session": {"path": "session", "class": "idpyoidc.server.oidc.session.Session", "kwargs": {
                "client_authn_method": None, "logout_verify_url": f"{issuer}/verify_logout", "post_logout_uri_path": "post_logout", "signing_alg": "ES256"}},
        },
    }


def create_app(issuer, access_seconds, require_par, folder, mfa=True):
    server = Server(OPConfiguration(conf=configuration(issuer, access_seconds, require_par, mfa), base_path=folder), cwd=folder)
    counts = Counter()
    lock = threading.Lock()
    app = Flask(__name__)

    def count(name):
        with lock:
            counts[name] += 1

    def http_info():
        return {"headers": {k.lower(): v for k, v in request.headers.items() if k.lower() != "cookie"}, "method": request.method, "url": request.url,
                "cookie": [{"name": k, "value": v} for k, v in request.cookies.items()]}

    def error(status, code, description):
        return make_response(jsonify(error=code, error_description=description), status)

    def serve_endpoint(name, arguments=None):  # noqa: C901
        endpoint = server.get_endpoint(name)
        count(name)
        info = http_info()
        if arguments is None:
            arguments = request.args.to_dict() if request.method == "GET" else (request.form.to_dict() or request.get_data(as_text=True))
        try:
            parsed = endpoint.parse_request(arguments, http_info=info)
        except Exception as failure:  # idpyoidc raises many types for a refused request
            return error(400, "invalid_request", str(failure))
        if isinstance(parsed, dict) and "error" in parsed:
            return make_response(parsed.to_json() if hasattr(parsed, "to_json") else json.dumps(parsed), 401 if parsed["error"] == "invalid_client" else 400, {"Content-Type": "application/json"})
        try:
            result = endpoint.process_request(AccessTokenRequest(**parsed) if isinstance(endpoint, Token) else parsed, http_info=info)
        except Exception as failure:
            return error(400, "invalid_request", str(failure))
        if isinstance(result, dict) and "error" in result and "response_args" not in result and "http_response" not in result:
            return make_response(json.dumps(result.to_dict() if hasattr(result, "to_dict") else result), 400, {"Content-Type": "application/json"})
        if "redirect_location" in result:
            return redirect(result["redirect_location"])
        if "http_response" in result:
            body = result["http_response"]
            status = 201 if name == "pushed_authorization" else 200
            return make_response(json.dumps(body) if isinstance(body, dict) else body, status, {"Content-Type": "application/json"})
        if "return_uri" not in result and "error" in result.get("response_args", {}):
            return make_response(json.dumps(result["response_args"].to_dict()), 400, {"Content-Type": "application/json"})
        answer = endpoint.do_response(request=parsed, **result)
        placement = answer.get("response_placement", endpoint.response_placement)
        if placement == "url":
            response = redirect(answer["response"])
        else:
            response = make_response(answer["response"], answer.get("response_code", 200))
        for key, value in answer.get("http_headers", []):
            response.headers[key] = value
        cookies = answer.get("cookie") or []
        for cookie in cookies if isinstance(cookies, list) else [cookies]:
            spec = {k: v for k, v in cookie.items() if k != "name"}
            spec["path"] = "/"
            response.set_cookie(cookie["name"], **spec)
        return response

    @app.get("/.well-known/openid-configuration")
    def discovery():
        response = serve_endpoint("provider_config")
        if require_par and response.status_code == 200:
            document = json.loads(response.get_data(as_text=True))
            document["require_pushed_authorization_requests"] = True  # RFC 9126 §5
            response.set_data(json.dumps(document))
        return response

    @app.get("/jwks")
    def jwks():
        return Response(server.context.keyjar.export_jwks_as_json(), content_type="application/json")

    @app.post("/registration")
    def registration():
        return serve_endpoint("registration", request.get_data(as_text=True))

    @app.get("/registration_api")
    def registration_read():
        return serve_endpoint("registration_read")

    @app.get("/authorization")
    def authorization():
        arguments = request.args.to_dict()
        if require_par and not arguments.get("request_uri", "").startswith("urn:uuid:"):
            count("unpushed_authorization_refused")
            return error(400, "invalid_request", "this provider requires pushed authorization requests (RFC 9126)")
        return serve_endpoint("authorization", arguments)

    @app.post("/par")
    def pushed_authorization():
        return serve_endpoint("pushed_authorization")

    @app.post("/token")
    def token():
        return serve_endpoint("token")

    @app.route("/userinfo", methods=["GET", "POST"])
    def userinfo():
        return serve_endpoint("userinfo")

    @app.get("/session")
    def end_session():
        return serve_endpoint("session")

    @app.get("/verify_logout")
    def verify_logout():
        # The user confirms at once: the session ends and the browser goes to the client's
        # post_logout_redirect_uri (with `state`), as idpyoidc's own example does on "yes".
        endpoint = server.get_endpoint("session")
        info = endpoint.unpack_signed_jwt(request.args["sjwt"])
        endpoint.do_verified_logout(alla=False, **info)
        count("logouts")
        response = redirect(info["redirect_uri"])
        for cookie in endpoint.kill_cookies():
            spec = {k: v for k, v in cookie.items() if k != "name"}
            spec["path"] = "/"
            response.set_cookie(cookie["name"], **spec)
        return response

    def token_info():
        header = request.headers.get("Authorization", "")
        if not header.lower().startswith("bearer "):
            return None
        try:
            info = server.context.session_manager.get_session_info_by_token(header[7:].strip(), grant=True, handler_key="access_token")
        except Exception:
            return None
        token = server.context.session_manager.find_token(info["branch_id"], header[7:].strip())
        if token is None or not token.is_active():
            return None
        return info, token

    def bearer_challenge(status, code, **parameters):
        fields = [f'error="{code}"'] + [f'{name}="{value}"' for name, value in parameters.items()]
        response = make_response(jsonify(error=code), status)
        response.headers["WWW-Authenticate"] = "Bearer " + ", ".join(fields)
        return response

    @app.get("/api/acr")
    def needs_mfa():
        found = token_info()
        if found is None:
            return bearer_challenge(401, "invalid_token")
        info, _ = found
        acr = info["grant"].authentication_event["authn_info"]
        max_age = request.args.get("max_age")
        if acr != MFA_ACR:
            count("insufficient_user_authentication")
            parameters = {"acr_values": MFA_ACR}
            if max_age:
                parameters["max_age"] = max_age
            return bearer_challenge(401, "insufficient_user_authentication", error_description="a stronger sign-in is required", **parameters)
        count("acr_passed")
        return jsonify(sub=info["grant"].sub, acr=acr)

    @app.get("/api/write")
    def needs_write():
        found = token_info()
        if found is None:
            return bearer_challenge(401, "invalid_token")
        _, token = found
        if "write" not in (token.scope or []):
            count("insufficient_scope")
            return bearer_challenge(403, "insufficient_scope", scope="write")
        return jsonify(written=True)

    @app.get("/_counters")
    def counters():
        with lock:
            return jsonify(counts=dict(counts), requests={})

    return app


class LateApp:
    """The WSGI app, set once the port (and so the issuer) is known."""

    app = None

    def __call__(self, environ, start_response):
        return self.app(environ, start_response)


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--port", type=int, default=0)
    parser.add_argument("--access-seconds", type=int, default=300)
    parser.add_argument("--renewed-access-seconds", type=int, default=300)  # the harness passes it; unused
    parser.add_argument("--require-par", action="store_true")
    parser.add_argument("--no-mfa", action="store_true")  # only the password level: acr_values=…mfa is not met
    arguments = parser.parse_args()
    logging.getLogger("werkzeug").setLevel(logging.ERROR)
    folder = tempfile.mkdtemp(prefix="idpyoidc-peer-")
    late = LateApp()
    http = make_server("127.0.0.1", arguments.port, late, threaded=True)
    late.app = create_app(f"http://127.0.0.1:{http.server_port}", arguments.access_seconds, arguments.require_par, folder, mfa=not arguments.no_mfa)
    serve_http_server(http, cleanup=lambda: shutil.rmtree(folder, ignore_errors=True))
