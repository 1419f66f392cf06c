"""``/xisk``: open a XISK table and play its moves with typed, autocompleted options.

Countries may be typed by id, by name or by a unique prefix of either; the engine's
``resolve_country`` reads them (house reading 10), as ``/game play`` does.
Suggestions come from the engine's legal moves, so only what is legal now is offered.
"""

from __future__ import annotations

from typing import Any

from discord import app_commands
from discord.ext import commands

from cogs.actions import play_move
from cogs.client import Tablehost, refusal
from cogs.playbypost import ANOTHER_DOC, BOTS_DOCS, CLOCK_DOCS, Level, OnTimeout, open_game
from cogs.replies import Interaction
from cogs.rules import show_help, show_rules
from cogs.surface import Surface
from cogs.xisk_picks import PICKING
from engines import GameError
from engines.core.words import plural
from engines.xisk.board import load_board, resolve_country
from engines.xisk.cards import MUST_REDEEM_AT
from engines.xisk.hand import describe_hand
from host.outbox import Outbox
from host.tables import Table

TAKEN_LISTED = 6
"""Countries a turn's summary names; more are counted ("and 4 more")."""


def battle_line(ev: dict[str, Any]) -> str:
    """Returns a battle event as one line: ``🎲 Alaska 6-5-2 vs Kamchatka 4-4: Kamchatka loses 2``."""
    if ev.get("kind") != "battle":
        return str(ev["text"])
    names = load_board().names
    src, dst = names[ev["source"]], names[ev["target"]]
    losses = []
    if ev["attacker_losses"]:
        losses.append(f"{src} loses {ev['attacker_losses']}")
    if ev["defender_losses"]:
        losses.append(f"{dst} loses {ev['defender_losses']}")
    dice = "-".join(map(str, ev["attacker_dice"])), "-".join(map(str, ev["defender_dice"]))
    return f"🎲 {src} {dice[0]} vs {dst} {dice[1]}: {', '.join(losses)}"


def hand_text(secret: dict[str, Any]) -> str:
    """Returns a XISK hand DM: the cards by suit, how many cardsets, and a few of them."""
    return "**Your hand:** " + describe_hand(secret.get("hand", []))


def hand_alert(secret: dict[str, Any], view: dict[str, Any], player: str) -> str | None:
    """Returns the notifying line when a player must redeem now (5 or more cards in their Supply phase)."""
    hand = secret.get("hand", [])
    if view.get("phase") == "supply" and view.get("turn") == player and len(hand) >= MUST_REDEEM_AT:
        return f"You hold {len(hand)} cards: redeem a set before you place (`/xisk redeem`, or `/game hand`)."
    return None


def instruction(view: dict[str, Any], player: str) -> str | None:
    """Returns the player's next step with its numbers, from the public view alone (a hand is never read).

    >>> instruction({"phase": "supply", "supply_left": 6, "cards_held": {"Ann": 2}}, "Ann")
    'Ann: place 6 chips (Supply phase), then attack or end.'
    >>> instruction({"phase": "claim", "claims": [{}, {}], "claims_left": 6}, "Ann")
    'Ann: claim a country: card 3 of 8.'
    """
    phase, names = view.get("phase"), load_board().names
    if phase == "claim":
        done = len(view.get("claims") or [])
        return f"{player}: claim a country: card {done + 1} of {done + int(view.get('claims_left') or 0)}."
    if phase in ("supply", "cardset"):
        supply = int(view.get("supply_left") or 0)
        held = int((view.get("cards_held") or {}).get(player, 0))
        what = "Supply phase" if phase == "supply" else "Cardset phase"
        if held >= MUST_REDEEM_AT:  # the count is public; which cards, and which sets, are not
            more = int(view.get("next_set_value") or 0)
            return (f"{player}: redeem a cardset first (you hold {held} cards), then place {supply + more} chips"
                    f" ({what}), then attack or end.")
        return f"{player}: place {plural(supply, 'chip')} ({what}), then attack or end."
    if phase == "attack":
        return f"{player}: attack or end the attack phase."
    if phase == "invade" and view.get("invade"):
        invade = view["invade"]
        return f"{player}: move 0–{invade['most']} more chips into {names.get(invade['to'], invade['to'])}."
    if phase == "adjust":
        return f"{player}: adjust once (chips between two of your countries) or skip."
    return None


