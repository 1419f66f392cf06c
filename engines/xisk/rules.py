"""The rules of play: who acts, the legal moves, and applying a move to the state.

Every function takes the (immutable) board and the (mutable) state. ``apply_move``
changes the state in place and may raise IllegalMove half-way: the Game restores
the state, so checks come first but need not be exhaustive before changes.
"""

from __future__ import annotations

from typing import Any

from engines.core import Event, IllegalMove, event, shown
from engines.core.deck import DECK_INDEX, deck_order
from engines.core.dice import roll_sorted
from engines.core.words import did_you_mean, plural
from engines.xisk.battle import attacker_dice, defender_dice, resolve_battle
from engines.xisk.board import Board
from engines.xisk.cards import MUST_REDEEM_AT, is_set, redeemable
from engines.xisk.moves import Adjust, Attack, Claim, End, Invade, Move, Place, Redeem, Resign
from engines.xisk.setup import finish_claims
from engines.xisk.state import NEUTRAL, Phase, XiskState

MIN_COUNTRY_SUPPLY = 3
"""A. Supply, Country supply: at least 3 chips whatever the number of countries."""

_PHASE_HINT = {
    Phase.CLAIM: "it is the claiming (claim <country>)",
    Phase.SUPPLY: "it is your supply phase (redeem <cards> or place <country> <n>)",
    Phase.CARDSET: "it is your cardset phase after a defeat (redeem <cards> or place <country> <n>)",
    Phase.ATTACK: "it is your attack phase (attack <from> <to> or end)",
    Phase.INVADE: "you must first answer invade <n>",
    Phase.ADJUST: "it is your adjust phase (adjust <from> <to> <n> or end)",
    Phase.OVER: "the game is over",
}


# -- who acts, and the supply ------------------------------------------------------------


def chips(n: int) -> str:
    """Returns "1 chip" or "n chips" for event sentences."""
    return plural(n, "chip")


def to_act(s: XiskState) -> list[str]:
    """Returns who may act now: the next claimant, the player whose turn it is, or nobody."""
    if s.phase is Phase.OVER:
        return []
    if s.phase is Phase.CLAIM:
        return [s.claim_queue[0][1]] if s.claim_queue else []
    return [s.order[s.turn_index]]


