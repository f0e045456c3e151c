"""Exact integers and fractions written out in full, however large.

Layout counts reach thousands of digits on large boards, past the 4,300 digits Python's ``str``
writes before it refuses (a guard against slow conversions of untrusted input). The counts here
are our own results, so :func:`decimal` writes them out in full, in time close to linear in
their digits; :func:`magnitude` gives the short form for a terminal.
"""

from __future__ import annotations

import decimal as pydecimal
import math
import numbers
import sys
from fractions import Fraction

from msanalysis.board import as_int
from msanalysis.errors import InvalidInput, WrongType, a_name

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
    Python 3.11 writes an integer in time quadratic in its digits, and so does any splitting by
    powers of ten (its division is quadratic too): a count of 2.7 million digits took a
    minute. Here the number is split by powers of two instead (shifts, linear), and put back
    together in the :mod:`decimal` module's arithmetic, whose products of huge numbers are
    fast (number-theoretic transforms) and exact at this precision: about a second.
    """
    value = as_int(value, "a number written out")
    if value < 0:
        return "-" + decimal(-value)
    limit = sys.get_int_max_str_digits()
    if limit == 0 or value.bit_length() * _LOG10_2 < min(limit, _DIRECT_DIGITS) - 1:
        return str(value)
    exact = pydecimal.Context(prec=pydecimal.MAX_PREC, Emax=pydecimal.MAX_EMAX,
                              Emin=pydecimal.MIN_EMIN,
                              traps=[pydecimal.Inexact, pydecimal.Rounded])
    powers: dict[int, pydecimal.Decimal] = {}

    def joined(n: int, bits: int) -> pydecimal.Decimal:
        """``n`` (below ``2 ** bits``) as a Decimal."""
        if bits <= _DIRECT_BITS:
            return pydecimal.Decimal(n)
        low_bits = bits >> 1
        if low_bits not in powers:
            powers[low_bits] = exact.power(2, low_bits)
        high = joined(n >> low_bits, bits - low_bits)
        return exact.add(exact.multiply(high, powers[low_bits]),
                         joined(n & ((1 << low_bits) - 1), low_bits))

    return str(joined(value, value.bit_length()))


_DIRECT_DIGITS = 2000
"""Numbers of fewer digits are written by ``str`` at once (it is quick on them)."""
_DIRECT_BITS = 3000
"""Pieces of at most this many bits (about 900 digits) become Decimals directly."""


def fraction_text(value: Fraction) -> str:
    """``"p/q"`` with every digit of both.

    >>> fraction_text(Fraction(2, 6))
    '1/3'
    """
    if not isinstance(value, numbers.Rational) or isinstance(value, bool):
        raise WrongType(f"fraction_text takes a Fraction, got {a_name(type(value).__name__)}")
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
    value, digits = as_int(value, "a count"), as_int(digits, "digits")
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
