# This source file is part of the AuthKit open source project
#
# Copyright (c) 2026 the AuthKit project authors
# Licensed under Apache License v2.0 (see LICENSE)
#
# SPDX-License-Identifier: Apache-2.0

"""Peer: an HTTPS server on Python's standard library alone (`ssl`, `http.server`), for the TLS
tests of AuthHTTPClient and AuthOAuth2: certificate pinning, mutual TLS (RFC 8705) and
certificate-bound access tokens. An implementation of TLS independent of BoringSSL (OpenSSL,
through CPython).

- `GET /hello`: 200 `hello`;
- `POST /token`: client_credentials, with the client authenticated by its TLS certificate only:
  `self_signed_tls_client_auth` when the certificate's SHA-256 thumbprint is one of
  `--self-signed`, else `tls_client_auth` when a certificate issued by the CA names the
  `client_id` as its subject's common name. Issues an HS256 JWT access token bound to the
  certificate (`cnf.x5t#S256`), or answers 401 `invalid_client`;
- `GET /api/me`: `Authorization: Bearer <token>`; a bound token is accepted only over a
  connection that presents its certificate;
- `GET /_counters`: how many requests reached each path, and named counts (`authorization`: how
  many requests carried an `Authorization` field at all).

Client certificates are asked for and checked against `--client-ca` (a PEM bundle): optional
unless `--require-client-certificate`, in which case a handshake without one fails.

    python tls_server.py --port 0 --cert server.pem --key server-key.pem [--client-ca ca.pem]

prints `PORT <n>` as its first line once it listens on 127.0.0.1.
"""

import argparse
import base64
import hashlib
import hmac
import json
import secrets
import ssl
import threading
import time
import urllib.parse
from collections import Counter
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from peer_support import serve_http_server


def b64url(data):
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def b64url_decode(text):
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def common_name(name):
    """The CN of a name as `SSLSocket.getpeercert()` gives it (a tuple of RDN tuples)."""
    for rdn in name or ():
        for key, value in rdn:
            if key == "commonName":
                return value
    return None


def make_handler(arguments):
    lock = threading.Lock()
    counts = Counter()
    requests = Counter()
    token_key = secrets.token_bytes(32)
    self_signed = set(arguments.self_signed or [])

    def sign(claims):
        header = b64url(json.dumps({"alg": "HS256", "typ": "JWT"}).encode())
        payload = b64url(json.dumps(claims).encode())
        mac = hmac.new(token_key, f"{header}.{payload}".encode(), hashlib.sha256).digest()
        return f"{header}.{payload}.{b64url(mac)}"

    def verify(token):
        try:
            header, payload, mac = token.split(".")
        except ValueError:
            return None
        expected = hmac.new(token_key, f"{header}.{payload}".encode(), hashlib.sha256).digest()
        if not hmac.compare_digest(expected, b64url_decode(mac)):
            return None
        claims = json.loads(b64url_decode(payload))
        return claims if claims.get("exp", 0) > time.time() else None

    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, *args):
            pass

        def presented(self):
            """(thumbprint, verified certificate dict) of the client certificate, or (None, None)."""
            der = self.connection.getpeercert(binary_form=True)
            if not der:
                return None, None
            return b64url(hashlib.sha256(der).digest()), self.connection.getpeercert()

        def answer(self, status, body, content_type="application/json"):
            data = body.encode() if isinstance(body, str) else body
            self.send_response(status)
            self.send_header("Content-Type", content_type)
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def count(self):
            path = urllib.parse.urlsplit(self.path).path
            with lock:
                if path != "/_counters":
                    requests[path] += 1
                if self.headers.get("Authorization") is not None:
                    counts["authorization"] += 1
            return path

        def do_GET(self):
            path = self.count()
            if path == "/hello":
                return self.answer(200, "hello", "text/plain")
            if path == "/_counters":
                with lock:
                    return self.answer(200, json.dumps({"counts": dict(counts), "requests": dict(requests)}))
            if path == "/api/me":
                authorization = self.headers.get("Authorization", "")
                claims = verify(authorization[7:]) if authorization.startswith("Bearer ") else None
                if claims is None:
                    return self.answer(401, json.dumps({"error": "invalid_token"}))
                bound = claims.get("cnf", {}).get("x5t#S256")
                thumbprint, _ = self.presented()
                if bound is not None and bound != thumbprint:
                    with lock:
                        counts["binding_mismatch"] += 1
                    return self.answer(401, json.dumps({"error": "invalid_token", "error_description": "certificate binding"}))
                with lock:
                    counts["resource_requests"] += 1
                return self.answer(200, json.dumps({"sub": claims["sub"], "x5t#S256": bound}))
            return self.answer(404, "{}")

        def do_POST(self):
            path = self.count()
            length = int(self.headers.get("Content-Length", "0"))
            form = dict(urllib.parse.parse_qsl(self.rfile.read(length).decode()))
            if path != "/token":
                return self.answer(404, "{}")
            if form.get("grant_type") != "client_credentials":
                return self.answer(400, json.dumps({"error": "unsupported_grant_type"}))
            client_id = form.get("client_id")
            thumbprint, certificate = self.presented()
            if thumbprint is not None and thumbprint in self_signed:
                method = "self_signed_tls_client_auth"
            elif certificate and common_name(certificate.get("subject")) == client_id \
                    and common_name(certificate.get("issuer")) != client_id:
                method = "tls_client_auth"
            else:
                with lock:
                    counts["client_refused"] += 1
                return self.answer(401, json.dumps({"error": "invalid_client", "error_description": "no acceptable client certificate"}))
            with lock:
                counts[method] += 1
            token = sign({"sub": client_id, "exp": int(time.time()) + 300, "cnf": {"x5t#S256": thumbprint}})
            return self.answer(200, json.dumps({"access_token": token, "token_type": "Bearer", "expires_in": 300}))

    return Handler


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--port", type=int, default=0)
    parser.add_argument("--cert", required=True)
    parser.add_argument("--key", required=True)
    parser.add_argument("--client-ca")
    parser.add_argument("--require-client-certificate", action="store_true")
    parser.add_argument("--self-signed", action="append", help="a registered self-signed certificate's x5t#S256")
    arguments, _ = parser.parse_known_args()  # the harness passes token lifetimes; unused

    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(arguments.cert, arguments.key)
    if arguments.client_ca:
        context.load_verify_locations(arguments.client_ca)
        context.verify_mode = ssl.CERT_REQUIRED if arguments.require_client_certificate else ssl.CERT_OPTIONAL
    server = ThreadingHTTPServer(("127.0.0.1", arguments.port), make_handler(arguments))
    server.daemon_threads = True
    server.socket = context.wrap_socket(server.socket, server_side=True)
    serve_http_server(server)
