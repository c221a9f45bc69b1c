# This source file is part of the AuthKit open source project
#
# Copyright (c) 2026 the AuthKit project authors
# Licensed under Apache License v2.0 (see LICENSE)
#
# SPDX-License-Identifier: Apache-2.0

"""An independent AWS SigV4 peer built on botocore's own signer, for the signing interop tests.

Started by Tests/IntegrationTests/InteropBotocoreSigV4Tests.swift (see InteropPeer.swift): prints
`PORT <n>` and serves on 127.0.0.1 until its standard input closes.

POST /_canonical
    Body: JSON {"method", "url", "headers": [[name, value], ...], "body_base64", "region",
    "service", "access_key", "secret_key", "session_token" (or null), "amz_date"
    ("20150830T123600Z"), "unsigned_payload" (bool), "signed_headers" ([lower-case names] or
    null)}. Signs the request as a botocore client would at that time (SigV4Auth, or
    S3SigV4Auth when the service is "s3") and answers {"canonical_request", "string_to_sign",
    "signature", "signed_headers"}. With "signed_headers", botocore signs exactly those fields,
    so that only the canonicalization is compared.

Any other request
    Verifies the SigV4 `Authorization` of the request exactly as it arrived on the wire: the raw
    request target, the received fields named in SignedHeaders, the body. botocore recomputes the
    signature with the server's secret (--access-key/--secret) and the request's X-Amz-Date.
    Answers 200 {"ok": true} when it matches, else 403 {"ok": false, "canonical_request",
    "string_to_sign"}.
"""

import argparse
import base64
import hmac
import json
import re
import types

from botocore.auth import S3SigV4Auth, SigV4Auth
from botocore.awsrequest import AWSRequest, HTTPHeaders
from botocore.credentials import Credentials

from peer_support import serve


def pinned_signer(base, credentials, service, region, signed_headers):
    """A botocore signer whose header selection is pinned to `signed_headers` when given.

    `headers_to_sign` is the only override: botocore's own selection (its blocklist, `host` from
    the URL) runs first, then the fields AuthKit did not sign are dropped, so a difference in
    which fields are signed does not hide a difference in how they are canonicalized.
    """

    class Pinned(base):
        def headers_to_sign(self, request):
            headers = super().headers_to_sign(request)
            if signed_headers is None:
                return headers
            kept = HTTPHeaders()
            for name in dict.fromkeys(name.lower() for name in headers.keys()):  # each name once, in order
                if name in signed_headers:
                    for value in headers.get_all(name):
                        kept[name] = value
            return kept

    return Pinned(credentials, service, region)


def sign_like_a_client(spec):
    """botocore's canonical request, string to sign and signature for a described request."""
    credentials = Credentials(spec["access_key"], spec["secret_key"], spec.get("session_token"))
    service = spec["service"]
    base = S3SigV4Auth if service == "s3" else SigV4Auth
    signed = spec.get("signed_headers")
    signer = pinned_signer(base, credentials, service, spec["region"], set(signed) if signed is not None else None)
    request = AWSRequest(method=spec["method"], url=spec["url"], data=base64.b64decode(spec.get("body_base64") or ""))
    for name, value in spec["headers"]:
        request.headers[name] = value  # an email.message store: adds, so repeated fields stay
    request.context["timestamp"] = spec["amz_date"]
    if spec.get("unsigned_payload"):
        request.context["payload_signing_enabled"] = False
        request.context["client_config"] = types.SimpleNamespace(s3={"payload_signing_enabled": False})
    # What add_auth does, with botocore's clock replaced by the given time.
    signer._modify_request_before_signing(request)
    canonical = signer.canonical_request(request)
    string_to_sign = signer.string_to_sign(request, canonical)
    return {
        "canonical_request": canonical,
        "string_to_sign": string_to_sign,
        "signature": signer.signature(string_to_sign, request),
        "signed_headers": signer.signed_headers(signer.headers_to_sign(request)),
    }


AUTHORIZATION = re.compile(
    r"^AWS4-HMAC-SHA256 Credential=([^/]+)/(\d{8})/([^/]+)/([^/]+)/aws4_request, "
    r"SignedHeaders=([^,]+), Signature=([0-9a-f]{64})$"
)


def verify_as_received(environ, body, access_key, secret):
    """(ok, details) for the request in `environ`, recomputed by botocore from the wire."""
    authorization = environ.get("HTTP_AUTHORIZATION", "")
    match = AUTHORIZATION.match(authorization)
    if not match:
        return False, {"error": "no SigV4 Authorization"}
    key_id, _day, region, service, signed, signature = match.groups()
    if key_id != access_key:
        return False, {"error": "unknown access key"}
    names = signed.split(";")
    received = {}
    for key, value in environ.items():
        if key.startswith("HTTP_"):
            received.setdefault(key[5:].replace("_", "-").lower(), []).append(value)
        elif key in ("CONTENT_TYPE", "CONTENT_LENGTH") and value:
            received.setdefault(key.replace("_", "-").lower(), []).append(value)
    target = environ.get("REQUEST_URI") or environ.get("RAW_URI") or environ.get("PATH_INFO", "/")
    host = (received.get("host") or [""])[0]
    request = AWSRequest(method=environ["REQUEST_METHOD"], url=f"http://{host}{target}", data=body)
    for name in names:
        for value in received.get(name, []):
            request.headers[name] = value
    request.context["timestamp"] = (received.get("x-amz-date") or [""])[0]
    base = S3SigV4Auth if service == "s3" else SigV4Auth
    signer = pinned_signer(base, Credentials(access_key, secret), service, region, set(names))
    canonical = signer.canonical_request(request)
    string_to_sign = signer.string_to_sign(request, canonical)
    ok = hmac.compare_digest(signer.signature(string_to_sign, request), signature)
    return ok, {"canonical_request": canonical, "string_to_sign": string_to_sign}


def make_app(access_key, secret):
    def app(environ, start_response):
        length = int(environ.get("CONTENT_LENGTH") or 0)
        body = environ["wsgi.input"].read(length) if length else b""
        if environ["REQUEST_METHOD"] == "POST" and environ.get("PATH_INFO") == "/_canonical":
            status, payload = "200 OK", sign_like_a_client(json.loads(body))
        else:
            ok, details = verify_as_received(environ, body, access_key, secret)
            status, payload = ("200 OK" if ok else "403 Forbidden"), dict(details, ok=ok)
        data = json.dumps(payload).encode()
        start_response(status, [("Content-Type", "application/json"), ("Content-Length", str(len(data)))])
        return [data]

    return app


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--port", type=int, default=0)
    parser.add_argument("--access-key", default="AKIDEXAMPLE")
    parser.add_argument("--secret", default="wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY")
    # The other peers' lifetime options, accepted so that one launcher starts every peer.
    parser.add_argument("--access-seconds", type=int, default=0)
    parser.add_argument("--renewed-access-seconds", type=int, default=0)
    arguments = parser.parse_args()
    serve(make_app(arguments.access_key, arguments.secret), arguments.port)


if __name__ == "__main__":
    main()
