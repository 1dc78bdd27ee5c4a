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
    "live_locked": "The class {code!r} is not taking new students: the teacher has locked joining.",
    "live_removed": "The teacher has removed this student from the class {code!r}.",
    "live_address_full": (
        "{limit} students have already joined the class {code!r} from this network address, "
        "the most one address may add. Ask your teacher."
    ),
    "live_hidden": "The answers are shown after the reveal.",
    "live_unavailable": (
        "The class's database is not answering (it may be restarting): nothing was saved or changed. "
        "This page connects again by itself; then try once more."
    ),
    "live_not_saved": (
        "Your answer was not saved: the class's database did not answer. It is still in the box: "
        "press Send again in a moment."
    ),
    "live_answer_too_long": "Your answer has {got} characters, more than the {limit} allowed.",
    "live_answer_too_many": "Your answer has {got} items, more than the {limit} a question has.",
    "live_bad_students": (
        "Students {first} to {last}: give two whole numbers from 1 up, the first not after the last."
    ),
    "live_text_too_long": "The question's own text has {got} characters, more than the {limit} allowed.",
    "live_text_control": (
        "The question's own text contains a control character ({char}). Write it on one line: "
        "no new lines, tabs or other invisible characters."
    ),
    "live_bad_time_limit": "A time limit is a number of seconds from {low} to {high}; got {got}.",
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
