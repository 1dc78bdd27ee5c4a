"""ndcg_core: exact, explained and fast nDCG (normalized discounted cumulative gain).

Contents
--------
Ranked lists (grades in rank order, position 1 first; ranked.py)
    cg, dcg, idcg, ndcg, metrics, ideal_relevance, step_table
Explained (steps.py, latex.py)
    step_table, ndcg_at_each_k, swap_matrix, slide_down, permutation_distribution,
    order_bounds (worst / mean / best over all orders), base_comparison (log bases),
    mismatched_cutoffs (DCG@k / IDCG@k' with k != k', a trap),
    describe_change; formula, formulas, general_formula, STEPS (the LaTeX pages show)
From scores: tie groups and tie treatments (ties.py)
    rank_by_score, tie_groups, dcg_from_scores, ndcg_from_scores, tie_view, round_scores,
    ScoreRanking, TieView, TIES ("average", "optimistic", "pessimistic", "input", "trec_eval",
    "ignore": scikit-learn's own ignore_ties order, arbitrary and machine-dependent),
    ranx_order (ranx's own order of ties: Numba's quicksort)
scikit-learn compatible, 2-D arrays with one row per query (sklearn_compat.py)
    dcg_score, ndcg_score (same values to 1e-12 and the same error messages)
Binary relevance, as trec_eval defines it (binary.py: grade >= 1 is relevant)
    precision_at_k (P_k), average_precision (map_cut_k), reciprocal_rank (recip_rank),
    RELEVANT_FROM
Gains and discounts (gains.py, discounting.py)
    GAINS ("linear", "exponential"), DISCOUNTS ("log2", "jarvelin"), discounts
Runs in long format (one row per (query, item); batch.py, spark.py)
    evaluate, evaluate_run, summarize, ndcg_bands, mean_ndcg_at_ks, read_run, RunResult,
    RunSummary, BATCH_TIES ("average", "optimistic", "pessimistic", "input", "trec_eval"),
    ID_COLUMNS, id_text; ndcg_core.spark.evaluate (optional PySpark); python -m ndcg_core FILE
Comparing runs with significance (significance.py)
    compare_runs, Comparison (per-run means, mean difference with a bootstrap interval,
    paired t-test through SciPy, paired randomization test, wins/ties/losses, Holm), holm
IR evaluation: qrels apart from runs, TREC files, judged pools (trec.py)
    evaluate_trec (trec_eval's conventions by default: ndcg_cut, -c; several cutoffs at once),
    read_qrels, read_trec_run (TREC text, CSV or Parquet, gzip or not), TrecResult, run_name;
    python -m ndcg_core --qrels QRELS RUN [RUN ...]
Export (export.py)
    csv_safe, to_csv_bytes, write_table (CSV escaped against formula injection; Parquet, JSON)
Options of an evaluation, each named once (options.py)
    Options (a frozen, checked choice of each), BATCH_TIES, IDEALS ("pool", "list"),
    UNJUDGED ("zero", "drop"), MISSING ("zero", "drop"), NO_RELEVANT, GRADES ("any",
    "truncate"), DESCRIPTIONS, parse_cutoffs ("5,10,20", "none"), measure_columns ("ndcg@10",
    or "ndcg" without a cutoff)
Unjudged items (NaN grades, typed "?")
    unjudged="zero" | "drop" on cg, dcg, idcg, ndcg, metrics, step_table; judged_at_k; UNJUDGED
Judging (judging.py: the one rule for each; pages, practice and the live class use them)
    compare_values (computed value vs computed value: "higher", "lower", "same"), judge_number
    (a typed number: within a tolerance or rounded to n decimals), answer_tolerance, Verdict,
    SAME_TOLERANCE, ANSWER_TOLERANCE
Histograms of answers (binning.py: the live class's room)
    answer_bins (bars with counts, right / wrong / unknown; every answer in one bar), Bar,
    AnswerBins
Input
    parse_relevance, parse_labels, NDCGInputError (the one exception class; validate.py also
    holds the core's messages, MESSAGES, and register_messages for the layers above)

Teaching content is not here: the predict-first prompts, practice exercises, sample runs and
what well-known tools compute are in the package ``ndcg_teach``, which imports this one.

Every function validates its input and raises :class:`NDCGInputError` (a ``ValueError``)
with a message that says what was wrong, the rule, and what was received.
"""

