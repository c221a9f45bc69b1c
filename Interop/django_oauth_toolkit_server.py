# This source file is part of the AuthKit open source project
#
# Copyright (c) 2026 the AuthKit project authors
# Licensed under Apache License v2.0 (see LICENSE)
#
# SPDX-License-Identifier: Apache-2.0

"""Peer E: an OAuth 2.0 provider and resource server made with django-oauth-toolkit, for AuthKit's interop tests.

A Django 5.2 project in one file, like django_server.py: django-oauth-toolkit (DOT) 3.x with its
own token, revocation and introspection views at /o/ (`oauth2_provider.urls`), its own
`ProtectedResourceView`/`ScopedProtectedResourceView` and its DRF `OAuth2Authentication`; tokens
in a temporary SQLite file, migrated at startup. Users `alice` and `bob`, password "correct horse
battery staple" (Django's default hasher, PBKDF2: about half a second a password check, client
secrets included). DEBUG is off; ALLOWED_HOSTS are 127.0.0.1 and localhost.

Clients, created at startup:
    interop-tests   public (no secret), grant type "password" (and so refresh_token)
    svc             confidential, grant type "client_credentials", secret "svc-s3cret" (stored hashed,
                    as DOT does by default); Basic authentication or client_id/client_secret in the body

Settings that matter: ACCESS_TOKEN_EXPIRE_SECONDS is `--access-seconds` for a password or
client_credentials grant and `--renewed-access-seconds` (default: the same) for a refresh_token
grant (a callable; oauthlib asks it per request). ROTATE_REFRESH_TOKEN True (DOT's default): a
refresh answers a new refresh token and revokes the old one and its access token;
REFRESH_TOKEN_GRACE_PERIOD_SECONDS 0 and REFRESH_TOKEN_REUSE_PROTECTION False (the defaults), so a
rotated-away refresh token is `invalid_grant` and nothing else is revoked. SCOPES read, write,
admin; DEFAULT_SCOPES read, write: a token has `admin` only when asked for with scope=admin.

    POST /o/token/            DOT's TokenView (form body): grant_type password (client_id
                              interop-tests, username, password[, scope]), refresh_token (client_id
                              interop-tests, refresh_token), client_credentials. 200 {"access_token",
                              "expires_in", "token_type": "Bearer", "scope", "refresh_token"} (no
                              refresh token for client_credentials). Errors are oauthlib's JSON:
                              a wrong user name or password: 400 {"error": "invalid_grant",
                              "error_description": "Invalid credentials given."}; a rotated-away,
                              revoked or unknown refresh token: 400 {"error": "invalid_grant"}; an
                              unknown client_id, none, or a wrong secret: 401 {"error":
                              "invalid_client"} with `WWW-Authenticate: Bearer error="invalid_client"`
    POST /o/revoke_token/     DOT's RevokeTokenView (RFC 7009): token[, token_type_hint], client_id;
                              200, empty body. Revoking a refresh token deletes its access token;
                              revoking an access token deletes it, and its refresh token is then
                              refused too (DOT 3.x treats a refresh token whose access token is
                              gone as an orphan: invalid_grant)
    POST /o/introspect/       DOT's IntrospectTokenView (needs a token with the `introspection` scope;
                              not otherwise set up)
    GET  /api/me              DOT's ProtectedResourceView: {"username": ...}; refused: 403, empty
                              body, no WWW-Authenticate, whatever the reason (no token, unknown,
                              expired, revoked)
    GET  /api/admin           DOT's ScopedProtectedResourceView, required_scopes ["admin"]: the same
                              bare 403, for a valid token without `admin` too
    GET  /api/me-rfc9728      DOT's ProtectedResourceMetadataView (its RFC 9728 opt-in): refused:
                              401, empty body, `WWW-Authenticate: Bearer error="invalid_token",
                              error_description="...",resource_metadata="http://.../o/.well-known/
                              oauth-protected-resource"` (no token: only resource_metadata)
    GET  /api/admin-rfc9728   DOT's ScopedProtectedResourceMetadataView, required_scopes ["admin"]:
                              a valid token without `admin`: 403, error="insufficient_scope"
    GET  /drf/me              DRF with OAuth2Authentication + IsAuthenticated: {"username": ...};
                              refused: 401, `WWW-Authenticate: Bearer realm="api"` (no token) or
                              `Bearer realm="api",error="invalid_token",error_description="The
                              access token is invalid."` (unknown, deleted) / "...has expired."
                              (expired), body {"detail": "Authentication credentials were not
                              provided."}
    GET  /drf/admin           the same with DOT's TokenHasScope, required_scopes ["admin"]: a valid
                              token without it gets 403 {"detail": "You do not have permission to
                              perform this action."}, no WWW-Authenticate
    POST /_revoke_access      test helper, no authentication: field `username` (JSON or form):
                              ends every live access token of that user, as an admin would:
                              {"revoked": n}. `how` = "expire" (the default) sets their `expires`
                              to a second ago: the resources answer as for an expired token and
                              the refresh tokens keep working. `how` = "delete" deletes them (DOT's
                              AccessToken.revoke(), what the admin's delete and /o/revoke_token/
                              do): "The access token is invalid.", and their refresh tokens are
                              refused from then on (see /o/revoke_token/).
    GET  /_counters           {"counts": {...}, "requests": {path: n}} (not counting itself)

Counts: `password_grants`, `refresh_grants`, `client_credentials_grants` (200 answers of
/o/token/ by grant_type), `failed_password_grants`, `failed_refresh_grants`,
`failed_client_credentials_grants` (other answers), `token_error:<error>` (the `error` of each
refused token request), `revocations` (200 answers of /o/revoke_token/), `admin_revocations`
(access tokens ended by /_revoke_access), `rejected_resource_requests` (401 or 403 answers under
/api/ and /drf/), `resource_requests_without_token` (those of them without an Authorization
header).

    python django_oauth_toolkit_server.py --port 0 --access-seconds 2 --renewed-access-seconds 2

prints `PORT <n>` as its first line once it listens on 127.0.0.1, and exits when its standard
input, if a pipe, closes (removing the temporary database).
"""

