"""The Evaluate page's IR form (AppTest): qrels and runs, the sample collection end to end in
English and Chinese, per-query nDCG checked against pytrec_eval, the t-test's p against SciPy,
bad files named by file and line in the page's language, options that change the numbers, the
upload kept between pages, and a query opened in the Calculator."""

from __future__ import annotations

import re
import string

import pandas as pd
import pytest
import pytrec_eval
from app_helpers import static_table, static_tables
from chinese_text import english_leftovers
from scipy import stats

import ndcg_core as nc
from ndcg_core import NDCGInputError, significance, trec
from ndcg_teach.samples import sample_trec
from ui.framework.i18n import error_text, translate
from ui.framework.text import md_escape
from ui.views import evaluate_trec as et

PAGE = "app_pages/7_Evaluate_a_run.py"
QRELS = b"q1 0 a 3\nq1 0 b 2\nq1 0 c 0\nq1 0 d 1\nq2 0 e 1\nq2 0 f 0\n"
#: Run A ranks b, x (unjudged), a on q1 and e on q2; run B ranks a, b, d on q1 and f, e on q2.
RUN_A = b"q1 Q0 b 1 0.9 A\nq1 Q0 x 2 0.8 A\nq1 Q0 a 3 0.7 A\nq2 Q0 e 1 0.5 A\n"
RUN_B = b"q1 Q0 a 1 3.0 B\nq1 Q0 b 2 2.0 B\nq1 Q0 d 3 1.0 B\nq2 Q0 f 1 0.9 B\nq2 Q0 e 2 0.1 B\n"
#: A run whose third line has five fields.
BAD_RUN = b"q1 Q0 a 1 3.0 C\nq1 Q0 b 2 2.0 C\nq1 Q0 d 3 1.0\n"


def _frame(at, column: str) -> pd.DataFrame:
    """The first data frame on the page with ``column``."""
    return next(d.value for d in at.dataframe if column in d.value.columns)


def _comparison(at, lang: str = "en") -> pd.DataFrame | None:
    """The comparison table (static: a column per compared run, a row per figure) as one row
    per compared run with the columns ``run``, ``t_p``, ``holm_p``, ``record``."""
    try:
        baseline = at.selectbox(key="evaluate.trec_baseline").value
    except KeyError:  # one run: no baseline, no comparison
        return None
    found = static_tables(at, translate(lang, "evaluate.trec_th_versus", baseline=baseline))
    if not found:
        return None
    table = found[0][0].set_index(translate(lang, "evaluate.trec_th_versus", baseline=baseline))
    names = {translate(lang, f"evaluate.trec_th_{key}"): key for key in ("t_p", "holm_p", "record")}
    return table.rename(index=names).T.rename_axis("run").reset_index()


def _upload(at, qrels: bytes, runs: dict[str, bytes]):
    at.radio(key="evaluate.trec_source").set_value("upload").run()
    at.file_uploader(key=et.QRELS_KEY).set_value(("qrels.txt", qrels, "text/plain"))
    at.file_uploader(key=et.RUNS_KEY).set_value([(name, data, "text/plain") for name, data in runs.items()])
    return at.run()


