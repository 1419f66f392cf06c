"""Discord's documented limits, in one place, and the checks that refuse a request over them.

Every limit is a row of a table below (``TEXTS`` for string lengths, ``COUNTS`` for list lengths,
``VALUES`` for numbers); the checks walk a payload and look the limits up by name. A refusal is
raised as ``Rejected`` and answered as Discord answers: 400 with
``{"code": 50035, "message": "Invalid Form Body", "errors": {...}}``, where ``errors`` names the
offending path (``{"components": {"0": {"components": {"1": {"label": {"_errors": [...]}}}}}}``)
and each error has Discord's ``code`` and ``message`` (``BASE_TYPE_MAX_LENGTH``, "Must be 80 or
fewer in length."). Codes Discord does not document are close approximations of what it sends.

What is checked:

- messages (channel and DM creates and edits, interaction responses, follow-ups and their edits):
  content, embeds (each text, fields, the 6,000-character total), components (rows, row width,
  buttons, select menus, custom_id length and uniqueness; components v2 with flag 32768),
  attachments (their number, each one's description: its alt text); an empty message is 400 code 50006;
- interaction callbacks: the type against the interaction's kind, autocomplete choices (type 8),
  modals (type 9);
- application commands (bulk overwrite and create, global and guild): names, descriptions,
  options, subcommands and groups, choices, the number of commands per scope.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

Json = dict[str, Any]
Path = tuple[str | int, ...]

INVALID_FORM_BODY = 50035
EMPTY_MESSAGE = 50006
ALREADY_ACKNOWLEDGED = 40060
MAX_COMMANDS_REACHED = 30032
COMPONENTS_V2 = 1 << 15


# the limits

@dataclass(frozen=True)
class Text:
    """A string field's length limit: at most ``max`` characters, at least ``min`` when given."""

    max: int
    min: int = 0
    required: bool = False


TEXTS: dict[str, Text] = {
    "message.content": Text(2000),
    "message.nonce": Text(25),
    "embed.title": Text(256),
    "embed.description": Text(4096),
    "embed.field.name": Text(256, 1, required=True),
    "embed.field.value": Text(1024, 1, required=True),
    "embed.footer.text": Text(2048),
    "embed.author.name": Text(256),
    "component.custom_id": Text(100, 1),
    "button.label": Text(80),
    "button.url": Text(512),
    "select.placeholder": Text(150),
    "select.option.label": Text(100, 1, required=True),
    "select.option.value": Text(100, 1, required=True),
    "select.option.description": Text(100),
    "text_display.content": Text(4000, 1, required=True),
    "modal.title": Text(45, 1, required=True),
    "modal.custom_id": Text(100, 1, required=True),
    "text_input.label": Text(45, 1),
    "text_input.placeholder": Text(100),
    "text_input.value": Text(4000),
    "label.label": Text(45, 1, required=True),
    "label.description": Text(100),
    "choice.name": Text(100, 1, required=True),
    "choice.value": Text(100),
    "command.name": Text(32, 1, required=True),
    "command.description": Text(100, 1, required=True),
    "option.name": Text(32, 1, required=True),
    "option.description": Text(100, 1, required=True),
    "attachment.description": Text(1024),
}

COUNTS: dict[str, Text] = {
    "message.embeds": Text(10),
    "message.attachments": Text(10),
    "message.components": Text(5),
    "message.components_v2": Text(40),
    "row.components": Text(5, 1),
    "row.width": Text(5),
    "embed.fields": Text(25),
    "select.options": Text(25, 1, required=True),
    "modal.components": Text(5, 1, required=True),
    "autocomplete.choices": Text(25, required=True),
    "command.options": Text(25),
    "option.choices": Text(25),
    "scope.chat_input": Text(100),
    "scope.user": Text(5),
    "scope.message": Text(5),
}

VALUES: dict[str, tuple[int, int]] = {
    "select.min_values": (0, 25),
    "select.max_values": (1, 25),
    "text_input.min_length": (0, 4000),
    "text_input.max_length": (1, 4000),
}

EMBED_TOTAL = 6000
"""Characters of every embed's title, description, field names and values, footer text and author
name, summed over the message."""

