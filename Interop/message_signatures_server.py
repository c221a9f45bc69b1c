# This source file is part of the AuthKit open source project
#
# Copyright (c) 2026 the AuthKit project authors
# Licensed under Apache License v2.0 (see LICENSE)
#
# SPDX-License-Identifier: Apache-2.0

"""An independent RFC 9421 peer built on the http-message-signatures package, for the message
signature interop tests.

Started by Tests/IntegrationTests/InteropMessageSignatureTests.swift (see InteropPeer.swift):
prints `PORT <n>` and serves on 127.0.0.1 until its standard input closes. It uses the standard
library's HTTP server, not werkzeug, because RFC 9421 signs each field line as received and a
WSGI server joins repeated fields with "," before the application sees them.

POST /_keys
    Body: JSON {"keys": [{"keyid", "alg", "pem" or "raw_base64"}]}: private keys (PKCS#8 PEM;
    raw bytes for Ed25519 private keys and HMAC secrets). Replaces the keys of both directions.

POST /_sign
    Body: JSON {"method", "url", "headers": [[name, value], ...], "body_base64", "components":
    [serialized component identifiers], "keyid", "label", "created", "expires", "nonce", "tag",
    "include_alg"}. Signs the described request as a client of the package would and answers
    {"signature_input", "signature", "base"}; with a body, Content-Digest (sha-256) is added
    first and answered as "content_digest".

Any other request
    Verifies the one signature on the request as it arrived: the raw request target, every field
    line in order, the body when `content-digest` is covered. Answers 200 {"ok": true,
    "covered": {...}} or 401 {"ok": false, "error", "base"} (the base the package computed, when
    it got that far).
"""

import argparse
import base64
import datetime
import json
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import http_sf
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from cryptography.hazmat.primitives.serialization import load_pem_private_key
from http_message_signatures import HTTPMessageSigner, HTTPMessageVerifier, MappingKeyResolver, algorithms

from peer_support import serve_http_server

ALGORITHMS = {
    "hmac-sha256": algorithms.HMAC_SHA256,
    "ed25519": algorithms.ED25519,
    "ecdsa-p256-sha256": algorithms.ECDSA_P256_SHA256,
    "ecdsa-p384-sha384": algorithms.ECDSA_P384_SHA384,
    "rsa-pss-sha512": algorithms.RSA_PSS_SHA512,
    "rsa-v1_5-sha256": algorithms.RSA_V1_5_SHA256,
}

KEYS = {}  # keyid -> (algorithm id, private key, public key)


class Fields:
    """Field lines in order, with the mapping operations the package's signer writes through."""

    def __init__(self, lines):
        self.lines = [(str(name), str(value)) for name, value in lines]

    def items(self):
        return list(self.lines)

    def __iter__(self):
        return iter(dict.fromkeys(name for name, _ in self.lines))

    def __contains__(self, name):
        return any(field.lower() == name.lower() for field, _ in self.lines)

    def __getitem__(self, name):
        values = [value for field, value in self.lines if field.lower() == name.lower()]
        if not values:
            raise KeyError(name)
        return ", ".join(values)

    def __setitem__(self, name, value):
        del self[name]
        self.lines.append((name, value))

    def __delitem__(self, name):
        self.lines = [(field, value) for field, value in self.lines if field.lower() != name.lower()]


class Message:
    """The request view the package resolves components of: method, absolute URL, fields."""

    def __init__(self, method, url, lines):
        self.method = method
        self.url = url
        self.headers = Fields(lines)


def load_keys(spec):
    KEYS.clear()
    for entry in spec["keys"]:
        alg = entry["alg"]
        if alg == "hmac-sha256":
            secret = base64.b64decode(entry["raw_base64"])
            KEYS[entry["keyid"]] = (alg, secret, secret)
            continue
        if alg == "ed25519":
            private = Ed25519PrivateKey.from_private_bytes(base64.b64decode(entry["raw_base64"]))
        else:
            private = load_pem_private_key(entry["pem"].encode(), password=None)
        KEYS[entry["keyid"]] = (alg, private, private.public_key())


def resolver():
    return MappingKeyResolver(
        public_keys={keyid: public for keyid, (_, _, public) in KEYS.items()},
        private_keys={keyid: private for keyid, (_, private, _) in KEYS.items()},
    )