def _pytrec_ndcg(qrels: pd.DataFrame, run: pd.DataFrame, k: int) -> dict[str, float]:
    """pytrec_eval's ndcg_cut_k per query (the queries the run answers)."""
    judged = {
        q: dict(zip(g["item"], g["relevance"].astype(int), strict=True)) for q, g in qrels.groupby("query")
    }
    ranked = {q: dict(zip(g["item"], g["score"].astype(float), strict=True)) for q, g in run.groupby("query")}
    measure = f"ndcg_cut_{k}"
    scores = pytrec_eval.RelevanceEvaluator(judged, {measure}).evaluate(ranked)
    return {q: values[measure] for q, values in scores.items()}


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_evaluate_trec_sample_per_query_ndcg_equals_pytrec_eval(app, lang):
    """The sample collection, default options (trec_eval's): every answered query's nDCG@10 on
    the page equals pytrec_eval's ndcg_cut_10 (an independent implementation of trec_eval)."""
    at = app(page=PAGE, lang=lang)
    assert not at.exception
    qrels, runs = sample_trec(seed=et.SAMPLE_SEED)
    shown = _frame(at, "missing")
    for name, run in runs.items():
        oracle = _pytrec_ndcg(qrels, run, 10)
        shown_name = translate(lang, f"evaluate.sample_run_{name}")
        rows = shown.loc[(shown["run"] == shown_name) & ~shown["missing"]].set_index("query")["ndcg@10"]
        assert len(oracle) == len(rows) > 0
        for query, value in oracle.items():
            assert rows[query] == pytest.approx(value, abs=1e-9), (name, query)


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_evaluate_trec_sample_means_equal_the_core(app, lang):
    at = app(page=PAGE, lang=lang)
    qrels, runs = sample_trec(seed=et.SAMPLE_SEED)
    core = trec.evaluate_trec(qrels, runs, k=10).means
    core["run"] = [translate(lang, f"evaluate.sample_run_{name}") for name in core["run"]]
    pd.testing.assert_frame_equal(_frame(at, "n_queries").reset_index(drop=True), core)


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_evaluate_trec_means_in_presenter_mode_are_a_large_static_table(app, lang):
    """On a projector the means are the page's result: a static table the presenter style sheet
    enlarges (a data frame's canvas kept its small type), with the interactive table's headers
    and four decimals."""
    at = app(page=PAGE, lang=lang, present="1")
    assert not at.exception
    assert not [d for d in at.dataframe if "n_queries" in d.value.columns]
    qrels, runs = sample_trec(seed=et.SAMPLE_SEED)
    core = trec.evaluate_trec(qrels, runs, k=10).means
    header = translate(lang, "evaluate.n_queries")
    table = static_table(at, header)
    names = [translate(lang, f"evaluate.sample_run_{name}") for name in core["run"]]
    assert list(table[translate(lang, "evaluate.trec_th_run")]) == [md_escape(n) for n in names]
    assert list(table[header]) == [str(n) for n in core["n_queries"]]
    assert list(table["nDCG@10"]) == [f"{x:.4f}" for x in core["ndcg@10"]]


def test_evaluate_trec_sample_page_in_chinese_has_no_english_left(app):
    """Everything but the names the data brings (the runs' names, like a file's) is Chinese."""
    at = app(page=PAGE, lang="zh")
    _, runs = sample_trec(seed=et.SAMPLE_SEED)
    names = {name.lower() for name in runs}
    left = [
        (kind, text, words)
        for kind, text, words in english_leftovers(at)
        if {w.lower() for w in words} - names
    ]
    assert left == []


def _shown_p(p: float) -> str:
    return "< 0.0001" if p < 0.0001 else f"{p:.4f}"


@pytest.mark.parametrize("source", ["sample", "upload"])
def test_evaluate_trec_t_test_p_equals_scipy(app, source):
    """The comparison table's paired t-test p of each run equals SciPy's ttest_rel on the
    per-query nDCG@10 the page shows (to the 4 decimals shown)."""
    at = (
        app(page=PAGE)
        if source == "sample"
        else _upload(app(page=PAGE), QRELS, {"a.run": RUN_A, "b.run": RUN_B})
    )
    per_query = _frame(at, "missing")
    table = _comparison(at)
    assert table is not None and len(table) == per_query["run"].nunique() - 1
    wide = per_query.pivot(index="query", columns="run", values="ndcg@10")
    baseline = at.selectbox(key="evaluate.trec_baseline").value
    for row in table.itertuples():
        expected = stats.ttest_rel(wide[row.run], wide[baseline]).pvalue
        assert row.t_p == _shown_p(expected)


