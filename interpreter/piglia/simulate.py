"""Simulation: play many matches from one seed and accumulate the statistics a designer needs.

Match ``k`` of a run always gets the same sub-seed (:func:`match_seed`), so results depend only on the seed: not
on the number of worker processes, not on whether the run went to a Dask cluster. Matches are played in batches;
each batch folds its matches into a :class:`Summary` whose counters are all integers, so merging batches in any
order gives the very same summary. Statistics are accumulated as deals stream by (constant memory, whatever the
number of deals); events are built and records written only when a record is asked for.

A run for ``deals=N`` plays matches 0, 1, 2, ... until at least N deals are done, exactly as one process would: a
batch that overshoots is cut at the match that reaches N and that prefix is played again (cheap: one batch). A
match that ends before its first deal (an instant win on the opening table, say) counts as one deal towards N, so
such a run still ends.

A stop (Ctrl-C, SIGTERM: :mod:`piglia.interrupt`) is noticed between moves, so within a fraction of a second even
inside a long match; the match under way is dropped (its finished deals stay counted among the deals) and records
hold whole matches only. A record that cannot be written (a full disk) stops the run the same way.
"""

from __future__ import annotations

import io
import json
import random
import socket
from collections.abc import Callable
from dataclasses import dataclass
from typing import IO, Any, Protocol

from piglia import interrupt, memo_store
from piglia.chance import randbelow
from piglia.errors import PigliaError
from piglia.events import RecordEvent
from piglia.record import write_events
from piglia.recordio import RecordWriteError
from piglia.state import Game
from piglia.stats import Summary, Watcher, merge_counter, wilson
from piglia.variant import Variant
from piglia.workers import WorkerPool, cores

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
    """One random match folded into the watcher's summary; its record written if asked for, whole, in one write.

    Raises :class:`~piglia.interrupt.Interrupted` between moves when a stop was asked for (the match is dropped).
    """
    state = game.new_match(seed, log=record is not None)
    state.observer = watcher
    watcher.new_match()
    first_dealer = state.dealer
    first_leader = state.to_move
    randrange = randbelow(random.Random(f"piglia/random-play/{seed}"))  # rng.randrange(n), the same draws
    # the moves raw_moves()[randrange(n)] would give, each built alone, picked and played in one loop
    branching: dict[int, int] = {}
    plays = state.play_out(randrange, branching)
    if record is not None:  # written before the match is counted: a match the record lacks is not counted either
        assert state.events is not None
        text = io.StringIO()
        write_events(state.events, text)
        record.write(text.getvalue())
    watcher.summary.plays += plays
    merge_counter(watcher.summary.branching, branching)
    watcher.end_match(state, first_dealer, first_leader)


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
    remember: bool = False  # a big run: the worker recalls the capture memo kept before, and keeps what it learns


@dataclass
class BatchResult:
    """What a batch gives back: its summary, the deals of each of its matches, its records if asked for."""

    start: int
    summary: Summary
    deals_per_match: list[int]
    record: list[str] | None  # each match's record lines, one string a match
    interrupted: bool = False  # a stop cut the batch short: it holds its first matches only


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
    variant = _variant_of(batch)
    if batch.remember:
        memo_store.recall(variant)  # once per worker process
    game = Game(variant, batch.players)
    summary = Summary.empty(game, batch.seed)
    watcher = Watcher(summary, game)
    deals: list[int] = []
    records: list[str] | None = [] if batch.record else None
    try:
        for k in range(batch.start, batch.start + batch.count):
            before = summary.deals
            out = io.StringIO() if records is not None else None
            _play_watched(game, match_seed(batch.seed, k), watcher, out)
            deals.append(summary.deals - before)
            if records is not None and out is not None:
                records.append(out.getvalue())
    except interrupt.Interrupted:  # a stop: give back the whole matches played (see _simulate_batches)
        return BatchResult(batch.start, summary, deals, records, interrupted=True)
    if batch.remember:
        # A worker does not know which batch is its last: it keeps its memo whenever it has learnt enough since
        memo_store.keep(variant, growth=memo_store.GROWTH)
    return BatchResult(batch.start, summary, deals, records)


class _Pool(Protocol):
    def submit(self, batch: Batch) -> Any: ...

    def wait_any(self, pending: set[Any]) -> set[Any]: ...

    def close(self, *, cancel: bool) -> None: ...

    def stop_soon(self, pending: set[Any]) -> set[Any]: ...


# On a stop, how long the workers get to hand back the whole matches they finished before they are ended.
STOP_GRACE_SECONDS = 0.8


class _ProcessPool:
    def __init__(self, workers: int) -> None:
        self.pool = WorkerPool(workers)

    def submit(self, batch: Batch) -> Any:
        return self.pool.submit(run_batch, batch)

    def wait_any(self, pending: set[Any]) -> set[Any]:
        return self.pool.wait_any(pending)

    def stop_soon(self, pending: set[Any]) -> set[Any]:
        """Ask the workers to stop (they give back their batch's whole matches): those done within the grace."""
        return self.pool.stop_soon(pending, STOP_GRACE_SECONDS)

    def close(self, *, cancel: bool) -> None:
        # Batches still under way (a stop, or surplus batches at the end of a run) stop at their next move.
        self.pool.close(stop=cancel)


