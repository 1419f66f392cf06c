"""``/table export [game]``: a finished game's file, to check its dice and replay it (see :mod:`host.export`).

The answer is ephemeral: the file goes to whoever asked (an attachment in an ephemeral
followup), not to the whole channel. Without ``game`` it is the channel's latest finished
or aborted game; with it, that game if it was played in this channel. A running game is
refused: its seed is secret until it ends.
"""

from __future__ import annotations

import io
from typing import Any

import discord

from cogs.client import refusal
from cogs.replies import Interaction, begin
from engines import GameError
from host.export import RUNNING, export_game, export_text, file_name
from host.signing import fingerprint
from host.store import Status, Store
from host.table import Refusal
from host.undo import standing_count

MAX_FILE = 8 * 1024 * 1024
"""Discord's smallest upload limit (a server without boosts): an export larger than this is refused."""


async def export(interaction: Interaction, game: int | None) -> None:
    """Answers with the export of the channel's latest finished game, or of game ``game`` of this channel."""
    await begin(interaction)
    try:
        data = await export_data(interaction.client.tables.store, str(interaction.channel_id), game)
    except GameError as err:
        await interaction.followup.send(refusal(err), ephemeral=True)
        return
    body = export_text(data).encode()
    if len(body) > MAX_FILE:
        await interaction.followup.send(
            f"That game's record is {len(body) // (1024 * 1024)} MB, more than Discord takes in one file"
            f" ({MAX_FILE // (1024 * 1024)} MB).", ephemeral=True,
        )
        return
    name = file_name(data)
    moves = standing_count(m["move"] for m in data["moves"])  # as the replay post and /table history
    signed = data.get("signature")
    mark = f" --key {fingerprint(signed['key'])}" if isinstance(signed, dict) else ""
    await interaction.followup.send(
        f"{data['title']} game {data['id']} ({data['status']}, {moves} moves): the fair-dice record, every move"
        f" with its dice, and the end{', signed by this bot' if mark else ''}. Check it with"
        f" `python3 tasks.py run --verify {name}{mark}` (its draws alone:"
        f" `python3 tools/check_draws.py {name}`);"
        f" replay it with `python3 tasks.py run --console --load {name}`.",
        file=discord.File(fp=io.BytesIO(body), filename=name),
        ephemeral=True,
    )


async def export_data(store: Store, channel_id: str, game: int | None) -> dict[str, Any]:
    """Returns the export of the channel's game ``game`` (None: its latest finished one); raises GameError."""
    if game is None:
        past = await store.past_games(channel_id, limit=1)
        if not past:
            active = await store.active_game(channel_id, snapshot=False)
            if active is not None and active.status is Status.RUNNING:
                raise Refusal(RUNNING)
            raise Refusal("This channel has no finished game to export yet.")
        game = past[0].id
    else:
        row = await store.game(game, snapshot=False)
        if row is None or row.channel_id != channel_id:
            raise Refusal(f"This channel has no game {game}: export a game from the channel it was played in.")
    return await export_game(store, game)