# Importing the package loads none of its modules: each public name is imported from its
# module on first use (PEP 562), so `nc.ndcg([3, 2, 1])` loads NumPy only and a command that
# never builds a DataFrame never pays for pandas or pyarrow. Type checkers read the imports
# below; `_MODULES` is the same table for the interpreter (tests/core/test_imports.py keeps
# the two in step and checks that every name resolves).
from __future__ import annotations

import importlib
import os
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .batch import (
        ID_COLUMNS,
        RunResult,
        RunSummary,
        evaluate,
        evaluate_run,
        id_text,
        mean_ndcg_at_ks,
        ndcg_bands,
        read_run,
        summarize,
    )
    from .binary import (
        RELEVANT_FROM,
        average_precision,
        precision_at_k,
        reciprocal_rank,
    )
    from .binning import (
        AnswerBins,
        Bar,
        answer_bins,
    )
    from .discounting import (
        DISCOUNTS,
        discounts,
        log_terms,
    )
    from .export import (
        csv_safe,
        to_csv_bytes,
        write_table,
    )
    from .gains import (
        GAINS,
        apply_gain,
    )
    from .judging import (
        ANSWER_TOLERANCE,
        SAME_TOLERANCE,
        Verdict,
        answer_tolerance,
        compare_values,
        judge_number,
    )
    from .latex import (
        STEPS,
        Formula,
        formula,
        formulas,
        general_formula,
    )
    from .options import (
        BATCH_TIES,
        DESCRIPTIONS,
        GRADES,
        IDEALS,
        MISSING,
        NO_RELEVANT,
        UNJUDGED,
        Options,
        measure_columns,
        parse_cutoffs,
    )
    from .ranked import (
        Metrics,
        cg,
        dcg,
        idcg,
        ideal_relevance,
        judged_at_k,
        metrics,
        ndcg,
    )
    from .significance import (
        Comparison,
        compare_runs,
        holm,
    )
    from .sklearn_compat import (
        dcg_score,
        ndcg_score,
    )
    from .steps import (
        NO_ITEM,
        STEP_COLUMNS,
        Change,
        CutoffMismatch,
        OrderBounds,
        PermutationDistribution,
        base_comparison,
        default_labels,
        describe_change,
        mismatched_cutoffs,
        ndcg_at_each_k,
        order_bounds,
        permutation_distribution,
        slide_down,
        step_table,
        swap_matrix,
    )
    from .ties import (
        TIES,
        ScoreRanking,
        TieView,
        dcg_from_scores,
        ndcg_from_scores,
        rank_by_score,
        ranx_order,
        round_scores,
        tie_groups,
        tie_view,
    )
    from .trec import (
        TrecResult,
        evaluate_trec,
        read_qrels,
        read_trec_run,
        run_name,
    )
    from .validate import (
        MESSAGES,
        NDCGInputError,
        parse_labels,
        parse_numbers,
        parse_relevance,
    )

