"""Simulation: play many matches from one seed and accumulate the statistics a designer needs.

Match ``k`` of a run always gets the same sub-seed (:func:`match_seed`), so results depend only on the seed: not
on the number of worker processes, not on whether the run went to a Dask cluster. Matches are played in batches;
each batch folds its matches into a :class:`Summary` whose counters are all integers, so merging batches in any
order gives the very same summary. Statistics are accumulated as deals stream by (constant memory, whatever the
number of deals); events are built and records written only when a record is asked for.

A run for ``deals=N`` plays matches 0, 1, 2, ... until at least N deals are done, exactly as one process would: a
batch that overshoots is cut at the match that reaches N and that prefix is played again (cheap: one batch).
"""

from __future__ import annotations

import io
import json
import multiprocessing
import os
import random
import signal
import threading
from collections.abc import Callable
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor
from concurrent.futures import wait as wait_futures
from dataclasses import dataclass
from types import FrameType, TracebackType
from typing import IO, Any, Protocol

from piglia.chance import randbelow
from piglia.events import RecordEvent
from piglia.record import write_events
from piglia.state import Game
from piglia.stats import Summary, Watcher, wilson
from piglia.variant import Variant

__all__ = ["Summary", "match_seed", "play_random_match", "simulate", "wilson"]


def match_seed(seed: int, k: int) -> int:
    """The seed of the ``k``-th match of a run started from ``seed``."""
    return random.Random(f"piglia/match/{seed}/{k}").getrandbits(48)


def play_random_match(game: Game, seed: int, *, log: bool = True) -> list[RecordEvent]:
    """One match with every seat playing uniformly random legal moves; its record events (typed)."""
    state = game.new_match(seed, log=True)
    rng = random.Random(f"piglia/random-play/{seed}")
    while not state.over:
        state.push_raw(state.pick_raw(rng.randrange)[1])
    assert state.events is not None
    return state.events


def _play_watched(game: Game, seed: int, watcher: Watcher, record: IO[str] | None) -> None:
    """One random match folded into the watcher's summary; its record written if asked for."""
    state = game.new_match(seed, log=record is not None)
    state.observer = watcher
    watcher.new_match()
    first_dealer = state.dealer
    first_leader = state.to_move
    randrange = randbelow(random.Random(f"piglia/random-play/{seed}"))  # rng.randrange(n), the same draws
    branching = watcher.summary.branching
    pick_raw = state.pick_raw
    push_raw = state.push_raw
    plays = 0
    while not state.over:
        n, move = pick_raw(randrange)  # the move raw_moves()[randrange(n)] would give, built alone
        branching[n] = branching.get(n, 0) + 1
        push_raw(move)
        plays += 1
    watcher.summary.plays += plays
    watcher.end_match(state, first_dealer, first_leader)
    if record is not None:
        assert state.events is not None
        write_events(state.events, record)


# ---------------------------------------------------------------------------------------------------------------
# Batches: the unit of work of a worker process or a cluster task
# ---------------------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Batch:
    """Matches ``start`` .. ``start + count - 1`` of a run: everything a worker needs, as plain picklable data."""

    rules: str  # the variant's resolved rules, as JSON (a worker rebuilds the variant from them)
    sha256: str
    players: int
    seed: int
    start: int
    count: int
    record: bool


@dataclass
class BatchResult:
    """What a batch gives back: its summary, the deals of each of its matches, its records if asked for."""

    start: int
    summary: Summary
    deals_per_match: list[int]
    record: str | None


_VARIANTS: dict[str, Variant] = {}


def _variant_of(batch: Batch) -> Variant:
    """The batch's variant, built once per worker process from its rules."""
    variant = _VARIANTS.get(batch.sha256)
    if variant is None:
        from piglia.build import VariantBuilder

        builder = VariantBuilder(json.loads(batch.rules), _NoReporter())
        built = builder.build(sha256=batch.sha256, source="<batch>")
        assert built is not None, builder.errors
        variant = _VARIANTS[batch.sha256] = built
    return variant


class _NoReporter:
    """Rules sent to a worker were checked when first loaded; a problem now is a bug, said as plainly as can be."""

    def at(self, path: Any, message: str, *, key: bool = False) -> Any:
        from piglia.errors import SpecError

        return SpecError(message, file="<batch>")

    def at_offset(self, path: Any, offset: int, message: str) -> Any:
        from piglia.errors import SpecError

        return SpecError(message, file="<batch>")

    def newest(self, *paths: Any) -> Any:
        return paths[0]