COMMAND_NAME = re.compile(r"^[-_\w]{1,32}$")
BUTTON_STYLES = range(1, 7)
LINK, PREMIUM = 5, 6
ROW, BUTTON, STRING_SELECT, TEXT_INPUT = 1, 2, 3, 4
SELECTS = frozenset({3, 5, 6, 7, 8})
SECTION, TEXT_DISPLAY, THUMBNAIL, MEDIA_GALLERY, FILE, SEPARATOR, CONTAINER, LABEL = 9, 10, 11, 12, 13, 14, 17, 18
V2_TOP = frozenset({ROW, SECTION, TEXT_DISPLAY, MEDIA_GALLERY, FILE, SEPARATOR, CONTAINER})
V2_IN_CONTAINER = frozenset({ROW, SECTION, TEXT_DISPLAY, MEDIA_GALLERY, FILE, SEPARATOR})
WIDTH = {BUTTON: 1, **dict.fromkeys(SELECTS, 5)}
SUB_COMMAND, SUB_COMMAND_GROUP = 1, 2
CHOICE_TYPES = frozenset({3, 4, 10})
OPTION_TYPES = range(1, 12)
SCOPE_COUNT = {1: "scope.chat_input", 2: "scope.user", 3: "scope.message"}

# interaction kinds -> the callback types Discord accepts for them
PING, APPLICATION_COMMAND, MESSAGE_COMPONENT, AUTOCOMPLETE, MODAL_SUBMIT = 1, 2, 3, 4, 5
CALLBACK_TYPES: dict[int, frozenset[int]] = {
    PING: frozenset({1}),
    APPLICATION_COMMAND: frozenset({4, 5, 9}),
    MESSAGE_COMPONENT: frozenset({4, 5, 6, 7, 9}),
    AUTOCOMPLETE: frozenset({8}),
    MODAL_SUBMIT: frozenset({4, 5, 6, 7}),
}
UPDATES = frozenset({7})
"""Callback types that edit the message the interaction came from (refused without one)."""


# refusals

class Rejected(Exception):
    """A request Discord would refuse; the middleware turns it into a JSON error."""

    def __init__(self, status: int, code: int, message: str, errors: Json | None = None) -> None:
        super().__init__(message if not errors else f"{message}: {'; '.join(describe(errors))}")
        self.status, self.code, self.message, self.errors = status, code, message, errors


@dataclass
class Problems:
    """The form errors found in one request body, each at a path like ``("components", 0, "label")``."""

    found: list[tuple[Path, str, str]] = field(default_factory=list)

    def add(self, path: Path, code: str, message: str) -> None:
        """Notes one error at ``path``."""
        self.found.append((path, code, message))

    def text(self, path: Path, value: Any, limit: str) -> None:
        """Checks a string field against ``TEXTS[limit]`` (absent means ``None``)."""
        self.length(path, value, TEXTS[limit], str)

    def count(self, path: Path, value: Any, limit: str) -> None:
        """Checks a list field against ``COUNTS[limit]``."""
        self.length(path, value, COUNTS[limit], list)

    def length(self, path: Path, value: Any, rule: Text, kind: type) -> None:
        """Checks a string or list against a length rule, as Discord words it."""
        if value is None:
            if rule.required:
                self.add(path, "BASE_TYPE_REQUIRED", "This field is required")
            return
        if not isinstance(value, kind):
            self.add(path, "BASE_TYPE_STRING" if kind is str else "BASE_TYPE_LIST",
                     "Could not interpret the value as string." if kind is str else "Must be an array.")
            return
        if rule.min and not rule.min <= len(value) <= rule.max:
            self.add(path, "BASE_TYPE_BAD_LENGTH", f"Must be between {rule.min} and {rule.max} in length.")
        elif len(value) > rule.max:
            self.add(path, "BASE_TYPE_MAX_LENGTH", f"Must be {rule.max} or fewer in length.")

    def number(self, path: Path, value: Any, limit: str) -> None:
        """Checks an integer field against ``VALUES[limit]``."""
        low, high = VALUES[limit]
        if value is None:
            return
        if isinstance(value, bool) or not isinstance(value, int):
            self.add(path, "NUMBER_TYPE_COERCE", f"Value \"{value}\" is not int.")
        elif value < low:
            self.add(path, "NUMBER_TYPE_MIN", f"int value should be greater than or equal to {low}.")
        elif value > high:
            self.add(path, "NUMBER_TYPE_MAX", f"int value should be less than or equal to {high}.")

    def errors(self) -> Json:
        """Returns the errors nested by path, as Discord's ``errors`` object."""
        tree: Json = {}
        for path, code, message in self.found:
            node = tree
            for key in path:
                node = node.setdefault(str(key), {})
            node.setdefault("_errors", []).append({"code": code, "message": message})
        return tree

    def raise_if_any(self) -> None:
        """Raises Rejected (400 code 50035) if any error was found."""
        if self.found:
            raise Rejected(400, INVALID_FORM_BODY, "Invalid Form Body", self.errors())


