"""The play layer: strategies, whole games, guess-free boards and the studies built on them.

Choosing moves (:mod:`~msanalysis.play.strategies`, with ``paper``, ``safest`` and ``best``, and
the look ahead of :mod:`~msanalysis.play.outlook`, :mod:`~msanalysis.play.longterm` and
:mod:`~msanalysis.play.endgame`), playing a game with them (:mod:`~msanalysis.play.autoplay`),
many seeded games (:mod:`~msanalysis.play.bench`), and boards that can be won without guessing
(:mod:`~msanalysis.play.noguess`). Everything here builds on the engine
(:mod:`msanalysis.analysis`) and the model (:mod:`msanalysis.game`); nothing below imports it.
"""