def run_batch(batch: Batch) -> BatchResult:
    """Play one batch of matches (in a worker process, a cluster task, or here)."""
    game = Game(_variant_of(batch), batch.players)
    summary = Summary.empty(game, batch.seed)
    watcher = Watcher(summary, game)
    out = io.StringIO() if batch.record else None
    deals: list[int] = []
    for k in range(batch.start, batch.start + batch.count):
        before = summary.deals
        _play_watched(game, match_seed(batch.seed, k), watcher, out)
        deals.append(summary.deals - before)
    return BatchResult(batch.start, summary, deals, out.getvalue() if out is not None else None)


def _quiet_worker() -> None:
    # Ctrl-C goes to the whole process group: the parent stops the run; workers just finish their batch.
    signal.signal(signal.SIGINT, signal.SIG_IGN)


class _Pool(Protocol):
    def submit(self, batch: Batch) -> Any: ...

    def wait_any(self, pending: set[Any]) -> set[Any]: ...

    def close(self, *, cancel: bool) -> None: ...


class _ProcessPool:
    def __init__(self, workers: int) -> None:
        method = "forkserver" if "forkserver" in multiprocessing.get_all_start_methods() else "spawn"
        self.executor = ProcessPoolExecutor(
            max_workers=workers, mp_context=multiprocessing.get_context(method), initializer=_quiet_worker
        )

    def submit(self, batch: Batch) -> Future[BatchResult]:
        return self.executor.submit(run_batch, batch)

    def wait_any(self, pending: set[Any]) -> set[Any]:
        done, _ = wait_futures(pending, return_when=FIRST_COMPLETED)
        return set(done)

    def close(self, *, cancel: bool) -> None:
        # Batches not started are dropped; those under way are short: wait for them, so no process outlives the run.
        self.executor.shutdown(wait=True, cancel_futures=cancel)


class _DaskPool:
    def __init__(self, address: str) -> None:
        try:
            from dask.distributed import Client
        except ImportError:
            from piglia.errors import PigliaError

            raise PigliaError("--cluster needs dask.distributed: pip install 'piglia[cluster]'") from None
        client: Any = Client  # untyped library
        try:
            self.client = client(address, timeout="20s")
        except (OSError, TimeoutError, ValueError) as exc:
            from piglia.errors import PigliaError

            raise PigliaError(f"cannot reach a Dask scheduler at {address}: {exc}") from None

    def submit(self, batch: Batch) -> Any:
        return self.client.submit(run_batch, batch, pure=False)

    def wait_any(self, pending: set[Any]) -> set[Any]:
        from dask.distributed import wait

        waiter: Any = wait  # untyped library
        done, _ = waiter(list(pending), return_when="FIRST_COMPLETED")
        return set(done)

    def close(self, *, cancel: bool) -> None:
        closer: Any = self.client.close
        closer()


class _CtrlC:
    """While active (in the main thread), Ctrl-C asks the run to stop after the matches under way; twice, at once.

    Stopping between matches, not in the middle of one, keeps every counter of the summary consistent.
    """

    def __init__(self) -> None:
        self.pressed = False
        self._old: Any = None

    def __enter__(self) -> _CtrlC:
        if threading.current_thread() is threading.main_thread():
            self._old = signal.signal(signal.SIGINT, self._press)
        return self

    def _press(self, signum: int, frame: FrameType | None) -> None:
        if self.pressed:
            raise KeyboardInterrupt
        self.pressed = True

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None) -> None:
        if self._old is not None:
            signal.signal(signal.SIGINT, self._old)


