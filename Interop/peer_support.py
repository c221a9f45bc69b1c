# This source file is part of the AuthKit open source project
#
# Copyright (c) 2026 the AuthKit project authors
# Licensed under Apache License v2.0 (see LICENSE)
#
# SPDX-License-Identifier: Apache-2.0

"""What the interop peers share: serving on 127.0.0.1 and the `PORT <n>` handshake."""

import logging
import os
import signal
import stat
import sys
import threading

from werkzeug.serving import make_server


def serve(app, port, cleanup=None):
    """Serves `app` with werkzeug's threaded server on 127.0.0.1:`port` (0: a free one).

    Prints `PORT <n>` first, flushed, for the test that started the process to read. When
    standard input is a pipe, exits once it reaches its end: the test holds the other end, so
    the server goes away with the test even when the test process dies without stopping it.
    `cleanup` (optional, no arguments) runs before such an exit, and at SIGTERM.
    """
    logging.getLogger("werkzeug").setLevel(logging.ERROR)  # no line per request
    serve_http_server(make_server("127.0.0.1", port, app, threaded=True), cleanup)


def serve_http_server(server, cleanup=None):
    """Serves a bound `http.server`-style server (werkzeug's is one) with the same handshake."""
    announce_port(server.server_port, cleanup)
    server.serve_forever()


def announce_port(port, cleanup=None):
    """The handshake for a server that listens on `port` by other means (uvicorn, say).

    Prints `PORT <n>`, flushed; when standard input is a pipe, exits once it reaches its end;
    at SIGTERM too, exits at once. `cleanup` (no arguments; it may run twice, from the two) runs
    before either exit: what `os._exit` skips, such as removing a temporary database.
    """
    def leave(*_):
        if cleanup is not None:
            cleanup()
        os._exit(0)

    if cleanup is not None:
        signal.signal(signal.SIGTERM, leave)
    print(f"PORT {port}", flush=True)
    if stat.S_ISFIFO(os.fstat(0).st_mode):
        threading.Thread(target=_exit_at_end_of_input, args=(leave,), daemon=True).start()


def _exit_at_end_of_input(leave):
    sys.stdin.buffer.read()
    leave()