def alt_text(title: str, view: dict[str, Any]) -> str:
    """Returns the board picture's alt text: the turn, its phase, who is to act, and each player's counts.

    Only the public view is read: of a hand, only how many cards it holds (``cards_held``), never which.

    >>> alt_text("XISK", {"phase": "supply", "turn_number": 12, "to_act": ["Ann"], "order": ["Ann", "Bob"],
    ...     "countries": {"a": {"owner": "Ann", "chips": 3}, "b": {"owner": "Bob", "chips": 1}},
    ...     "cards_held": {"Ann": 2, "Bob": 1}, "eliminated": []})
    'XISK board, turn 12, Supply phase: Ann to act. Ann 1 country, 3 chips, 2 cards; Bob 1 country, 1 chip, 1 card.'
    >>> alt_text("XISK", {"phase": "claim", "turn_number": 0, "to_act": ["Bob"], "claims": [{}], "claims_left": 1})
    'XISK board, claiming countries (card 2 of 2): Bob to act.'
    """
    phase, acting = str(view.get("phase") or ""), " and ".join(view.get("to_act") or [])
    if phase == "claim":
        done = len(view.get("claims") or [])
        head = f"{title} board, claiming countries (card {done + 1} of {done + int(view.get('claims_left') or 0)})"
    else:
        head = f"{title} board, turn {view.get('turn_number', '?')}"
        if phase != "over":
            head += f", {phase.capitalize()} phase"
    if view.get("winner"):
        head += f": {view['winner']} won."
    else:
        head += f": {acting} to act." if acting else "."
    countries = list((view.get("countries") or {}).values())
    held, out = view.get("cards_held") or {}, set(view.get("eliminated") or [])
    sides = []
    for player in view.get("order") or []:
        if player in out:
            sides.append(f"{player} out")
            continue
        owned = [c for c in countries if c.get("owner") == player]
        chips = sum(int(c.get("chips") or 0) for c in owned)
        sides.append(f"{player} {plural(len(owned), 'country', 'countries')}, {plural(chips, 'chip')},"
                     f" {plural(int(held.get(player, 0)), 'card')}")
    return head + (f" {'; '.join(sides)}." if sides else "")


def turn_key(out: Outbox) -> tuple[str, ...]:
    """Returns what a XISK live board lasts: one player's turn, numbered, so each turn opens a board with its step.

    The claims are turn 0, so the player who claims last and plays first gets a new board for their turn too.
    """
    return (*out.to_act, f"turn {(out.view or {}).get('turn_number', 0)}")