def describe(errors: Mapping[str, Any], path: str = "") -> list[str]:
    """Returns each error of a Discord ``errors`` object as ``"components.0.label: Must be..."``."""
    out = []
    for key, value in errors.items():
        if key == "_errors":
            out.extend(f"{path or '(body)'}: {e['message']} ({e['code']})" for e in value)
        elif isinstance(value, Mapping):
            out.extend(describe(value, f"{path}.{key}" if path else key))
    return out


def _dict(value: Any) -> Json:
    return value if isinstance(value, dict) else {}


def _list(value: Any) -> list[Any]:
    return value if isinstance(value, list) else []


# messages

def check_message(
    body: Json, files: Iterable[Any] = (), *, base: Path = (), flags: int = 0, nonce: bool = False,
) -> None:
    """Raises Rejected (400 code 50035) for a message create or edit body over Discord's limits.

    ``base`` prefixes every path (``("data",)`` for an interaction callback); ``flags`` are the
    message's current flags (an edit keeps components v2); ``nonce`` checks the nonce too.
    """
    problems = Problems()
    message_problems(problems, body, list(files), base=base, flags=flags, nonce=nonce)
    problems.raise_if_any()


def message_problems(
    p: Problems, body: Json, files: list[Any], *, base: Path = (), flags: int = 0, nonce: bool = False,
) -> None:
    """Adds the problems of a message body to ``p``."""
    v2 = bool((int(body.get("flags") or 0) | flags) & COMPONENTS_V2)
    p.text((*base, "content"), body.get("content"), "message.content")
    if nonce:
        _nonce(p, body.get("nonce"), (*base, "nonce"))
    embeds = body.get("embeds")
    if v2:
        for key in ("content", "embeds"):
            if body.get(key):
                p.add((*base, key), "MESSAGE_CANNOT_USE_LEGACY_FIELDS_WITH_COMPONENTS_V2",
                      "The 'content' and 'embeds' fields cannot be used when using MessageFlags.IS_COMPONENTS_V2")
    if embeds is not None:
        _embeds(p, embeds, (*base, "embeds"))
    count = max(len(files), len(_list(body.get("attachments"))))
    if count > COUNTS["message.attachments"].max:
        p.count((*base, "attachments"), [None] * count, "message.attachments")
    for i, attachment in enumerate(_list(body.get("attachments"))):  # each one's alt text
        if isinstance(attachment, dict):
            p.text((*base, "attachments", i, "description"), attachment.get("description"), "attachment.description")
    components = body.get("components")
    if components is not None:
        _message_components(p, components, (*base, "components"), v2=v2)


def _nonce(p: Problems, nonce: Any, path: Path) -> None:
    if nonce is None:
        return
    if isinstance(nonce, bool) or not isinstance(nonce, int | str):
        p.add(path, "BASE_TYPE_NONCE", "Must be an integer or a string.")
    elif isinstance(nonce, str):
        p.text(path, nonce, "message.nonce")


def is_empty(body: Json, files: Iterable[Any] = ()) -> bool:
    """Tells whether a message would have no content, embeds, files, attachments or components."""
    return not (body.get("content") or body.get("embeds") or list(files) or body.get("components")
                or body.get("sticker_ids") or body.get("poll") or body.get("attachments"))


def refuse_empty(body: Json, files: Iterable[Any] = ()) -> None:
    """Raises Rejected (400 code 50006) for a message with nothing in it."""
    if is_empty(body, files):
        raise Rejected(400, EMPTY_MESSAGE, "Cannot send an empty message")


def refuse_empty_edit(current: Json, body: Json, files: Iterable[Any] = ()) -> None:
    """Raises Rejected (400 code 50006) for an edit that would leave a message with nothing in it."""
    touched = {"content", "embeds", "components", "attachments"} & set(body)
    if not touched:
        return
    after = {key: body[key] if key in body else current.get(key)
             for key in ("content", "embeds", "components", "attachments", "sticker_ids", "poll")}
    refuse_empty(after, files)


