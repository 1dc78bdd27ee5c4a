"""ndcg_core: exact, explained and fast nDCG (normalized discounted cumulative gain).

Contents
--------
Ranked lists (grades in rank order, position 1 first)
    cg, dcg, idcg, ndcg, metrics, ideal_relevance, step_table
Gains and discounts
    GAINS ("linear", "exponential"), DISCOUNTS ("log2", "jarvelin"), discounts
Input
    parse_relevance, parse_labels, NDCGInputError (the one exception class)

Every function validates its input and raises :class:`NDCGInputError` (a ``ValueError``)
with a message that says what was wrong, the rule, and what was received.
"""

from .discounts import DISCOUNTS, discounts, log_terms
from .gains import GAINS, apply_gain
from .metrics import Metrics, cg, dcg, ideal_relevance, idcg, metrics, ndcg
from .validate import MESSAGES, NDCGInputError, parse_labels, parse_numbers, parse_relevance

__all__ = sorted([
    "DISCOUNTS",
    "GAINS",
    "MESSAGES",
    "Metrics",
    "NDCGInputError",
    "apply_gain",
    "cg",
    "dcg",
    "discounts",
    "ideal_relevance",
    "idcg",
    "log_terms",
    "metrics",
    "ndcg",
    "parse_labels",
    "parse_numbers",
    "parse_relevance",
])
