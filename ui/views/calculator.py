"""Rendering helpers of the Calculator (the home page): presets, scale, the change note, formulas.

The page (``app.py``) stays a list of calls: frame, editor, core, these helpers.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, replace

import streamlit as st

import ndcg_core as nc
from ndcg_core import NDCGInputError
from ndcg_core.scales import SCALES, Scale, check_scale, infer_scale
from ui.components.widgets import METRIC_BOX, change_ranking, last_change, number
from ui.framework import session
from ui.framework.i18n import Translate
from ui.framework.navigation import PAGE_BY_ID
from ui.framework.shared import get_param, get_ranking, set_param, shared_params, show_error
from ui.framework.state import UNJUDGED_GRADE, Ranking, default_labels, format_grade, is_unjudged
from ui.framework.text import breakable_math, md_escape

PREFIX = "calc"
SCALE_PARAM = "scale"
_SCALE_SEEN = f"{PREFIX}.scale_seen"  # not a widget key: kept while other pages run


@dataclass(frozen=True, slots=True)
class Preset:
    """A ranking from TEACHING.md to start from."""

    id: str
    relevance: tuple[float, ...]
    labels: tuple[str, ...] | None = None
    k: int | None = None
    scale: Scale = "graded"

    def ranking(self, current: Ranking) -> Ranking:
        """The preset's ranking, keeping the current gain and discount."""
        labels = self.labels or default_labels(len(self.relevance))
        return Ranking(
            relevance=tuple(float(x) for x in self.relevance),
            labels=labels,
            k=self.k,
            gain=current.gain,
            discount=current.discount,
            unjudged=current.unjudged,
        )


#: The presets, in the order offered: the worked example, a binary recommendation list, the
#: trio that CG cannot tell apart (the same three items D1=3, D2=3, D3=2 in three orders), and
#: the blind-spot pairs (padding with irrelevant items; relevant items never returned).
PRESETS: tuple[Preset, ...] = (
    Preset("example", (3, 2, 0, 0, 1)),
    Preset("binary", (1, 0, 1, 1, 0, 0, 1, 0), k=5, scale="binary"),
    Preset("cg_332", (3, 3, 2), ("D1", "D2", "D3")),
    Preset("cg_323", (3, 2, 3), ("D1", "D3", "D2")),
    Preset("cg_233", (2, 3, 3), ("D3", "D1", "D2")),
    Preset("padding_short", (3,)),
    Preset("padding_long", (3, 0, 0)),
    Preset("missing_3", (3, 3, 3)),
    Preset("missing_4", (3, 3, 3, 3)),
    Preset("unjudged", (3, UNJUDGED_GRADE, 2, 0, 1)),
)
PRESET_BY_ID: dict[str, Preset] = {preset.id: preset for preset in PRESETS}


# --- presets and scale ---------------------------------------------------------------------


def _on_preset() -> None:
    key = f"{PREFIX}.preset"
    chosen = st.session_state.get(key)
    preset = PRESET_BY_ID.get(chosen) if isinstance(chosen, str) else None
    st.session_state[key] = None  # the picker acts like a button: the same preset can be reloaded
    if preset is None:
        return
    set_param(SCALE_PARAM, preset.scale)
    change_ranking(preset.ranking(get_ranking()), cause=f"preset:{preset.id}")


def preset_picker(t: Translate) -> None:
    """A select box of the presets; choosing one loads it."""
    st.selectbox(
        t("calculator.preset_label"),
        options=[preset.id for preset in PRESETS],
        index=None,
        key=f"{PREFIX}.preset",
        placeholder=t("calculator.preset_placeholder"),
        filter_mode=None,
        format_func=lambda pid: t(f"calculator.preset_{pid}"),
        on_change=_on_preset,
    )


