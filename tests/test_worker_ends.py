"""The map worker ends with the bot, even a bot killed with SIGKILL (which
runs no shutdown): nothing the bot started is left behind, reparented to init."""
import contextlib
import multiprocessing
import os
import pathlib
import signal
import subprocess
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool

import pytest

from bot.discord import worker
from bot.discord.client import yield_cpu

ROOT = pathlib.Path(__file__).resolve().parents[1]
GONE_WITHIN = 5.0  # seconds

pytestmark = pytest.mark.skipif(not pathlib.Path("/proc/self/task").exists(), reason="reads /proc")

# A bot, as far as its worker is concerned: its pool (made by `{pool}`), one job so the
# worker exists; then it waits to be killed.
BOT = """
import multiprocessing, os, sys
from concurrent.futures import ProcessPoolExecutor
from bot.discord.client import yield_cpu
from bot.discord.worker import render_pool
{pool}
print(pool.submit(os.getpid).result(60), flush=True)
sys.stdin.read()
"""


def descendants(pid: int) -> set[int]:
    found = set()
    for task in pathlib.Path(f"/proc/{pid}/task").iterdir():
        for child in map(int, (task / "children").read_text().split()):
            found |= {child} | descendants(child)
    return found


def gone(pid: int) -> bool:
    """Exited; a zombie counts (an init that does not reap, as in some containers, keeps those)."""
    try:
        return pathlib.Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] == "Z"
    except FileNotFoundError:
        return True


def wait_gone(pids: set[int]) -> set[int]:
    """Those of `pids` still running after GONE_WITHIN seconds."""
    deadline = time.monotonic() + GONE_WITHIN
    while (left := {pid for pid in pids if not gone(pid)}) and time.monotonic() < deadline:
        time.sleep(0.05)
    return left


def kill_bot_and_wait(pool: str) -> tuple[int, set[int], set[int]]:
    """Start a bot making its pool by `pool`, SIGKILL it once its worker runs: (worker pid,
    every process the bot had started, those still running GONE_WITHIN seconds later)."""
    bot = subprocess.Popen([sys.executable, "-c", BOT.format(pool=pool)], cwd=ROOT,
                           stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    left = set()
    try:
        worker_pid = int(bot.stdout.readline())
        started = descendants(bot.pid)
        bot.kill()
        bot.wait()
        left = wait_gone(started)
        return worker_pid, started, left
    finally:
        bot.kill()
        bot.wait()
        for pid in left:  # a failed test leaves no orphan either
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)


def test_a_bot_killed_outright_leaves_no_process_behind():
    worker_pid, started, left = kill_bot_and_wait("pool = render_pool(yield_cpu)")  # as GameBot does
    # The worker and multiprocessing's resource tracker (started for the pool's semaphores).
    assert worker_pid in started and len(started) == 2
    assert not left


def start_watched(parent: int):
    """The worker's start where Linux's prctl is missing: it watches its parent itself.
    (Runs in the worker, so only the worker's copy of the module is changed.)"""
    worker.kill_me_with_parent = lambda: False
    worker.start_worker(parent, yield_cpu)


def test_without_prctl_the_worker_still_notices_its_bot_is_gone():
    worker_pid, started, left = kill_bot_and_wait(
        "from tests.test_worker_ends import start_watched\n"
        "pool = ProcessPoolExecutor(1, mp_context=multiprocessing.get_context('spawn'),\n"
        "                           initializer=start_watched, initargs=(os.getpid(),))")
    assert worker_pid in started and not left


def test_a_worker_whose_bot_is_already_gone_ends_at_once():
    # Its parent is the test, not the pid it was told of: as if the bot had died while it started.
    pool = ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("spawn"),
                               initializer=worker.start_worker, initargs=(os.getpid() + 1, yield_cpu))
    with pool, pytest.raises(BrokenProcessPool):
        pool.submit(os.getpid).result(60)


def mark_started():
    """An initializer that leaves a mark. (Not the bot's own, yield_cpu: in the idle class, on a machine
    busy with other tests, the worker could not even run its exit in time; tests/test_capacity_parts.py
    checks that one.)"""
    os.environ["RENDERER_STARTED"] = "yes"


def started_mark() -> str | None:
    return os.environ.get("RENDERER_STARTED")


def test_a_bot_closing_normally_still_uses_and_ends_its_worker():
    pool = worker.render_pool(mark_started)
    assert pool.submit(started_mark).result(60) == "yes"  # the initializer ran
    worker_pid = pool.submit(os.getpid).result(60)
    pool.shutdown(wait=False, cancel_futures=True)  # as GameBot.close does
    assert not wait_gone({worker_pid})
