"""Builds the JSON payloads that Discord sends: users, guilds, channels, messages, interactions."""

from __future__ import annotations

import datetime
import itertools
import time
from dataclasses import dataclass, field
from typing import Any

DISCORD_EPOCH_MS = 1420070400000
ALL_PERMISSIONS = str((1 << 50) - 1)
MEMBER_PERMISSIONS = str((1 << 10) | (1 << 11) | (1 << 15) | (1 << 16) | (1 << 31))
"""View Channel, Send Messages, Attach Files, Read Message History, Use Application Commands."""
DM_APP_PERMISSIONS = str((1 << 6) | (1 << 10) | (1 << 11) | (1 << 14) | (1 << 15) | (1 << 16) | (1 << 17)
                         | (1 << 18))
"""What an app may do in its bot's DM (``app_permissions`` there): Add Reactions, View Channel, Send
Messages, Embed Links, Attach Files, Read Message History, Mention Everyone, Use External Emojis; no
threads, no managing messages."""
GUILD_CONTEXT, BOT_DM_CONTEXT, PRIVATE_CHANNEL_CONTEXT = 0, 1, 2
"""Interaction context types (``context`` of an interaction, ``contexts`` of a command)."""
ATTACHMENT_SIZE_LIMIT = 10 * 1024 * 1024

Json = dict[str, Any]


class Snowflakes:
    """Hands out increasing snowflake ids whose timestamps are the current time (or a little after)."""

    def __init__(self) -> None:
        self._counter = itertools.count(1)
        self._last_ms = 0

    def next(self, *, shard: tuple[int, int] | None = None) -> int:
        """Returns a new snowflake id; with ``shard`` (``(shard_id, shard_count)``) a guild id that shard
        serves: ``(id >> 22) % shard_count == shard_id``, its timestamp moved up to a fitting millisecond."""
        ms = max(int(time.time() * 1000) - DISCORD_EPOCH_MS, self._last_ms)
        if shard is not None:
            shard_id, count = shard
            if not 0 <= shard_id < count:
                raise ValueError(f"no shard {shard_id} of {count}")
            ms += (shard_id - ms) % count
        self._last_ms = ms
        return (ms << 22) | (next(self._counter) & 0x3FFFFF)


def iso_now() -> str:
    """Returns the current UTC time in ISO 8601 form, as Discord writes timestamps."""
    return datetime.datetime.now(datetime.UTC).isoformat()


@dataclass(frozen=True)
class FakeUser:
    """A Discord user known to the fake server (a player, or the bot itself)."""

    id: int
    name: str
    bot: bool = False
    permissions: str = ALL_PERMISSIONS
    """The member's resolved permissions in every channel (``MEMBER_PERMISSIONS`` for a plain member)."""

    def payload(self) -> Json:
        """Returns the user object payload."""
        return {
            "id": str(self.id),
            "username": self.name,
            "global_name": self.name.title(),
            "discriminator": "0",
            "avatar": None,
            "bot": self.bot,
            "public_flags": 0,
        }

    @property
    def mention(self) -> str:
        """Returns the mention string for this user."""
        return f"<@{self.id}>"


