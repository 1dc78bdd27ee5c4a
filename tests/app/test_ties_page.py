"""The "scores and ties" page (AppTest): the induced ranking, the tie band, rounding, errors."""

from __future__ import annotations

from sklearn.metrics import ndcg_score as sk_ndcg

from ndcg_core.sklearn_compat import ndcg_score
from ndcg_core.ties import round_scores, tie_view
from ui.framework.i18n import translate

PAGE = "app_pages/2_Scores_and_ties.py"
GRADES, SCORES = [7, 4, 1, 0, 0], [0.9, 0.5, 0.6, 0.9, 0.9]


def _param(at, name):
    value = at.query_params.get(name)
    return value[-1] if isinstance(value, list) else value


def _metrics(at) -> dict[str, str]:
    return {m.label.replace("`", ""): m.value for m in at.metric}


def _reveal(at):
    return at.radio(key="ties.predict.guess").set_value("between").run()


def test_ties_page_preloads_the_practitioners_example(app):
    """The example is the page's own (``grades``): the shared ranking (``rel``) stays 3,2,0,0,1."""
    at = app(page=PAGE)
    assert not at.exception
    assert _param(at, "rel") == "3,2,0,0,1"
    assert _param(at, "grades") == "7,4,1,0,0"
    assert at.text_input(key="ties.grades").value == "7, 4, 1, 0, 0"
    assert _param(at, "scores") == "0.9,0.5,0.6,0.9,0.9"
    assert at.text_input(key="ties.scores").value == "0.9,0.5,0.6,0.9,0.9"


def test_ties_page_band_numbers_equal_the_core_and_scikit_learn(app):
    at = _reveal(app(page=PAGE))
    shown = _metrics(at)
    view = tie_view(GRADES, SCORES)
    assert shown["Worst order"] == f"{view.pessimistic:.4f}"
    assert shown["Best: sorted(zip)"] == f"{view.optimistic:.4f}"
    assert shown["Average (default)"] == f"{ndcg_score([GRADES], [SCORES]):.4f}" == "0.6934"
    assert shown["ignore_ties=True"] == f"{sk_ndcg([GRADES], [SCORES], ignore_ties=True):.4f}"
    assert at.success[0].value.startswith("Right")


def test_ties_page_shows_input_and_trec_eval_orders(app):
    """Input order puts the 7 first (0.89568); trec_eval puts D5, D4 before D1 (0.54651)."""
    at = _reveal(app(page=PAGE))
    shown = _metrics(at)
    view = tie_view(GRADES, SCORES)
    assert shown["Input order"] == f"{view.input:.4f}" == "0.8957"
    assert shown["trec_eval"] == f"{view.trec_eval:.4f}" == "0.5465"


def test_ties_page_ignore_ties_is_scikit_learns_number_on_the_issue_example(app):
    """Issue 11: the page showed 0.77181 ("later input first"); scikit-learn computes its own."""
    grades = [2, 3, 3, 0, 0, 3, 3, 0, 1, 3, 1, 1, 3, 1, 1]
    scores = [2, 2, 0, 0, 3, 3, 3, 2, 3, 1, 1, 3, 0, 1, 0]
    at = _reveal(app(page=PAGE, rel=",".join(map(str, grades)), scores=",".join(map(str, scores))))
    assert not at.exception
    expected = sk_ndcg([grades], [[float(x) for x in scores]], ignore_ties=True)
    assert _metrics(at)["ignore_ties=True"] == f"{expected:.4f}"


def test_ties_page_shows_scikit_learns_numbers_only_after_the_prediction(app):
    """The section under the prediction printed 0.8957 and 0.6934, its answer, before the
    learner chose (a review): now it follows the reveal."""
    at = app(page=PAGE, rel="3,2,0,0,1", scores="0.9,0.7,0.7,0.4,0.4")
    average = f"{tie_view([3, 2, 0, 0, 1], [0.9, 0.7, 0.7, 0.4, 0.4]).average:.4f}"
    title = translate("en", "ties.why_title")
    assert average not in " ".join(m.value for m in at.markdown)
    assert title not in [h.value for h in at.header]
    at = _reveal(at)
    assert average in " ".join(m.value for m in at.markdown)
    assert title in [h.value for h in at.header]


