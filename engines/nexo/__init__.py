"""Nexohominis: a two-player skirmish wargame with an economy (not yet registered in GAMES).

Modules: ``datatypes`` (frozen tables), ``data`` (loading ``data/nexo``), ``layout`` (core §4.4
checks), ``battlefield`` (presets' rules and the seeded generator), ``terrain`` (indexed
static terrain), ``geometry`` (bodies, distances, movement, engagement), ``sight`` (line
of sight, Obscuring, cover), ``combat`` (the attack procedure), ``reader`` (typed JSON
fields), ``state`` (dataclasses, phases), ``scenario`` (the scenario format), ``economy``
(Energy, Blackout), ``moves`` (notation), ``game`` (the ``Nexo`` skeleton).
"""
