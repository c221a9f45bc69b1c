# This source file is part of the AuthKit open source project
#
# Copyright (c) 2026 the AuthKit project authors
# Licensed under Apache License v2.0 (see LICENSE)
#
# SPDX-License-Identifier: Apache-2.0

"""Peer D: a Django 5.2 project in one file (sessions, CSRF, LoginView, DRF), for AuthKit's interop tests.

Django's own machinery, not a copy of it: `django.contrib.auth.views.LoginView`, SessionMiddleware
(database sessions in a temporary SQLite file, migrated at startup), CsrfViewMiddleware with its
defaults and AuthenticationMiddleware; Django REST framework's `SessionAuthentication` and
`IsAuthenticated`. Users `alice` and `bob`, password "correct horse battery staple", hashed with
Django's default hasher (PBKDF2, about half a second a sign-in). DEBUG is off; ALLOWED_HOSTS are
127.0.0.1 and localhost.

Cookies: `sessionid` (HttpOnly, Path=/, SameSite=Lax, Max-Age=`--session-seconds`; a session
ends `--session-seconds` after sign-in, on the server too, and is not extended by requests) and
`csrftoken` (not HttpOnly, Path=/, SameSite=Lax, a year). Signing in rotates the CSRF token (a
new `csrftoken` cookie) and the session key. Unsafe methods need the token from the cookie back in
the header `X-CSRFToken` or the form field `csrfmiddlewaretoken`.

    GET  /accounts/login/     the sign-in form (200, text/html): fields `username`, `password`,
                              hidden `csrfmiddlewaretoken` and `next`; sets `csrftoken`
    POST /accounts/login/     success: 302 to `next` when safe, else LOGIN_REDIRECT_URL `/api/me`;
                              wrong password: 200, the form again with an error; no CSRF token:
                              403 from CSRF_FAILURE_VIEW (counts, then Django's default page:
                              text/html, "CSRF verification failed. Request aborted.")
    POST /accounts/logout/    LogoutView (CSRF protected): 302 to `/accounts/login/`
    GET  /api/me              `login_required`: {"username": ...}; signed out: 302 to
                              `/accounts/login/?next=/api/me`
    POST /api/notes           `login_required`, CSRF protected: {"ok": true, "username": ...};
                              the CSRF check comes first (403 without a token, signed in or not),
                              then a signed-out request gets the 302 to the sign-in form
    GET  /drf/me              DRF, SessionAuthentication + IsAuthenticated: {"username": ...};
                              signed out: 403 {"detail": "Authentication credentials were not provided."}
    POST /drf/notes           the same, and DRF enforces CSRF for session-authenticated requests:
                              403 {"detail": "CSRF Failed: CSRF token missing."} without the header
    GET  /_counters           {"counts": {...}, "requests": {path: n}} (not counting itself)

Counts: `logins` (the user_logged_in signal), `failed_logins` (user_login_failed), `logouts`,
`csrf_failures` (Django's CsrfViewMiddleware rejections), `drf_csrf_failures` (DRF's own CSRF
rejections, which do not go through CSRF_FAILURE_VIEW), `unauthenticated` (a request to /api/* or
/drf/* without a valid session).

    python django_server.py --port 0 --session-seconds 2

prints `PORT <n>` as its first line once it listens on 127.0.0.1, and exits when its standard
input, if a pipe, closes (removing the temporary database). `--access-seconds` and
`--renewed-access-seconds`, which every peer is given, are accepted and unused.
"""

import argparse
import secrets

from django.conf import settings

from django_peer import count, count_request, counters_response, create_users, run


LOGIN_TEMPLATE = """<!doctype html>
<html lang="en">
<head><title>Sign in</title></head>
<body>
{% if form.errors %}<p class="errors">Your username and password didn't match. Please try again.</p>{% endif %}
<form method="post" action="{% url 'login' %}">
{% csrf_token %}
<p>{{ form.username.label_tag }} {{ form.username }}</p>
<p>{{ form.password.label_tag }} {{ form.password }}</p>
<input type="hidden" name="next" value="{{ next }}">
<button type="submit">Sign in</button>
</form>
</body>
</html>
"""



