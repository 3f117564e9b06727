"""Discord's documented limits, checked the way the real API rejects them:
400 with code 50035 "Invalid Form Body" and an ``errors`` tree."""

from __future__ import annotations

import re
from typing import Any, Optional


class ApiError(Exception):
    """Raised inside request handlers; turned into Discord's JSON error body."""

    def __init__(self, status: int, code: int, message: str, errors: Optional[dict] = None):
        super().__init__(f"{status} {code} {message}")
        self.status = status
        self.code = code
        self.message = message
        self.errors = errors

    def body(self) -> dict:
        d: dict[str, Any] = {"message": self.message, "code": self.code}
        if self.errors:
            d["errors"] = self.errors
        return d


# Common errors (status, code, message)
UNAUTHORIZED = (401, 0, "401: Unauthorized")
UNKNOWN_CHANNEL = (404, 10003, "Unknown Channel")
UNKNOWN_GUILD = (404, 10004, "Unknown Guild")
UNKNOWN_MEMBER = (404, 10007, "Unknown Member")
UNKNOWN_MESSAGE = (404, 10008, "Unknown Message")
UNKNOWN_USER = (404, 10013, "Unknown User")
UNKNOWN_WEBHOOK = (404, 10015, "Unknown Webhook")
UNKNOWN_INTERACTION = (404, 10062, "Unknown interaction")
UNKNOWN_COMMAND = (404, 10063, "Unknown application command")
MAX_PINS = (400, 30003, "Maximum number of pins reached (250)")
TOO_LARGE = (413, 40005, "Request entity too large")
ALREADY_ACKED = (400, 40060, "Interaction has already been acknowledged.")
MISSING_ACCESS = (403, 50001, "Missing Access")
EDIT_OTHERS = (403, 50005, "Cannot edit a message authored by another user")
EMPTY_MESSAGE = (400, 50006, "Cannot send an empty message")
CANNOT_DM = (403, 50007, "Cannot send messages to this user")
MISSING_PERMISSIONS = (403, 50013, "Missing Permissions")
CANNOT_EXECUTE_ON_DM = (403, 50003, "Cannot execute action on a DM channel")
INVALID_CHANNEL_TYPE = (400, 50024, "Cannot execute action on this channel type")
THREAD_ARCHIVED = (400, 50083, "Operation cannot be performed on an archived thread")
THREAD_LOCKED = (403, 160005, "Thread is locked")


def err(spec: tuple[int, int, str]) -> ApiError:
    return ApiError(*spec)


def form_error(path: list, code: str, message: str) -> ApiError:
    """50035 with Discord's nested ``errors`` layout for one field."""
    tree: dict = {"_errors": [{"code": code, "message": message}]}
    for key in reversed(path):
        tree = {str(key): tree}
    return ApiError(400, 50035, "Invalid Form Body", tree)


# --------------------------------------------------------------------------
# Messages
# --------------------------------------------------------------------------

MAX_CONTENT = 2000
MAX_EMBEDS = 10
MAX_EMBED_TOTAL = 6000


def _len_check(path: list, value: Optional[str], limit: int) -> None:
    if value is not None and len(value) > limit:
        raise form_error(path, "BASE_TYPE_MAX_LENGTH", f"Must be {limit} or fewer in length.")