_MODULES: dict[str, tuple[str, ...]] = {
    "binary": (
        "RELEVANT_FROM",
        "average_precision",
        "precision_at_k",
        "reciprocal_rank",
    ),
    "binning": (
        "AnswerBins",
        "Bar",
        "answer_bins",
    ),
    "batch": (
        "ID_COLUMNS",
        "RunResult",
        "RunSummary",
        "evaluate",
        "evaluate_run",
        "id_text",
        "mean_ndcg_at_ks",
        "ndcg_bands",
        "read_run",
        "summarize",
    ),
    "discounting": (
        "DISCOUNTS",
        "discounts",
        "log_terms",
    ),
    "export": (
        "csv_safe",
        "to_csv_bytes",
        "write_table",
    ),
    "gains": (
        "GAINS",
        "apply_gain",
    ),
    "judging": (
        "ANSWER_TOLERANCE",
        "SAME_TOLERANCE",
        "Verdict",
        "answer_tolerance",
        "compare_values",
        "judge_number",
    ),
    "latex": (
        "STEPS",
        "Formula",
        "formula",
        "formulas",
        "general_formula",
    ),
    "options": (
        "BATCH_TIES",
        "DESCRIPTIONS",
        "GRADES",
        "IDEALS",
        "MISSING",
        "NO_RELEVANT",
        "UNJUDGED",
        "Options",
        "measure_columns",
        "parse_cutoffs",
    ),
    "ranked": (
        "Metrics",
        "cg",
        "dcg",
        "idcg",
        "ideal_relevance",
        "judged_at_k",
        "metrics",
        "ndcg",
    ),
    "significance": (
        "Comparison",
        "compare_runs",
        "holm",
    ),
    "sklearn_compat": (
        "dcg_score",
        "ndcg_score",
    ),
    "steps": (
        "NO_ITEM",
        "STEP_COLUMNS",
        "Change",
        "CutoffMismatch",
        "OrderBounds",
        "PermutationDistribution",
        "base_comparison",
        "default_labels",
        "describe_change",
        "mismatched_cutoffs",
        "ndcg_at_each_k",
        "order_bounds",
        "permutation_distribution",
        "slide_down",
        "step_table",
        "swap_matrix",
    ),
    "ties": (
        "TIES",
        "ScoreRanking",
        "TieView",
        "dcg_from_scores",
        "ndcg_from_scores",
        "rank_by_score",
        "ranx_order",
        "round_scores",
        "tie_groups",
        "tie_view",
    ),
    "trec": (
        "TrecResult",
        "evaluate_trec",
        "read_qrels",
        "read_trec_run",
        "run_name",
    ),
    "validate": (
        "MESSAGES",
        "NDCGInputError",
        "parse_labels",
        "parse_numbers",
        "parse_relevance",
    ),
}
_WHERE = {name: module for module, names in _MODULES.items() for name in names}


def __getattr__(name: str) -> Any:
    """The public name ``name``, imported from its module the first time it is asked for; a
    module of the package (``nc.validate``) is imported when it is asked for by name."""
    module = _WHERE.get(name)
    if module is not None:
        value = getattr(importlib.import_module(f".{module}", __name__), name)
    elif not name.startswith("_") and os.path.isfile(os.path.join(os.path.dirname(__file__), f"{name}.py")):
        value = importlib.import_module(f".{name}", __name__)
    else:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    globals()[name] = value  # later look-ups are plain attribute reads
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})


__all__ = [
    "ANSWER_TOLERANCE",
    "BATCH_TIES",
    "DESCRIPTIONS",
    "DISCOUNTS",
    "GAINS",
    "GRADES",
    "IDEALS",
    "ID_COLUMNS",
    "MESSAGES",
    "MISSING",
    "NO_ITEM",
    "NO_RELEVANT",
    "RELEVANT_FROM",
    "SAME_TOLERANCE",
    "STEPS",
    "STEP_COLUMNS",
    "TIES",
    "UNJUDGED",
    "AnswerBins",
    "Bar",
    "Change",
    "Comparison",
    "CutoffMismatch",
    "Formula",
    "Metrics",
    "NDCGInputError",
    "Options",
    "OrderBounds",
    "PermutationDistribution",
    "RunResult",
    "RunSummary",
    "ScoreRanking",
    "TieView",
    "TrecResult",
    "Verdict",
    "answer_bins",
    "answer_tolerance",
    "apply_gain",
    "average_precision",
    "base_comparison",
    "cg",
    "compare_runs",
    "compare_values",
    "csv_safe",
    "dcg",
    "dcg_from_scores",
    "dcg_score",
    "default_labels",
    "describe_change",
    "discounts",
    "evaluate",
    "evaluate_run",
    "evaluate_trec",
    "formula",
    "formulas",
    "general_formula",
    "holm",
    "id_text",
    "idcg",
    "ideal_relevance",
    "judge_number",
    "judged_at_k",
    "log_terms",
    "mean_ndcg_at_ks",
    "measure_columns",
    "metrics",
    "mismatched_cutoffs",
    "ndcg",
    "ndcg_at_each_k",
    "ndcg_bands",
    "ndcg_from_scores",
    "ndcg_score",
    "order_bounds",
    "parse_cutoffs",
    "parse_labels",
    "parse_numbers",
    "parse_relevance",
    "permutation_distribution",
    "precision_at_k",
    "rank_by_score",
    "ranx_order",
    "read_qrels",
    "read_run",
    "read_trec_run",
    "reciprocal_rank",
    "round_scores",
    "run_name",
    "slide_down",
    "step_table",
    "summarize",
    "swap_matrix",
    "tie_groups",
    "tie_view",
    "to_csv_bytes",
    "write_table",
]
