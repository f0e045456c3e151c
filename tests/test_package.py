"""Tests for the package's lazy top-level names."""

from __future__ import annotations

import importlib

import msanalysis


def test_all_names_exactly_the_lazy_exports():
    assert sorted(msanalysis.__all__) == sorted(msanalysis._EXPORTS)


def test_each_exported_name_resolves_to_its_module_object():
    for name, module in msanalysis._EXPORTS.items():
        expected = getattr(importlib.import_module(f"msanalysis.{module}"), name)
        assert getattr(msanalysis, name) is expected
        assert name in dir(msanalysis)