def configure(session_seconds, database, secure_cookies):
    settings.configure(
        DEBUG=False,
        SECRET_KEY=secrets.token_urlsafe(50),
        ALLOWED_HOSTS=["127.0.0.1", "localhost"],
        ROOT_URLCONF=__name__,
        INSTALLED_APPS=[
            "django.contrib.auth",
            "django.contrib.contenttypes",
            "django.contrib.sessions",
            "rest_framework",
        ],
        MIDDLEWARE=[
            "django.contrib.sessions.middleware.SessionMiddleware",
            "django.middleware.csrf.CsrfViewMiddleware",
            "django.contrib.auth.middleware.AuthenticationMiddleware",
            f"{__name__}.CountingMiddleware",
        ],
        DATABASES={"default": {"ENGINE": "django.db.backends.sqlite3", "NAME": database}},
        DEFAULT_AUTO_FIELD="django.db.models.AutoField",
        TEMPLATES=[{
            "BACKEND": "django.template.backends.django.DjangoTemplates",
            "OPTIONS": {
                "loaders": [("django.template.loaders.locmem.Loader", {"registration/login.html": LOGIN_TEMPLATE})],
            },
        }],
        SESSION_COOKIE_AGE=session_seconds,
        SESSION_COOKIE_SECURE=secure_cookies,
        CSRF_COOKIE_SECURE=secure_cookies,
        CSRF_FAILURE_VIEW=f"{__name__}.csrf_failure",
        LOGIN_URL="/accounts/login/",
        LOGIN_REDIRECT_URL="/api/me",
        LOGOUT_REDIRECT_URL="/accounts/login/",
        USE_TZ=True,
        REST_FRAMEWORK={
            "DEFAULT_AUTHENTICATION_CLASSES": ["rest_framework.authentication.SessionAuthentication"],
            "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticated"],
            "DEFAULT_RENDERER_CLASSES": ["rest_framework.renderers.JSONRenderer"],
            "EXCEPTION_HANDLER": f"{__name__}.drf_exception_handler",
        },
    )


# What follows uses Django's models and views: it is defined once settings are configured
# (`define_project`), and the module-level names it sets are what the settings point at.

def define_project():
    global CountingMiddleware, csrf_failure, drf_exception_handler, urlpatterns

    from django.contrib.auth import views as auth_views
    from django.contrib.auth.decorators import login_required
    from django.contrib.auth.signals import user_logged_in, user_logged_out, user_login_failed
    from django.http import JsonResponse
    from django.urls import path
    from django.views import csrf as csrf_views
    from django.views.decorators.http import require_GET, require_POST
    from rest_framework import exceptions as drf_exceptions
    from rest_framework import views as drf_views
    from rest_framework.decorators import api_view
    from rest_framework.response import Response

    user_logged_in.connect(lambda **_: count("logins"), weak=False)
    user_login_failed.connect(lambda **_: count("failed_logins"), weak=False)
    user_logged_out.connect(lambda **_: count("logouts"), weak=False)

    class CountingMiddleware:
        """Counts each request by path, and those to /api/* or /drf/* with no signed-in user."""

        def __init__(self, get_response):
            self.get_response = get_response

        def __call__(self, request):
            count_request(request.path)
            if request.path.startswith(("/api/", "/drf/")) and not request.user.is_authenticated:
                count("unauthenticated")
            return self.get_response(request)

    def csrf_failure(request, reason=""):
        count("csrf_failures")
        return csrf_views.csrf_failure(request, reason)  # Django's default 403 page

    def drf_exception_handler(exc, context):
        if isinstance(exc, drf_exceptions.PermissionDenied) and str(exc.detail).startswith("CSRF Failed"):
            count("drf_csrf_failures")
        return drf_views.exception_handler(exc, context)

    @require_GET
    @login_required
    def me(request):
        return JsonResponse({"username": request.user.get_username()})

    @require_POST
    @login_required
    def notes(request):
        return JsonResponse({"ok": True, "username": request.user.get_username()})

    @api_view(["GET"])
    def drf_me(request):
        return Response({"username": request.user.get_username()})

    @api_view(["POST"])
    def drf_notes(request):
        return Response({"ok": True, "username": request.user.get_username()})

    @require_GET
    def counters(request):
        return counters_response()

    urlpatterns = [
        path("accounts/login/", auth_views.LoginView.as_view(), name="login"),
        path("accounts/logout/", auth_views.LogoutView.as_view(), name="logout"),
        path("api/me", me),
        path("api/notes", notes),
        path("drf/me", drf_me),
        path("drf/notes", drf_notes),
        path("_counters", counters),
    ]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--port", type=int, default=0, help="0 picks a free port")
    parser.add_argument("--session-seconds", type=int, default=2, help="SESSION_COOKIE_AGE: a session's lifetime from sign-in")
    parser.add_argument("--secure-cookies", action="store_true", help="mark the session and CSRF cookies Secure")
    parser.add_argument("--access-seconds", type=int, help="accepted, unused (every peer is given it)")
    parser.add_argument("--renewed-access-seconds", type=int, help="accepted, unused")
    args = parser.parse_args()

    def prepare():
        define_project()
        create_users()

    run(args.port, "authkit-django-peer-", lambda database: configure(args.session_seconds, database, args.secure_cookies), prepare)


if __name__ == "__main__":
    main()
