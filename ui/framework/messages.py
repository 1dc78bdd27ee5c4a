"""The app's own error messages: the limits of a link and of the editable table, a lesson step
and a swap typed in a link.

Registered with the core when this module is imported (:func:`ndcg_core.validate.register_messages`),
so :class:`ndcg_core.NDCGInputError` renders them like the core's own. The package ``ui``
imports nothing when it is imported, so the app raises its keys through :func:`error` and
:func:`fail` here: whatever raises one has imported, and so registered, them.
"""

from __future__ import annotations

from typing import Any, NoReturn

from ndcg_core.validate import NDCGInputError, register_messages

#: English template of each error key this layer raises (Chinese: ``locales/zh/errors.toml``).
MESSAGES: dict[str, str] = {
    "link_too_many": (
        "The link has {got} different parameters. At most {limit} are accepted, so the link was not used."
    ),
    "link_name_too_long": (
        "A parameter name in the link has {got} characters. At most {limit} are accepted, "
        "so that parameter was not used."
    ),
    "link_value_too_long": (
        "The link's parameter {param!r} has a value of {got} characters. At most {limit} are "
        "accepted, so that parameter was not used."
    ),
    "link_repeated": (
        "The link's parameter {param!r} appears {got} times. It may appear at most {limit} "
        "time(s), so that parameter was not used."
    ),
    "number_too_long": (
        "Item {position} of the {what} has {got} characters. A number may have at most {limit}."
    ),
    "table_edit_invalid": "This change to the table could not be applied, so the table was reset.",
    "step_invalid": "The lesson step must be a whole number from 1 to {n}. Got {got} instead.",
    "swap_invalid": (
        "The swap must be two positions from 1 to {n}, written like 1,4. Got {got} instead, "
        "so the swap of positions 1 and 2 is shown."
    ),
}

#: English text of this layer's ``what=`` / ``rule=`` fragments (Chinese: ``locales/zh/terms.toml``).
TERMS: dict[str, str] = {
    "missed_grades": "grades of the judged items not returned (`missed`)",
}

register_messages("app", MESSAGES, TERMS)


def error(key: str, **params: Any) -> NDCGInputError:
    """The error of the app's message ``key`` (a key of :data:`MESSAGES`) with ``params``.

    >>> error("step_invalid", n=6, got="'0'").key
    'step_invalid'
    """
    if key not in MESSAGES:
        raise KeyError(f"{key!r} is not one of the app's message keys (ui.framework.messages)")
    return NDCGInputError(key, **params)


def fail(key: str, **params: Any) -> NoReturn:
    """Raise :func:`error` ``(key, **params)``."""
    raise error(key, **params)