# How long to wait for a Dask scheduler to answer, at each step of connecting (a scheduler answers at once; this
# bounds the wait on a silent peer or a server of another kind).
CLUSTER_TIMEOUT_SECONDS = 5


def probe_scheduler(address: str, timeout: float = CLUSTER_TIMEOUT_SECONDS) -> None:
    """Check that ``address`` (``tcp://host:port`` or ``host:port``) answers as a Dask scheduler does.

    A Dask scheduler speaks first: on a new connection it sends a handshake, a frame that starts with its length
    as 8 bytes. A server that says nothing within ``timeout`` (a web server waits for a request; a silent peer
    never answers), or whose first bytes are not a plausible frame length, is refused here, with a clear message,
    before the Dask client would wait on it or read a web page's first bytes as a frame length (MemoryError).
    """
    scheme, _, rest = address.rpartition("://")
    if scheme not in ("", "tcp"):
        return  # tls:// and others: left to the Dask client, with its timeout
    host, _, port_text = rest.rpartition(":")
    host = host.strip("[]")
    # a port in ASCII digits, 0-65535 ('²' passes str.isdigit(), and int() then failed)
    port_ok = port_text.isascii() and port_text.isdigit() and len(port_text) <= 5 and int(port_text) <= 65535
    if not host or not port_ok:
        raise PigliaError(f"--cluster: {address!r} is not a scheduler address such as tcp://host:8786")
    try:
        with socket.create_connection((host, int(port_text)), timeout=timeout) as sock:
            sock.settimeout(0.25)  # in slices, so that Ctrl-C is noticed while waiting
            first = b""
            waited = 0.0
            while len(first) < 8:
                if interrupt.requested():
                    raise KeyboardInterrupt
                try:
                    chunk = sock.recv(8 - len(first))
                except TimeoutError:
                    waited += 0.25
                    if waited >= timeout:
                        raise
                    continue
                if not chunk:
                    break
                first += chunk
    except TimeoutError:
        raise PigliaError(
            f"--cluster: {address} did not answer within {timeout:g} s; is it a Dask scheduler's address?"
        ) from None
    except OSError as exc:
        raise PigliaError(f"--cluster: cannot reach {address}: {exc.strerror or exc}") from None
    if len(first) < 8:
        raise PigliaError(f"--cluster: {address} closed the connection; it is not a Dask scheduler")
    # Dask's first message is a few frames of a few hundred bytes: its leading counts are small numbers.
    if int.from_bytes(first, "little") > 1 << 20:
        raise PigliaError(f"--cluster: {address} does not speak Dask's protocol (it answered {first!r})")


class _DaskPool:
    def __init__(self, address: str) -> None:
        try:
            import dask
            from dask.distributed import Client
        except ImportError:
            raise PigliaError("--cluster needs dask.distributed: pip install 'piglia[cluster]'") from None
        probe_scheduler(address)
        client: Any = Client  # untyped library
        timeout = f"{CLUSTER_TIMEOUT_SECONDS}s"
        config: Any = dask.config.set  # untyped library
        try:
            with config({"distributed.comm.timeouts.connect": timeout, "distributed.comm.timeouts.tcp": "30s"}):
                self.client = client(address, timeout=timeout)
        except (OSError, TimeoutError, ValueError, TypeError) as exc:
            # TypeError: a scheme whose setup is missing (tls:// without Dask's TLS configuration, ucx://
            # without its package), which Dask reports so
            raise PigliaError(f"cannot reach a Dask scheduler at {address}: {exc}") from None

    def submit(self, batch: Batch) -> Any:
        return self.client.submit(run_batch, batch, pure=False)

    def wait_any(self, pending: set[Any]) -> set[Any]:
        from dask.distributed import wait

        waiter: Any = wait  # untyped library
        try:
            done, _ = waiter(list(pending), timeout=0.5, return_when="FIRST_COMPLETED")
        except TimeoutError:
            return set()  # nothing finished yet: the caller looks for a stop, then waits again
        return set(done)

    def stop_soon(self, pending: set[Any]) -> set[Any]:
        return set()  # cluster tasks are not interrupted: what is under way is dropped

    def close(self, *, cancel: bool) -> None:
        closer: Any = self.client.close
        closer(timeout=CLUSTER_TIMEOUT_SECONDS)


