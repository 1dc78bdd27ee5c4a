"""ndcg_teach: what nDCG Lab teaches with, between the core (``ndcg_core``) and the app.

Contents
--------
predictions
    The predict-first prompts (:data:`~ndcg_teach.predictions.PROMPTS`, keyed by the pages
    that ask them): each prompt's options and its right one, decided from the core's numbers,
    so a page and a live class ask the same question with the same answer.
exercises
    Practice exercises from a seed, answers checked with a stated tolerance, hints and
    solutions from the core's step table; the seed and exercise number of a link, checked.
samples
    Seeded synthetic data: ``sample_run`` (a long-format run) and ``sample_trec`` (qrels and
    four TREC runs), for the Evaluate pages, the tests and the benchmarks.
tools
    What well-known tools (scikit-learn, ranx, trec_eval, Spark MLlib, LightGBM, XGBoost,
    TensorFlow Ranking, torchmetrics, gdeval) compute on one list: ``TOOLS``, ``tool_scores``,
    ``tool_call``, ``nothing_relevant_reports``, each tool's defaults computed by the core.
questions
    The numbers of the questions learners ask most (a 1-D ``ndcg_score`` call, ``ndcg_score(y,
    y)`` below 1, why @k, nDCG vs AP/RR/P@k, sampled negatives, LightGBM's ``label_gain``),
    each computed by the core.
messages
    The English of the errors this package raises (a practice link, an order given as an
    answer, a sample's options), registered with the core when the package is imported.

This package imports ``ndcg_core`` only (never streamlit, altair, sqlalchemy, ``ui`` or
``ndcg_live``); the core never imports it (``tests/architecture/test_layers.py``). Importing
the package loads only its error messages (:mod:`ndcg_teach.messages`, registered with the
core): import the module you need (``from ndcg_teach.samples import sample_run``).
"""

from . import messages

__all__ = ["messages"]
