"""Discord's limits on a message body, checked the way the API does (400, code 50035).

The error tree mirrors Discord's: {"components": {"0": {"components": {"5": {"_errors": [...]}}}}},
which discord.py flattens into "In components.0.components.5: ..." in the exception text.
"""

from __future__ import annotations

from typing import Any

IS_COMPONENTS_V2 = 1 << 15

ACTION_ROW, BUTTON, STRING_SELECT, TEXT_INPUT = 1, 2, 3, 4
AUTO_SELECTS = (5, 6, 7, 8)  # user, role, mentionable, channel selects
SECTION, TEXT_DISPLAY, THUMBNAIL, MEDIA_GALLERY, FILE, SEPARATOR, CONTAINER = (
    9,
    10,
    11,
    12,
    13,
    14,
    17,
)
V2_TOP_LEVEL = (ACTION_ROW, SECTION, TEXT_DISPLAY, MEDIA_GALLERY, FILE, SEPARATOR, CONTAINER)


class FormErrors:
    """Collects errors under their JSON paths."""

    def __init__(self) -> None:
        self.tree: dict[str, Any] = {}
        self.messages: list[str] = []

    def add(self, path: tuple[str | int, ...], code: str, message: str) -> None:
        node = self.tree
        for part in path:
            node = node.setdefault(str(part), {})
        node.setdefault("_errors", []).append({"code": code, "message": message})
        self.messages.append(f"{'.'.join(map(str, path))}: {message}")

    def __bool__(self) -> bool:
        return bool(self.tree)

    def body(self) -> dict[str, Any]:
        return {"code": 50035, "message": "Invalid Form Body", "errors": self.tree}


def _max_len(errors: FormErrors, path: tuple[str | int, ...], value: Any, limit: int) -> None:
    if isinstance(value, str) and len(value) > limit:
        errors.add(path, "BASE_TYPE_MAX_LENGTH", f"Must be {limit} or fewer in length.")


def check_message(body: dict[str, Any], *, require_content: bool = True) -> FormErrors:
    """Check content, embeds and components of a message create/edit body."""
    errors = FormErrors()
    content = body.get("content")
    _max_len(errors, ("content",), content, 2000)
    embeds = body.get("embeds") or []
    if len(embeds) > 10:
        errors.add(("embeds",), "BASE_TYPE_MAX_LENGTH", "Must be 10 or fewer in length.")
    total = 0
    for i, embed in enumerate(embeds):
        total += _check_embed(errors, ("embeds", i), embed)
    if total > 6000:
        errors.add(
            ("embeds",), "MAX_EMBED_SIZE_EXCEEDED", "Embed size exceeds maximum size of 6000"
        )
    flags = int(body.get("flags") or 0)
    components = body.get("components") or []
    if flags & IS_COMPONENTS_V2:
        _check_v2(errors, components)
        if content or embeds:
            errors.add(
                ("content",),
                "MESSAGE_CANNOT_USE_LEGACY_FIELDS_WITH_COMPONENTS_V2",
                "The 'content' and 'embeds' fields cannot be used with components v2",
            )
    else:
        _check_v1(errors, components)
    _check_unique_ids(errors, components)
    return errors


def _check_embed(errors: FormErrors, path: tuple[str | int, ...], embed: dict[str, Any]) -> int:
    size = 0
    for key, limit in (("title", 256), ("description", 4096)):
        value = embed.get(key)
        _max_len(errors, (*path, key), value, limit)
        size += len(value or "")
    fields = embed.get("fields") or []
    if len(fields) > 25:
        errors.add((*path, "fields"), "BASE_TYPE_MAX_LENGTH", "Must be 25 or fewer in length.")
    for j, fld in enumerate(fields):
        _max_len(errors, (*path, "fields", j, "name"), fld.get("name"), 256)
        _max_len(errors, (*path, "fields", j, "value"), fld.get("value"), 1024)
        size += len(fld.get("name") or "") + len(fld.get("value") or "")
    footer = embed.get("footer") or {}
    _max_len(errors, (*path, "footer", "text"), footer.get("text"), 2048)
    author = embed.get("author") or {}
    _max_len(errors, (*path, "author", "name"), author.get("name"), 256)
    size += len(footer.get("text") or "") + len(author.get("name") or "")
    return size


