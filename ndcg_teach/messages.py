"""The teaching layer's error messages: a practice link's seed and exercise number, an order
given as an answer, and the options of a sample run.

Registered with the core when ``ndcg_teach`` is imported (:func:`ndcg_core.validate.register_messages`),
so :class:`ndcg_core.NDCGInputError` renders them like the core's own; a key here is raised by
this package (a key the core raises too stays in the core).
"""

from __future__ import annotations

from ndcg_core.validate import register_messages

#: English template of each error key this layer raises (Chinese: ``locales/zh/errors.toml``).
MESSAGES: dict[str, str] = {
    "bad_link": "The link's parameter {param!r} is {got!r}, which is not valid: {rule}",
    "not_permutation": (
        "The order must hold each of the {n} items exactly once. Got {got} items, {missing} "
        "missing and {extra} unknown or repeated."
    ),
}

#: English text of this layer's ``what=`` / ``rule=`` fragments (Chinese: ``locales/zh/terms.toml``).
TERMS: dict[str, str] = {
    "min_items": "smallest list (min_items)",
    "max_items": "largest list (max_items)",
    "tie_fraction": "share of queries with ties (tie_fraction)",
    "no_relevant_fraction": "share of queries with nothing relevant (no_relevant_fraction)",
    "exercise_count": "number of exercises",
    "rule_at_least_min_items": "at least min_items ({min_items})",
    "rule_share": "a share between 0 and 1",
    "rule_seed": "a whole number from 0 to {limit}",
    "rule_exercise": "a whole number from 1 to {n}",
}

register_messages("teach", MESSAGES, TERMS)
