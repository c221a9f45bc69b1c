# This source file is part of the AuthKit open source project
#
# Copyright (c) 2026 the AuthKit project authors
# Licensed under Apache License v2.0 (see LICENSE)
#
# SPDX-License-Identifier: Apache-2.0

"""Peer U: FastAPI with fastapi-users (SQLAlchemy, JWT strategy), for AuthKit's interop tests.

fastapi-users as its documentation sets it up: users in SQLite (aiosqlite) through
fastapi-users-db-sqlalchemy, in a temporary file made at startup; two authentication backends with
the library's default settings, both with a JWT strategy whose tokens live `--access-seconds`:
`jwt` (bearer transport) and `cookie` (cookie transport). fastapi-users signs in by e-mail
address: the users are `alice@example.com` and `bob@example.com`, password "correct horse battery
staple" (the form field is still called `username`).

    POST /auth/jwt/login       form (application/x-www-form-urlencoded) `username` (the e-mail
                               address), `password`: 200 {"access_token": "<JWT>", "token_type": "bearer"};
                               wrong password or unknown user: 400 {"detail": "LOGIN_BAD_CREDENTIALS"};
                               a missing field: 422 (FastAPI's validation error)
    POST /auth/jwt/logout      with a valid token: 204 (nothing revoked, see below); without: 401
    POST /auth/cookie/login    the same form: 204, no body, Set-Cookie `fastapiusersauth=<JWT>;
                               HttpOnly; Path=/; SameSite=lax; Secure` (no Max-Age: a browser-session
                               cookie; `--cookie-max-age` adds one; `--insecure-cookies` drops Secure);
                               failures as above. No CSRF token anywhere (SameSite=lax is the defence).
    POST /auth/cookie/logout   with a valid cookie: 204, Set-Cookie `fastapiusersauth=""; HttpOnly;
                               Max-Age=0; Path=/; SameSite=lax; Secure`; without (or expired): 401
    GET  /users/me             either `Authorization: Bearer <JWT>` or the cookie (fastapi-users'
                               `current_user(active=True)` over both backends): 200 {"id", "email",
                               "is_active", "is_superuser", "is_verified"}; no, a bad or an expired
                               token: 401 {"detail": "Unauthorized"} (no WWW-Authenticate header)
    GET  /_counters            {"counts": {...}, "requests": {path: n}} (not counting itself)

A token's `exp` is sign-in time + `--access-seconds` truncated to whole seconds (PyJWT), and it
is refused from that second on: a token lives between `--access-seconds` - 1 and
`--access-seconds`. Both backends share the strategy, so a cookie's JWT also works as a bearer
token and the other way round. Signing out of the bearer backend cannot revoke anything: 204,
and the token keeps working until it expires.

Counts: `logins` (the user manager's on_after_login, either backend), `failed_logins` (its
authenticate finding no user or a wrong password), `unauthenticated` (401 answers).

    python fastapi_users_server.py --port 0 --access-seconds 2

prints `PORT <n>` as its first line once it listens on 127.0.0.1 (served by uvicorn), and exits
when its standard input, if a pipe, closes (removing the temporary database).
`--renewed-access-seconds`, which every peer is given, is accepted and unused: fastapi-users has
no refresh tokens.
"""

import argparse
import asyncio
import os
import secrets
import shutil
import socket
import tempfile
import threading
import uuid
from collections import Counter

import uvicorn
from fastapi import Depends, FastAPI, Request
from fastapi.responses import JSONResponse
from fastapi_users import BaseUserManager, FastAPIUsers, UUIDIDMixin, schemas
from fastapi_users.authentication import AuthenticationBackend, BearerTransport, CookieTransport, JWTStrategy
from fastapi_users_db_sqlalchemy import SQLAlchemyBaseUserTableUUID, SQLAlchemyUserDatabase
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker, create_async_engine
from sqlalchemy.orm import DeclarativeBase

from peer_support import announce_port

EMAILS = ("alice@example.com", "bob@example.com")
PASSWORD = "correct horse battery staple"


class Base(DeclarativeBase):
    pass


class User(SQLAlchemyBaseUserTableUUID, Base):
    pass


class UserRead(schemas.BaseUser[uuid.UUID]):
    pass


class UserCreate(schemas.BaseUserCreate):
    pass


