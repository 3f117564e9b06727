"""The map worker: the process the bot draws its maps in, which ends with the bot.

A bot killed outright (SIGKILL, the OOM killer) runs no shutdown: its worker
would be reparented to init and wait for jobs forever, and with it
multiprocessing's resource tracker (that one ends by itself once the last
process holding its pipe, the bot or the worker, is gone).
"""
import ctypes
import multiprocessing
import os
import signal
import sys
import threading
import time
from concurrent.futures import ProcessPoolExecutor

PR_SET_PDEATHSIG = 1  # from <sys/prctl.h>
ORPHAN_POLL = 1.0  # seconds between checks of the parent, where the kernel cannot do it


def render_pool(initializer) -> ProcessPoolExecutor:
    """The bot's one map worker, started with its first job; `initializer`
    runs in it as it starts, once it is tied to the bot's life."""
    return ProcessPoolExecutor(max_workers=1, mp_context=multiprocessing.get_context("spawn"),
                               initializer=start_worker, initargs=(os.getpid(), initializer))


def start_worker(parent: int, initializer):
    # Ctrl-C at a terminal reaches the whole process group: the bot stops (and shuts its pool down, which
    # ends the worker once its job is done); the worker itself must not die of it with a traceback.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    end_with(parent)
    initializer()


def end_with(parent: int):
    """Runs in the worker as it starts: it ends when `parent` does, however that ends."""
    if not kill_me_with_parent():
        threading.Thread(target=watch, args=(parent,), name="parent watch", daemon=True).start()
    # The parent may have died before the line above: then nothing would ever tell us.
    if os.getppid() != parent:
        os._exit(1)


def kill_me_with_parent() -> bool:
    """Ask Linux for SIGKILL when the parent ends; False where that cannot be had.
    (Strictly, when the parent's thread that started us ends: the bot starts its
    worker from the event loop's thread, which lasts as long as the bot.)"""
    if not sys.platform.startswith("linux"):
        return False
    try:
        return ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGKILL) == 0
    except (OSError, AttributeError):
        return False


def watch(parent: int):
    """Elsewhere: a daemon thread notices the worker was orphaned (within a second)."""
    while os.getppid() == parent:
        time.sleep(ORPHAN_POLL)
    os._exit(1)  # no cleanup: nobody is left to hand a result to
