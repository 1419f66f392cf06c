"""Builds application-command interaction data from the commands the bot synced."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from tests.fakediscord.payloads import BOT_DM_CONTEXT, GUILD_CONTEXT, FakeChannel, FakeUser

if TYPE_CHECKING:
    from tests.fakediscord.server import FakeDiscord

Json = dict[str, Any]
SUB_COMMAND, SUB_COMMAND_GROUP = 1, 2
STRING, INTEGER, BOOLEAN, USER, CHANNEL, ROLE, MENTIONABLE, NUMBER = 3, 4, 5, 6, 7, 8, 9, 10
GUILD_INSTALL = 0
CONTEXT_NAMES = {GUILD_CONTEXT: "in guilds", BOT_DM_CONTEXT: "in DMs"}


def unavailable_because(command: Json, context: int) -> str | None:
    """Returns why Discord would not offer a synced command in an interaction context (0 a guild, 1 the
    bot's DM), or None when it would.

    A guild command is only ever available in its guild. A global command follows its ``contexts``
    when set (``@app_commands.guild_only()`` syncs ``[0]``, ``allowed_contexts(dms=True, ...)`` a list
    with 1), else the legacy ``dm_permission`` (false keeps it out of DMs). A command whose
    ``integration_types`` leave out guild installs (0) is not available from the fake's app, which is
    installed to guilds only.
    """
    if command.get("guild_id"):
        return None if context == GUILD_CONTEXT else "it is a guild command"
    installs = command.get("integration_types")
    if installs is not None and GUILD_INSTALL not in installs:
        return f"its integration_types {installs} leave out guild installs"
    contexts = command.get("contexts")
    if contexts is not None:
        return None if context in contexts else f"its contexts are {contexts}"
    if context == BOT_DM_CONTEXT and command.get("dm_permission") is False:
        return "its dm_permission is false"
    return None


def _convert(fake: FakeDiscord, spec: Json, value: Any, resolved: Json, guild_id: int | None) -> Any:
    kind = spec["type"]
    if kind in (USER, MENTIONABLE) and isinstance(value, FakeUser):
        resolved.setdefault("users", {})[str(value.id)] = value.payload()
        guild = fake.guild_by_id(guild_id)
        if guild is not None and guild.is_member(value):
            member = guild.member_payload(value)
            member.pop("user")
            resolved.setdefault("members", {})[str(value.id)] = member
        return str(value.id)
    if kind == CHANNEL and isinstance(value, FakeChannel):
        resolved.setdefault("channels", {})[str(value.id)] = {**value.payload(), "permissions": "0"}
        return str(value.id)
    if kind == INTEGER:
        return int(value)
    if kind == NUMBER:
        return float(value)
    if kind == BOOLEAN:
        return bool(value)
    return str(value)


def command_data(
    fake: FakeDiscord, path: tuple[str, ...], options: dict[str, Any], *, guild_id: int | None,
    focused: str | None = None,
) -> tuple[Json, str]:
    """Returns the ``data`` of a slash or autocomplete interaction and the command's full name.

    ``path`` is the command name then any group and subcommand names; ``options`` maps option
    names to values (a FakeUser for a user option, a FakeChannel for a channel option). ``guild_id``
    is the guild the interaction comes from, None for the bot's DM. Raises LookupError for an unknown
    command, subcommand or option, or a command not available there (``unavailable_because``), and
    TypeError for a missing required option.
    """
    if not path:
        raise LookupError("give at least the command name")
    command = fake.find_command(path[0], guild_id=guild_id)
    context = GUILD_CONTEXT if guild_id is not None else BOT_DM_CONTEXT
    reason = unavailable_because(command, context)
    if reason is not None:
        raise LookupError(f"command /{command['name']} is not available {CONTEXT_NAMES[context]}: {reason}")
    data: Json = {"id": command["id"], "name": command["name"], "type": 1}
    if command.get("guild_id"):
        data["guild_id"] = command["guild_id"]
    level, holder = command, data
    for name in path[1:]:
        subs = [o for o in level.get("options") or [] if o["type"] in (SUB_COMMAND, SUB_COMMAND_GROUP)]
        match = next((o for o in subs if o["name"] == name), None)
        if match is None:
            raise LookupError(f"/{' '.join(path)}: no subcommand {name!r}; have {[o['name'] for o in subs]}")
        child: Json = {"name": name, "type": match["type"], "options": []}
        holder.setdefault("options", []).append(child)
        level, holder = match, child
    specs = {o["name"]: o for o in level.get("options") or [] if o["type"] not in (SUB_COMMAND,
                                                                                      SUB_COMMAND_GROUP)}
    if any(o["type"] in (SUB_COMMAND, SUB_COMMAND_GROUP) for o in level.get("options") or []):
        raise LookupError(f"/{' '.join(path)} is a group; name one of its subcommands")
    resolved: Json = {}
    given = []
    for name, value in options.items():
        spec = specs.get(name) or specs.get(name.replace("_", "-"))
        if spec is None:
            raise LookupError(f"/{' '.join(path)}: no option {name!r}; options: {sorted(specs)}")
        if spec["name"] == focused:
            given.append({"name": spec["name"], "type": spec["type"], "value": str(value), "focused": True})
        else:
            given.append({"name": spec["name"], "type": spec["type"],
                          "value": _convert(fake, spec, value, resolved, guild_id)})
    if focused is not None and not any(o.get("focused") for o in given):
        if focused not in specs:
            raise LookupError(f"/{' '.join(path)}: no option {focused!r} to autocomplete")
        given.append({"name": focused, "type": specs[focused]["type"], "value": "", "focused": True})
    if focused is None:
        missing = [n for n, s in specs.items() if s.get("required") and n not in {o["name"] for o in given}]
        if missing:
            raise TypeError(f"/{' '.join(path)}: missing required options {missing}")
    holder.setdefault("options", []).extend(given)
    if resolved:
        data["resolved"] = resolved
    return data, " ".join(path)