def turn_summary(player: str, events: list[dict[str, Any]]) -> str | None:
    """Returns a XISK turn in short: "Bob took 3 countries (Alaska, Kamchatka, Peru), lost 5 chips, drew a card."

    Only public events are read, and a drawn card is never named (the draw event does not hold it).
    None when the turn did nothing worth a line (the board then shows its recap).

    >>> turn_summary("Bob", [{"kind": "conquer", "player": "Bob", "country": "peru"},
    ...                      {"kind": "battle", "attacker": "Bob", "attacker_losses": 1, "defender_losses": 2},
    ...                      {"kind": "draw", "player": "Bob", "text": "Bob draws a card."}])
    'Bob took Peru, lost 1 chip, killed 2, drew a card.'
    """
    names = load_board().names
    mine = [e for e in events if player in (e.get("player"), e.get("attacker"))]
    kinds: dict[str, list[dict[str, Any]]] = {}
    for e in mine:
        kinds.setdefault(str(e.get("kind")), []).append(e)
    parts = _countries("claimed", [names.get(e["country"], e["country"]) for e in kinds.get("claim", [])])
    if kinds.get("redeem"):
        gained = sum(int(e.get("set_number") or 0) for e in kinds["redeem"])
        parts.append(f"redeemed {plural(len(kinds['redeem']), 'cardset')} (+{plural(gained, 'chip')})")
    if kinds.get("place"):
        parts.append(f"placed {plural(sum(int(e.get('count') or 0) for e in kinds['place']), 'chip')}")
    parts += _countries("took", [names.get(e["country"], e["country"]) for e in kinds.get("conquer", [])])
    battles = kinds.get("battle", [])
    if battles:
        lost = sum(int(e.get("attacker_losses") or 0) for e in battles)
        killed = sum(int(e.get("defender_losses") or 0) for e in battles)
        parts.append(f"lost {plural(lost, 'chip') if lost else 'no chips'}, killed {killed}")
    parts += [f"defeated {e['defeated']}" + (f" (and took {plural(int(e['cards_taken']), 'card')})"
              if e.get("cards_taken") else "") for e in kinds.get("defeat", [])]
    parts += [f"moved {plural(int(e.get('count') or 0), 'chip')} from {names.get(e['source'], e['source'])}"
              f" to {names.get(e['target'], e['target'])}" for e in kinds.get("adjust", [])]
    for e in kinds.get("draw", []):  # "would draw a card, but the deck is empty": nothing was drawn
        parts.append("found the deck empty" if "would draw" in str(e.get("text", "")) else "drew a card")
    if kinds.get("resign"):
        parts.append("resigned")
    return f"{player} {', '.join(parts)}." if parts else None


def _countries(verb: str, countries: list[str]) -> list[str]:
    """Returns "took Peru" or "took 8 countries (Peru, …, Brazil and 2 more)" (nothing for no country).

    >>> _countries("took", ["Peru"]), _countries("claimed", [])
    (['took Peru'], [])
    """
    if len(countries) <= 1:
        return [f"{verb} {c}" for c in countries]
    more = len(countries) - TAKEN_LISTED
    listed = ", ".join(countries[:TAKEN_LISTED]) + (f" and {more} more" if more > 0 else "")
    return [f"{verb} {len(countries)} countries ({listed})"]


def quick_moves(table: Table, player: str) -> list[tuple[str, str]]:
    """Returns the turn message's buttons: attack again, end attack, skip adjust (the counts are picked)."""
    assert table.game is not None
    legal = table.game.legal_moves(player)
    view = table.game.view(None)
    out: list[tuple[str, str]] = []
    battle = view.get("last_battle")
    if view["phase"] == "attack" and battle and battle.get("attacker") == player:
        again = f"attack {battle['from']} {battle['to']}"
        if again in legal:
            out.append(("Attack again", again))
    if "end" in legal:
        out.append(("End attack" if view["phase"] == "attack" else "Skip adjust", "end"))
    return out


def redeem_choices(table: Table, player: str) -> list[tuple[str, str]]:
    """Returns the cardsets a player may redeem now, for ``/game hand``'s menu."""
    assert table.game is not None
    return [(m.removeprefix("redeem "), m) for m in table.game.legal_moves(player) if m.startswith("redeem ")]


