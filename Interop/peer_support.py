"""What the interop peers share: serving on 127.0.0.1 and the `PORT <n>` handshake."""

import logging
import os
import stat
import sys
import threading

from werkzeug.serving import make_server


def serve(app, port):
    """Serves `app` with werkzeug's threaded server on 127.0.0.1:`port` (0: a free one).

    Prints `PORT <n>` first, flushed, for the test that started the process to read. When
    standard input is a pipe, exits once it reaches its end: the test holds the other end, so
    the server goes away with the test even when the test process dies without stopping it.
    """
    logging.getLogger("werkzeug").setLevel(logging.ERROR)  # no line per request
    serve_http_server(make_server("127.0.0.1", port, app, threaded=True))


def serve_http_server(server):
    """Serves a bound `http.server`-style server (werkzeug's is one) with the same handshake."""
    print(f"PORT {server.server_port}", flush=True)
    if stat.S_ISFIFO(os.fstat(0).st_mode):
        threading.Thread(target=_exit_at_end_of_input, daemon=True).start()
    server.serve_forever()


def _exit_at_end_of_input():
    sys.stdin.buffer.read()
    os._exit(0)
