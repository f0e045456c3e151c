"""Tests for msanalysis.exact: numbers written out in full, against Python's own ``str``."""

from __future__ import annotations

import random
import sys

import pytest

from msanalysis.exact import decimal, magnitude


@pytest.fixture
def no_digit_limit():
    """Python's ``str`` of any integer, as the reference (its guard lifted for the test)."""
    before = sys.get_int_max_str_digits()
    sys.set_int_max_str_digits(0)
    yield
    sys.set_int_max_str_digits(before)


def _written(value: int) -> tuple[str, str]:
    """``(decimal(value), str(value))``: the first under Python's default guard, which makes
    decimal do the work itself (with no guard it would hand large numbers to str)."""
    sys.set_int_max_str_digits(4300)
    ours = decimal(value)
    sys.set_int_max_str_digits(0)
    return ours, str(value)


def test_decimal_writes_every_digit_as_str_does(no_digit_limit):
    rng = random.Random(5)
    sizes = [1, 2, 63, 64, 65, 3000, 3001, 6640, 6650, 9967, 14_300, 33_219, 100_000, 250_001]
    for bits in sizes:
        values = [rng.getrandbits(bits) | (1 << (bits - 1)) for _ in range(3)]
        # Runs of zeros and nines, where a piece written short would lose its leading zeros.
        power = 10 ** (bits // 3)
        values += [power, power - 1, power + 1, 2 ** bits, 2 ** bits - 1]
        for value in values + [-v for v in values]:
            ours, reference = _written(value)
            assert ours == reference, bits
    assert _written(0) == ("0", "0")


def test_magnitude_under_pythons_own_limit(no_digit_limit):
    value = 7 ** 20_000  # 16,902 digits: str refuses it under the default guard
    sys.set_int_max_str_digits(4300)
    shown = magnitude(value)
    sys.set_int_max_str_digits(0)
    assert shown == f"about {int(str(value)[:4]) / 1000:.2f} x 10^16901 (16902 digits)"


def test_what_is_not_a_whole_number_or_a_fraction_is_refused_by_name():
    from fractions import Fraction

    from msanalysis.errors import InvalidInput, WrongType
    from msanalysis.exact import fraction_text

    with pytest.raises(InvalidInput, match=r"must be a whole number \(an int\), got 1\.5"):
        decimal(1.5)  # a float's digits are not exact
    with pytest.raises(InvalidInput, match="got '12'"):
        magnitude("12")
    with pytest.raises(WrongType, match="fraction_text takes a Fraction, got a float"):
        fraction_text(0.5)
    assert fraction_text(Fraction(-2, 6)) == "-1/3" and fraction_text(3) == "3/1"
