"""The keyed draws are uniform and are exactly HMAC-SHA256; the old SplitMix64 stream is unchanged.

The uniformity tests are chi-square tests against equal counts, at fixed seeds (so they never flake):
the p-value comes from :func:`chi_square_p`, a regularized upper incomplete gamma function written
here (no SciPy), itself checked against known values and against a biased sample it must reject.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import math
from collections import Counter

import pytest

from engines.core.rng import KeyedDraws, Rng, SplitMix64, recording

SEED = "5e" * 32
ENTROPY = "1183000000000000001:dice please|1183000000000000002|bot"
SAMPLE = 60_000


def gamma_q(a: float, x: float) -> float:
    """Returns Q(a, x) = Γ(a, x) / Γ(a), the regularized upper incomplete gamma function (a > 0, x ≥ 0).

    As Numerical Recipes' ``gammq``: the series of P = 1 - Q for x < a + 1, else Q's continued
    fraction (modified Lentz).
    """
    if a <= 0 or x < 0:
        raise ValueError(f"gamma_q needs a > 0 and x >= 0, got a={a}, x={x}")
    if x == 0:
        return 1.0
    front = math.exp(-x + a * math.log(x) - math.lgamma(a))
    if x < a + 1:
        term = total = 1.0 / a
        n = a
        for _ in range(10_000):
            n += 1
            term *= x / n
            total += term
            if abs(term) < abs(total) * 1e-16:
                return 1.0 - total * front
        raise ArithmeticError("gamma_q: the series did not converge")
    tiny = 1e-300
    b = x + 1 - a
    c, d = 1 / tiny, 1 / b
    h = d
    for i in range(1, 10_000):
        an = -i * (i - a)
        b += 2
        d = an * d + b
        d = 1 / (d if abs(d) > tiny else tiny)
        c = b + an / c
        c = c if abs(c) > tiny else tiny
        h *= d * c
        if abs(d * c - 1) < 1e-16:
            return front * h
    raise ArithmeticError("gamma_q: the continued fraction did not converge")


def chi_square_p(counts: Counter[int], faces: range) -> float:
    """Returns the p-value of the counts of ``faces`` against equal counts (k - 1 degrees of freedom)."""
    total = sum(counts.values())
    assert set(counts) <= set(faces)
    expected = total / len(faces)
    statistic = sum((counts[f] - expected) ** 2 / expected for f in faces)
    return gamma_q((len(faces) - 1) / 2, statistic / 2)


@pytest.mark.parametrize(("dof", "x", "p"), [
    (1, 3.841459, 0.05), (5, 11.0705, 0.05), (5, 15.0863, 0.01), (41, 56.942, 0.05), (41, 68.053, 0.005),
    (5, 1.1455, 0.95), (41, 27.326, 0.95),
])
def test_chi_square_p_gives_the_tables_values(dof: int, x: float, p: float) -> None:
    """The p-value of a chi-square statistic x with ``dof`` degrees of freedom is Q(dof / 2, x / 2)."""
    assert gamma_q(dof / 2, x / 2) == pytest.approx(p, rel=2e-3)


@pytest.mark.parametrize("m", [1, 3, 20])
@pytest.mark.parametrize("y", [0.5, 4.0, 15.0, 30.0])
def test_gamma_q_of_a_whole_a_is_the_poisson_sum(m: int, y: float) -> None:
    """For whole a = m, Q(m, y) = e^-y (1 + y + … + y^(m-1)/(m-1)!): both branches (series, fraction) meet it."""
    exact = math.exp(-y) * sum(y**j / math.factorial(j) for j in range(m))
    assert gamma_q(m, y) == pytest.approx(exact, rel=1e-9, abs=1e-300)


def test_gamma_q_edges() -> None:
    assert gamma_q(2.5, 0) == 1.0
    assert gamma_q(20.5, 1000.0) < 1e-300
    with pytest.raises(ValueError):
        gamma_q(0, 1.0)


@pytest.fixture(scope="module")
def d6() -> list[int]:
    rng = KeyedDraws(key=SEED, entropy=ENTROPY, counter=0)
    return [rng.randint(1, 6) for _ in range(SAMPLE)]


def test_keyed_d6_is_uniform(d6: list[int]) -> None:
    assert chi_square_p(Counter(d6), range(1, 7)) > 0.001


def test_keyed_below_42_is_uniform() -> None:
    rng = KeyedDraws(key=SEED, entropy=ENTROPY + "|below 42", counter=0)
    assert chi_square_p(Counter(rng.below(42) for _ in range(SAMPLE)), range(42)) > 0.001


def test_the_check_rejects_a_die_that_rarely_shows_six(d6: list[int]) -> None:
    """Every tenth six shown as a one: about 1,000 of 60,000 rolls moved, which the test must catch."""
    sixes = 0
    biased = []
    for face in d6:
        if face == 6:
            sixes += 1
            face = 1 if sixes % 10 == 0 else 6
        biased.append(face)
    assert chi_square_p(Counter(biased), range(1, 7)) < 0.001


def test_draw_n_is_hmac_of_entropy_and_number() -> None:
    rng = KeyedDraws(key=SEED, entropy=ENTROPY, counter=0)
    for n, r in enumerate([6, 52, 2**53, 1, 1000], start=1):
        mac = hmac.new(SEED.encode("ascii"), f"{ENTROPY}:{n}".encode(), hashlib.sha256).digest()
        assert rng.below(r) == int.from_bytes(mac, "big") % r
        assert rng.counter == n


def test_a_die_a_fraction_and_a_shuffle_step_are_built_on_one_draw_each() -> None:
    rng = KeyedDraws(key=SEED, entropy=ENTROPY, counter=0)
    with recording() as draws:
        die, fraction = rng.randint(1, 6), rng.random()
        items = ["a", "b", "c"]
        rng.shuffle(items)
    (n1, r1, v1), (n2, r2, v2), (n3, r3, v3), (n4, r4, v4) = draws
    assert [(n1, r1), (n2, r2), (n3, r3), (n4, r4)] == [(1, 6), (2, 2**53), (3, 3), (4, 2)]
    assert die == 1 + v1 and fraction == v2 / 2**53
    expected = ["a", "b", "c"]
    expected[2], expected[v3] = expected[v3], expected[2]
    expected[1], expected[v4] = expected[v4], expected[1]
    assert items == expected


def test_state_stores_the_draw_counter_not_a_generator_state() -> None:
    rng = KeyedDraws(key=SEED, entropy=ENTROPY, counter=0)
    cards = list(range(52))
    rng.shuffle(cards)
    saved = rng.saved()
    assert saved == {"key": SEED, "entropy": ENTROPY, "counter": 51}
    again = Rng.load(json.loads(json.dumps(saved)))
    assert isinstance(again, KeyedDraws)
    assert [again.randint(1, 6) for _ in range(20)] == [rng.randint(1, 6) for _ in range(20)]
    assert rng.saved() == {"key": SEED, "entropy": ENTROPY, "counter": 71}


def test_the_same_key_with_other_entropy_shuffles_otherwise() -> None:
    decks = []
    for entropy in (ENTROPY, ENTROPY.replace("dice please", "dice, please")):
        cards = list(range(52))
        KeyedDraws(key=SEED, entropy=entropy, counter=0).shuffle(cards)
        assert sorted(cards) == list(range(52))
        decks.append(cards)
    assert decks[0] != decks[1]
    again = list(range(52))
    KeyedDraws(key=SEED, entropy=ENTROPY, counter=0).shuffle(again)
    assert again == decks[0]


@pytest.mark.parametrize(("seed", "first"), [(7, [4, 1, 1, 4, 5]), (123, [2, 1, 5, 2, 3])])
def test_splitmix64_rolls_what_it_always_rolled(seed: int, first: list[int]) -> None:
    """Games from before keyed draws replay on SplitMix64: its first dice from a seed are pinned."""
    rng = Rng.from_seed(seed)
    assert isinstance(rng, SplitMix64)
    assert [rng.randint(1, 6) for _ in range(5)] == first


def test_splitmix64_fractions_and_shuffles_are_what_they_always_were() -> None:
    assert [Rng.from_seed(7).random()] == [0.3898297483912715]  # (next64 >> 11) / 2**53, not a below() draw
    cards = list(range(10))
    Rng.from_seed(123).shuffle(cards)
    assert cards == [7, 3, 4, 9, 8, 2, 1, 0, 6, 5]
