# This source file is part of the AuthKit open source project
#
# Copyright (c) 2026 the AuthKit project authors
# Licensed under Apache License v2.0 (see LICENSE)
#
# SPDX-License-Identifier: Apache-2.0

"""What the Django peers (django_server.py, django_oauth_toolkit_server.py) share: the users, the
counters behind `GET /_counters`, and serving a one-file project on a temporary SQLite database
that goes away with the process."""

import os
import shutil
import tempfile
import threading
from collections import Counter

import django

from peer_support import serve

USERNAMES = ("alice", "bob")
PASSWORD = "correct horse battery staple"

_lock = threading.Lock()
_counts, _paths = Counter(), Counter()


def count(name, n=1):
    with _lock:
        _counts[name] += n


def count_request(path):
    """Counts a request by path; `/_counters` itself is not counted."""
    if path != "/_counters":
        with _lock:
            _paths[path] += 1


def counters_response():
    """`GET /_counters`: {"counts": {...}, "requests": {path: n}}."""
    from django.http import JsonResponse

    with _lock:
        return JsonResponse({"counts": dict(_counts), "requests": dict(_paths)})


def create_users():
    """Migrates the database and creates the users (one password hash for both: PBKDF2 takes its time)."""
    from django.contrib.auth.hashers import make_password
    from django.contrib.auth.models import User
    from django.core.management import call_command

    call_command("migrate", verbosity=0, interactive=False)
    password = make_password(PASSWORD)
    for username in USERNAMES:
        User.objects.create(username=username, password=password)


def run(port, prefix, configure, prepare):
    """Serves the project on 127.0.0.1:`port` (peer_support's handshake).

    `configure(database_path)` calls `settings.configure`; `prepare()` runs once Django is set
    up (it defines the views and creates the data). The temporary database is removed when the
    server stops, however it stops.
    """
    folder = tempfile.mkdtemp(prefix=prefix)

    def remove_database():
        shutil.rmtree(folder, ignore_errors=True)

    try:
        configure(os.path.join(folder, "db.sqlite3"))
        django.setup()
        prepare()
        from django.core.wsgi import get_wsgi_application

        serve(get_wsgi_application(), port, cleanup=remove_database)
    finally:
        remove_database()