def default_workers() -> int:
    """All the cores this process may use."""
    return cores()


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
    comes back, marked ``interrupted``. SIGTERM and SIGHUP do the same, and so does a record that cannot be
    written (a full disk: see :mod:`piglia.recordio`); a stop is noticed between moves.
    """
    if deals is None and matches is None:
        matches = 1
    game = Game(variant, players)
    remember = memo_store.worth_recalling(deals, matches)
    with interrupt.StopOnSignals() as ctrl_c:
        if workers <= 1 and cluster is None:
            if remember:
                memo_store.recall(variant)
            summary = _simulate_here(game, deals, matches, seed, record, progress, ctrl_c)
            if remember:
                memo_store.keep(variant)
            return summary
        return _simulate_batches(
            game, deals, matches, seed, record, progress, workers, cluster, batch_size, ctrl_c, remember
        )


def _progress_of(summary: Summary) -> int:
    """The deals done towards ``--deals``: a match with no deal at all counts as one, so that the run ends."""
    return summary.deals + summary.match_length.get(0, 0)


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
    ctrl_c: interrupt.StopOnSignals,
    remember: bool = False,
) -> Summary:
    variant = game.variant
    rules = json.dumps(dict(variant.rules))  # key order kept: it is the order of awards and bonuses
    estimate = matches if matches is not None else max((deals or 1) // 4, 1)
    size = batch_size or max(8, min(200, estimate // (max(workers, 2) * 4)))
    pool: _Pool = _DaskPool(cluster) if cluster is not None else _ProcessPool(workers)
    window = max(workers, 2) * 3 if cluster is None else 64

    def batch(start: int, count: int) -> Batch:
        return Batch(rules, variant.sha256, game.num_players, seed, start, count, record is not None, remember)

    def replay_from(start: int) -> Callable[[int], BatchResult]:
        return lambda count: run_batch(batch(start, count))

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
                cut = _cut(result, _progress_of(summary), deals)
                if cut < len(result.deals_per_match):
                    # The run ends inside this batch: play just its first matches again, here.
                    result = run_batch(batch(folded, cut))
                    finished = True
                _fold(summary, result, record, replay_from(folded))
                folded += len(result.deals_per_match)
                if result.interrupted:
                    raise interrupt.Interrupted
                if matches is not None and folded >= matches:
                    finished = True
                if deals is not None and _progress_of(summary) >= deals:
                    finished = True
                if progress is not None:
                    progress(summary.deals, summary.matches)
    except (KeyboardInterrupt, interrupt.Interrupted, RecordWriteError, OSError) as exc:
        summary.interrupted = True
        try:
            if not isinstance(exc, OSError | RecordWriteError):
                _fold_stopped(summary, ready, folded, pool.stop_soon(pending), record)
        except (KeyboardInterrupt, RecordWriteError, OSError):
            pass  # a second Ctrl-C, or a full disk: what is folded stays
        finally:
            pool.close(cancel=True)
        return summary
    pool.close(cancel=bool(pending))
    return summary


def _fold(
    summary: Summary, result: BatchResult, record: IO[str] | None, replay: Callable[[int], BatchResult] | None
) -> None:
    """Fold a batch into the summary, writing its records one match a write. When a write fails (a full disk),
    the summary gets exactly the matches the record holds (``replay(i)`` plays the batch's first i again)."""
    if record is not None and result.record:
        for i, text in enumerate(result.record):
            try:
                record.write(text)
            except (RecordWriteError, OSError):
                if i and replay is not None:
                    summary.merge(replay(i).summary)
                raise
    summary.merge(result.summary)


def _fold_stopped(
    summary: Summary, ready: dict[int, BatchResult], folded: int, done: set[Any], record: IO[str] | None
) -> None:
    """After a stop: fold the batches finished (whole, or cut short by the stop: their whole matches).

    With a record, only the batches that follow the folded ones without a gap are kept, so the record stays a
    prefix of the run and the statistics are those of its matches; without one, every finished match counts.
    """
    for future in done:
        try:
            result: BatchResult = future.result()
        except Exception:
            continue
        ready[result.start] = result
    if record is None:
        for result in ready.values():
            summary.merge(result.summary)
        return
    while folded in ready:
        result = ready.pop(folded)
        _fold(summary, result, record, None)
        if result.interrupted:
            return
        folded += len(result.deals_per_match)


def _cut(result: BatchResult, done: int, target: int | None) -> int:
    """How many of the batch's matches the run keeps: all, or up to the one that reaches ``target`` deals."""
    if target is None:
        return len(result.deals_per_match)
    for i, d in enumerate(result.deals_per_match):
        done += max(d, 1)  # as _progress_of counts
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
    ctrl_c: interrupt.StopOnSignals,
) -> Summary:
    summary = Summary.empty(game, seed)
    watcher = Watcher(summary, game)
    k = 0
    try:
        while (matches is None or summary.matches < matches) and (deals is None or _progress_of(summary) < deals):
            if ctrl_c.pressed:
                raise KeyboardInterrupt
            _play_watched(game, match_seed(seed, k), watcher, record)
            k += 1
            if progress is not None:
                progress(summary.deals, summary.matches)
    except (KeyboardInterrupt, interrupt.Interrupted, RecordWriteError, OSError):
        summary.interrupted = True
    return summary