def _embeds(p: Problems, embeds: Any, path: Path) -> None:
    p.count(path, embeds, "message.embeds")
    total = 0
    for i, raw in enumerate(_list(embeds)):
        embed, at = _dict(raw), (*path, i)
        for key in ("title", "description"):
            p.text((*at, key), embed.get(key), f"embed.{key}")
        fields = embed.get("fields")
        p.count((*at, "fields"), fields, "embed.fields")
        for j, raw_field in enumerate(_list(fields)):
            one = _dict(raw_field)
            for key in ("name", "value"):
                p.text((*at, "fields", j, key), one.get(key), f"embed.field.{key}")
        footer, author = _dict(embed.get("footer")), _dict(embed.get("author"))
        p.text((*at, "footer", "text"), footer.get("text"), "embed.footer.text")
        p.text((*at, "author", "name"), author.get("name"), "embed.author.name")
        texts = [embed.get("title"), embed.get("description"), footer.get("text"), author.get("name")]
        texts += [t for f in _list(fields) for t in (_dict(f).get("name"), _dict(f).get("value"))]
        total += sum(len(t) for t in texts if isinstance(t, str))
    if total > EMBED_TOTAL:
        p.add(path, "MAX_EMBED_SIZE_EXCEEDED", f"Embed size exceeds maximum size of {EMBED_TOTAL}")


@dataclass
class _Walk:
    """State while walking one message's (or modal's) components."""

    p: Problems
    custom_ids: set[str] = field(default_factory=set)
    total: int = 0


def _message_components(p: Problems, components: Any, path: Path, *, v2: bool) -> None:
    walk = _Walk(p)
    p.count(path, components, "message.components_v2" if v2 else "message.components")
    for i, raw in enumerate(_list(components)):
        comp = _dict(raw)
        kind = comp.get("type")
        if v2 and kind in V2_TOP:
            _v2_component(walk, comp, (*path, i))
        elif kind == ROW:
            _row(walk, comp, (*path, i))
        else:
            _wrong_type(p, (*path, i, "type"))
    if v2 and walk.total > COUNTS["message.components_v2"].max:
        p.add(path, "COMPONENT_MAX_TOTAL_COMPONENTS_EXCEEDED",
              f"The specified component exceeds the maximum of {COUNTS['message.components_v2'].max} "
              "total components")


def _wrong_type(p: Problems, path: Path) -> None:
    p.add(path, "COMPONENT_TYPE_INVALID", "The specified component type is invalid in this context")


def _v2_component(walk: _Walk, comp: Json, path: Path) -> None:
    kind = comp.get("type")
    if kind == ROW:
        _row(walk, comp, path)
        return
    walk.total += 1
    if kind == TEXT_DISPLAY:
        walk.p.text((*path, "content"), comp.get("content"), "text_display.content")
    elif kind == CONTAINER:
        for i, raw in enumerate(_list(comp.get("components"))):
            child = _dict(raw)
            if child.get("type") in V2_IN_CONTAINER:
                _v2_component(walk, child, (*path, "components", i))
            else:
                _wrong_type(walk.p, (*path, "components", i, "type"))
    elif kind == SECTION:
        for i, raw in enumerate(_list(comp.get("components"))):
            child = _dict(raw)
            if child.get("type") == TEXT_DISPLAY:
                _v2_component(walk, child, (*path, "components", i))
            else:
                _wrong_type(walk.p, (*path, "components", i, "type"))
        accessory = _dict(comp.get("accessory"))
        if accessory.get("type") == BUTTON:
            walk.total += 1
            _button(walk, accessory, (*path, "accessory"))
        elif accessory.get("type") == THUMBNAIL:
            walk.total += 1
        else:
            _wrong_type(walk.p, (*path, "accessory", "type"))


def _row(walk: _Walk, row: Json, path: Path) -> None:
    walk.total += 1
    children = row.get("components")
    rule = COUNTS["row.components"]
    if not _list(children):
        walk.p.length((*path, "components"), children if children is not None else [], rule, list)
    width = 0
    for j, raw in enumerate(_list(children)):
        comp, at = _dict(raw), (*path, "components", j)
        kind = comp.get("type")
        walk.total += 1
        if kind not in WIDTH:
            _wrong_type(walk.p, (*at, "type"))
            continue
        width += WIDTH[kind]
        if width > COUNTS["row.width"].max:
            walk.p.add(at, "COMPONENT_LAYOUT_WIDTH_EXCEEDED", "The specified component exceeds the maximum width")
        if kind == BUTTON:
            _button(walk, comp, at)
        else:
            _select(walk, comp, at)


