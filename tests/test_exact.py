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


def test_decimal_writes_every_digit_as_str_does(no_digit_limit):
    rng = random.Random(5)
    sizes = [1, 2, 63, 64, 65, 3000, 3001, 6640, 6650, 9967, 14_300, 33_219, 100_000, 250_001]
    for bits in sizes:
        for _ in range(3):
            value = rng.getrandbits(bits) | (1 << (bits - 1))
            assert decimal(value) == str(value)
            assert decimal(-value) == str(-value)
        # Runs of zeros and nines, where a piece written short would lose its leading zeros.
        power = 10 ** (bits // 3)
        for value in (power, power - 1, power + 1, 2 ** bits, 2 ** bits - 1):
            assert decimal(value) == str(value)
    assert decimal(0) == "0"


def test_decimal_works_under_pythons_own_limit(no_digit_limit):
    # The default guard (4,300 digits) refuses str of such numbers: decimal does not need it.
    value = 7 ** 20_000  # 16,902 digits
    sys.set_int_max_str_digits(4300)
    text = decimal(value)
    shown = magnitude(value)
    sys.set_int_max_str_digits(0)
    assert text == str(value)
    assert shown == f"about {int(text[:4]) / 1000:.2f} x 10^16901 (16902 digits)"
