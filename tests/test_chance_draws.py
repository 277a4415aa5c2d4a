"""The engine's shuffle and random draws are the library's, draw for draw: a seed deals the same cards and plays
the same random moves whether ``random`` or the engine's inlined copies do it (records depend on it). The module
checks its copies on a few seeds when it is imported and falls back to the library's functions if they differ;
these tests hold the copies themselves to the library on many more."""

from __future__ import annotations

import random

import pytest

from piglia import chance


def test_this_python_plays_the_inlined_copies() -> None:
    assert chance.shuffle is chance._shuffle
    assert chance.randbelow is chance._randbelow


@pytest.mark.parametrize("size", [0, 1, 2, 3, 7, 40, 52, 64, 104])
def test_the_shuffle_is_the_librarys(size: int) -> None:
    for seed in range(300):
        mine, theirs = list(range(size)), list(range(size))
        chance._shuffle(mine, random.Random(seed))
        random.Random(seed).shuffle(theirs)
        assert mine == theirs, (size, seed)


def test_the_shuffle_leaves_the_generator_where_the_library_does() -> None:
    for seed in range(50):
        mine, theirs = random.Random(seed), random.Random(seed)
        chance._shuffle(list(range(40)), mine)
        theirs.shuffle(list(range(40)))
        assert mine.getstate() == theirs.getstate()


def test_draws_below_a_bound_are_the_librarys() -> None:
    for seed in range(50):
        draw, library = chance._randbelow(random.Random(seed)), random.Random(seed).randrange
        assert [draw(n) for n in range(1, 200)] == [library(n) for n in range(1, 200)]