def country_supply(owned: int) -> int:
    """Returns the country supply: 1 chip per 3 countries, at least 3."""
    return max(MIN_COUNTRY_SUPPLY, owned // 3)


def continent_bonus(s: XiskState, board: Board, player: str) -> int:
    """Returns the bonus of every continent ``player`` owns entirely."""
    return sum(c.bonus for c in board.continents.values()
               if all(s.owner[x] == player for x in c.countries))


def turn_supply(s: XiskState, board: Board, player: str) -> int:
    """Returns the supply granted at the start of a turn: country supply plus continent bonuses."""
    return country_supply(len(s.countries_of(player))) + continent_bonus(s, board, player)


# -- legal moves ------------------------------------------------------------------------


def attacks(s: XiskState, board: Board, player: str) -> list[Attack]:
    """Returns every attack ``player`` could make now (ignoring the phase)."""
    return [Attack(a, b) for a in board.countries if s.owner[a] == player and s.chips[a] >= 2
            for b in sorted(board.neighbours[a]) if s.owner[b] != player]


def transfers(s: XiskState, board: Board, player: str) -> list[tuple[str, str, int]]:
    """Returns (from, to, most chips) for every possible adjust transfer of ``player``."""
    return [(a, b, s.chips[a] - 1) for a in board.countries if s.owner[a] == player and s.chips[a] >= 2
            for b in sorted(board.neighbours[a]) if s.owner[b] == player]


def legal_moves(s: XiskState, board: Board, player: str) -> list[Move]:
    """Returns every legal move of ``player`` now (none when it is not their move); ``resign`` last."""
    if player not in to_act(s):
        return []
    return [*_phase_moves(s, board, player), *([Resign()] if can_resign(s, player) else [])]


def _phase_moves(s: XiskState, board: Board, player: str) -> list[Move]:
    if s.phase is Phase.CLAIM:
        return [Claim(c) for c in board.countries if s.owner[c] is None]
    if s.phase in (Phase.SUPPLY, Phase.CARDSET):
        moves: list[Move] = [Redeem(cs) for cs in redeemable(s.hands[player])]
        if len(s.hands[player]) < MUST_REDEEM_AT:
            moves += [Place(c, n) for c in s.countries_of(player) for n in range(1, s.supply_left + 1)]
        return moves
    if s.phase is Phase.ATTACK:
        return [*attacks(s, board, player), End()]
    if s.phase is Phase.INVADE:
        assert s.invade is not None
        return [Invade(n) for n in range(s.chips[s.invade[0]])]
    if s.phase is Phase.ADJUST:
        transfer: list[Move] = [Adjust(a, b, n) for a, b, most in transfers(s, board, player)
                                for n in range(1, most + 1)]
        return [*transfer, End()]
    return []


# -- applying ---------------------------------------------------------------------------


def _country(board: Board, word: str) -> str:
    """Returns ``word`` when it is a country id (``parse`` gives ids); raises IllegalMove, suggesting one."""
    if word not in board.neighbours:
        raise IllegalMove(f"'{shown(word, 30)}' is not a country on the map{did_you_mean(word, board.names) or '.'}")
    return word


def _wrong_phase(s: XiskState, move: Move) -> IllegalMove:
    verb = str(move).split(" ", 1)[0]
    return IllegalMove(f"You can't {verb} now: {_PHASE_HINT[s.phase]}.")


def apply_move(s: XiskState, board: Board, players: list[str], player: str, move: Move) -> list[Event]:
    """Applies ``move`` of ``player`` (who may act) and returns the events; raises IllegalMove.

    Refusals name countries as players read them (``Western United States``), never by id.
    """
    if isinstance(move, Resign):
        return resign(s, board, players, player)
    if isinstance(move, Claim) and s.phase is Phase.CLAIM:
        return _claim(s, board, players, player, _country(board, move.country))
    if isinstance(move, Redeem) and s.phase in (Phase.SUPPLY, Phase.CARDSET):
        return _redeem(s, player, move)
    if isinstance(move, Place) and s.phase in (Phase.SUPPLY, Phase.CARDSET):
        return _place(s, board, player, _country(board, move.country), move.count)
    if isinstance(move, Attack) and s.phase is Phase.ATTACK:
        src, dst = _country(board, move.source), _country(board, move.target)
        return _attack(s, board, player, src, dst)
    if isinstance(move, Invade) and s.phase is Phase.INVADE:
        return _invade(s, board, player, move.count)
    if isinstance(move, Adjust) and s.phase is Phase.ADJUST:
        src, dst = _country(board, move.source), _country(board, move.target)
        return _adjust(s, board, player, src, dst, move.count)
    if isinstance(move, End) and s.phase is Phase.ATTACK:
        return [event("end_attack", f"{player} ends the attack phase.", player=player),
                *_enter_adjust(s, board, player)]
    if isinstance(move, End) and s.phase is Phase.ADJUST:
        return [event("skip_adjust", f"{player} makes no adjustment.", player=player),
                *_end_turn(s, board)]
    raise _wrong_phase(s, move)


def _claim(s: XiskState, board: Board, players: list[str], player: str, country: str) -> list[Event]:
    if s.owner[country] == player:
        raise IllegalMove(f"You can't claim {board.names[country]}: you already own it.")
    if s.owner[country] is not None:
        raise IllegalMove(f"You can't claim {board.names[country]}: {s.owner[country]} already owns it.")
    card, _ = s.claim_queue.pop(0)
    s.hands[player].remove(card)
    s.deck.append(card)
    s.owner[country] = player
    s.chips[country] = 1
    s.claims.append({"card": card, "player": player, "country": country})
    events = [event("claim", f"{player} reveals {card} and claims {board.names[country]}.",
                    player=player, card=card, country=country)]
    if not s.claim_queue:
        events += finish_claims(s, players)
        events += start_turn(s, board)
    return events


def start_turn(s: XiskState, board: Board) -> list[Event]:
    """Starts the turn of ``order[turn_index]``: the supply phase with its chips."""
    player = s.order[s.turn_index]
    s.turn_number += 1
    s.phase = Phase.SUPPLY
    s.conquered = False
    owned = len(s.countries_of(player))
    bonus = continent_bonus(s, board, player)
    s.supply_base = s.supply_left = country_supply(owned) + bonus
    return [event("turn", f"{player}'s turn: {plural(s.supply_left, 'supply chip')} "
                  f"({plural(owned, 'country', 'countries')}"
                  + (f", continent bonus {bonus}" if bonus else "") + ").",
                  player=player, supply=s.supply_left, turn_number=s.turn_number)]


def _redeem(s: XiskState, player: str, move: Redeem) -> list[Event]:
    hand = s.hands[player]
    missing = [c for c in move.cards if c not in hand]
    if missing:
        raise IllegalMove(f"You can't play '{move}': you don't hold {', '.join(missing)}.")
    if not is_set(move.cards):
        raise IllegalMove(f"You can't play '{move}': a cardset is three cards of one suit "
                          "or of three different suits.")
    if s.supply_left == 0:
        raise IllegalMove(f"You can't play '{move}': the supply phase is over.")
    for c in move.cards:
        hand.remove(c)
    s.deck.extend(move.cards)
    s.rng.shuffle(s.deck)
    s.sets_redeemed += 1
    s.supply_left += s.sets_redeemed
    return [event("redeem", f"{player} redeems {' '.join(move.cards)}, cardset number "
                  f"{s.sets_redeemed}: +{chips(s.sets_redeemed)}.", player=player,
                  cards=list(move.cards), set_number=s.sets_redeemed, supply_left=s.supply_left)]


def _place(s: XiskState, board: Board, player: str, country: str, n: int) -> list[Event]:
    if len(s.hands[player]) >= MUST_REDEEM_AT:
        raise IllegalMove(f"You can't place yet: you hold {plural(len(s.hands[player]), 'card')} and must "
                          "redeem a cardset first.")
    if s.owner[country] != player:
        raise IllegalMove(f"You can't place chips on {board.names[country]}: you don't own it.")
    if not 1 <= n <= s.supply_left:
        raise IllegalMove(f"You can't place {chips(n)}: you have {s.supply_left} to place.")
    s.chips[country] += n
    s.supply_left -= n
    events = [event("place", f"{player} places {chips(n)} on {board.names[country]}.", player=player,
                    country=country, count=n, supply_left=s.supply_left)]
    if s.supply_left == 0:
        events += _continue_attack(s, board, player)
    return events


def _attack(s: XiskState, board: Board, player: str, src: str, dst: str) -> list[Event]:
    a, b = board.names[src], board.names[dst]
    text = f"attack {b} from {a}"
    if s.owner[src] != player:
        raise IllegalMove(f"You can't {text}: you don't own {a}.")
    if s.owner[dst] == player:
        raise IllegalMove(f"You can't {text}: {b} is yours already.")
    if not board.adjacent(src, dst):
        raise IllegalMove(f"You can't {text}: no line joins {a} to {b}.")
    if s.chips[src] < 2:
        raise IllegalMove(f"You can't {text}: a country with 1 chip cannot attack.")
    defender = s.owner[dst]
    assert defender is not None
    att = roll_sorted(s.rng, attacker_dice(s.chips[src]))
    dfn = roll_sorted(s.rng, defender_dice(s.chips[dst]))
    att_losses, def_losses = resolve_battle(att, dfn)
    s.chips[src] -= att_losses
    s.chips[dst] -= def_losses
    # "to" marks a private event (engines.core.events), so events name the countries
    # source/target; the view's last_battle adds the from/to the renderer draws with.
    data: dict[str, Any] = {"source": src, "target": dst, "attacker": player, "defender": defender,
            "attacker_dice": att, "defender_dice": dfn,
            "attacker_losses": att_losses, "defender_losses": def_losses}
    s.last_battle = {**data, "from": src, "to": dst, "attacker_dice": list(att),
                     "defender_dice": list(dfn)}
    dash = "-".join
    events = [event("battle", f"{player} attacks {board.names[dst]} ({defender}) from "
                    f"{board.names[src]}: {dash(map(str, att))} against {dash(map(str, dfn))}; "
                    f"attacker loses {att_losses}, defender loses {def_losses}.", **data)]
    if s.chips[dst] == 0:
        events += _conquer(s, board, player, src, dst, defender, len(att))
    elif not attacks(s, board, player):
        events += _enter_adjust(s, board, player)
    return events


def _conquer(s: XiskState, board: Board, player: str, src: str, dst: str, defender: str,
             moved: int) -> list[Event]:
    s.owner[dst] = player
    s.chips[src] -= moved
    s.chips[dst] = moved
    s.conquered = True
    events = [event("conquer", f"{player} conquers {board.names[dst]} and moves {chips(moved)} in.",
                    player=player, country=dst, defender=defender, moved=moved)]
    if all(o == player for o in s.owner.values()):
        s.phase = Phase.OVER
        s.winner = player
        s.supply_left = 0
        return [*events, event("win", f"{player} owns all 42 countries and wins the game!",
                               player=player)]
    if defender != NEUTRAL and not s.countries_of(defender):
        s.defeated_pending = defender
    if s.chips[src] > 1:
        s.phase = Phase.INVADE
        s.invade = [src, dst]
        return events
    return events + _after_invasion(s, board, player)


def _invade(s: XiskState, board: Board, player: str, n: int) -> list[Event]:
    assert s.invade is not None
    src, dst = s.invade
    most = s.chips[src] - 1
    if n > most:
        raise IllegalMove(f"You can't invade with {chips(n)}: at most {plural(most, 'more chip')} can move "
                          f"from {board.names[src]} (1 must stay behind).")
    s.chips[src] -= n
    s.chips[dst] += n
    s.invade = None
    events = [event("invade", f"{player} moves {chips(n)} more into {board.names[dst]}.",
                    player=player, country=dst, count=n)]
    return events + _after_invasion(s, board, player)


def _after_invasion(s: XiskState, board: Board, player: str) -> list[Event]:
    defeated = s.defeated_pending
    if defeated is None:
        return _continue_attack(s, board, player)
    s.defeated_pending = None
    taken = s.hands[defeated]
    s.hands[defeated] = []
    s.hands[player] = deck_order(s.hands[player] + taken)
    s.eliminated.append(defeated)
    s.supply_left = 1
    s.phase = Phase.CARDSET
    events = [event("defeat", f"{defeated} is defeated: {player} takes their {plural(len(taken), 'card')} "
                    "and 1 supply chip.", player=player, defeated=defeated, cards_taken=len(taken))]
    if taken:
        events.append(event("cards_taken", f"You take {' '.join(taken)} from {defeated}.",
                            to=player, cards=list(taken), defeated=defeated))
    return events


def _continue_attack(s: XiskState, board: Board, player: str) -> list[Event]:
    s.phase = Phase.ATTACK
    if attacks(s, board, player):
        return []
    return _enter_adjust(s, board, player)


def _enter_adjust(s: XiskState, board: Board, player: str) -> list[Event]:
    s.phase = Phase.ADJUST
    if transfers(s, board, player):
        return []
    return _end_turn(s, board)


def _adjust(s: XiskState, board: Board, player: str, src: str, dst: str, n: int) -> list[Event]:
    a, b, most = board.names[src], board.names[dst], s.chips[src] - 1
    text = f"move {chips(n)} from {a} to {b}"
    if s.owner[src] != player or s.owner[dst] != player:
        raise IllegalMove(f"You can't {text}: you must own both countries.")
    if not board.adjacent(src, dst):
        raise IllegalMove(f"You can't {text}: no line joins {a} to {b}.")
    if most < 1:
        raise IllegalMove(f"You can't {text}: {a} holds 1 chip, and 1 must stay behind.")
    if not 1 <= n <= most:
        raise IllegalMove(f"You can't {text}: you may move 1 to {most} from {a} (1 must stay behind).")
    s.chips[src] -= n
    s.chips[dst] += n
    return [event("adjust", f"{player} moves {chips(n)} from {board.names[src]} to {board.names[dst]}.",
                  player=player, source=src, target=dst, count=n), *_end_turn(s, board)]


def _end_turn(s: XiskState, board: Board) -> list[Event]:
    player = s.order[s.turn_index]
    events: list[Event] = []
    if s.conquered:
        card = s.deck.pop(0) if s.deck else None
        if card is None:
            events.append(event("draw", f"{player} would draw a card, but the deck is empty.",
                                player=player))
        else:
            s.hands[player].append(card)
            s.hands[player].sort(key=DECK_INDEX.__getitem__)
            events.append(event("draw", f"{player} draws a card.", player=player))
            events.append(event("card", f"You draw {card}.", to=player, card=card))
    return events + _next_turn(s, board)


def _next_turn(s: XiskState, board: Board) -> list[Event]:
    """Gives the turn to the next player in turn order who is still playing, and starts it."""
    n = len(s.order)
    for step in range(1, n + 1):
        nxt = (s.turn_index + step) % n
        if s.order[nxt] not in s.eliminated:
            s.turn_index = nxt
            break
    return start_turn(s, board)


# -- leaving the game -------------------------------------------------------------------


def can_resign(s: XiskState, player: str) -> bool:
    """True when another player is still in the game (a defeat awaiting its ``invade`` counts as done)."""
    return any(p not in (player, s.defeated_pending) and p not in s.eliminated for p in s.hands)


def resign(s: XiskState, board: Board, players: list[str], player: str) -> list[Event]:
    """``resign``: ``player`` leaves the game; the rules of it are in :mod:`engines.xisk` (readings 12–15).

    Their countries turn neutral with the chips on them, their cards go back to the deck
    (shuffled), and they take no more turns. When one player is left, that player wins; else
    the game goes on: the claiming with the remaining claims, or the next player's turn.
    The last player left may not resign (there is no one to resign to).
    """
    if not can_resign(s, player):
        raise IllegalMove("You can't resign: you are the last player left. Take the neutral countries to win.")
    held = s.hands[player]
    countries = s.countries_of(player)
    for c in countries:
        s.owner[c] = NEUTRAL
    s.deck.extend(held)
    s.hands[player] = []
    s.eliminated.append(player)
    events = [event("resign", f"{player} resigns: " + (
        f"{plural(len(countries), 'country turns', 'countries turn')} neutral." if countries
        else "they leave the game."), player=player, countries=countries, cards_returned=len(held))]
    claiming = s.phase is Phase.CLAIM
    if claiming:
        s.claim_queue = [cp for cp in s.claim_queue if cp[1] != player]
    pending, s.defeated_pending = s.defeated_pending, None
    if pending is not None:  # the resigner had just taken this player's last country
        held = held + s.hands[pending]
        s.deck.extend(s.hands[pending])
        s.hands[pending] = []
        s.eliminated.append(pending)
        events.append(event("defeat", f"{pending} is defeated: their cards go back to the deck.",
                            player=player, defeated=pending, cards_taken=0))
    if held and not claiming:  # while claiming, the deck is shuffled when the claiming ends
        s.rng.shuffle(s.deck)
    left = [p for p in players if p not in s.eliminated]
    if claiming and (len(left) == 1 or not s.claim_queue):
        s.claim_queue = []  # a last player claims no more: the claiming ends as after the last claim
        events += finish_claims(s, players)
    if len(left) == 1:
        s.invade, s.supply_left = None, 0
        s.phase, s.winner = Phase.OVER, left[0]
        return [*events, event("win", f"{left[0]} is the last player left and wins the game!",
                               player=left[0])]
    if claiming:
        return events if s.claim_queue else events + start_turn(s, board)
    if s.turn != player:
        return events
    s.invade = None
    return events + _next_turn(s, board)