def test_ties_page_says_ignore_ties_is_arbitrary(app):
    at = _reveal(app(page=PAGE))
    helps = {m.label.replace("`", ""): m.help for m in at.metric}
    assert "arbitrary" in helps["ignore_ties=True"] and "machine" in helps["ignore_ties=True"]
    assert "later input item first" not in " ".join(h or "" for h in helps.values())


def test_ties_page_code_comments_are_chinese_on_the_chinese_page(app):
    at = _reveal(app(page=PAGE, lang="zh"))
    code = at.code[0].value
    assert "任取一种顺序" in code and "equal scores" not in code


def test_ties_page_marks_the_tied_rows(app):
    at = app(page=PAGE)
    table = at.dataframe[0].value
    assert table["Tie"].tolist() == ["tied ×3", "tied ×3", "tied ×3", "—", "—"]
    assert table["Item"].tolist()[3:] == ["D3", "D2"]


def test_ties_page_keeps_a_learners_own_ranking(app):
    at = app(page=PAGE, rel="3,1,2")
    assert _param(at, "rel") == "3,1,2"
    assert _param(at, "scores") == "3,2,1"
    assert "No two scores are equal" in at.info[0].value


def test_ties_page_rounding_makes_ties_and_widens_the_band(app):
    scores = "0.91,0.5,0.62,0.87,0.94"
    at = app(page=PAGE, rel="7,4,1,0,0", scores=scores)
    assert at.info and "ties.predict.guess" not in [r.key for r in at.radio]  # no ties: nothing to ask
    at.segmented_control(key="ties.dec").set_value(1).run()
    assert _param(at, "dec") == "1"
    view = tie_view(GRADES, round_scores([0.91, 0.5, 0.62, 0.87, 0.94], 1))
    assert view.n_tied_items == 3
    shown = _metrics(_reveal(at))  # a band now: asked first
    assert shown["Worst order"] == f"{view.pessimistic:.4f}"
    assert shown["Best: sorted(zip)"] == f"{view.optimistic:.4f}"


def test_ties_page_typed_scores_go_to_the_link(app):
    at = app(page=PAGE)
    at.text_input(key="ties.scores").set_value("1 1 1 0 0").run()
    assert _param(at, "scores") == "1,1,1,0,0"
    assert not at.error


def test_ties_page_typed_junk_shows_a_message_and_keeps_working(app):
    at = app(page=PAGE)
    at.text_input(key="ties.scores").set_value("0.9, high").run()
    assert not at.exception
    assert "not a number" in at.error[0].value
    assert _param(at, "scores") == "0.9,0.5,0.6,0.9,0.9"


def test_ties_page_malformed_link_shows_messages_not_a_crash(app):
    at = app(page=PAGE, rel="7,4,1", scores="1,<b>", dec="many")
    assert not at.exception
    messages = " ".join(e.value for e in at.error)
    assert "decimals" in messages
    assert "not a number" in messages


def test_ties_page_scores_of_another_length_say_so(app):
    at = app(page=PAGE, rel="7,4,1", scores="1,2")
    assert not at.exception
    assert "same length" in at.error[0].value


def test_ties_page_mistake_and_repair_match_scikit_learn(app):
    at = app(page=PAGE)
    at.radio(key="ties.predict.slip").set_value("no").run()
    values = [m.value for m in at.metric if m.label == "ndcg_score"]
    assert values == [
        f"{sk_ndcg([[3, 2, 1, 0, 0]], [[3, 2, 0, 0, 1]]):.5f}",
        f"{sk_ndcg([[3, 2, 0, 0, 1]], [[5, 4, 3, 2, 1]]):.4f}",
    ]


