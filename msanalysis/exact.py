"""Exact integers and fractions written out in full, however large.

Layout counts reach thousands of digits on large boards, past the 4,300 digits Python's ``str``
writes before it refuses (a guard against slow conversions of untrusted input). The counts here
are our own results, so :func:`decimal` writes them out in full, by splitting the number in
halves until each piece is small enough; :func:`magnitude` gives the short form for a terminal.
"""

from __future__ import annotations

import math
import sys
from fractions import Fraction

from msanalysis.errors import InvalidInput

__all__ = ["decimal", "fraction_text", "magnitude"]

_LOG10_2 = math.log10(2)


def decimal(value: int) -> str:
    """Every decimal digit of ``value``, however many.

    Examples
    --------
    >>> decimal(12345)
    '12345'
    >>> text = decimal(10 ** 10_000 + 7)
    >>> len(text), text[:3], text[-3:]
    (10001, '100', '007')

    Notes
    -----
    Divide and conquer: O(d^1.6) for ``d`` digits with Python's Karatsuba products.
    """
    if value < 0:
        return "-" + decimal(-value)
    limit = sys.get_int_max_str_digits()
    digits = int(value.bit_length() * _LOG10_2) + 1
    if limit == 0 or digits < limit - 1:
        return str(value)
    half = digits // 2
    high, low = divmod(value, 10 ** half)
    return decimal(high) + decimal(low).zfill(half)


def fraction_text(value: Fraction) -> str:
    """``"p/q"`` with every digit of both.

    >>> fraction_text(Fraction(2, 6))
    '1/3'
    """
    return f"{decimal(value.numerator)}/{decimal(value.denominator)}"


def magnitude(value: int, *, digits: int = 40) -> str:
    """``value`` in full when it has at most ``digits`` digits, else its size in words.

    Examples
    --------
    >>> magnitude(123)
    '123'
    >>> magnitude(2 ** 6000)
    'about 1.51 x 10^1806 (1807 digits)'
    """
    if value < 0:
        raise InvalidInput("a count cannot be negative")
    power = _power_of_ten(value)
    if power < digits:
        return str(value)
    # The leading digits, from the top 64 bits: exact enough for three significant figures.
    shift = max(0, value.bit_length() - 64)
    mantissa = 10 ** (math.log10(value >> shift) + shift * _LOG10_2 - power)
    shown = power
    if round(mantissa, 2) >= 10:  # 9.999 rounds up: write 1.00 x 10^(power + 1)
        mantissa, shown = mantissa / 10, power + 1
    return f"about {mantissa:.2f} x 10^{shown} ({power + 1} digits)"


def _power_of_ten(value: int) -> int:
    """The exponent of the highest power of ten at most ``value`` (``value`` >= 1): its digits
    less one. The logarithm's guess is corrected with exact integer comparisons."""
    if value < 10:
        return 0
    shift = max(0, value.bit_length() - 64)
    guess = math.floor(math.log10(value >> shift) + shift * _LOG10_2)
    while 10 ** guess > value:
        guess -= 1
    while 10 ** (guess + 1) <= value:
        guess += 1
    return guess