def _check_v1(errors: FormErrors, rows: list[dict[str, Any]]) -> None:
    if len(rows) > 5:
        errors.add(("components",), "BASE_TYPE_MAX_LENGTH", "Must be 5 or fewer in length.")
    for i, row in enumerate(rows):
        path: tuple[str | int, ...] = ("components", i)
        if row.get("type") != ACTION_ROW:
            errors.add(
                (*path, "type"),
                "COMPONENT_LAYOUT_INVALID",
                "Top-level components must be action rows without the components v2 flag",
            )
            continue
        _check_row(errors, path, row)


def _check_row(errors: FormErrors, path: tuple[str | int, ...], row: dict[str, Any]) -> None:
    children = row.get("components") or []
    if not children:
        errors.add((*path, "components"), "BASE_TYPE_MIN_LENGTH", "Must be 1 or more in length.")
    if len(children) > 5:
        errors.add((*path, "components"), "BASE_TYPE_MAX_LENGTH", "Must be 5 or fewer in length.")
    kinds = {c.get("type") for c in children}
    selects = kinds & {STRING_SELECT, *AUTO_SELECTS}
    if selects and len(children) > 1:
        errors.add(
            (*path, "components"),
            "COMPONENT_LAYOUT_WIDTH_EXCEEDED",
            "The specified component exceeds the maximum width",
        )
    for j, child in enumerate(children):
        _check_interactive(errors, (*path, "components", j), child)


def _check_interactive(
    errors: FormErrors, path: tuple[str | int, ...], comp: dict[str, Any]
) -> None:
    kind = comp.get("type")
    if kind == BUTTON:
        style = comp.get("style")
        if style not in (1, 2, 3, 4, 5, 6):
            errors.add(
                (*path, "style"), "BASE_TYPE_CHOICES", f"Value must be one of (1..6), got {style}"
            )
        if style == 5:
            if not comp.get("url"):
                errors.add((*path, "url"), "BASE_TYPE_REQUIRED", "This field is required")
            if comp.get("custom_id"):
                errors.add(
                    (*path, "custom_id"),
                    "BUTTON_COMPONENT_URL_CUSTOM_ID",
                    "A link button cannot have a custom id",
                )
        elif style in (1, 2, 3, 4):
            _check_custom_id(errors, path, comp)
        if not comp.get("label") and not comp.get("emoji"):
            errors.add(
                path,
                "BUTTON_COMPONENT_LABEL_OR_EMOJI_REQUIRED",
                "A button needs a label or an emoji",
            )
        _max_len(errors, (*path, "label"), comp.get("label"), 80)
    elif kind == STRING_SELECT or kind in AUTO_SELECTS:
        _check_custom_id(errors, path, comp)
        _max_len(errors, (*path, "placeholder"), comp.get("placeholder"), 150)
        min_v, max_v = comp.get("min_values", 1), comp.get("max_values", 1)
        if not 0 <= min_v <= 25:
            errors.add(
                (*path, "min_values"), "NUMBER_TYPE_MAX", "int value should be between 0 and 25"
            )
        if not 1 <= max_v <= 25:
            errors.add(
                (*path, "max_values"), "NUMBER_TYPE_MAX", "int value should be between 1 and 25"
            )
        if kind == STRING_SELECT:
            options = comp.get("options") or []
            if not 1 <= len(options) <= 25:
                errors.add(
                    (*path, "options"),
                    "BASE_TYPE_BAD_LENGTH",
                    "Must be between 1 and 25 in length.",
                )
            if max_v > len(options):
                errors.add(
                    (*path, "max_values"),
                    "SELECT_COMPONENT_MAX_VALUES_EXCEEDED",
                    "max_values exceeds the number of options",
                )
            values = [o.get("value") for o in options]
            if len(set(values)) != len(values):
                errors.add(
                    (*path, "options"),
                    "SELECT_COMPONENT_OPTION_VALUE_DUPLICATED",
                    "Select option values must be unique",
                )
            for k, option in enumerate(options):
                for key in ("label", "value", "description"):
                    _max_len(errors, (*path, "options", k, key), option.get(key), 100)
                if not option.get("label") or not option.get("value"):
                    errors.add(
                        (*path, "options", k), "BASE_TYPE_REQUIRED", "label and value are required"
                    )
    elif kind == TEXT_INPUT:
        _check_custom_id(errors, path, comp)
    else:
        errors.add(
            (*path, "type"), "COMPONENT_TYPE_INVALID", f"Component type {kind} not allowed here"
        )