def _reading_pattern(lang: str, key: str, **known: object) -> re.Pattern[str]:
    """The reading ``key`` in ``lang`` as a pattern: the ``known`` placeholders filled in (a
    minus sign in them written as a hyphen or as a true minus, U+2212), the others (the
    measure's label, p, the interval) captured by name."""
    parts = []
    for literal, field, _, _ in string.Formatter().parse(translate(lang, key)):
        parts.append(re.escape(literal))
        if field in known:
            parts.append(re.escape(str(known[field])).replace(re.escape("-"), "[-\u2212]"))
        elif field is not None:
            parts.append(f"(?P<{field}>.+?)")
    return re.compile("".join(parts))


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_evaluate_trec_sample_reading_tweaked_is_chance_and_poor_is_worse(app, lang):
    """Against the default baseline (good), the sample's tweaked run, good with a little noise
    of its own, is read as within chance (its Holm-corrected p above 0.05), and the poor run as
    worse. The mean difference and the record are worked out here from the per-query nDCG@10
    the page shows."""
    at = app(page=PAGE, lang=lang)
    assert not at.exception and not at.error
    good, tweaked, poor = (
        translate(lang, f"evaluate.sample_run_{name}") for name in ("good", "tweaked", "poor")
    )
    assert at.selectbox(key="evaluate.trec_baseline").value == good
    wide = _frame(at, "missing").pivot(index="query", columns="run", values="ndcg@10")
    shown = [i.value for i in at.info] + [s.value for s in at.success]
    for run, key in ((tweaked, "evaluate.trec_reading_chance"), (poor, "evaluate.trec_reading_worse")):
        difference = wide[run] - wide[good]
        pattern = _reading_pattern(
            lang,
            key,
            run=md_escape(run),
            baseline=md_escape(good),
            difference=f"{difference.mean():+.4f}",
            n=len(wide),
            wins=int((difference > 1e-12).sum()),
            losses=int((difference < -1e-12).sum()),
            alpha="0.05",
        )
        found = [m for m in map(pattern.fullmatch, shown) if m is not None]
        assert len(found) == 1, (run, key)
        p = found[0]["p"]
        if key.endswith("chance"):
            assert float(p.removeprefix("p = ")) > 0.05
        else:
            # no random sign flip of poor's differences comes near its mean, so its Monte Carlo p
            # is the smallest possible, (1 + 0) / (1 + 10,000), and Holm's correction multiplies
            # it by the 3 compared runs (fair's p is as small: tied, both get 3 p)
            assert p == f"p = {3 * (1 + 0) / (1 + et.N_RESAMPLES):.4f}"
    assert 0.005 <= abs((wide[tweaked] - wide[good]).mean()) <= 0.02


def test_evaluate_trec_one_run_shows_no_comparison(app):
    at = _upload(app(page=PAGE), QRELS, {"a.run": RUN_A})
    assert not at.exception and not at.error
    assert _comparison(at) is None
    assert list(_frame(at, "n_queries")["run"]) == ["a"]


def test_evaluate_trec_upload_numbers_written_out(app):
    """Run A on q1: b (2), x (unjudged, 0), a (3) -> DCG@10 = 2 + 0 + 3/log2(4) = 3.5; the pool
    3, 2, 1, 0 gives IDCG = 3 + 2/log2(3) + 1/2 = 4.7619; q2: e first, nDCG 1."""
    at = _upload(app(page=PAGE), QRELS, {"a.run": RUN_A, "b.run": RUN_B})
    assert not at.exception and not at.error
    rows = _frame(at, "missing").set_index(["run", "query"])["ndcg@10"]
    idcg = 3 + 2 / 1.584962500721156 + 1 / 2
    assert rows[("a", "q1")] == pytest.approx(3.5 / idcg, abs=1e-12)
    assert rows[("a", "q2")] == pytest.approx(1.0, abs=1e-12)
    # run B: a, b, d on q1 (3, 2, 1) is the ideal order; q2: f (0), e (1) -> 1/log2(3)
    assert rows[("b", "q1")] == pytest.approx(1.0, abs=1e-12)
    assert rows[("b", "q2")] == pytest.approx(1 / 1.584962500721156, abs=1e-12)
    assert _comparison(at) is not None


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_evaluate_trec_bad_run_line_named_and_other_runs_kept(app, lang):
    """A run with a five-field line: the message (page's language) names the file and line 3;
    the good run is still evaluated."""
    at = _upload(app(page=PAGE, lang=lang), QRELS, {"a.run": RUN_A, "bad.run": BAD_RUN})
    assert not at.exception
    with pytest.raises(NDCGInputError) as caught:
        trec.read_trec_run(BAD_RUN, name="bad.run")
    message = error_text(lang, caught.value)
    assert "bad.run" in message and "3" in message
    assert [e.value for e in at.error] == [md_escape(message)]
    assert list(_frame(at, "n_queries")["run"]) == ["a"]