@app_commands.guild_only()
class XiskCog(commands.GroupCog, group_name="xisk", group_description="XISK: world conquest for 2–6 players"):
    """The XISK commands: ``new`` and one command per move kind."""

    def __init__(self, bot: Tablehost) -> None:
        self.bot = bot
        self.board = load_board()
        super().__init__()

    async def _play(self, interaction: Interaction, *words: str) -> None:
        await play_move(interaction, " ".join(words), game="xisk")

    def _country(self, text: str) -> str:
        return resolve_country(text, self.board)

    async def _legal(self, interaction: Interaction) -> tuple[list[str], dict[str, int]]:
        """Returns the caller's legal moves and the chips on each country (empty when not playing)."""
        try:
            table = await self.bot.tables.table(str(interaction.channel_id))
        except GameError:
            return [], {}
        name = table.name_of(str(interaction.user.id))
        if table.game is None or name is None or table.row.game != "xisk":
            return [], {}
        chips = {c: v["chips"] for c, v in table.game.view(None)["countries"].items()}
        return table.game.legal_moves(name), chips

    def _choices(self, ids: list[str], current: str, chips: dict[str, int]) -> list[app_commands.Choice[str]]:
        needle = current.casefold().strip()
        seen = list(dict.fromkeys(ids))
        codes = self.board.codes
        matched = [c for c in seen if needle in c or needle in self.board.names[c].casefold()
                   or codes[c].casefold().startswith(needle)]
        return [
            app_commands.Choice(name=f"{self.board.names[c]} {codes[c]} ({chips.get(c, 0)} chips)", value=c)
            for c in matched[:25]
        ]

    async def _countries(self, interaction: Interaction, current: str, kind: str, position: int) -> list[Any]:
        moves, chips = await self._legal(interaction)
        legal = [m.split() for m in moves if m.startswith(kind + " ")]
        if kind in {"attack", "adjust"} and position == 2:
            origin = getattr(interaction.namespace, "origin", None)
            if origin:
                try:
                    source = self._country(origin)
                except GameError:
                    source = None
                legal = [m for m in legal if m[1] == source]
        return self._choices([m[position] for m in legal], current, chips)

    # -- commands ---------------------------------------------------------------------

    @app_commands.command(name="rules", description="The rules of XISK in short (only you see it)")
    async def rules(self, interaction: Interaction) -> None:
        """Shows the rules summary, paged."""
        await show_rules(interaction, "xisk")

    @app_commands.command(name="help", description="The XISK commands and moves (only you see it)")
    async def help(self, interaction: Interaction) -> None:
        """Shows this game's help."""
        await show_help(interaction, "xisk")

    @app_commands.command(name="new", description="Open a XISK table in this channel")
    @app_commands.describe(
        cards_per_player="Cards dealt for the claim (default 21/14/10/8/7 for 2–6 players)",
        **BOTS_DOCS,
        thread="Play in a thread of its own (default: yes, where I may create threads)",
        **CLOCK_DOCS,
        another=ANOTHER_DOC,
    )
    async def new(
        self,
        interaction: Interaction,
        cards_per_player: app_commands.Range[int, 1, 21] | None = None,
        bots: app_commands.Range[int, 0, 5] = 0,
        level: Level = "normal",
        thread: bool | None = None,
        remind_after: str | None = None,
        timeout: str | None = None,
        on_timeout: OnTimeout | None = None,
        another: bool = False,
    ) -> None:
        """Opens a XISK lobby with the caller seated."""
        options = {} if cards_per_player is None else {"cards_per_player": cards_per_player}
        await open_game(interaction, "xisk", options, thread=thread, remind_after=remind_after, timeout=timeout,
                        on_timeout=on_timeout, another=another, bots=bots, level=level)

    @app_commands.command(name="claim", description="Claim a country with the card whose turn it is")
    async def claim(self, interaction: Interaction, country: str) -> None:
        """Plays ``claim <country>``."""
        await self._checked(interaction, lambda: ("claim", self._country(country)))

    @app_commands.command(name="place", description="Place supply chips on one of your countries")
    async def place(self, interaction: Interaction, country: str, chips: app_commands.Range[int, 1, 999]) -> None:
        """Plays ``place <country> <n>``."""
        await self._checked(interaction, lambda: ("place", self._country(country), str(chips)))

    @app_commands.command(name="redeem", description="Redeem a cardset from your hand")
    @app_commands.describe(cards="Three cards, e.g. AS 10H 2C (suggestions show your sets)")
    async def redeem(self, interaction: Interaction, cards: str) -> None:
        """Plays ``redeem <c1> <c2> <c3>``."""
        text = cards.strip()
        await self._play(interaction, text if text.lower().startswith("redeem") else f"redeem {text}")

    @app_commands.command(name="attack", description="Roll one attack from your country against a neighbour")
    async def attack(self, interaction: Interaction, origin: str, target: str) -> None:
        """Plays ``attack <from> <to>``."""
        await self._checked(interaction, lambda: ("attack", self._country(origin), self._country(target)))

    @app_commands.command(name="invade", description="Move extra chips into the country you just conquered")
    async def invade(self, interaction: Interaction, chips: app_commands.Range[int, 0, 999]) -> None:
        """Plays ``invade <n>``."""
        await self._play(interaction, "invade", str(chips))

    @app_commands.command(name="adjust", description="Your one transfer between adjacent countries")
    async def adjust(
        self, interaction: Interaction, origin: str, target: str, chips: app_commands.Range[int, 1, 999]
    ) -> None:
        """Plays ``adjust <from> <to> <n>``."""
        await self._checked(
            interaction, lambda: ("adjust", self._country(origin), self._country(target), str(chips))
        )

    @app_commands.command(name="end", description="End the attack phase, or skip the adjust")
    async def end(self, interaction: Interaction) -> None:
        """Plays ``end``."""
        await self._play(interaction, "end")

    @app_commands.command(name="resign", description="Leave the game: your countries turn neutral (asks first)")
    async def resign(self, interaction: Interaction) -> None:
        """Plays ``resign`` after a confirmation."""
        await self._play(interaction, "resign")

    async def _checked(self, interaction: Interaction, build: Any) -> None:
        try:
            words = build()
        except GameError as err:
            await interaction.response.send_message(refusal(err), ephemeral=True)
            return
        await self._play(interaction, *words)

    # -- autocomplete -----------------------------------------------------------------

    @claim.autocomplete("country")
    async def _claimable(self, interaction: Interaction, current: str) -> list[Any]:
        return await self._countries(interaction, current, "claim", 1)

    @place.autocomplete("country")
    async def _placeable(self, interaction: Interaction, current: str) -> list[Any]:
        return await self._countries(interaction, current, "place", 1)

    @attack.autocomplete("origin")
    async def _attack_from(self, interaction: Interaction, current: str) -> list[Any]:
        return await self._countries(interaction, current, "attack", 1)

    @attack.autocomplete("target")
    async def _attack_to(self, interaction: Interaction, current: str) -> list[Any]:
        return await self._countries(interaction, current, "attack", 2)

    @adjust.autocomplete("origin")
    async def _adjust_from(self, interaction: Interaction, current: str) -> list[Any]:
        return await self._countries(interaction, current, "adjust", 1)

    @adjust.autocomplete("target")
    async def _adjust_to(self, interaction: Interaction, current: str) -> list[Any]:
        return await self._countries(interaction, current, "adjust", 2)

    @redeem.autocomplete("cards")
    async def _sets(self, interaction: Interaction, current: str) -> list[app_commands.Choice[str]]:
        moves, _ = await self._legal(interaction)
        sets = [m.removeprefix("redeem ") for m in moves if m.startswith("redeem ")]
        needle = current.upper().split()
        return [app_commands.Choice(name=s, value=s) for s in sets if all(n in s for n in needle)][:25]


SURFACE = Surface(
    commands=XiskCog,
    quick_moves=quick_moves,
    hand_moves=redeem_choices,
    event_line=battle_line,
    secret_line=hand_text,
    hand_alert=hand_alert,
    picking=PICKING,
    instruction=instruction,
    turn_summary=turn_summary,
    turn_key=turn_key,
    alt_text=alt_text,
)
"""XISK on Discord: ``/xisk``, its buttons, the redeem menu, battle lines, the hand DM, each turn's step and summary,
the board's alt text."""