def _check_custom_id(errors: FormErrors, path: tuple[str | int, ...], comp: dict[str, Any]) -> None:
    custom_id = comp.get("custom_id")
    if not custom_id:
        errors.add((*path, "custom_id"), "BASE_TYPE_REQUIRED", "This field is required")
    else:
        _max_len(errors, (*path, "custom_id"), custom_id, 100)


def _check_v2(errors: FormErrors, components: list[dict[str, Any]]) -> None:
    count = 0

    def walk(items: list[dict[str, Any]], path: tuple[str | int, ...]) -> None:
        nonlocal count
        for i, comp in enumerate(items):
            count += 1
            here = (*path, i)
            kind = comp.get("type")
            if kind == ACTION_ROW:
                _check_row(errors, here, comp)
                count += len(comp.get("components") or [])
            elif kind in (SECTION, CONTAINER):
                walk(comp.get("components") or [], (*here, "components"))
                accessory = comp.get("accessory")
                if accessory is not None:
                    count += 1
                    if accessory.get("type") == BUTTON:
                        _check_interactive(errors, (*here, "accessory"), accessory)
            elif kind == TEXT_DISPLAY:
                _max_len(errors, (*here, "content"), comp.get("content"), 4000)

    for i, comp in enumerate(components):
        if comp.get("type") not in V2_TOP_LEVEL:
            errors.add(
                ("components", i, "type"), "COMPONENT_TYPE_INVALID", "Not allowed at top level"
            )
    walk(components, ("components",))
    if count > 40:
        errors.add(
            ("components",),
            "COMPONENT_MAX_TOTAL_COMPONENTS_EXCEEDED",
            "The total number of components exceeds the maximum of 40",
        )


def _check_unique_ids(errors: FormErrors, components: list[dict[str, Any]]) -> None:
    seen: set[str] = set()

    def walk(items: list[dict[str, Any]]) -> None:
        for comp in items:
            custom_id = comp.get("custom_id")
            if custom_id is not None:
                if custom_id in seen:
                    errors.add(
                        ("components",),
                        "COMPONENT_CUSTOM_ID_DUPLICATED",
                        f"Component custom id cannot be duplicated: {custom_id}",
                    )
                seen.add(custom_id)
            walk(comp.get("components") or [])
            if isinstance(comp.get("accessory"), dict):
                walk([comp["accessory"]])

    walk(components)


def check_modal(data: dict[str, Any]) -> FormErrors:
    errors = FormErrors()
    _max_len(errors, ("data", "title"), data.get("title"), 45)
    if not data.get("custom_id"):
        errors.add(("data", "custom_id"), "BASE_TYPE_REQUIRED", "This field is required")
    rows = data.get("components") or []
    if not 1 <= len(rows) <= 5:
        errors.add(
            ("data", "components"), "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 5 in length."
        )
    return errors