def current_scale(ranking: Ranking) -> tuple[Scale, NDCGInputError | None]:
    """The relevance scale of the view, from the link; a scale the grades do not fit is replaced.

    Returns the scale and the problem found (to show next to the scale control), if any. A
    missing scale is inferred from the grades (graded when they are whole numbers 0-3). Only
    the session's first Calculator run reports a problem (a link whose scale and grades
    disagree): later, grades that do not fit came from another page's explicit action (a query
    opened from Evaluate, grades used from Scores and ties), and the scale follows them.
    """
    value = get_param(SCALE_PARAM)
    problem: NDCGInputError | None = None
    first = not st.session_state.get(_SCALE_SEEN)
    st.session_state[_SCALE_SEEN] = True
    try:
        if value is None:
            raise LookupError
        scale = nc.validate.check_choice(value, SCALES, option="scale")
        check_scale(ranking.relevance, scale, allow_unjudged=True)
        return scale, None
    except NDCGInputError as err:
        problem = err if first else None
    except LookupError:
        pass
    inferred = infer_scale(ranking.relevance, allow_unjudged=True)
    set_param(SCALE_PARAM, inferred)
    return inferred, problem


def _on_scale() -> None:
    key = f"{PREFIX}.scale"
    ranking = get_ranking()
    try:
        # check_scale checks the name first too: the same error either way
        value = nc.validate.check_choice(st.session_state.get(key), SCALES, option="scale")
        check_scale(ranking.relevance, value, allow_unjudged=True)
    except NDCGInputError as err:
        st.session_state[f"{PREFIX}.scale_error"] = (ranking, err)
        st.session_state[key] = get_param(SCALE_PARAM)
        return
    st.session_state.pop(f"{PREFIX}.scale_error", None)
    set_param(SCALE_PARAM, value)


def scale_choice(scale: Scale, t: Translate, lang: str, *, problem: NDCGInputError | None = None) -> None:
    """The relevance scale; grades that do not fit a newly chosen scale keep the old one."""
    key = f"{PREFIX}.scale"
    st.session_state[key] = scale
    st.segmented_control(
        t("calculator.scale_label"),
        options=list(SCALES),
        key=key,
        required=True,
        format_func=lambda s: t(f"calculator.scale_{s}"),
        on_change=_on_scale,
        help=t("calculator.scale_help"),
    )
    stored = st.session_state.get(f"{PREFIX}.scale_error")
    if stored is not None and stored[0] == get_ranking():
        problem = stored[1]
    with st.container(key=f"{PREFIX}_error_scale"):  # always drawn: see widgets._show_error
        if problem is not None:
            show_error(lang, problem)


# --- what changed ---------------------------------------------------------------------------


def _result(t: Translate, effect: str, metric: str, before: float, after: float) -> str:
    return t(f"calculator.result_{effect}", metric=metric, before=number(before), after=number(after))


def _option_text(t: Translate, field: str, ranking: Ranking) -> str:
    if field == "k":
        return str(ranking.cutoff)
    return t(f"calculator.value_{field}_{getattr(ranking, field)}")


def _ndcg_name(ranking: Ranking) -> str:
    """nDCG, or nDCG′ when the numbers are those of the condensed list (unjudged items removed)."""
    return "nDCG′" if ranking.has_unjudged and ranking.unjudged == "drop" else "nDCG"


def label_k(ranking: Ranking, m: nc.Metrics) -> int:
    """The k that names the metrics (:meth:`ui.framework.state.Ranking.metric_k`)."""
    return ranking.metric_k(m.k)