def default_workers() -> int:
    """All the cores this process may use."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # pragma: no cover - not on Linux
        return os.cpu_count() or 1


def simulate(
    variant: Variant,
    *,
    deals: int | None = None,
    matches: int | None = None,
    seed: int = 0,
    players: int | None = None,
    record: IO[str] | None = None,
    progress: Callable[[int, int], None] | None = None,
    workers: int = 1,
    cluster: str | None = None,
    batch_size: int | None = None,
) -> Summary:
    """Play whole matches of random play until ``matches`` are played or at least ``deals`` deals are.

    ``progress(deals_done, matches_done)`` is called as matches finish. Records are written to ``record`` one
    match after another, each starting with its header. ``workers`` processes share the work (``cluster``, a
    Dask scheduler address, sends it to a cluster instead); the result is the same for any number of them.
    ``batch_size`` is the number of matches a worker plays at a time (chosen from the run's size when not given; it
    changes nothing in the result). Ctrl-C stops the run after the matches under way: the summary of what finished
    comes back, marked ``interrupted``.
    """
    if deals is None and matches is None:
        matches = 1
    game = Game(variant, players)
    with _CtrlC() as ctrl_c:
        if workers <= 1 and cluster is None:
            return _simulate_here(game, deals, matches, seed, record, progress, ctrl_c)
        return _simulate_batches(game, deals, matches, seed, record, progress, workers, cluster, batch_size, ctrl_c)


def _simulate_batches(
    game: Game,
    deals: int | None,
    matches: int | None,
    seed: int,
    record: IO[str] | None,
    progress: Callable[[int, int], None] | None,
    workers: int,
    cluster: str | None,
    batch_size: int | None,
    ctrl_c: _CtrlC,
) -> Summary:
    variant = game.variant
    rules = json.dumps(dict(variant.rules))  # key order kept: it is the order of awards and bonuses
    estimate = matches if matches is not None else max((deals or 1) // 4, 1)
    size = batch_size or max(8, min(200, estimate // (max(workers, 2) * 4)))
    pool: _Pool = _DaskPool(cluster) if cluster is not None else _ProcessPool(workers)
    window = max(workers, 2) * 3 if cluster is None else 64

    def batch(start: int, count: int) -> Batch:
        return Batch(rules, variant.sha256, game.num_players, seed, start, count, record is not None)

    summary = Summary.empty(game, seed)
    pending: set[Any] = set()
    ready: dict[int, BatchResult] = {}  # finished batches not yet folded in, by first match
    next_start = 0  # the first match not yet handed out
    folded = 0  # matches 0 .. folded-1 are in the summary
    finished = False
    try:
        while not finished:
            if ctrl_c.pressed:
                raise KeyboardInterrupt
            while len(pending) + len(ready) < window and (matches is None or next_start < matches):
                count = size if matches is None else min(size, matches - next_start)
                pending.add(pool.submit(batch(next_start, count)))
                next_start += count
            for future in pool.wait_any(pending):
                pending.discard(future)
                result: BatchResult = future.result()
                ready[result.start] = result
            while folded in ready and not finished:
                result = ready.pop(folded)
                cut = _cut(result, summary.deals, deals)
                if cut < len(result.deals_per_match):
                    # The run ends inside this batch: play just its first matches again, here.
                    result = run_batch(batch(folded, cut))
                    finished = True
                summary.merge(result.summary)
                if record is not None and result.record:
                    record.write(result.record)
                folded += len(result.deals_per_match)
                if matches is not None and folded >= matches:
                    finished = True
                if deals is not None and summary.deals >= deals:
                    finished = True
                if progress is not None:
                    progress(summary.deals, summary.matches)
    except KeyboardInterrupt:
        # The statistics of what finished: folded batches and those done out of order (all whole matches).
        for result in ready.values():
            summary.merge(result.summary)
        summary.interrupted = True
        pool.close(cancel=True)
        return summary
    pool.close(cancel=True)
    return summary


def _cut(result: BatchResult, done: int, target: int | None) -> int:
    """How many of the batch's matches the run keeps: all, or up to the one that reaches ``target`` deals."""
    if target is None:
        return len(result.deals_per_match)
    for i, d in enumerate(result.deals_per_match):
        done += d
        if done >= target:
            return i + 1
    return len(result.deals_per_match)


def _simulate_here(
    game: Game,
    deals: int | None,
    matches: int | None,
    seed: int,
    record: IO[str] | None,
    progress: Callable[[int, int], None] | None,
    ctrl_c: _CtrlC,
) -> Summary:
    summary = Summary.empty(game, seed)
    watcher = Watcher(summary, game)
    k = 0
    try:
        while (matches is None or summary.matches < matches) and (deals is None or summary.deals < deals):
            if ctrl_c.pressed:
                raise KeyboardInterrupt
            _play_watched(game, match_seed(seed, k), watcher, record)
            k += 1
            if progress is not None:
                progress(summary.deals, summary.matches)
    except KeyboardInterrupt:
        summary.interrupted = True
    return summary
