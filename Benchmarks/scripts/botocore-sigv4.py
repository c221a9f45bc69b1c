# This source file is part of the AuthKit open source project
#
# Copyright (c) 2026 the AuthKit project authors
# Licensed under Apache License v2.0 (see LICENSE)
#
# SPDX-License-Identifier: Apache-2.0

"""CPU time of botocore's SigV4 signing on the two requests of the Signing benchmark suite.

Run with the interop environment (scripts/interop-peers installs botocore there):

    .build-interop/venv/bin/python Benchmarks/scripts/botocore-sigv4.py

Each iteration does what a botocore client does per request: builds an AWSRequest and calls
SigV4Auth.add_auth (canonical request, string to sign, HMAC with the derived key). The requests
are byte for byte those of Benchmarks/Benchmarks/Signing/Signing.swift (`makeRequest`), with the
same credentials, region and service, so the ratio to `SigV4 sign, …` can be read in one sitting.
Prints the median and range over rounds of the CPU time per signature (time.process_time_ns).
"""

import statistics
import time

from botocore.auth import SigV4Auth
from botocore.awsrequest import AWSRequest
from botocore.credentials import Credentials

ROUNDS = 9
ITERATIONS = 2_000

HEADERS = {
    "Accept": "application/json",
    "Accept-Language": "en-US,en;q=0.8",
    "User-Agent": "AuthKit/1.0 (Linux; bench)",
    "X-Request-Id": "7f1c2a4e-52a1-4c61-9d1e-0b7e3f5d9a10",
}


def post_body():
    item = '{"id":"0123456789","name":"widget","tags":["a","b","c"],"price":12.5},'
    body = '{"items":['
    while len(body.encode()) < 1000:
        body += item
    body = body[:-1] + "]}"
    body += " " * max(0, 1024 - len(body.encode()))
    return body.encode()


SHAPES = {
    "GET 5 headers + query": lambda: AWSRequest(
        "GET",
        "https://api.example.com/v1/items?limit=50&cursor=eyJpZCI6MTIzNH0&filter=active&sort=-created",
        headers=dict(HEADERS, **{"Cache-Control": "no-cache"}),
    ),
    "POST 1 KiB body": lambda: AWSRequest(
        "POST",
        "https://api.example.com/v1/items?dry_run=false",
        headers=dict(HEADERS, **{"Content-Type": "application/json"}),
        data=post_body(),
    ),
}


def main():
    signer = SigV4Auth(Credentials("AKIDEXAMPLE", "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY"), "execute-api", "eu-west-1")
    print("| botocore SigV4Auth.add_auth | median µs (CPU) | min | max |")
    print("|---|---|---|---|")
    for name, make in SHAPES.items():
        for _ in range(200):  # warm-up
            signer.add_auth(make())
        rounds = []
        for _ in range(ROUNDS):
            start = time.process_time_ns()
            for _ in range(ITERATIONS):
                signer.add_auth(make())
            rounds.append((time.process_time_ns() - start) / ITERATIONS / 1000)
        print(f"| {name} | {statistics.median(rounds):.1f} | {min(rounds):.1f} | {max(rounds):.1f} |")


if __name__ == "__main__":
    main()
