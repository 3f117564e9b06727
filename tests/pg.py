"""A throwaway PostgreSQL server for the store's tests: initdb and pg_ctl in
a temporary folder, listening on a free port of 127.0.0.1, gone after the
session. Without the binaries the tests that need it are skipped, except in
CI (CI=true), where .ci/run installs them and a missing server must fail.

Import the fixture into a test module: `from tests.pg import postgres_url`."""
import asyncio
import glob
import os
import pathlib
import pwd
import shutil
import socket
import subprocess
import tempfile
import uuid

import asyncpg
import pytest


def postgres_bin() -> pathlib.Path | None:
    """The folder holding initdb and pg_ctl: on PATH, else Debian's (newest version first)."""
    found = shutil.which("initdb")
    if found:
        return pathlib.Path(found).resolve().parent
    debian = [pathlib.Path(p).parent for p in glob.glob("/usr/lib/postgresql/*/bin/initdb")]
    debian.sort(key=lambda folder: int(folder.parent.name) if folder.parent.name.isdigit() else 0)
    return debian[-1] if debian else None


def server_user() -> str | None:
    """Who runs the server: initdb refuses root, so as root the `postgres`
    system user (made by Debian's package), else `nobody`; None: ourselves."""
    if os.geteuid() != 0:
        return None
    for name in ("postgres", "nobody"):
        try:
            pwd.getpwnam(name)
            return name
        except KeyError:
            pass
    raise RuntimeError("running as root, with neither a postgres nor a nobody user to run PostgreSQL as")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Server:
    def __init__(self, bin_dir: pathlib.Path):
        self.bin = bin_dir
        self.user = server_user()
        self.folder = pathlib.Path(tempfile.mkdtemp(prefix="bot-pg-"))
        self.data = self.folder / "data"
        self.port = free_port()
        if self.user:
            entry = pwd.getpwnam(self.user)
            os.chown(self.folder, entry.pw_uid, entry.pw_gid)

    def run(self, *args: str):
        command = [str(self.bin / args[0]), *args[1:]]
        if self.user:
            command = ["runuser", "-u", self.user, "--", *command]
        done = subprocess.run(command, capture_output=True, text=True, cwd=self.folder, timeout=120)
        if done.returncode:
            log = self.folder / "server.log"
            raise RuntimeError(f"{' '.join(args[:2])} failed: {done.stderr.strip() or done.stdout.strip()}"
                               + (f"\n{log.read_text()[-2000:]}" if log.exists() else ""))

    def start(self):
        # trust: the server listens on 127.0.0.1 only, for this session; -F: no fsync, data is thrown away.
        self.run("initdb", "-D", str(self.data), "-U", "postgres", "-A", "trust", "-E", "UTF8", "--locale=C",
                 "--no-sync")
        self.run("pg_ctl", "-D", str(self.data), "-l", str(self.folder / "server.log"), "-w", "-t", "60",
                 "-o", f"-F -p {self.port} -h 127.0.0.1 -k {self.folder}", "start")

    def stop(self):
        if (self.data / "postmaster.pid").exists():
            self.run("pg_ctl", "-D", str(self.data), "-m", "immediate", "-w", "stop")
        shutil.rmtree(self.folder, ignore_errors=True)

    def url(self, database: str) -> str:
        return f"postgresql://postgres@127.0.0.1:{self.port}/{database}"


@pytest.fixture(scope="session")
def postgres_server():
    """The running server (its URL with a database name to add)."""
    bin_dir = postgres_bin()
    if bin_dir is None or not (bin_dir / "pg_ctl").exists():
        reason = "PostgreSQL's initdb/pg_ctl not found (on PATH or in /usr/lib/postgresql/*/bin)"
        if os.environ.get("CI") == "true":
            pytest.fail(reason + ": .ci/run should have installed them")
        pytest.skip(reason)
    server = Server(bin_dir)
    try:
        server.start()
        yield server
    finally:
        server.stop()


@pytest.fixture(scope="session")
def postgres_url(postgres_server) -> str:
    """A database on the throwaway server, shared by the session."""
    return new_database(postgres_server)


def new_database(server: Server) -> str:
    """A new empty database on the server, and its URL (for a test that
    needs one to itself). Called outside the tests' event loop: fixtures."""
    return asyncio.run(_create_database(server, f"bot_{uuid.uuid4().hex[:12]}"))


async def _create_database(server: Server, name: str) -> str:
    admin = await asyncpg.connect(server.url("postgres"))
    try:
        await admin.execute(f"CREATE DATABASE {name}")
    finally:
        await admin.close()
    return server.url(name)