def _custom_id(walk: _Walk, value: Any, path: Path) -> None:
    walk.p.text(path, value, "component.custom_id")
    if isinstance(value, str):
        if value in walk.custom_ids:
            walk.p.add(path, "COMPONENT_CUSTOM_ID_DUPLICATED", "Component custom id was already specified")
        walk.custom_ids.add(value)


def _button(walk: _Walk, button: Json, path: Path) -> None:
    p = walk.p
    style = button.get("style")
    if style not in BUTTON_STYLES:
        p.add((*path, "style"), "BASE_TYPE_CHOICES", f"Value must be one of {set(BUTTON_STYLES)}.")
        return
    p.text((*path, "label"), button.get("label"), "button.label")
    custom_id, url = button.get("custom_id"), button.get("url")
    if style == PREMIUM:
        if not button.get("sku_id"):
            p.add((*path, "sku_id"), "BASE_TYPE_REQUIRED", "This field is required")
        for key in ("custom_id", "url", "label", "emoji"):
            if button.get(key) is not None:
                p.add((*path, key), "BUTTON_COMPONENT_PREMIUM_FIELD_INVALID",
                      f"A premium button cannot have a {key}")
        return
    if not button.get("label") and not button.get("emoji"):
        p.add(path, "BUTTON_COMPONENT_LABEL_OR_EMOJI_REQUIRED", "A button must have a label or an emoji")
    if style == LINK:
        if url is None:
            p.add((*path, "url"), "BUTTON_COMPONENT_URL_REQUIRED", "A url is required")
        else:
            p.text((*path, "url"), url, "button.url")
        if custom_id is not None:
            p.add((*path, "custom_id"), "BUTTON_COMPONENT_CUSTOM_ID_INVALID",
                  "A custom id cannot be specified for a link button")
        return
    if custom_id is None:
        p.add((*path, "custom_id"), "BUTTON_COMPONENT_CUSTOM_ID_REQUIRED", "A custom id is required")
    else:
        _custom_id(walk, custom_id, (*path, "custom_id"))
    if url is not None:
        p.add((*path, "url"), "BUTTON_COMPONENT_URL_INVALID", "A url cannot be specified for this button style")


def _select(walk: _Walk, select: Json, path: Path) -> None:
    p = walk.p
    custom_id = select.get("custom_id")
    if custom_id is None:
        p.add((*path, "custom_id"), "BASE_TYPE_REQUIRED", "This field is required")
    else:
        _custom_id(walk, custom_id, (*path, "custom_id"))
    p.text((*path, "placeholder"), select.get("placeholder"), "select.placeholder")
    p.number((*path, "min_values"), select.get("min_values"), "select.min_values")
    p.number((*path, "max_values"), select.get("max_values"), "select.max_values")
    if select.get("type") != STRING_SELECT:
        return
    options = select.get("options")
    p.count((*path, "options"), options, "select.options")
    values: set[str] = set()
    for k, raw in enumerate(_list(options)):
        option, at = _dict(raw), (*path, "options", k)
        for key in ("label", "value", "description"):
            p.text((*at, key), option.get(key), f"select.option.{key}")
        value = option.get("value")
        if isinstance(value, str):
            if value in values:
                p.add(at, "SELECT_COMPONENT_OPTION_VALUE_DUPLICATED", "The specified option value is already used")
            values.add(value)


# interaction callbacks

def check_callback(kind: int, data: Json, files: Iterable[Any], *, interaction_kind: int,
                   source: Json | None) -> None:
    """Raises Rejected for a callback Discord refuses: a type the interaction does not take (50035 at
    ``type``), a message, autocomplete result or modal over the limits (50035 under ``data``), or an
    empty message response (50006). ``source`` is the message the interaction came from, if any."""
    p = Problems()
    allowed = CALLBACK_TYPES.get(interaction_kind, frozenset())
    if source is None:
        allowed = allowed - UPDATES
    if kind not in allowed:
        p.add(("type",), "BASE_TYPE_CHOICES", f"Value must be one of {{{', '.join(map(str, sorted(allowed)))}}}.")
    files = list(files)
    if kind == 4:
        message_problems(p, data, files, base=("data",))
    elif kind == 7:
        message_problems(p, data, files, base=("data",), flags=int((source or {}).get("flags") or 0))
    elif kind == 8:
        _choices(p, data.get("choices"), ("data", "choices"))
    elif kind == 9:
        _modal(p, data, ("data",))
    p.raise_if_any()
    if kind == 4:
        refuse_empty(data, files)
    elif kind == 7 and source is not None:
        refuse_empty_edit(source, data, files)