class UserUpdate(schemas.BaseUserUpdate):
    pass


def create_app(database_url, access_seconds, cookie_max_age=None, secure_cookies=True):
    """The app, and a coroutine function that creates its tables and users."""
    secret = secrets.token_hex(32)
    engine = create_async_engine(database_url)
    session_maker = async_sessionmaker(engine, expire_on_commit=False)
    lock = threading.Lock()
    counts, paths = Counter(), Counter()

    def count(name):
        with lock:
            counts[name] += 1

    class UserManager(UUIDIDMixin, BaseUserManager[User, uuid.UUID]):
        reset_password_token_secret = secret
        verification_token_secret = secret

        async def authenticate(self, credentials):
            user = await super().authenticate(credentials)
            if user is None:
                count("failed_logins")
            return user

        async def on_after_login(self, user, request=None, response=None):
            count("logins")

    async def get_async_session():
        async with session_maker() as session:
            yield session

    async def get_user_db(session: AsyncSession = Depends(get_async_session)):
        yield SQLAlchemyUserDatabase(session, User)

    async def get_user_manager(user_db=Depends(get_user_db)):
        yield UserManager(user_db)

    def get_jwt_strategy():
        return JWTStrategy(secret=secret, lifetime_seconds=access_seconds)

    bearer_backend = AuthenticationBackend(
        name="jwt", transport=BearerTransport(tokenUrl="auth/jwt/login"), get_strategy=get_jwt_strategy)
    cookie_backend = AuthenticationBackend(
        name="cookie", transport=CookieTransport(cookie_max_age=cookie_max_age, cookie_secure=secure_cookies),
        get_strategy=get_jwt_strategy)
    fastapi_users = FastAPIUsers[User, uuid.UUID](get_user_manager, [bearer_backend, cookie_backend])

    app = FastAPI(title="AuthKit interop peer: fastapi-users")
    app.include_router(fastapi_users.get_auth_router(bearer_backend), prefix="/auth/jwt", tags=["auth"])
    app.include_router(fastapi_users.get_auth_router(cookie_backend), prefix="/auth/cookie", tags=["auth"])
    app.include_router(fastapi_users.get_users_router(UserRead, UserUpdate), prefix="/users", tags=["users"])

    @app.middleware("http")
    async def count_requests(request: Request, call_next):
        if request.url.path == "/_counters":
            return await call_next(request)
        with lock:
            paths[request.url.path] += 1
        response = await call_next(request)
        if response.status_code == 401:
            count("unauthenticated")
        return response

    @app.get("/_counters")
    async def counters():
        with lock:
            return JSONResponse({"counts": dict(counts), "requests": dict(paths)})

    async def create_database():
        async with engine.begin() as connection:
            await connection.run_sync(Base.metadata.create_all)
        async with session_maker() as session:
            manager = UserManager(SQLAlchemyUserDatabase(session, User))
            for email in EMAILS:
                await manager.create(UserCreate(email=email, password=PASSWORD))

    return app, create_database


async def run(args, folder):
    app, create_database = create_app(
        "sqlite+aiosqlite:///" + os.path.join(folder, "users.sqlite3"),
        args.access_seconds, args.cookie_max_age, not args.insecure_cookies)
    await create_database()
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind(("127.0.0.1", args.port))
    sock.listen(128)
    server = uvicorn.Server(uvicorn.Config(app, log_level="warning", access_log=False, lifespan="off"))
    announce_port(sock.getsockname()[1], cleanup=lambda: shutil.rmtree(folder, ignore_errors=True))
    await server.serve(sockets=[sock])


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--port", type=int, default=0, help="0 picks a free port")
    parser.add_argument("--access-seconds", type=int, default=2, help="lifetime of the JWTs of both backends")
    parser.add_argument("--renewed-access-seconds", type=int, help="accepted, unused (every peer is given it)")
    parser.add_argument("--cookie-max-age", type=int, help="the cookie's Max-Age (default: none, a session cookie)")
    parser.add_argument("--insecure-cookies", action="store_true", help="no Secure on the cookie")
    args = parser.parse_args()
    folder = tempfile.mkdtemp(prefix="authkit-fastapi-users-peer-")
    try:
        asyncio.run(run(args, folder))
    finally:
        shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    main()