@dataclass(frozen=True)
class FakeChannel:
    """A text channel (type 0) or thread (11 public, 12 private) of the guild, or a DM (type 1)."""

    id: int
    name: str
    guild_id: int | None = None
    recipient: FakeUser | None = None
    position: int = 0
    kind: int = 0
    parent_id: int | None = None
    owner_id: int | None = None

    @property
    def mention(self) -> str:
        """Returns the mention string for this channel."""
        return f"<#{self.id}>"

    @property
    def is_thread(self) -> bool:
        """Tells whether this is a thread."""
        return self.kind in (11, 12)

    @property
    def is_dm(self) -> bool:
        """Tells whether this is a DM channel."""
        return self.recipient is not None

    def payload(self) -> Json:
        """Returns the channel object payload."""
        if self.recipient is not None:
            return {"id": str(self.id), "type": 1, "last_message_id": None, "flags": 0,
                    "recipients": [self.recipient.payload()]}
        if self.is_thread:
            return {
                "id": str(self.id), "type": self.kind, "name": self.name, "guild_id": str(self.guild_id),
                "parent_id": str(self.parent_id), "owner_id": str(self.owner_id), "last_message_id": None,
                "message_count": 0, "member_count": 1, "total_message_sent": 0, "rate_limit_per_user": 0,
                "flags": 0, "thread_metadata": {
                    "archived": False, "auto_archive_duration": 1440, "archive_timestamp": iso_now(),
                    "locked": False, "invitable": True,
                },
            }
        return {
            "id": str(self.id), "type": 0, "name": self.name, "guild_id": str(self.guild_id),
            "position": self.position, "permission_overwrites": [], "nsfw": False,
            "topic": None, "last_message_id": None, "rate_limit_per_user": 0, "parent_id": None,
        }


@dataclass
class FakeGuild:
    """A guild (server) of the fake: its channels, threads, roles and members (the bot is one of them)."""

    id: int
    name: str
    owner: FakeUser
    channels: list[FakeChannel] = field(default_factory=list)
    threads: list[FakeChannel] = field(default_factory=list)
    members: list[FakeUser] = field(default_factory=list)
    roles: list[Json] = field(default_factory=list)

    def is_member(self, user: FakeUser) -> bool:
        """Tells whether a user is a member of this guild."""
        return any(m.id == user.id for m in self.members)

    def member_payload(self, user: FakeUser) -> Json:
        """Returns the guild member payload for a user."""
        return {
            "user": user.payload(), "nick": None, "roles": [], "joined_at": iso_now(),
            "deaf": False, "mute": False, "flags": 0, "pending": False, "avatar": None,
        }

    def payload(self, *, large: bool = False) -> Json:
        """Returns the GUILD_CREATE payload; a ``large`` guild lists only bots, so clients must chunk."""
        listed = [u for u in self.members if u.bot] if large else self.members
        return {
            "id": str(self.id), "name": self.name, "icon": None, "owner_id": str(self.owner.id),
            "unavailable": False, "large": large, "member_count": len(self.members),
            "features": [], "emojis": [], "stickers": [], "roles": self.roles,
            "channels": [c.payload() for c in self.channels],
            "threads": [t.payload() for t in self.threads],
            "members": [self.member_payload(u) for u in listed], "voice_states": [],
            "presences": [], "stage_instances": [], "guild_scheduled_events": [],
            "soundboard_sounds": [], "verification_level": 0, "default_message_notifications": 0,
            "explicit_content_filter": 0, "mfa_level": 0, "nsfw_level": 0, "premium_tier": 0,
            "preferred_locale": "en-US", "system_channel_id": None, "afk_channel_id": None,
            "afk_timeout": 300, "joined_at": iso_now(), "max_members": 500000,
        }


def role_payload(role_id: int, name: str, *, position: int = 0, permissions: str = "0") -> Json:
    """Returns a role object payload."""
    return {
        "id": str(role_id), "name": name, "color": 0, "colors": {"primary_color": 0},
        "hoist": False, "icon": None, "unicode_emoji": None, "position": position,
        "permissions": permissions, "managed": False, "mentionable": False, "flags": 0,
    }


def application_payload(bot: FakeUser, owner: FakeUser) -> Json:
    """Returns the application object served at ``/oauth2/applications/@me``."""
    return {
        "id": str(bot.id), "name": bot.name, "icon": None, "description": "Test application",
        "rpc_origins": [], "bot_public": True, "bot_require_code_grant": False,
        "owner": owner.payload(), "summary": "", "verify_key": "0" * 64, "team": None,
        "flags": 0, "bot": bot.payload(), "interactions_endpoint_url": None,
        "approximate_guild_count": 1, "redirect_uris": [],
    }