def validate_embeds(embeds: list[dict]) -> None:
    if len(embeds) > MAX_EMBEDS:
        raise form_error(["embeds"], "BASE_TYPE_MAX_LENGTH", f"Must be {MAX_EMBEDS} or fewer in length.")
    total = 0
    for i, e in enumerate(embeds):
        _len_check(["embeds", i, "title"], e.get("title"), 256)
        _len_check(["embeds", i, "description"], e.get("description"), 4096)
        _len_check(["embeds", i, "footer", "text"], (e.get("footer") or {}).get("text"), 2048)
        _len_check(["embeds", i, "author", "name"], (e.get("author") or {}).get("name"), 256)
        fields = e.get("fields") or []
        if len(fields) > 25:
            raise form_error(["embeds", i, "fields"], "BASE_TYPE_MAX_LENGTH", "Must be 25 or fewer in length.")
        for j, f in enumerate(fields):
            for key, limit in (("name", 256), ("value", 1024)):
                v = f.get(key)
                if v is None or v == "":
                    raise form_error(["embeds", i, "fields", j, key], "BASE_TYPE_REQUIRED", "This field is required")
                _len_check(["embeds", i, "fields", j, key], v, limit)
            total += len(f["name"]) + len(f["value"])
        for part in (e.get("title"), e.get("description"), (e.get("footer") or {}).get("text"), (e.get("author") or {}).get("name")):
            total += len(part or "")
    if total > MAX_EMBED_TOTAL:
        raise form_error(["embeds"], "MAX_EMBED_SIZE_EXCEEDED", "Embed size exceeds maximum size of 6000")


_INTERACTIVE = {2, 3, 5, 6, 7, 8}


def validate_components(components: list[dict], *, v2: bool) -> None:
    seen: set[str] = set()

    def check_interactive(path: list, c: dict) -> None:
        t = c.get("type")
        if t == 2:
            style = c.get("style")
            if style == 5:
                if not c.get("url"):
                    raise form_error(path + ["url"], "BASE_TYPE_REQUIRED", "This field is required")
            elif style == 6:
                if not c.get("sku_id"):
                    raise form_error(path + ["sku_id"], "BASE_TYPE_REQUIRED", "This field is required")
            elif not c.get("custom_id"):
                raise form_error(path + ["custom_id"], "BASE_TYPE_REQUIRED", "This field is required")
            _len_check(path + ["label"], c.get("label"), 80)
            if not c.get("label") and not c.get("emoji"):
                raise form_error(path, "BUTTON_COMPONENT_NO_LABEL_OR_EMOJI", "A button must have a label or an emoji")
        elif t in (3, 5, 6, 7, 8):
            if not c.get("custom_id"):
                raise form_error(path + ["custom_id"], "BASE_TYPE_REQUIRED", "This field is required")
            _len_check(path + ["placeholder"], c.get("placeholder"), 150)
            if t == 3:
                opts = c.get("options") or []
                if not 1 <= len(opts) <= 25:
                    raise form_error(path + ["options"], "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 25 in length.")
                values = [o.get("value") for o in opts]
                if len(set(values)) != len(values):
                    raise form_error(path + ["options"], "SELECT_COMPONENT_OPTION_VALUE_DUPLICATED", "Select option values must be unique")
                for k, o in enumerate(opts):
                    _len_check(path + ["options", k, "label"], o.get("label"), 100)
                    _len_check(path + ["options", k, "value"], o.get("value"), 100)
                    _len_check(path + ["options", k, "description"], o.get("description"), 100)
        cid = c.get("custom_id")
        if cid is not None:
            _len_check(path + ["custom_id"], cid, 100)
            if cid in seen:
                raise form_error(path + ["custom_id"], "COMPONENT_CUSTOM_ID_DUPLICATED", "Component custom id cannot be duplicated")
            seen.add(cid)

    if not v2:
        if len(components) > 5:
            raise form_error(["components"], "BASE_TYPE_MAX_LENGTH", "Must be 5 or fewer in length.")
        for i, row in enumerate(components):
            if row.get("type") != 1:
                raise form_error(["components", i], "UNION_TYPE_CHOICES", "Value of field \"type\" must be one of (1,).")
            children = row.get("components") or []
            if not children:
                raise form_error(["components", i, "components"], "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 5 in length.")
            if any(ch.get("type") in (3, 5, 6, 7, 8) for ch in children) and len(children) > 1:
                raise form_error(["components", i, "components"], "COMPONENT_LAYOUT_WIDTH_EXCEEDED", "The specified component exceeds the maximum width")
            if len(children) > 5:
                raise form_error(["components", i, "components"], "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 5 in length.")
            for j, ch in enumerate(children):
                check_interactive(["components", i, "components", j], ch)
    else:
        def walk(path: list, comps: list[dict]) -> None:
            for i, c in enumerate(comps):
                p = path + [i]
                if c.get("type") in _INTERACTIVE:
                    check_interactive(p, c)
                if c.get("components"):
                    walk(p + ["components"], c["components"])
                if isinstance(c.get("accessory"), dict) and c["accessory"].get("type") in _INTERACTIVE:
                    check_interactive(p + ["accessory"], c["accessory"])

        walk(["components"], components)