def change_note(t: Translate, current: Ranking) -> tuple[str, float | None] | None:
    """The sentence saying what the last change did (Markdown, item names escaped) and nDCG's delta."""
    change = last_change(current)
    if change is None:
        return None
    before, after, cause = change
    if cause.startswith("preset:"):
        m = nc.metrics(after.relevance, **after.judged_options())
        text = t(
            "calculator.note_preset",
            preset=t(f"calculator.preset_{cause[7:]}"),
            metric=f"{_ndcg_name(after)}@{label_k(after, m)}",
            value=number(m.ndcg),
        )
        return text, None
    if cause == "pool":
        old = nc.metrics(before.relevance, **before.judged_options())
        new = nc.metrics(after.relevance, **after.judged_options())
        effect = {"higher": "raised", "lower": "lowered", "same": "unchanged"}[
            nc.compare_values(new.ndcg, old.ndcg)
        ]
        action = t("calculator.action_forget_pool")
        metric = f"{_ndcg_name(after)}@{label_k(after, new)}"
        text = t("calculator.note", action=action, result=_result(t, effect, metric, old.ndcg, new.ndcg))
        return text, None
    if cause in ("k", "gain", "discount", "unjudged"):
        old = nc.metrics(before.relevance, **before.judged_options())
        new = nc.metrics(after.relevance, **after.judged_options())
        effect = {"higher": "raised", "lower": "lowered", "same": "unchanged"}[
            nc.compare_values(new.ndcg, old.ndcg)
        ]
        action = t(
            "calculator.action_option",
            option=t(f"calculator.option_{cause}"),
            old=_option_text(t, cause, before),
            new=_option_text(t, cause, after),
        )
        metric = "nDCG" if cause in ("k", "unjudged") else f"{_ndcg_name(after)}@{label_k(after, new)}"
        text = t("calculator.note", action=action, result=_result(t, effect, metric, old.ndcg, new.ndcg))
        return text, None
    # an edit of a pooled list edits its pool too (ui.framework.state.Ranking.pool): nDCG before is
    # against the pool before
    c = nc.describe_change(
        before.relevance,
        after.relevance,
        before.labels,
        after.labels,
        **after.judged_options(),
        pool_before=before.pool,
        mover=cause[5:] if cause.startswith("move:") else None,  # a button knows; a drag does not
    )
    # as the metric row names it (k larger than n: n; the condensed list's own length)
    metric = f"{_ndcg_name(after)}@{label_k(after, nc.metrics(after.relevance, **after.judged_options()))}"
    if c.kind == "unchanged":
        return t("calculator.note_unchanged", metric=metric, value=number(c.ndcg_after)), None
    params = {
        "item": md_escape(c.item),
        "other_item": md_escape(c.other_item),
        "from_position": c.from_position,
        "to_position": c.to_position,
        "grade_before": format_grade(c.grade_before) if c.grade_before is not None else "",
        "grade_after": format_grade(c.grade_after) if c.grade_after is not None else "",
    }
    kind = "regraded_one" if c.kind == "regraded" and c.item is not None else c.kind
    action = t(f"calculator.action_{kind}", **params)
    text = t(
        "calculator.note", action=action, result=_result(t, c.effect, metric, c.ndcg_before, c.ndcg_after)
    )
    return text, c.delta


# --- unjudged items -------------------------------------------------------------------------


def unjudged_panel(ranking: Ranking, t: Translate) -> None:
    """Both conventions side by side, and judged@k, when the ranking has unjudged items ("?").

    nDCG with unjudged items counted as 0 (trec_eval), nDCG′ of the condensed list (Sakai 2007)
    and the share of the top k that was judged, all from the core; then which convention the
    metrics, the step table and the formulas above and below use.
    """
    if not ranking.has_unjudged:
        return
    zero = nc.metrics(ranking.relevance, unjudged="zero", pool=ranking.pool, **ranking.options())
    drop = nc.metrics(ranking.relevance, unjudged="drop", pool=ranking.pool, **ranking.options())
    judged = nc.judged_at_k(ranking.relevance, k=ranking.k)
    st.markdown(f"**{t('calculator.unjudged_title')}**")
    with st.container(key="calc_unjudged", horizontal=True, wrap=True, gap="small"):
        st.metric(
            t("calculator.unjudged_metric_zero", k=ranking.metric_k(zero.k)),
            number(zero.ndcg),
            help=t("calculator.unjudged_help_zero"),
            **METRIC_BOX,
        )
        st.metric(
            t("calculator.unjudged_metric_drop", k=ranking.metric_k(drop.k)),
            number(drop.ndcg),
            help=t("calculator.unjudged_help_drop"),
            **METRIC_BOX,
        )
        st.metric(
            t("calculator.unjudged_metric_judged", k=ranking.cutoff),
            number(judged),
            help=t("calculator.unjudged_help_judged"),
            **METRIC_BOX,
        )
    items = ", ".join(
        label for label, x in zip(ranking.labels, ranking.relevance, strict=True) if is_unjudged(x)
    )
    st.caption(t(f"calculator.unjudged_caption_{ranking.unjudged}", items=md_escape(items)))


# --- the judged pool ------------------------------------------------------------------------


def _on_forget_pool() -> None:
    change_ranking(replace(get_ranking(), missed=()), cause="pool")


#: Up to this many grades of missed items are listed one by one; more are counted per grade.
_LISTED_GRADES = 6