def test_ties_page_in_chinese(app):
    at = app(page=PAGE, lang="zh")
    assert not at.exception
    assert at.title[0].value == "模型分数与并列"


def test_presenter_mode_shows_the_ranking_as_a_static_table(app):
    at = app(page=PAGE, present="1")
    assert not at.exception
    assert len(at.dataframe) == 0
    shown = at.table[0].value
    assert "Score group" in shown.columns and len(shown) == len(app(page=PAGE).dataframe[0].value)


def test_ties_page_without_ties_shows_one_ndcg_not_six_treatments(app):
    at = app(page=PAGE, rel="3,2,0", scores="0.9,0.5,0.1")
    assert not at.exception
    assert "nDCG@3 of the one order the scores give" in [h.value for h in at.header]
    # no ties: the worst, the average and the best are one number, so nothing is asked (one of
    # three equal answers was judged right, "At the worst end" wrong)
    assert "ties.predict.guess" not in [r.key for r in at.radio]
    assert translate("en", "ties.reveal_none") in [i.value for i in at.info]
    # the scores' order is the list's order: sklearn's nDCG of these grades under these scores
    assert _metrics(at) == {"nDCG@3": f"{sk_ndcg([[3, 2, 0]], [[0.9, 0.5, 0.1]], k=3):.4f}"}


def test_ties_page_phone_table_shades_the_tied_rows(app):
    """The static copy for phones (no sideways scroll) keeps the tied rows shaded."""
    at = app(page=PAGE)
    table = next(m.value for m in at.markdown if m.value.startswith("| ") and "Score group" in m.value)
    rows = table.splitlines()[2:]
    assert [":orange-background[" in row for row in rows] == [True, True, True, False, False]
    assert [row.count(":orange-background[") for row in rows[:3]] == [6, 6, 6]  # every cell


def test_presenter_mode_draws_no_phone_copy_of_the_ranking(app):
    at = app(page=PAGE, present="1")
    assert not any(m.value.startswith("| ") and "Score group" in m.value for m in at.markdown)


def test_ties_page_typed_error_shows_only_the_current_inputs_message(app):
    at = app(page=PAGE)
    at.text_input(key="ties.scores").set_value("0.9, 0.5, 0.6, 0.9").run()
    assert "same length" in " ".join(e.value for e in at.error)  # 5 grades, 4 scores
    at.text_input(key="ties.scores").set_value("nan, 0.5, 0.6, 0.9, 0.9").run()
    assert not at.exception
    messages = [e.value for e in at.error]
    assert len(messages) == 1
    assert "nan" in messages[0]
    assert "same length" not in messages[0]


def test_ties_page_typed_error_in_chinese_drops_the_stale_length_message(app):
    at = app(page=PAGE, lang="zh")
    at.text_input(key="ties.scores").set_value("0.9, 0.5, 0.6, 0.9").run()
    at.text_input(key="ties.scores").set_value("nan, 0.5, 0.6, 0.9, 0.9").run()
    messages = " ".join(e.value for e in at.error)
    assert len(at.error) == 1
    assert "长度必须相同" not in messages


def test_ties_page_fixed_input_brings_the_ranking_back(app):
    at = app(page=PAGE)
    at.text_input(key="ties.scores").set_value("nan, 0.5, 0.6, 0.9, 0.9").run()
    at.text_input(key="ties.scores").set_value("0.9, 0.5, 0.6, 0.9, 0.8").run()
    assert not at.error
    assert _param(at, "scores") == "0.9,0.5,0.6,0.9,0.8"
    assert _reveal(at).metric


# --- rows named after a tool carry that tool's number, under the page's gain and discount ------


def _gains_qrels_ndcg(gains, scores, k):
    """pytrec_eval (trec_eval 9) on qrels holding the gains themselves, ids D1, D2, ..."""
    import pytrec_eval

    ids = [f"D{i}" for i in range(1, len(gains) + 1)]
    qrels = {"q": dict(zip(ids, map(int, gains), strict=True))}
    run = {"q": dict(zip(ids, map(float, scores), strict=True))}
    return pytrec_eval.RelevanceEvaluator(qrels, {f"ndcg_cut.{k}"}).evaluate(run)["q"][f"ndcg_cut_{k}"]


