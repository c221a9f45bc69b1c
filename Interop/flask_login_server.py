# This source file is part of the AuthKit open source project
#
# Copyright (c) 2026 the AuthKit project authors
# Licensed under Apache License v2.0 (see LICENSE)
#
# SPDX-License-Identifier: Apache-2.0

"""Peer L: a Flask app with Flask-Login sessions and Flask-WTF CSRF, for AuthKit's interop tests.

A sign-in form as Flask-Login's and Flask-WTF's documentation show it: a FlaskForm (hidden field
`csrf_token`), CSRFProtect over the whole app, `login_manager.login_view = "login"`, and no
remember-me cookie. Users `alice` and `bob`, password "correct horse battery staple" (werkzeug's
scrypt hashes).

Flask keeps the session in one signed cookie, `session` (HttpOnly, Path=/, no SameSite, not
Secure unless `--secure-cookies`). Sign-in makes the session permanent: the cookie gets
Expires = now + `--session-seconds`, and the server refuses a session cookie signed longer ago
than that, whatever the cookie's expiry says (itsdangerous counts whole seconds: a cookie is
still accepted while the whole-second difference is at most `--session-seconds`, so up to just
under one second longer; wait `--session-seconds` + 1 to be sure it has ended). Flask's default
SESSION_REFRESH_EACH_REQUEST holds: every request with a permanent session sends the cookie again
with a new expiry (a sliding session), so it ends `--session-seconds` after the last request, not
after sign-in. Before sign-in the session cookie has no Expires (a browser-session cookie).

Flask-WTF keeps the CSRF secret in that session and signs a token with it (good for an hour):
a form or `X-CSRFToken` header needs the session cookie it came with. The secret stays the same
across sign-in (no rotation), but an ended session takes it along: fetch the form again. The form
fetched before sign-in must be posted within `--session-seconds` too (the same age limit).

    GET  /login       the form (200, text/html): `username`, `password`, hidden `csrf_token`
    POST /login       success: 302 to `next` when it is a local path, else to `/api/me`;
                      wrong password (or an empty field): 200, the form again with an error;
                      no or bad CSRF token: 400 (Flask-WTF's CSRFError, werkzeug's HTML page:
                      "The CSRF token is missing." / "The CSRF session token is missing." / ...)
    POST /logout      CSRF protected: 302 to `/login`
    GET  /api/me      {"username": ...}; signed out: 302 to `/login?next=%2Fapi%2Fme`
    POST /api/notes   CSRF protected (form field `csrf_token` or header `X-CSRFToken`), then
                      signed in: {"ok": true, "username": ...}; signed out: 302 to the form.
                      The CSRF check comes first, and an ended session takes the CSRF secret with
                      it: a signed-out POST gets 400, "The CSRF token is missing." without a
                      token, "The CSRF session token is missing." with one
    GET  /_counters   {"counts": {...}, "requests": {path: n}} (not counting itself)

Counts: `logins`, `failed_logins` (wrong user name or password), `logouts`, `csrf_failures`,
`unauthenticated` (a request to /api/* without a signed-in user).

    python flask_login_server.py --port 0 --session-seconds 2

prints `PORT <n>` as its first line once it listens on 127.0.0.1, and exits when its standard
input, if a pipe, closes. `--access-seconds` and `--renewed-access-seconds`, which every peer is
given, are accepted and unused.
"""

import argparse
import secrets
import threading
from collections import Counter
from datetime import timedelta
from urllib.parse import urlsplit

from flask import Flask, jsonify, redirect, render_template_string, request, session
from flask_login import LoginManager, UserMixin, current_user, login_required, login_user, logout_user
from flask_wtf import FlaskForm
from flask_wtf.csrf import CSRFError, CSRFProtect
from werkzeug.security import check_password_hash, generate_password_hash
from wtforms import PasswordField, StringField
from wtforms.validators import DataRequired

from peer_support import serve

PASSWORD = "correct horse battery staple"

LOGIN_TEMPLATE = """<!doctype html>
<html lang="en">
<head><title>Sign in</title></head>
<body>
{% if error %}<p class="errors">{{ error }}</p>{% endif %}
<form method="post" action="">
{{ form.hidden_tag() }}
<p>{{ form.username.label }} {{ form.username() }}</p>
<p>{{ form.password.label }} {{ form.password() }}</p>
<button type="submit">Sign in</button>
</form>
</body>
</html>
"""


class User(UserMixin):
    def __init__(self, username, password_hash):
        self.id = username
        self.password_hash = password_hash


class LoginForm(FlaskForm):
    username = StringField("Username", validators=[DataRequired()])
    password = PasswordField("Password", validators=[DataRequired()])


def create_app(session_seconds, secure_cookies=False):
    app = Flask(__name__)
    app.config.update(
        SECRET_KEY=secrets.token_hex(32),
        PERMANENT_SESSION_LIFETIME=timedelta(seconds=session_seconds),
        SESSION_COOKIE_SECURE=secure_cookies,
    )
    users = {name: User(name, generate_password_hash(PASSWORD)) for name in ("alice", "bob")}
    lock = threading.Lock()
    counts, paths = Counter(), Counter()

    def count(name):
        with lock:
            counts[name] += 1

    # Before CSRFProtect's own check, so that requests it refuses are counted too.
    @app.before_request
    def count_request():
        if request.path == "/_counters":
            return
        with lock:
            paths[request.path] += 1
        if request.path.startswith("/api/") and not current_user.is_authenticated:
            count("unauthenticated")

    CSRFProtect(app)
    login_manager = LoginManager(app)
    login_manager.login_view = "login"

    @login_manager.user_loader
    def load_user(user_id):
        return users.get(user_id)

    @app.errorhandler(CSRFError)
    def csrf_error(error):
        count("csrf_failures")
        return error  # werkzeug's 400 page with Flask-WTF's reason

    @app.route("/login", methods=["GET", "POST"])
    def login():
        form = LoginForm()
        error = None
        if form.validate_on_submit():
            user = users.get(form.username.data)
            if user is not None and check_password_hash(user.password_hash, form.password.data):
                session.permanent = True
                login_user(user)  # remember=False: no remember_token cookie
                count("logins")
                target = request.args.get("next", "")
                parts = urlsplit(target)
                if not target.startswith("/") or target.startswith("//") or parts.scheme or parts.netloc:
                    target = "/api/me"
                return redirect(target)
            count("failed_logins")
            error = "Invalid username or password."
        elif request.method == "POST":
            error = "Username and password are required."
        return render_template_string(LOGIN_TEMPLATE, form=form, error=error)

    @app.post("/logout")
    def logout():
        if current_user.is_authenticated:
            count("logouts")
        logout_user()
        return redirect("/login")

    @app.get("/api/me")
    @login_required
    def me():
        return jsonify(username=current_user.id)

    @app.post("/api/notes")
    @login_required
    def notes():
        return jsonify(ok=True, username=current_user.id)

    @app.get("/_counters")
    def counters():
        with lock:
            return jsonify(counts=dict(counts), requests=dict(paths))

    return app


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--port", type=int, default=0, help="0 picks a free port")
    parser.add_argument("--session-seconds", type=int, default=2, help="PERMANENT_SESSION_LIFETIME")
    parser.add_argument("--secure-cookies", action="store_true", help="mark the session cookie Secure")
    parser.add_argument("--access-seconds", type=int, help="accepted, unused (every peer is given it)")
    parser.add_argument("--renewed-access-seconds", type=int, help="accepted, unused")
    args = parser.parse_args()
    serve(create_app(args.session_seconds, args.secure_cookies), args.port)