def timestamp(value):
    return None if value is None else datetime.datetime.fromtimestamp(value, tz=datetime.timezone.utc)


def sign(spec):
    alg, _, _ = KEYS[spec["keyid"]]
    message = Message(spec["method"], spec["url"], spec["headers"])
    body = base64.b64decode(spec["body_base64"]) if spec.get("body_base64") is not None else None
    signer = HTTPMessageSigner(signature_algorithm=ALGORITHMS[alg], key_resolver=resolver())
    prepared = signer.prepare(
        message,
        key_id=spec["keyid"],
        created=timestamp(spec["created"]),
        expires=timestamp(spec.get("expires")),
        nonce=spec.get("nonce"),
        label=spec["label"],
        tag=spec.get("tag"),
        include_alg=spec.get("include_alg", False),
        covered_component_ids=spec["components"],
        body=body,
    )
    _, private, _ = KEYS[spec["keyid"]]
    signature = ALGORITHMS[alg](private_key=private).sign(prepared.signature_base)
    signer.apply(message, prepared, signature)
    fields = message.headers
    answer = {
        "signature_input": fields["Signature-Input"],
        "signature": fields["Signature"],
        "base": prepared.signature_base.decode(),
    }
    if body is not None and "Content-Digest" in fields:
        answer["content_digest"] = fields["Content-Digest"]
    return answer


def verify(method, url, lines, body):
    message = Message(method, url, lines)
    try:
        inputs = http_sf.parse(message.headers["Signature-Input"].encode(), tltype="dictionary")
        (_, (components, parameters)), = inputs.items()
        alg, _, _ = KEYS[parameters["keyid"]]
    except Exception as error:  # noqa: BLE001 - reported to the test as it is
        return False, {"error": f"unusable Signature-Input: {error!r}"}
    verifier = HTTPMessageVerifier(signature_algorithm=ALGORITHMS[alg], key_resolver=resolver())
    covers_digest = any(component == "content-digest" for component, _ in components)
    try:
        results = verifier.verify(message, max_age=None, body=body if covers_digest else None)
    except Exception as error:  # noqa: BLE001 - reported to the test as it is
        details = {"error": f"{type(error).__name__}: {error}"}
        try:  # the base the package computes, made by its signer with the same inputs
            signer = HTTPMessageSigner(signature_algorithm=ALGORITHMS[alg], key_resolver=resolver())
            prepared = signer.prepare(
                Message(method, url, lines),
                key_id=parameters["keyid"],
                created=timestamp(parameters.get("created")),
                expires=timestamp(parameters.get("expires")),
                nonce=parameters.get("nonce"),
                tag=parameters.get("tag"),
                include_alg="alg" in parameters,
                covered_component_ids=[http_sf.ser(component) for component in components],
            )
            details["base"] = prepared.signature_base.decode()
        except Exception as base_error:  # noqa: BLE001
            details["base_error"] = repr(base_error)
        return False, details
    return True, {"covered": dict(results[0].covered_components)}


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, format, *args):  # noqa: A002 - no line per request
        pass

    def handle_any(self):
        length = int(self.headers.get("Content-Length") or 0)
        body = self.rfile.read(length) if length else b""
        if self.command == "POST" and self.path == "/_keys":
            load_keys(json.loads(body))
            status, payload = 200, {"ok": True}
        elif self.command == "POST" and self.path == "/_sign":
            status, payload = 200, sign(json.loads(body))
        else:
            url = f"http://{self.headers.get('Host', '')}{self.path}"
            ok, details = verify(self.command, url, self.headers.items(), body)
            status, payload = (200 if ok else 401), dict(details, ok=ok)
        data = json.dumps(payload).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    do_GET = do_POST = do_PUT = do_PATCH = do_DELETE = handle_any


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--port", type=int, default=0)
    # The other peers' lifetime options, accepted so that one launcher starts every peer.
    parser.add_argument("--access-seconds", type=int, default=0)
    parser.add_argument("--renewed-access-seconds", type=int, default=0)
    arguments = parser.parse_args()
    serve_http_server(ThreadingHTTPServer(("127.0.0.1", arguments.port), Handler))


if __name__ == "__main__":
    main()
