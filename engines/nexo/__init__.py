"""Nexohominis: a two-player skirmish wargame with an economy, registered in GAMES as ``nexo``.

Modules: ``datatypes`` (frozen tables), ``data`` (loading ``data/nexo``), ``layout`` (core §4.4
checks), ``battlefield`` (presets' rules and the seeded generator), ``terrain`` (indexed
static terrain), ``geometry`` (bodies, distances, movement, engagement), ``sight`` (line
of sight, Obscuring, cover), ``combat`` (the attack procedure), ``reader`` (typed JSON
fields), ``state`` (dataclasses, phases), ``scenario`` (the scenario format), ``economy``
(Energy, Blackout), ``moves`` (notation), ``world`` (the state seen through the rules),
``attacks`` (shooting, fighting, Overwatch), ``activation`` (Worker and Action Phase
orders), ``production`` (the Production Phase), ``rounds`` (the round loop and victory),
``legal`` (the sampled legal moves), ``game`` (the ``Nexo`` Game).
"""

from __future__ import annotations

from engines.nexo.game import Nexo

__all__ = ["Nexo"]