def validate_message_fields(payload: dict, *, v2: bool) -> None:
    content = payload.get("content")
    if content is not None and not isinstance(content, str):
        raise form_error(["content"], "BASE_TYPE_STRING", "Must be a string.")
    if v2 and (content or payload.get("embeds")):
        raise form_error(["content"], "MESSAGE_CANNOT_USE_LEGACY_FIELDS_WITH_COMPONENTS_V2",
                         "The 'content' and 'embeds' fields cannot be used when using MessageFlags.IS_COMPONENTS_V2")
    _len_check(["content"], content, MAX_CONTENT)
    if payload.get("embeds"):
        validate_embeds(payload["embeds"])
    if payload.get("components"):
        validate_components(payload["components"], v2=v2)


# --------------------------------------------------------------------------
# Application commands
# --------------------------------------------------------------------------

_NAME_RE = re.compile(r"^[-_'\w]{1,32}$", re.UNICODE)


def validate_command(cmd: dict, path: list) -> None:
    ctype = cmd.get("type", 1)
    name = cmd.get("name")
    if not isinstance(name, str) or not name:
        raise form_error(path + ["name"], "BASE_TYPE_REQUIRED", "This field is required")
    if ctype == 1:
        if not _NAME_RE.match(name) or name != name.lower():
            raise form_error(path + ["name"], "APPLICATION_COMMAND_INVALID_NAME", f"Command name is invalid: {name!r}")
        desc = cmd.get("description")
        if not desc or len(desc) > 100:
            raise form_error(path + ["description"], "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 100 in length.")
        validate_options(cmd.get("options") or [], path + ["options"], depth=0)
    else:
        if len(name) > 32:
            raise form_error(path + ["name"], "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 32 in length.")


def validate_options(options: list[dict], path: list, depth: int) -> None:
    if len(options) > 25:
        raise form_error(path, "BASE_TYPE_MAX_LENGTH", "Must be 25 or fewer in length.")
    names = [o.get("name") for o in options]
    if len(set(names)) != len(names):
        raise form_error(path, "APPLICATION_COMMAND_OPTIONS_NAME_ALREADY_EXISTS", "Option names must be unique")
    seen_optional = False
    for i, o in enumerate(options):
        p = path + [i]
        t = o.get("type")
        name = o.get("name") or ""
        if not _NAME_RE.match(name) or name != name.lower():
            raise form_error(p + ["name"], "APPLICATION_COMMAND_INVALID_NAME", f"Command name is invalid: {name!r}")
        desc = o.get("description")
        if not desc or len(desc) > 100:
            raise form_error(p + ["description"], "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 100 in length.")
        if t in (1, 2):
            if (t == 2 and depth > 0) or (t == 1 and depth > 1):
                raise form_error(p, "APPLICATION_COMMAND_SUBCOMMAND_NESTED_TOO_DEEP", "Sub-command groups cannot be nested this deep")
            validate_options(o.get("options") or [], p + ["options"], depth + 1)
            continue
        if o.get("required"):
            if seen_optional:
                raise form_error(p, "APPLICATION_COMMAND_OPTIONS_REQUIRED_INVALID", "Required options must be placed before non-required options")
        else:
            seen_optional = True
        choices = o.get("choices") or []
        if len(choices) > 25:
            raise form_error(p + ["choices"], "BASE_TYPE_MAX_LENGTH", "Must be 25 or fewer in length.")
        if choices and o.get("autocomplete"):
            raise form_error(p + ["autocomplete"], "APPLICATION_COMMAND_AUTOCOMPLETE_REQUIRES_NO_CHOICES", "Autocomplete cannot be set with choices")