def _texts(at):
    return [c.value for c in at.caption] + [c.value for c in at.code] + [m.value for m in at.markdown]


def test_ties_page_exponential_gain_rows_are_the_tools_calls_with_gains_applied(app):
    """Issue 23 item 2: with exponential gain the scikit-learn row said 0.7041 under its name
    though ndcg_score gives 0.6934; 0.7041 is ndcg_score on the gains 127, 15, 1, 0, 0."""
    for lang, average, trec in (
        ("en", "Average (default)", "trec_eval"),
        ("zh", "平均（默认）", "trec_eval"),
    ):
        at = _reveal(
            app(
                page=PAGE, rel="7,4,1,0,0", scores="0.9,0.5,0.6,0.9,0.9", k="5", gain="exponential", lang=lang
            )
        )
        assert not at.exception
        shown = _metrics(at)
        gains = [127, 15, 1, 0, 0]
        assert shown[average] == f"{sk_ndcg([gains], [SCORES]):.4f}" == "0.7041"
        assert shown[trec] == f"{_gains_qrels_ndcg(gains, SCORES, 5):.4f}" == "0.5091"
        texts = "\n".join(_texts(at))
        assert "ndcg_score([2 ** np.asarray(grades) - 1], [scores], k=5)" in texts
        assert (
            "trec_eval -m ndcg_cut.5 qrels run  # qrels: 2^rel − 1 for each grade (127, 15, 1, 0, 0)" in texts
        )
        assert ("exponential (2^rel − 1)" if lang == "en" else "指数") in texts
        # the "why" paragraph is scikit-learn's own call on the grades: 0.6934
        assert f"{sk_ndcg([GRADES], [SCORES]):.4f}" in texts


def test_ties_page_jarvelin_discount_drops_the_tools_names(app):
    """No tool offers Järvelin and Kekäläinen's discount: no row may carry a tool's name."""
    for lang in ("en", "zh"):
        at = _reveal(
            app(page=PAGE, rel="7,4,1,0,0", scores="0.9,0.5,0.6,0.9,0.9", disc="jarvelin", lang=lang)
        )
        assert not at.exception
        labels = [m.label for m in at.metric]
        tools = ("scikit-learn", "trec_eval", "LightGBM", "XGBoost", "ignore_ties", "default", "默认")
        assert len(labels) == 6
        assert not [x for x in labels if any(name in x for name in tools)], labels
        assert not [m.help for m in at.metric if "scikit-learn default" in m.help]
        texts = "\n".join(_texts(at))
        assert "ndcg_score(" not in texts.split("ranked = sorted")[0]  # no call above the "why"
        assert ("Järvelin–Kekäläinen" in texts) and (
            "no call" in texts if lang == "en" else "任何调用" in texts
        )


def test_ties_page_default_settings_show_the_calls_of_the_named_rows(app):
    at = _reveal(app(page=PAGE, rel="7,4,1,0,0", scores="0.9,0.5,0.6,0.9,0.9", k="5"))
    shown = _metrics(at)
    assert shown["Average (default)"] == f"{sk_ndcg([GRADES], [SCORES], k=5):.4f}"
    assert shown["trec_eval"] == f"{_gains_qrels_ndcg(GRADES, SCORES, 5):.4f}"
    texts = "\n".join(_texts(at))
    assert "ndcg_score([grades], [scores], k=5)" in texts
    assert "trec_eval -m ndcg_cut.5 qrels run" in texts
    # linear gain: LightGBM and XGBoost return the input-order row only when told so (their
    # default gain is 2^rel - 1, which gives 0.9728, not 0.8957)
    assert '"label_gain": [0, 1, 2, 3, 4, 5, 6, 7]' in texts
    assert "ndcg_exp_gain=False" in texts
    assert shown["Input order"] == "0.8957"