def missed_grades(missed: tuple[float, ...], t: Translate) -> str:
    """The grades of the judged items not returned (largest first, as :class:`Ranking` keeps
    them): each one when there are few, else each grade once with its count, "3 (×12), 1 (×40)"
    — a query of a TREC collection can miss dozens.

    >>> from functools import partial
    >>> from ui.framework.i18n import translate
    >>> missed_grades((3.0, 2.0, 2.0), partial(translate, "en"))
    '3, 2, 2'
    >>> missed_grades((3.0, 3.0, 3.0, 2.0, 1.0, 1.0, 1.0, 1.0), partial(translate, "en"))
    '3 (×3), 2, 1 (×4)'
    >>> missed_grades((3.0, 3.0, 3.0, 2.0, 1.0, 1.0, 1.0, 1.0), partial(translate, "zh"))
    '3（×3）、2、1（×4）'
    """
    if len(missed) <= _LISTED_GRADES:
        return t("common.list_separator").join(format_grade(x) for x in missed)
    counts = Counter(missed)
    return t("common.list_separator").join(
        format_grade(grade) if n == 1 else t("calculator.grade_count", grade=format_grade(grade), n=n)
        for grade, n in counts.items()
    )


def pool_panel(ranking: Ranking, t: Translate) -> None:
    """When the ranking has a judged pool (a query opened from the Evaluate page): say that the
    ideal comes from it, how many judged items it holds and the grades of those the system did
    not return; what editing the list does to it; and a button that forgets it (the ideal is
    then the list's own grades)."""
    pool = ranking.pool
    if pool is None:
        return
    with st.container(key="calc_pool"):
        st.info(
            t(
                "calculator.pool_note",
                n=len(pool),
                judged=ranking.n_judged,
                m=len(ranking.missed),
                grades=missed_grades(ranking.missed, t),
            ),
            icon=":material/inventory_2:",
        )
        st.caption(t("calculator.pool_edit", n=len(ranking.missed)))
        st.button(
            t("calculator.pool_forget"),
            key=f"{PREFIX}.forget_pool",
            on_click=_on_forget_pool,
            icon=":material/layers_clear:",
        )


# --- formulas -------------------------------------------------------------------------------


def formula_block(formulas: tuple[nc.Formula, ...], t: Translate) -> None:
    """Each step's formula: the general form, then the learner's numbers substituted.

    Both are set as breakable math (:func:`breakable_math`) in a container whose key starts
    with ``lab-formula-`` (``styles.PAGE_CSS`` sizes them like display math).
    """
    for f in formulas:
        left, right = st.columns([1, 2], vertical_alignment="center")
        with left, st.container(key=f"lab-formula-general-{f.step}"):
            st.markdown(f"**{t(f'calculator.step_{f.step}')}**")
            st.markdown(breakable_math(f.general))
        with right, st.container(key=f"lab-formula-substituted-{f.step}"):
            st.markdown(breakable_math(f.substituted))
            if f.hidden:
                st.caption(t("calculator.hidden_terms", hidden=f.hidden))


# --- where the ranking came from -------------------------------------------------------------


def origin_note(t: Translate, ranking: Ranking) -> None:
    """When the ranking was opened from the Evaluate page: name the query and the run it came
    from (or say that it has been changed since), with a link back to the Evaluate page."""
    came = session.origin()
    if came is None:
        return
    # the pool is part of what the Evaluate page computed with: forgetting it changes the numbers
    unchanged = (came.ranking.relevance, came.ranking.labels, came.ranking.missed) == (
        ranking.relevance,
        ranking.labels,
        ranking.missed,
    )
    query, run, source = md_escape(came.query), md_escape(came.run), md_escape(came.source)
    if not unchanged:
        text = t("evaluate.origin_changed", query=query, run=run or source)
    elif came.run:
        text = t("evaluate.origin_query", query=query, run=run, source=source)
    else:
        text = t("evaluate.origin_query_table", query=query, source=source)
    with st.container(key="calc_origin", horizontal=True, vertical_alignment="center"):
        st.info(text, icon=":material/travel_explore:")
        st.page_link(
            PAGE_BY_ID["evaluate"].path,
            label=t("evaluate.origin_back"),
            icon=":material/arrow_back:",
            query_params=shared_params(),
        )
