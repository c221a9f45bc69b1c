# This source file is part of the AuthKit open source project
#
# Copyright (c) 2026 the AuthKit project authors
# Licensed under Apache License v2.0 (see LICENSE)
#
# SPDX-License-Identifier: Apache-2.0

"""Peer: an OAuth 2.0 token endpoint and resource server that require DPoP (RFC 9449), for
AuthOAuth2's interop tests. Proofs are checked with PyJWT (signature, `typ`, `alg`, the
embedded `jwk`) and by the rules of RFC 9449 §4.3: `htm`, `htu`, `iat` within a minute, `jti`
never seen before, `ath` on resource requests, the server's nonce (§8), and the token's binding
to the key's RFC 7638 thumbprint (`cnf.jkt`).

- `POST /token`: client_credentials for any `client_id`; a proof without the current nonce is
  answered 400 `use_dpop_nonce` with a `DPoP-Nonce` field;
- `GET /api/me`: `Authorization: DPoP <token>` and a proof with `ath`; a proof without the
  resource nonce is answered 401 with `WWW-Authenticate: DPoP error="use_dpop_nonce"`;
- `POST /_rotate_nonces`, `GET /_counters`.

    python dpop_server.py --port 0 --access-seconds 300

prints `PORT <n>` as its first line once it listens on 127.0.0.1.
"""

import argparse
import base64
import hashlib
import json
import secrets
import threading
import time
from collections import Counter

import jwt
from flask import Flask, jsonify, request

from peer_support import serve


def b64url(data):
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def thumbprint(jwk):
    """RFC 7638: SHA-256 of the required members, sorted, without spaces."""
    members = {"EC": ("crv", "kty", "x", "y"), "RSA": ("e", "kty", "n"), "OKP": ("crv", "kty", "x")}[jwk["kty"]]
    canonical = json.dumps({name: jwk[name] for name in members}, separators=(",", ":"), sort_keys=True)
    return b64url(hashlib.sha256(canonical.encode()).digest())


class ProofError(Exception):
    pass


def create_app(access_seconds):
    app = Flask(__name__)
    lock = threading.Lock()
    state = {"token_nonce": secrets.token_urlsafe(16), "resource_nonce": secrets.token_urlsafe(16)}
    seen_jti, tokens, counts = set(), {}, Counter()

    def check_proof(method, url, nonce, access_token=None):
        proof = request.headers.get("DPoP")
        if not proof or len(request.headers.getlist("DPoP")) != 1:
            raise ProofError("exactly one DPoP proof is required")
        header = jwt.get_unverified_header(proof)
        if header.get("typ") != "dpop+jwt" or header.get("alg") not in ("ES256", "RS256", "EdDSA") or "jwk" not in header:
            raise ProofError("bad proof header")
        if any(member in header["jwk"] for member in ("d", "p", "q")):
            raise ProofError("the proof carries a private key")
        key = jwt.PyJWK(header["jwk"], header["alg"]).key
        claims = jwt.decode(proof, key=key, algorithms=[header["alg"]], options={"verify_aud": False, "require": ["jti", "htm", "htu", "iat"]})
        if claims["htm"] != method:
            raise ProofError("htm")
        if claims["htu"] != url:
            raise ProofError(f"htu {claims['htu']} is not {url}")
        if abs(time.time() - claims["iat"]) > 60:
            raise ProofError("iat")
        if access_token is not None and claims.get("ath") != b64url(hashlib.sha256(access_token.encode()).digest()):
            raise ProofError("ath")
        with lock:
            if claims["jti"] in seen_jti:
                counts["replayed_proofs"] += 1
                raise ProofError("the proof was used before")
            seen_jti.add(claims["jti"])
        if claims.get("nonce") != nonce:
            return None
        return thumbprint(header["jwk"])

    @app.post("/token")
    def token():
        try:
            jkt = check_proof("POST", request.base_url, state["token_nonce"])
        except (ProofError, jwt.PyJWTError) as error:
            counts["rejected_proofs"] += 1
            return jsonify(error="invalid_dpop_proof", error_description=str(error)), 400
        if jkt is None:
            counts["token_nonce_challenges"] += 1
            response = jsonify(error="use_dpop_nonce", error_description="the proof needs the server's nonce")
            response.headers["DPoP-Nonce"] = state["token_nonce"]
            return response, 400
        if request.form.get("grant_type") != "client_credentials":
            return jsonify(error="unsupported_grant_type"), 400
        access = secrets.token_urlsafe(24)
        with lock:
            tokens[access] = {"jkt": jkt, "client_id": request.form.get("client_id"), "expires": time.time() + access_seconds}
            counts["tokens"] += 1
        return jsonify(access_token=access, token_type="DPoP", expires_in=access_seconds)

    @app.get("/api/me")
    def me():
        scheme, _, access = request.headers.get("Authorization", "").partition(" ")
        bound = tokens.get(access)
        if scheme != "DPoP" or bound is None or bound["expires"] < time.time():
            counts["rejected_tokens"] += 1
            return jsonify(error="invalid_token"), 401, {"WWW-Authenticate": 'DPoP error="invalid_token"'}
        try:
            jkt = check_proof("GET", request.base_url, state["resource_nonce"], access)
        except (ProofError, jwt.PyJWTError) as error:
            counts["rejected_proofs"] += 1
            return jsonify(error="invalid_dpop_proof", error_description=str(error)), 401, {"WWW-Authenticate": 'DPoP error="invalid_dpop_proof"'}
        if jkt is None:
            counts["resource_nonce_challenges"] += 1
            return jsonify(error="use_dpop_nonce"), 401, {"WWW-Authenticate": 'DPoP error="use_dpop_nonce"', "DPoP-Nonce": state["resource_nonce"]}
        if jkt != bound["jkt"]:
            counts["rejected_bindings"] += 1
            return jsonify(error="invalid_token", error_description="the proof's key is not the token's"), 401, {"WWW-Authenticate": 'DPoP error="invalid_token"'}
        counts["resource_requests"] += 1
        return jsonify(client_id=bound["client_id"], jkt=jkt)

    @app.post("/_rotate_nonces")
    def rotate():
        state["token_nonce"], state["resource_nonce"] = secrets.token_urlsafe(16), secrets.token_urlsafe(16)
        return jsonify(rotated=True)

    @app.get("/_counters")
    def counters():
        return jsonify(counts=dict(counts), requests={})

    return app


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--port", type=int, default=0)
    parser.add_argument("--access-seconds", type=int, default=300)
    parser.add_argument("--renewed-access-seconds", type=int, default=300)  # the harness passes it; unused
    arguments = parser.parse_args()
    serve(create_app(arguments.access_seconds), arguments.port)