def _choices(p: Problems, choices: Any, path: Path) -> None:
    p.count(path, choices, "autocomplete.choices")
    for i, raw in enumerate(_list(choices)):
        choice = _dict(raw)
        p.text((*path, i, "name"), choice.get("name"), "choice.name")
        if isinstance(choice.get("value"), str):
            p.text((*path, i, "value"), choice.get("value"), "choice.value")


def _modal(p: Problems, modal: Json, path: Path) -> None:
    walk = _Walk(p)
    p.text((*path, "title"), modal.get("title"), "modal.title")
    p.text((*path, "custom_id"), modal.get("custom_id"), "modal.custom_id")
    components = modal.get("components")
    p.count((*path, "components"), components, "modal.components")
    for i, raw in enumerate(_list(components)):
        comp, at = _dict(raw), (*path, "components", i)
        kind = comp.get("type")
        if kind == ROW:
            children = _list(comp.get("components"))
            if len(children) != 1:
                p.length((*at, "components"), children, Text(1, 1), list)
            for j, child in enumerate(children):
                _modal_field(walk, _dict(child), (*at, "components", j))
        elif kind == LABEL:
            p.text((*at, "label"), comp.get("label"), "label.label")
            p.text((*at, "description"), comp.get("description"), "label.description")
            _modal_field(walk, _dict(comp.get("component")), (*at, "component"))
        elif kind == TEXT_DISPLAY:
            p.text((*at, "content"), comp.get("content"), "text_display.content")
        else:
            _wrong_type(p, (*at, "type"))


def _modal_field(walk: _Walk, comp: Json, path: Path) -> None:
    kind = comp.get("type")
    if kind == TEXT_INPUT:
        _custom_id(walk, comp.get("custom_id"), (*path, "custom_id"))
        if comp.get("custom_id") is None:
            walk.p.add((*path, "custom_id"), "BASE_TYPE_REQUIRED", "This field is required")
        for key in ("label", "placeholder", "value"):
            walk.p.text((*path, key), comp.get(key), f"text_input.{key}")
        for key in ("min_length", "max_length"):
            walk.p.number((*path, key), comp.get(key), f"text_input.{key}")
    elif kind in SELECTS:
        _select(walk, comp, path)
    else:
        _wrong_type(walk.p, (*path, "type"))


# application commands

def check_commands(commands: Any, *, existing: list[Json] | None = None) -> None:
    """Raises Rejected for a bulk overwrite (a list, paths start with its index) over Discord's limits,
    or, with ``existing``, for one command created next to those (over a scope's count: code 30032)."""
    p = Problems()
    if existing is None:
        if not isinstance(commands, list):
            p.add((), "BASE_TYPE_LIST", "Must be an array.")
            p.raise_if_any()
        for i, raw in enumerate(commands):
            _command(p, _dict(raw), (str(i),))
        _scope_counts(p, commands, ())
        _duplicates(p, commands)
        p.raise_if_any()
        return
    command = _dict(commands)
    _command(p, command, ())
    p.raise_if_any()
    kind = int(command.get("type") or 1)
    others = [c for c in existing if int(c.get("type") or 1) == kind and c.get("name") != command.get("name")]
    limit = COUNTS[SCOPE_COUNT.get(kind, "scope.chat_input")].max
    if len(others) + 1 > limit:
        raise Rejected(400, MAX_COMMANDS_REACHED, f"Maximum number of application commands reached ({limit})")


def _scope_counts(p: Problems, commands: list[Any], path: Path) -> None:
    for kind, limit in SCOPE_COUNT.items():
        same = [c for c in commands if int(_dict(c).get("type") or 1) == kind]
        rule = COUNTS[limit]
        if len(same) > rule.max:
            p.add(path, "BASE_TYPE_MAX_LENGTH", f"Must be {rule.max} or fewer in length.")