def test_evaluate_trec_bad_qrels_named_and_nothing_evaluated(app):
    at = _upload(app(page=PAGE, lang="zh"), b"q1 0 a 1\nq1 0 a\n", {"a.run": RUN_A})
    assert not at.exception
    with pytest.raises(NDCGInputError) as caught:
        trec.read_qrels(b"q1 0 a 1\nq1 0 a\n", name="qrels.txt")
    assert [e.value for e in at.error] == [md_escape(error_text("zh", caught.value))]
    assert not any("n_queries" in d.value.columns for d in at.dataframe)


def test_evaluate_trec_ideal_option_changes_the_numbers(app):
    """With the ideal from the returned list, run A's q1 is b, x, a: IDCG = 3 + 2/log2(3) +
    0/2 = 4.2619 and nDCG = 3.5 / 4.2619, higher than with the pool."""
    at = _upload(app(page=PAGE), QRELS, {"a.run": RUN_A})
    pooled = _frame(at, "missing").set_index("query")["ndcg@10"]["q1"]
    at.selectbox(key="evaluate.trec_ideal").set_value("list").run()
    assert at.query_params["trec_ideal"] == ["list"] or at.query_params["trec_ideal"] == "list"
    listed = _frame(at, "missing").set_index("query")["ndcg@10"]["q1"]
    assert listed == pytest.approx(3.5 / (3 + 2 / 1.584962500721156), abs=1e-12)
    assert listed > pooled


def test_evaluate_trec_unjudged_drop_condenses_the_list(app):
    """unjudged=drop: run A's q1 becomes b, a: DCG = 2 + 3/log2(3), over the pool's IDCG."""
    at = _upload(app(page=PAGE), QRELS, {"a.run": RUN_A})
    at.selectbox(key="evaluate.trec_unjudged").set_value("drop").run()
    value = _frame(at, "missing").set_index("query")["ndcg@10"]["q1"]
    assert value == pytest.approx((2 + 3 / 1.584962500721156) / (3 + 2 / 1.584962500721156 + 0.5), abs=1e-12)


def test_evaluate_trec_several_cutoffs_give_a_column_each(app):
    at = app(page=PAGE)
    at.text_input(key="evaluate.trec_k").set_value("5, 10").run()
    assert at.query_params["trec_k"] in ("5, 10", ["5, 10"])
    assert not at.exception
    means = _frame(at, "n_queries")
    assert {"ndcg@5", "ndcg@10", "judged@5", "judged@10"} <= set(means.columns)
    qrels, runs = sample_trec(seed=et.SAMPLE_SEED)
    core = trec.evaluate_trec(qrels, runs, k=[5, 10])
    pd.testing.assert_frame_equal(means.reset_index(drop=True), core.means)


def test_evaluate_trec_seed_is_shown_and_settable(app):
    at = app(page=PAGE, trec_seed="7")
    assert at.number_input(key="evaluate.trec_seed").value == 7
    assert any("7" in c.value and "10,000" in c.value for c in at.caption)