import argparse
import json
import logging
import secrets
import warnings
from datetime import timedelta

from django.conf import settings

from django_peer import count, count_request, counters_response, create_users, run

PUBLIC_CLIENT_ID = "interop-tests"
SERVICE_CLIENT_ID = "svc"
SERVICE_CLIENT_SECRET = "svc-s3cret"



def configure(access_seconds, renewed_access_seconds, database):
    def access_token_expire_seconds(request):
        # oauthlib's BearerToken calls a callable `expires_in` with the token request.
        if getattr(request, "grant_type", None) == "refresh_token":
            return renewed_access_seconds
        return access_seconds

    settings.configure(
        DEBUG=False,
        SECRET_KEY=secrets.token_urlsafe(50),
        ALLOWED_HOSTS=["127.0.0.1", "localhost"],
        ROOT_URLCONF=__name__,
        INSTALLED_APPS=[
            "django.contrib.auth",
            "django.contrib.contenttypes",
            "oauth2_provider",
            "rest_framework",
        ],
        MIDDLEWARE=[f"{__name__}.CountingMiddleware"],
        DATABASES={"default": {"ENGINE": "django.db.backends.sqlite3", "NAME": database}},
        DEFAULT_AUTO_FIELD="django.db.models.AutoField",
        USE_TZ=True,
        OAUTH2_PROVIDER={
            "ACCESS_TOKEN_EXPIRE_SECONDS": access_token_expire_seconds,
            "ROTATE_REFRESH_TOKEN": True,
            "SCOPES": {"read": "Reading scope", "write": "Writing scope", "admin": "Administration"},
            "DEFAULT_SCOPES": ["read", "write"],
            # The password grant is what the tests use: allowed explicitly, as DOT 4.0 is to
            # refuse it by default (RFC 9700). DOT still warns at each use; see quiet_rfc9700_warnings.
            "COMPLIANT_BCP_RFC9700_PASSWORD_GRANT": False,
        },
        REST_FRAMEWORK={
            "DEFAULT_AUTHENTICATION_CLASSES": ["oauth2_provider.contrib.rest_framework.OAuth2Authentication"],
            "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticated"],
            "DEFAULT_RENDERER_CLASSES": ["rest_framework.renderers.JSONRenderer"],
            "UNAUTHENTICATED_USER": None,
        },
    )


def quiet_rfc9700_warnings():
    """Drops DOT's warning, at each password grant, that RFC 9700 discourages the grant.

    DOT logs it on the `oauth2_provider` logger (which, unconfigured, goes to standard error,
    the test's output) and raises it as a DeprecationWarning; other messages pass.
    """
    logging.getLogger("oauth2_provider").addFilter(lambda record: "RFC 9700" not in record.getMessage())
    warnings.filterwarnings("ignore", message=".*RFC 9700", category=DeprecationWarning)


# What follows uses Django's models and views: it is defined once settings are configured
# (`define_project`), and the module-level names it sets are what the settings point at.

