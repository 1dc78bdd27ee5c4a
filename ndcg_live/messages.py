"""The live class's error messages: codes, keys, the question's state, flooding, limits.

Registered with the core when ``ndcg_live`` is imported (:func:`ndcg_core.validate.register_messages`),
so :class:`ndcg_core.NDCGInputError` renders them like the core's own.
"""

from __future__ import annotations

from ndcg_core.validate import register_messages

#: English template of each error key this layer raises (Chinese: ``locales/zh/errors.toml``).
MESSAGES: dict[str, str] = {
    "live_no_class": "There is no class with the code {code!r}, or it has expired. Check the code.",
    "live_ended": "The class {code!r} has ended.",
    "live_wrong_key": "This teacher key does not control the class {code!r}.",
    "live_not_open": "This question is not open for answers yet.",
    "live_closed": "This question is closed: answers are no longer accepted.",
    "live_no_question": "The class has no question {question}.",
    "live_rate_limited": "Too many requests in a short time. Wait a few seconds and try again.",
    "live_full": "The class {code!r} has reached its limit of {limit} {what}.",
    "live_no_student": "This student link is not part of the class {code!r}. Join it again.",
    "live_unknown_prompt": (
        "This app has no question {prompt!r} to ask (it may come from another version of the app). "
        "Add another question."
    ),
}

#: English text of this layer's ``what=`` / ``rule=`` fragments (Chinese: ``locales/zh/terms.toml``).
TERMS: dict[str, str] = {
    "students": "students",
    "questions": "questions",
}

register_messages("live", MESSAGES, TERMS)