def test_evaluate_trec_uploads_kept_after_the_calculator(app):
    at = _upload(app(page=PAGE), QRELS, {"a.run": RUN_A, "b.run": RUN_B})
    before = _frame(at, "n_queries")
    at.switch_page("app_pages/0_Calculator.py").run()
    at.switch_page(PAGE).run()
    assert not at.exception
    pd.testing.assert_frame_equal(_frame(at, "n_queries"), before)
    name = translate("en", "evaluate.trec_files_name", qrels="qrels.txt", runs="a, b")
    assert any(c.value == translate("en", "evaluate.showing", name=md_escape(name)) for c in at.caption)


def test_evaluate_trec_open_query_in_calculator_in_run_order(app):
    """Run A's q1 opens as b (2), x (unjudged), a (3), named, with a link back."""
    at = _upload(app(page=PAGE), QRELS, {"a.run": RUN_A})
    at.selectbox(key="evaluate.trec_open_query").set_value("q1").run()
    at.button(key="evaluate.trec_open").click().run()
    ranking = at.session_state["lab.ranking"]
    assert ranking.labels == ("b", "x", "a")
    assert ranking.relevance[0] == 2.0 and ranking.relevance[2] == 3.0
    assert ranking.relevance[1] != ranking.relevance[1]  # x is unjudged: NaN, "?" in the Calculator
    assert ranking.unjudged == "zero"  # the page's treatment (trec_eval's)
    at.switch_page("app_pages/0_Calculator.py").run()
    assert not at.exception
    source = translate("en", "evaluate.trec_files_name", qrels="qrels.txt", runs="a")
    expected = translate("en", "evaluate.origin_query", query="q1", run="a", source=md_escape(source))
    assert expected in [i.value for i in at.info]


def test_query_ranking_orders_ties_as_trec_eval_and_marks_unjudged():
    """Scores c 0.9, then a tie at 0.5 that trec_eval breaks by item id descending (b before a),
    then z. b's grade -1 is in the pool but not judged (as trec_eval reads it), z is not in
    the qrels: both unjudged (NaN)."""
    qrels = pd.DataFrame({"query": ["q"] * 3, "item": ["a", "b", "c"], "relevance": [2.0, -1.0, 1.0]})
    run = pd.DataFrame({"query": ["q"] * 4, "item": ["a", "b", "c", "z"], "score": [0.5, 0.5, 0.9, 0.1]})
    ranked = et.query_ranking(qrels, run, "q", "trec_eval")
    assert ranked["item"].tolist() == ["c", "b", "a", "z"]
    assert ranked["relevance"].tolist()[::2] == [1.0, 2.0]
    assert ranked["relevance"].isna().tolist() == [False, True, False, True]


def test_evaluate_trec_comparison_refused_names_why_and_the_rest_stays(app):
    """One judged query cannot be tested (the tests are over queries): the core's message in
    the page's language, and the means and the per-query table are still shown."""
    qrels = b"q1 0 a 3\nq1 0 b 1\n"
    runs = {"a.run": b"q1 Q0 a 1 0.9 A\nq1 Q0 b 2 0.1 A\n", "b.run": b"q1 Q0 b 1 0.9 B\nq1 Q0 a 2 0.1 B\n"}
    at = _upload(app(page=PAGE, lang="zh"), qrels, runs)
    assert not at.exception
    per_query = trec.evaluate_trec(qrels, {"a": runs["a.run"], "b": runs["b.run"]}).per_query
    with pytest.raises(NDCGInputError) as caught:
        significance.compare_runs(per_query, measure="ndcg@10")
    assert [e.value for e in at.error] == [md_escape(error_text("zh", caught.value))]
    assert list(_frame(at, "n_queries")["run"]) == ["a", "b"]
    assert len(_frame(at, "missing")) == 2


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_evaluate_trec_bad_cutoffs_named_and_default_used(app, lang):
    at = app(page=PAGE, lang=lang)
    at.text_input(key="evaluate.trec_k").set_value("5;10").run()
    assert not at.exception
    with pytest.raises(NDCGInputError) as caught:
        et.cutoffs_from_text("5;10")
    assert [e.value for e in at.error] == [md_escape(error_text(lang, caught.value))]
    assert "ndcg@10" in _frame(at, "n_queries").columns  # k = 10, the default, named in the column