def define_project():
    global CountingMiddleware, urlpatterns

    from django.http import JsonResponse
    from django.urls import include, path
    from django.utils import timezone
    from django.views.decorators.csrf import csrf_exempt
    from django.views.decorators.http import require_GET, require_POST
    from oauth2_provider import views as oauth2_views
    from oauth2_provider.contrib.rest_framework import TokenHasScope
    from oauth2_provider.models import get_access_token_model
    from rest_framework.decorators import api_view
    from rest_framework.permissions import IsAuthenticated
    from rest_framework.response import Response
    from rest_framework.views import APIView

    class CountingMiddleware:
        """Counts each request by path, and the refusals of the resource endpoints."""

        def __init__(self, get_response):
            self.get_response = get_response

        def __call__(self, request):
            count_request(request.path)
            response = self.get_response(request)
            if request.path.startswith(("/api/", "/drf/")) and response.status_code in (401, 403):
                count("rejected_resource_requests")
                if "HTTP_AUTHORIZATION" not in request.META:
                    count("resource_requests_without_token")
            return response

    GRANT_NAMES = {"password": "password", "refresh_token": "refresh", "client_credentials": "client_credentials"}

    class CountingTokenView(oauth2_views.TokenView):
        """DOT's TokenView, unchanged, counting its answers by grant type."""

        def post(self, request, *args, **kwargs):
            response = super().post(request, *args, **kwargs)
            grant = GRANT_NAMES.get(request.POST.get("grant_type"), "other")
            if response.status_code == 200:
                count(f"{grant}_grants")
            else:
                count(f"failed_{grant}_grants")
                try:
                    count(f"token_error:{json.loads(response.content)['error']}")
                except (ValueError, KeyError, TypeError):
                    pass
            return response

    class CountingRevokeTokenView(oauth2_views.RevokeTokenView):
        def post(self, request, *args, **kwargs):
            response = super().post(request, *args, **kwargs)
            if response.status_code == 200:
                count("revocations")
            return response

    class Me(oauth2_views.ProtectedResourceView):
        def get(self, request):
            return JsonResponse({"username": request.resource_owner.get_username()})

    class Admin(oauth2_views.ScopedProtectedResourceView):
        required_scopes = ["admin"]

        def get(self, request):
            return JsonResponse({"username": request.resource_owner.get_username(), "admin": True})

    class MeWithChallenge(oauth2_views.ProtectedResourceMetadataView):
        def get(self, request):
            return JsonResponse({"username": request.resource_owner.get_username()})

    class AdminWithChallenge(oauth2_views.ScopedProtectedResourceMetadataView):
        required_scopes = ["admin"]

        def get(self, request):
            return JsonResponse({"username": request.resource_owner.get_username(), "admin": True})

    @api_view(["GET"])
    def drf_me(request):
        return Response({"username": request.user.get_username()})

    class DRFAdmin(APIView):
        permission_classes = [IsAuthenticated, TokenHasScope]
        required_scopes = ["admin"]

        def get(self, request):
            return Response({"username": request.user.get_username(), "admin": True})

    @csrf_exempt
    @require_POST
    def revoke_access(request):
        """Ends a user's access tokens as an admin would, leaving the refresh tokens alone."""
        if request.content_type == "application/json":
            try:
                fields = json.loads(request.body or b"{}")
            except ValueError:
                return JsonResponse({"error": "invalid JSON"}, status=400)
        else:
            fields = request.POST
        username = fields.get("username")
        how = fields.get("how") or "expire"
        if not username or how not in ("expire", "delete"):
            return JsonResponse({"error": "needs username, and how = expire or delete"}, status=400)
        tokens = get_access_token_model().objects.filter(user__username=username)
        if how == "delete":
            revoked = 0
            for token in tokens:
                token.revoke()  # DOT's own: deletes the row (the refresh token keeps existing)
                revoked += 1
        else:
            now = timezone.now()
            revoked = tokens.filter(expires__gt=now).update(expires=now - timedelta(seconds=1), updated=now)
        count("admin_revocations", revoked)
        return JsonResponse({"revoked": revoked})

    @require_GET
    def counters(request):
        return counters_response()

    urlpatterns = [
        path("o/token/", CountingTokenView.as_view(), name="token"),
        path("o/revoke_token/", CountingRevokeTokenView.as_view(), name="revoke-token"),
        path("o/", include("oauth2_provider.urls")),
        path("api/me", Me.as_view()),
        path("api/admin", Admin.as_view()),
        path("api/me-rfc9728", MeWithChallenge.as_view()),
        path("api/admin-rfc9728", AdminWithChallenge.as_view()),
        path("drf/me", drf_me),
        path("drf/admin", DRFAdmin.as_view()),
        path("_revoke_access", revoke_access),
        path("_counters", counters),
    ]


def create_database():
    from oauth2_provider.models import get_application_model

    create_users()
    Application = get_application_model()
    Application.objects.create(
        name="AuthKit interop tests",
        client_id=PUBLIC_CLIENT_ID,
        client_secret="",
        client_type=Application.CLIENT_PUBLIC,
        authorization_grant_type=Application.GRANT_PASSWORD,
    )
    Application.objects.create(
        name="AuthKit interop service",
        client_id=SERVICE_CLIENT_ID,
        client_secret=SERVICE_CLIENT_SECRET,  # hashed on save (hash_client_secret defaults to True)
        client_type=Application.CLIENT_CONFIDENTIAL,
        authorization_grant_type=Application.GRANT_CLIENT_CREDENTIALS,
    )


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--port", type=int, default=0, help="0 picks a free port")
    parser.add_argument("--access-seconds", type=int, default=2, help="ACCESS_TOKEN_EXPIRE_SECONDS of a password or client_credentials grant")
    parser.add_argument("--renewed-access-seconds", type=int, help="the same for a refresh_token grant (default: --access-seconds)")
    args = parser.parse_args()
    renewed = args.renewed_access_seconds if args.renewed_access_seconds is not None else args.access_seconds

    def prepare():
        quiet_rfc9700_warnings()
        define_project()
        create_database()

    run(args.port, "authkit-dot-peer-", lambda database: configure(args.access_seconds, renewed, database), prepare)


if __name__ == "__main__":
    main()