def attachment_payload(attachment_id: int, filename: str, data: bytes, content_type: str | None,
                       description: str | None = None) -> Json:
    """Returns an attachment object payload for an uploaded file (with its alt text ``description`` when given)."""
    url = f"https://cdn.fake.invalid/attachments/{attachment_id}/{filename}"
    payload: Json = {
        "id": str(attachment_id), "filename": filename, "size": len(data), "url": url,
        "proxy_url": url, "content_type": content_type, "ephemeral": False,
    }
    if description is not None:
        payload["description"] = description
    return payload


def message_payload(
    *, message_id: int, channel: FakeChannel, author: FakeUser, body: Json,
    attachments: list[Json], interaction_id: int | None = None,
) -> Json:
    """Returns a message object built from what the bot posted (``body`` is its JSON)."""
    data: Json = {
        "id": str(message_id), "channel_id": str(channel.id), "author": author.payload(),
        "content": body.get("content") or "", "timestamp": iso_now(), "edited_timestamp": None,
        "tts": bool(body.get("tts", False)), "mention_everyone": False, "mentions": [],
        "mention_roles": [], "attachments": attachments, "embeds": body.get("embeds") or [],
        "pinned": False, "type": 0 if interaction_id is None else 20,
        "flags": int(body.get("flags") or 0), "components": body.get("components") or [],
    }
    if body.get("nonce") is not None:
        data["nonce"] = body["nonce"]
    if interaction_id is not None:
        data["application_id"] = str(author.id)
        data["webhook_id"] = str(author.id)
    if channel.guild_id is not None:
        data["guild_id"] = str(channel.guild_id)
    return data


def interaction_payload(
    *, interaction_id: int, token: str, kind: int, data: Json, user: FakeUser, channel: FakeChannel,
    guild: FakeGuild | None, application_id: int, message: Json | None = None,
    attachment_size_limit: int = ATTACHMENT_SIZE_LIMIT,
) -> Json:
    """Returns an INTERACTION_CREATE payload with the fields discord.py 2.6+ requires.

    In a guild channel (``guild`` is the channel's guild): ``guild_id``, partial ``guild``, ``member``
    (with its permissions), ``context`` 0 and the guild install's owner ``{"0": guild id}``. In the
    bot's DM (``guild`` None): no guild or member, ``user`` at the top level, the DM ``channel`` (type
    1), ``context`` 1 (BOT_DM) and ``{"0": "0"}``, as Discord sends for a guild-installed app used in
    its bot's DMs.
    """
    payload: Json = {
        "id": str(interaction_id), "application_id": str(application_id), "type": kind,
        "data": data, "token": token, "version": 1, "locale": "en-US",
        "app_permissions": ALL_PERMISSIONS, "entitlements": [], "entitlement_sku_ids": [],
        "attachment_size_limit": attachment_size_limit,
    }
    if channel.is_dm:
        payload["channel"] = channel.payload()
        payload["channel_id"] = str(channel.id)
        payload["user"] = user.payload()
        payload["app_permissions"] = DM_APP_PERMISSIONS
        payload["context"] = BOT_DM_CONTEXT
        payload["authorizing_integration_owners"] = {"0": "0"}
    else:
        if guild is None or channel.guild_id != guild.id:
            raise ValueError(f"channel {channel.name!r} is not in guild {guild.name if guild else None!r}")
        payload["guild_id"] = str(guild.id)
        payload["guild"] = {"id": str(guild.id), "locale": "en-US", "features": []}
        payload["guild_locale"] = "en-US"
        payload["channel"] = channel.payload()
        payload["channel_id"] = str(channel.id)
        member = guild.member_payload(user)
        member["permissions"] = user.permissions
        payload["member"] = member
        payload["context"] = GUILD_CONTEXT
        payload["authorizing_integration_owners"] = {"0": str(guild.id)}
    if message is not None:
        payload["message"] = message
    return payload