def test_evaluate_trec_cutoffs_from_the_link(app):
    at = app(page=PAGE, trec_k="all")
    assert at.text_input(key="evaluate.trec_k").value == ""
    qrels, runs = sample_trec(seed=et.SAMPLE_SEED)
    core = trec.evaluate_trec(qrels, runs, k=None).means
    assert _frame(at, "n_queries")["ndcg"].tolist() == core["ndcg"].tolist()


def test_evaluate_trec_missing_drop_pairs_the_queries_every_run_answers(app):
    """With missing=drop the poor run's two unanswered queries have no nDCG: the tests use
    the 38 queries every run answers (said on the page), and the t-test's p is SciPy's on them."""
    at = app(page=PAGE, trec_miss="drop")
    assert not at.exception and not at.error
    per_query = _frame(at, "missing")
    answered = per_query.dropna(subset=["ndcg@10"])
    counts = answered.groupby("query")["run"].size()
    paired = counts.index[counts == len(sample_trec(seed=et.SAMPLE_SEED)[1])]  # answered by every run
    assert len(paired) == 38
    note = translate("en", "evaluate.trec_paired_note", n=38, left_out=2)
    assert note in [c.value for c in at.caption]
    wide = answered.loc[answered["query"].isin(paired)].pivot(index="query", columns="run", values="ndcg@10")
    for row in _comparison(at).itertuples():
        assert row.t_p == _shown_p(stats.ttest_rel(wide[row.run], wide["good"]).pvalue)


@pytest.mark.parametrize(("lang", "said"), [("en", "D2 before D10"), ("zh", "D2 在 D10 之前")])
def test_explain_ties_states_the_order_trec_eval_gives(lang, said):
    # trec_eval (comp_sim_docno: strcmp(p2, p1)) ranks tied ids descending as text: "D2" > "D10"
    from ndcg_core.ties import rank_by_score

    order = rank_by_score([1, 0], [0.5, 0.5], ties="trec_eval", labels=["D10", "D2"]).order.tolist()
    assert order == [1, 0]  # D2 first
    assert said in translate(lang, "evaluate.explain_ties")


@pytest.mark.parametrize(("ties", "tied"), [("average", True), ("trec_eval", False), ("optimistic", False)])
def test_trec_query_link_says_when_averaged_ties_are_shown_in_one_order(ties, tied):
    # a and b tie at 0.5 with grades 2 and 0: averaged, the page's nDCG is the mean over both
    # orders, while the Calculator shows one; trec_eval's and optimistic's are single orders
    from ndcg_core import options as opt

    qrels = pd.DataFrame({"query": ["q"] * 2, "item": ["a", "b"], "relevance": [2.0, 0.0]})
    run = pd.DataFrame({"query": ["q"] * 3, "item": ["a", "b", "c"], "score": [0.5, 0.5, 0.1]})
    collection = et.Collection(qrels=qrels, runs={"r": run}, key=("test", ties), label="test")
    link = et.trec_query_link(collection, "r", "q", opt.Options(k=(10,), ties=ties))
    assert link.tied is tied


