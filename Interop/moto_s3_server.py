# This source file is part of the AuthKit open source project
#
# Copyright (c) 2026 the AuthKit project authors
# Licensed under Apache License v2.0 (see LICENSE)
#
# SPDX-License-Identifier: Apache-2.0

"""An independent S3-compatible server that verifies SigV4: moto's S3 in server mode, with IAM
authentication on, for the S3 signing interop tests.

Started by Tests/IntegrationTests/InteropS3SigV4Tests.swift (see InteropPeer.swift): prints
`PORT <n>` and serves on 127.0.0.1 until its standard input closes.

moto checks every S3 request once authentication is on (its setting
INITIAL_NO_AUTH_ACTION_COUNT at 0): it looks the access key up among its IAM users, rebuilds the
canonical request with botocore's S3SigV4Auth from the request target as it arrived on the wire
(`raw_path` and the raw query) and the received signed fields, and answers 403
SignatureDoesNotMatch when the signature differs. This script only sets that up: one IAM user,
allowed `s3:*`, whose access key is --access-key / --secret.

What moto 5.2 does not do: check a presigned URL's signature (X-Amz-Signature in the query, no
Authorization field). Without authentication it serves such a request for an existing object
without looking at its signature; with authentication on it fails it (500), reading an
Authorization field the request does not have. So a request that carries X-Amz-Signature is
verified here instead, with botocore's own query signer (S3SigV4QueryAuth) over the target as it
arrived and the received fields named in X-Amz-SignedHeaders, after an expiry check; 403 when it
does not match, else moto serves it with its header check off for that request.
"""

import argparse
import datetime
import hmac
import threading
import urllib.parse

from botocore.auth import S3SigV4QueryAuth
from botocore.awsrequest import AWSRequest
from botocore.credentials import Credentials
from moto import settings
from moto.core import DEFAULT_ACCOUNT_ID
from moto.iam.models import iam_backends
from moto.moto_server.werkzeug_app import DomainDispatcherApplication, MotoRequestHandler, create_backend_app
from werkzeug.serving import make_server

from peer_support import serve_http_server

ALLOW_S3 = '{"Version": "2012-10-17", "Statement": [{"Effect": "Allow", "Action": "s3:*", "Resource": "*"}]}'


def add_user(access_key, secret):
    """An IAM user allowed s3:*, whose only access key is (`access_key`, `secret`)."""
    backend = iam_backends[DEFAULT_ACCOUNT_ID]["aws"]
    backend.create_user(region_name="us-east-1", user_name="interop")
    backend.put_user_policy("interop", "s3", ALLOW_S3)
    key = backend.create_access_key("interop")
    backend.access_keys.pop(key.physical_resource_id, None)
    key.access_key_id = access_key
    key.secret_access_key = secret
    backend.access_keys[key.physical_resource_id] = key


PRESIGNED_OK = "presigned, and its signature verifies"


def presigned_verdict(environ, access_key, secret):
    """None when `environ` is no presigned request, PRESIGNED_OK when its query signature
    verifies, else why it does not.

    botocore's S3SigV4QueryAuth recomputes the signature from the target as it arrived: the
    raw path, the query without X-Amz-Signature (in its order on the wire), and the received
    fields named in X-Amz-SignedHeaders.
    """
    target = environ.get("RAW_URI") or environ.get("REQUEST_URI") or ""
    path, _, query = target.partition("?")
    pairs = [pair.partition("=") for pair in query.split("&")] if query else []
    names = [urllib.parse.unquote(name) for name, _, _ in pairs]
    if "X-Amz-Signature" not in names:
        return None
    values = {urllib.parse.unquote(name): urllib.parse.unquote(value) for name, _, value in pairs}
    credential = values.get("X-Amz-Credential", "").split("/")
    if len(credential) != 5 or credential[0] != access_key or credential[4] != "aws4_request":
        return "unknown access key or malformed X-Amz-Credential"
    try:
        signed_at = datetime.datetime.strptime(values.get("X-Amz-Date", ""), "%Y%m%dT%H%M%SZ").replace(tzinfo=datetime.timezone.utc)
        expires = int(values.get("X-Amz-Expires", ""))
    except ValueError:
        return "malformed X-Amz-Date or X-Amz-Expires"
    if datetime.datetime.now(datetime.timezone.utc) > signed_at + datetime.timedelta(seconds=expires):
        return "the presigned URL has expired"
    kept = "&".join(f"{name}={value}" for name, _, value in pairs if urllib.parse.unquote(name) != "X-Amz-Signature")
    signer = S3SigV4QueryAuth(Credentials(access_key, secret), credential[3], credential[2], expires=expires)
    request = AWSRequest(method=environ["REQUEST_METHOD"], url=f"http://{environ.get('HTTP_HOST', '')}{path}?{kept}" if kept else f"http://{environ.get('HTTP_HOST', '')}{path}")
    for name in values.get("X-Amz-SignedHeaders", "").split(";"):
        key = "HTTP_" + name.upper().replace("-", "_")
        if name in ("content-type", "content-length"):
            key = name.upper().replace("-", "_")
        if key in environ:
            request.headers[name] = environ[key]
    request.context["timestamp"] = values.get("X-Amz-Date", "")
    # The query already holds the X-Amz-* parameters, so the canonical request is made from the
    # URL as it stands (botocore's add_auth would add them again).
    canonical = signer.canonical_request(request)
    string_to_sign = signer.string_to_sign(request, canonical)
    if not hmac.compare_digest(signer.signature(string_to_sign, request), values["X-Amz-Signature"]):
        return "SignatureDoesNotMatch (presigned)\n" + canonical
    return PRESIGNED_OK


def make_app(access_key, secret):
    moto = DomainDispatcherApplication(create_backend_app)
    # moto's authentication switch is one process-wide setting: requests go through one at a time.
    lock = threading.Lock()

    def app(environ, start_response):
        verdict = presigned_verdict(environ, access_key, secret)
        if verdict not in (None, PRESIGNED_OK):
            body = verdict.encode()
            start_response("403 Forbidden", [("Content-Type", "text/plain"), ("Content-Length", str(len(body)))])
            return [body]
        with lock:
            # moto with authentication on reads the Authorization field of every request, which a
            # presigned one has none of: one whose query signature verified above is served with
            # moto's check off for that request alone.
            settings.INITIAL_NO_AUTH_ACTION_COUNT = float("inf") if verdict == PRESIGNED_OK else 0
            try:
                return list(moto(environ, start_response))
            finally:
                settings.INITIAL_NO_AUTH_ACTION_COUNT = 0

    return app


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--port", type=int, default=0)
    parser.add_argument("--access-key", default="AKIAINTEROPEXAMPLE01")
    parser.add_argument("--secret", default="wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY")
    # The other peers' lifetime options, accepted so that one launcher starts every peer.
    parser.add_argument("--access-seconds", type=int, default=0)
    parser.add_argument("--renewed-access-seconds", type=int, default=0)
    arguments = parser.parse_args()
    add_user(arguments.access_key, arguments.secret)
    settings.INITIAL_NO_AUTH_ACTION_COUNT = 0  # from now on every request is authenticated
    server = make_server("127.0.0.1", arguments.port, make_app(arguments.access_key, arguments.secret),
                         threaded=True, request_handler=MotoRequestHandler)
    serve_http_server(server)


if __name__ == "__main__":
    main()