def _duplicates(p: Problems, commands: list[Any]) -> None:
    seen: set[tuple[int, str]] = set()
    for i, raw in enumerate(commands):
        command = _dict(raw)
        key = (int(command.get("type") or 1), str(command.get("name")))
        if key in seen:
            p.add((str(i), "name"), "APPLICATION_COMMANDS_DUPLICATE_NAME", "Application command names must be unique")
        seen.add(key)


def _name(p: Problems, name: Any, path: Path, limit: str) -> None:
    p.text(path, name, limit)
    rule = TEXTS[limit]
    if not isinstance(name, str) or not rule.min <= len(name) <= rule.max:
        return
    if not COMMAND_NAME.fullmatch(name):
        p.add(path, "STRING_TYPE_REGEX", f"String value did not match validation regex. {COMMAND_NAME.pattern}")
    elif name != name.lower():
        p.add(path, "APPLICATION_COMMAND_INVALID_NAME", "Command name is invalid")


def _command(p: Problems, command: Json, path: Path) -> None:
    kind = int(command.get("type") or 1)
    if kind != 1:  # user and message commands: any case and spaces, no description, no options
        p.text((*path, "name"), command.get("name"), "command.name")
        return
    _name(p, command.get("name"), (*path, "name"), "command.name")
    p.text((*path, "description"), command.get("description"), "command.description")
    _options(p, command.get("options"), (*path, "options"), depth=0)


def _options(p: Problems, options: Any, path: Path, *, depth: int) -> None:
    """Checks an options list; ``depth`` is 0 in a command, 1 in a group, 2 in a subcommand."""
    p.count(path, options, "command.options")
    options = _list(options)
    kinds = [_dict(o).get("type") for o in options]
    subs = [k in (SUB_COMMAND, SUB_COMMAND_GROUP) for k in kinds]
    if any(subs) and not all(subs):
        p.add(path, "APPLICATION_COMMAND_OPTIONS_TYPE_INVALID",
              "Sub-command and sub-command group option types are mutually exclusive to all other types")
    optional_seen = misordered = False
    names: set[str] = set()
    for i, raw in enumerate(options):
        option, at = _dict(raw), (*path, i)
        kind = option.get("type")
        _name(p, option.get("name"), (*at, "name"), "option.name")
        p.text((*at, "description"), option.get("description"), "option.description")
        name = option.get("name")
        if isinstance(name, str):
            if name in names:
                p.add((*at, "name"), "APPLICATION_COMMAND_OPTIONS_NAME_ALREADY_EXISTS",
                      "Option names must be unique")
            names.add(name)
        if kind not in OPTION_TYPES:
            p.add((*at, "type"), "BASE_TYPE_CHOICES", f"Value must be one of {set(OPTION_TYPES)}.")
            continue
        if kind in (SUB_COMMAND, SUB_COMMAND_GROUP):
            nested_ok = (kind == SUB_COMMAND_GROUP and depth == 0) or (kind == SUB_COMMAND and depth < 2)
            if not nested_ok:
                p.add((*at, "type"), "APPLICATION_COMMAND_OPTIONS_TYPE_INVALID",
                      "Sub-command groups can only contain sub-commands, one level deep")
                continue
            _options(p, option.get("options"), (*at, "options"), depth=2 if kind == SUB_COMMAND else 1)
            continue
        if depth == 1:
            p.add((*at, "type"), "APPLICATION_COMMAND_OPTIONS_TYPE_INVALID",
                  "Sub-command groups can only contain sub-commands")
        if option.get("required"):
            if optional_seen and not misordered:
                misordered = True
                p.add(path, "APPLICATION_COMMAND_OPTIONS_REQUIRED_INVALID",
                      "Required options must be placed before non-required options")
        else:
            optional_seen = True
        choices = option.get("choices")
        if choices is not None:
            if kind not in CHOICE_TYPES and choices:
                p.add((*at, "choices"), "APPLICATION_COMMAND_OPTION_CHOICES_INVALID",
                      "Choices are only allowed on string, integer and number options")
            p.count((*at, "choices"), choices, "option.choices")
            for j, raw_choice in enumerate(_list(choices)):
                choice = _dict(raw_choice)
                p.text((*at, "choices", j, "name"), choice.get("name"), "choice.name")
                if isinstance(choice.get("value"), str):
                    p.text((*at, "choices", j, "value"), choice.get("value"), "choice.value")