@pytest.mark.parametrize(("lang", "missing"), [("en", "zero"), ("zh", "zero"), ("en", "drop")])
def test_evaluate_trec_missing_note_names_the_run_and_its_unanswered_queries(app, lang, missing):
    """A run that answers q1 only: the note names that run and q2 (judged in QRELS), once.
    (With missing=drop one query is left to pair, too few to compare: that has its message.)"""
    at = app(page=PAGE, lang=lang, trec_miss=missing)
    at = _upload(at, QRELS, {"A.run": RUN_A, "C.run": b"q1 Q0 a 1 3.0 C\n"})
    assert not at.exception
    note = translate(lang, f"evaluate.trec_missing_{missing}", run="C", n=1, queries="q2")
    assert [c.value for c in at.caption].count(note) == 1
    assert not any("**A**" in c.value for c in at.caption)


#: q1's only retrieved item, dx, is unjudged; q1's judged pool is d1 (grade 1).
ALL_UNJUDGED_QRELS = b"q1 0 d1 1\nq2 0 d4 1\n"
ALL_UNJUDGED_RUN = b"q1 Q0 dx 1 0.9 r\nq2 Q0 d4 1 0.5 r\n"


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_evaluate_trec_query_with_only_unjudged_items_opens_against_its_pool(app, lang):
    """The query opened by default (lowest nDCG first: q1) retrieved only an unjudged item: its
    list is "?", its ideal the pool's d1, so DCG = 0, IDCG = 1 / log2(2) = 1, nDCG = 0; the
    Calculator opens it and computes the same."""
    at = _upload(app(page=PAGE, lang=lang), ALL_UNJUDGED_QRELS, {"r.run": ALL_UNJUDGED_RUN})
    assert not at.exception, [e.message for e in at.exception]
    assert at.selectbox(key="evaluate.trec_open_query").value == "q1"
    assert any(
        translate(lang, "evaluate.trec_open_all_unjudged") in md.value.replace("\\", "") for md in at.caption
    )
    at.button(key="evaluate.trec_open").click().run()
    assert not at.exception, [e.message for e in at.exception]
    ranking = at.session_state["lab.ranking"]
    assert ranking.n_judged == 0 and ranking.missed == (1.0,)
    metrics = nc.metrics(ranking.relevance, **ranking.judged_options())
    assert (metrics.dcg, metrics.idcg, metrics.ndcg) == (0.0, 1.0, 0.0)


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_evaluate_trec_query_with_only_unjudged_items_dropped_gets_a_note(app, lang):
    """With unjudged items dropped the list of q1 is empty: a note instead of the button."""
    at = app(page=PAGE, lang=lang, trec_unj="drop")
    at = _upload(at, ALL_UNJUDGED_QRELS, {"r.run": ALL_UNJUDGED_RUN})
    assert not at.exception, [e.message for e in at.exception]
    assert any(
        translate(lang, "evaluate.trec_open_nothing_judged", query="q1") in md.value.replace("\\", "")
        for md in at.caption
    )
    assert not [b for b in at.button if b.key == "evaluate.trec_open"]


def test_evaluate_trec_comparison_table_writes_a_difference_as_the_reading_does(app):
    """The comparison table and the reading below it write the poor run's mean difference the
    same way, its minus the true minus sign (U+2212) the charts write: the table wrote
    "-0.…" and the reading "−0.…". The mean is worked out here from the per-query nDCG@10."""
    at = app(page=PAGE, lang="en")
    good, poor = (translate("en", f"evaluate.sample_run_{name}") for name in ("good", "poor"))
    wide = _frame(at, "missing").pivot(index="query", columns="run", values="ndcg@10")
    mean = (wide[poor] - wide[good]).mean()
    assert mean < 0
    written = f"\u2212{abs(mean):.4f}"
    header = translate("en", "evaluate.trec_th_versus", baseline=good)
    table = static_tables(at, header)[0][0].set_index(header)
    assert table.loc[translate("en", "evaluate.trec_th_difference"), poor] == written
    low, high = table.loc[translate("en", "evaluate.trec_th_interval"), poor].strip("[]").split(", ")
    assert low.startswith("\u2212") and "-" not in low + high
    shown = [i.value for i in at.info] + [s.value for s in at.success] + [w.value for w in at.warning]
    assert sum(written in text for text in shown) == 1
