"""The Evaluate a run page (AppTest): shown numbers equal the core's (and scikit-learn's),
options live in the link, every bad upload gives a translated message, the worst query opens
in the Calculator with the system's order."""

from __future__ import annotations

import io

import numpy as np
import pandas as pd
import pytest
import streamlit as st
from app_helpers import static_table
from sklearn.metrics import ndcg_score

import ndcg_core as nc
from ndcg_teach.samples import sample_run
from ui.framework.i18n import error_text, translate
from ui.framework.state import MAX_ITEMS
from ui.framework.text import md_escape
from ui.views import evaluate as ev

PAGE = "app_pages/7_Evaluate_a_run.py"
SMALL_CSV = (
    b"query,item,relevance,score\n"
    b"a,x,3,0.1\na,y,0,0.9\na,z,1,0.5\n"
    b"b,u,2,0.7\nb,v,0,0.7\nb,w,1,0.2\n"
    b"c,p,0,0.3\nc,q,0,0.1\n"
)


def _metrics(at) -> dict[str, str]:
    return {m.label: m.value for m in at.metric}


def _upload(at, data: bytes, name: str = "run.csv"):
    at.radio(key="evaluate.source").set_value("upload").run()
    at.file_uploader(key="evaluate.file").set_value((name, data, "text/csv"))
    return at.run()


def _sample() -> pd.DataFrame:
    return sample_run(ev.SAMPLE_QUERIES, seed=ev.SAMPLE_SEED)


def test_evaluate_sample_run_mean_equals_core(app):
    at = app(page=PAGE, eval_form="table")
    assert not at.exception
    run = nc.evaluate_run(_sample(), k=10)
    shown = _metrics(at)
    assert shown["Mean nDCG@10"] == f"{run.mean:.4f}"
    assert shown["Queries"] == f"{run.n_queries:,}"
    assert shown["Nothing relevant"] == f"{run.n_no_relevant:,}"


def test_evaluate_link_options_select_widgets_and_numbers(app):
    at = app(
        page=PAGE,
        eval_form="table",
        eval_k="5",
        eval_gain="exponential",
        eval_ties="input",
        eval_norel="drop",
    )
    assert not at.exception
    assert at.selectbox(key="evaluate.k").value == 5
    assert at.selectbox(key="evaluate.ties").value == "input"
    run = nc.evaluate_run(_sample(), k=5, gain="exponential", ties="input", no_relevant="drop")
    assert _metrics(at)["Mean nDCG@5"] == f"{run.mean:.4f}"


def test_evaluate_changing_k_updates_link_and_mean(app):
    at = app(page=PAGE, eval_form="table")
    at.selectbox(key="evaluate.k").set_value(3).run()
    assert at.query_params["eval_k"] == "3"
    assert _metrics(at)["Mean nDCG@3"] == f"{nc.evaluate_run(_sample(), k=3).mean:.4f}"


def test_evaluate_whole_list_k_is_all_in_link(app):
    at = app(page=PAGE, eval_form="table")
    at.selectbox(key="evaluate.k").set_value("all").run()
    assert at.query_params["eval_k"] == "all"
    label = f"Mean nDCG@{translate('en', 'evaluate.k_all')}"
    assert _metrics(at)[label] == f"{nc.evaluate_run(_sample(), k=None).mean:.4f}"


def test_evaluate_bad_link_option_shows_translated_error_and_falls_back(app):
    """The message names the link's parameter (eval_ties), which is what was typed wrong."""
    at = app(page=PAGE, eval_form="table", eval_ties="random", lang="zh")
    assert not at.exception
    expected = nc.NDCGInputError(
        "unknown_option",
        option="eval_ties",
        allowed="average, optimistic, pessimistic, input, trec_eval",
        got="random",
    )
    assert [e.value for e in at.error] == [md_escape(error_text("zh", expected))]
    assert at.selectbox(key="evaluate.ties").value == "average"
    assert _metrics(at)["平均 nDCG@10"] == f"{nc.evaluate_run(_sample(), k=10).mean:.4f}"


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_evaluate_ties_ignore_link_names_the_alternatives(app, lang):
    """'ignore' is refused for a run: the message (in the page's language) names input and
    trec_eval, and the page falls back to average."""
    at = app(page=PAGE, eval_form="table", eval_ties="ignore", lang=lang)
    assert not at.exception
    with pytest.raises(nc.NDCGInputError) as caught:
        nc.evaluate(_sample(), ties="ignore")
    assert caught.value.key == "ties_ignore_batch"
    assert [e.value for e in at.error] == [md_escape(error_text(lang, caught.value))]
    assert at.selectbox(key="evaluate.ties").value == "average"


def test_evaluate_trec_eval_ties_mean_equals_core(app):
    at = app(page=PAGE, eval_form="table", eval_ties="trec_eval")
    assert not at.exception
    run = nc.evaluate_run(_sample(), k=10, ties="trec_eval")
    assert _metrics(at)["Mean nDCG@10"] == f"{run.mean:.4f}"


def test_evaluate_states_the_upload_size_limit(app):
    at = _upload(app(page=PAGE, eval_form="table"), SMALL_CSV)
    limit = st.get_option("server.maxUploadSize")
    assert any(f"{limit} MB" in c.value for c in at.caption)


def test_evaluate_upload_csv_mean_equals_core(app):
    at = _upload(app(page=PAGE, eval_form="table"), SMALL_CSV)
    assert not at.exception
    run = nc.evaluate_run(pd.read_csv(io.BytesIO(SMALL_CSV)), k=10)
    assert _metrics(at)["Mean nDCG@10"] == f"{run.mean:.4f}"
    assert _metrics(at)["Queries"] == "3"
    assert _metrics(at)["Nothing relevant"] == "1"


def test_evaluate_upload_worst_table_equals_scikit_learn_per_query(app):
    """Queries a and b have something relevant; their nDCG@2 is scikit-learn's (ties averaged)."""
    at = _upload(app(page=PAGE, eval_form="table", eval_k="2"), SMALL_CSV)
    table = at.dataframe[0].value.set_index("query")
    frame = pd.read_csv(io.BytesIO(SMALL_CSV))
    assert sorted(table.index) == ["a", "b"]
    for query, rows in frame.groupby("query"):
        if query == "c":
            continue
        expected = ndcg_score([rows["relevance"].to_numpy()], [rows["score"].to_numpy()], k=2)
        assert table.loc[query, "ndcg"] == pytest.approx(expected, abs=1e-12)
    assert list(table.index) == ["a", "b"]  # lowest first


def test_evaluate_worst_queries_in_presenter_mode_are_a_large_static_table(app):
    """On a projector the worst queries are a static table the presenter style sheet enlarges,
    with the interactive table's headers and four decimals (scikit-learn's values, as above)."""
    at = _upload(app(page=PAGE, eval_form="table", eval_k="2", present="1"), SMALL_CSV)
    assert not at.exception
    assert not [d for d in at.dataframe if "ndcg" in d.value.columns and len(d.value) == 2]
    table = static_table(at, "nDCG@2").set_index(translate("en", "evaluate.th_query"))
    frame = pd.read_csv(io.BytesIO(SMALL_CSV))
    assert list(table.index) == ["a", "b"]  # lowest first
    for query in ("a", "b"):
        rows = frame[frame["query"] == query]
        expected = ndcg_score([rows["relevance"].to_numpy()], [rows["score"].to_numpy()], k=2)
        assert table.loc[query, "nDCG@2"] == f"{expected:.4f}"
        assert table.loc[query, translate("en", "evaluate.th_items")] == "3"


def test_evaluate_upload_parquet_is_read(app):
    buffer = io.BytesIO()
    pd.read_csv(io.BytesIO(SMALL_CSV)).to_parquet(buffer)
    at = _upload(app(page=PAGE, eval_form="table"), buffer.getvalue(), name="run.parquet")
    assert not at.exception
    run = nc.evaluate_run(pd.read_csv(io.BytesIO(SMALL_CSV)), k=10)
    assert _metrics(at)["Mean nDCG@10"] == f"{run.mean:.4f}"


BAD_FILES = {
    "not_csv": b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x00\x10\xff\xfe\x00",
    "empty": b"",
    "header_only": b"query,item,relevance,score\n",
    "non_numeric": b"query,item,relevance,score\na,x,3,0.1\na,y,high,0.9\n",
    "missing_value": b"query,item,relevance,score\na,x,3,0.1\na,y,,0.9\n",
    "negative": b"query,item,relevance,score\na,x,3,0.1\na,y,-1,0.9\n",
    "duplicate_pair": b"query,item,relevance,score\na,x,3,0.1\na,x,1,0.9\n",
}


def _core_error(data: bytes) -> nc.NDCGInputError:
    with pytest.raises(nc.NDCGInputError) as caught:
        nc.evaluate(nc.read_run(data, name="bad.csv"))
    return caught.value


@pytest.mark.parametrize("case", sorted(BAD_FILES))
def test_evaluate_bad_upload_shows_translated_message(app, case):
    at = _upload(app(page=PAGE, eval_form="table", lang="zh"), BAD_FILES[case], name="bad.csv")
    assert not at.exception
    assert [e.value for e in at.error] == [md_escape(error_text("zh", _core_error(BAD_FILES[case])))]
    assert not at.metric


def test_evaluate_missing_columns_ask_for_a_choice(app):
    at = _upload(app(page=PAGE, eval_form="table"), b"id,value\na,1\n")
    assert not at.exception
    assert at.selectbox(key="evaluate.col_score").value is None
    assert any(i.value == translate("en", "evaluate.choose_columns") for i in at.info)
    assert not at.metric


def test_evaluate_sample_still_works_after_a_bad_upload(app):
    at = _upload(app(page=PAGE, eval_form="table"), BAD_FILES["negative"])
    assert at.error
    at.radio(key="evaluate.source").set_value("sample").run()
    assert not at.exception
    assert not at.error
    assert _metrics(at)["Mean nDCG@10"] == f"{nc.evaluate_run(_sample(), k=10).mean:.4f}"


def test_evaluate_chosen_columns_are_used(app):
    data = b"qid,doc,grade,pred,other\na,x,3,0.1,9\na,y,0,0.9,1\nb,u,1,0.7,2\nb,v,0,0.2,3\n"
    at = _upload(app(page=PAGE, eval_form="table"), data)
    assert at.selectbox(key="evaluate.col_score").value == "pred"
    at.selectbox(key="evaluate.col_score").set_value("other").run()
    frame = pd.read_csv(io.BytesIO(data))
    run = nc.evaluate_run(frame, k=10, query="qid", relevance="grade", score="other", item="doc")
    assert _metrics(at)["Mean nDCG@10"] == f"{run.mean:.4f}"


def test_evaluate_open_worst_query_in_calculator_in_system_order(app):
    """Query a is ranked y (score 0.9), z (0.5), x (0.1): grades 0, 1, 3 in that order."""
    at = _upload(app(page=PAGE, eval_form="table"), SMALL_CSV)
    assert at.selectbox(key="evaluate.open_query").value == "a"
    at.button(key="evaluate.open").click().run()
    assert not at.exception
    ranking = at.session_state["lab.ranking"]
    assert ranking.relevance == (0.0, 1.0, 3.0)
    assert ranking.labels == ("y", "z", "x")
    assert ranking.k is None  # k = 10 is longer than the query


def test_query_link_keeps_top_100_of_a_long_query():
    n = MAX_ITEMS + 20
    frame = pd.DataFrame(
        {
            "query": ["q"] * n,
            "item": [f"d{i}" for i in range(n)],
            "relevance": np.arange(n) % 4,
            "score": np.arange(n, dtype=float),
        }
    )
    columns = ev.Columns(query="query", relevance="relevance", score="score", item="item")
    link = ev.query_link(frame, "q", columns, ev.TableOptions(k=10))
    assert link.truncated and link.n_items == n
    assert link.ranking.relevance == tuple(float((n - 1 - i) % 4) for i in range(MAX_ITEMS))
    assert link.ranking.labels[0] == f"d{n - 1}"
    assert link.ranking.k == 10


def test_query_link_falls_back_to_default_names_for_bad_item_ids():
    frame = pd.DataFrame({"query": [1, 1], "item": ["x" * 61, "y"], "relevance": [1, 0], "score": [0.2, 0.8]})
    columns = ev.Columns(query="query", relevance="relevance", score="score", item="item")
    link = ev.query_link(frame, 1, columns, ev.TableOptions(k=None, gain="exponential"))
    assert link.default_labels
    assert link.ranking.labels == ("D1", "D2")
    assert link.ranking.relevance == (0.0, 1.0)
    assert link.ranking.gain == "exponential"


def test_query_link_ties_follow_the_tie_policy():
    frame = pd.DataFrame({"query": ["a"] * 3, "relevance": [0, 2, 1], "score": [0.5, 0.5, 0.9]})
    columns = ev.Columns(query="query", relevance="relevance", score="score")
    optimistic = ev.query_link(frame, "a", columns, ev.TableOptions(ties="optimistic"))
    pessimistic = ev.query_link(frame, "a", columns, ev.TableOptions(ties="pessimistic"))
    assert optimistic.tied and optimistic.ranking.relevance == (1.0, 2.0, 0.0)
    assert pessimistic.ranking.relevance == (1.0, 0.0, 2.0)


def test_guess_columns_uses_usual_names_and_synonyms():
    assert ev.guess_columns(["QID", "docno", "label", "score", "x"]) == {
        "query": "QID",
        "item": "docno",
        "relevance": "label",
        "score": "score",
    }
    assert ev.guess_columns(["a", "b"]) == dict.fromkeys(ev.ROLES)


def test_worst_queries_leave_out_queries_with_nothing_relevant():
    per_query = nc.evaluate(pd.read_csv(io.BytesIO(SMALL_CSV)))
    assert list(ev.worst_queries(per_query)["query"]) == ["a", "b"]


def test_per_query_csv_round_trips_the_core_table():
    per_query = nc.evaluate(pd.read_csv(io.BytesIO(SMALL_CSV)), k=2)
    back = pd.read_csv(io.BytesIO(ev.per_query_csv(per_query)()))
    pd.testing.assert_frame_equal(back, per_query, check_dtype=False)


def test_evaluate_nothing_relevant_anywhere_gives_undefined_mean_when_dropped(app):
    data = b"query,relevance,score\na,0,0.2\na,0,0.1\nb,0,0.5\n"
    at = _upload(app(page=PAGE, eval_form="table", eval_norel="drop"), data)
    assert not at.exception
    assert _metrics(at)["Mean nDCG@10"] == "—"
    assert _metrics(at)["Nothing relevant"] == "2"
    assert [w.value for w in at.warning] == [translate("en", "evaluate.mean_undefined")]
    assert "evaluate.open" not in [b.key for b in at.button]  # no worst query to open


def test_evaluate_item_column_can_be_left_out(app):
    """Without an item column the duplicate-pair check is skipped: a repeated id is allowed."""
    data = BAD_FILES["duplicate_pair"]
    at = _upload(app(page=PAGE, eval_form="table"), data)
    assert at.error
    at.selectbox(key="evaluate.col_item").select_index(0).run()  # "(none)"
    assert not at.exception
    assert not at.error
    run = nc.evaluate_run(pd.read_csv(io.BytesIO(data)), k=10, item=None)
    assert _metrics(at)["Mean nDCG@10"] == f"{run.mean:.4f}"


def test_evaluate_next_file_gets_its_own_column_choices(app):
    """After a file without an item column, a file with one uses it (trec_eval ties need it).

    Ties at score 0.5 in query a: trec_eval ranks item id descending, "y" before "x", so the
    grade-0 item comes first: DCG = 0 + 1/log2(3), IDCG = 1, nDCG = 1/log2(3) = 0.6309.
    """
    at = _upload(
        app(page=PAGE, eval_form="table", eval_ties="trec_eval"), b"query,relevance,score\nq,1,0.5\n"
    )
    at = _upload(at, b"query,item,relevance,score\na,x,1,0.5\na,y,0,0.5\n", name="second.csv")
    assert not at.exception and not at.error
    assert _metrics(at)["Mean nDCG@10"] == f"{1 / np.log2(3):.4f}" == "0.6309"


def _chart_tables(at) -> list[pd.DataFrame]:
    """Every dataset of every chart on the page, as the browser receives it (Arrow)."""
    import pyarrow as pa

    found: list[pd.DataFrame] = []

    def walk(node) -> None:
        if str(getattr(node, "type", "")) in ("vega_lite_chart", "arrow_vega_lite_chart"):
            found.extend(pa.ipc.open_stream(d.data.data).read_all().to_pandas() for d in node.proto.datasets)
        children = getattr(node, "children", None)
        for child in children.values() if isinstance(children, dict) else ():
            walk(child)

    for root in (at.main, at.sidebar):  # the page's public roots
        walk(root)
    return found


def test_evaluate_histogram_gets_one_row_per_band_not_per_query(app):
    """The sample run's 200 queries reach the browser as 20 counted bands that sum to 200."""
    at = app(page=PAGE, eval_form="table")
    tables = _chart_tables(at)
    counted = [table for table in tables if "count" in table.columns]
    assert [len(table) for table in counted] == [20]
    assert counted[0]["count"].sum() == ev.SAMPLE_QUERIES == 200
    assert all(len(table) < ev.SAMPLE_QUERIES for table in tables)


# --------------------------------------------------------------------------- issue 14: kept between pages


def test_evaluate_upload_is_kept_after_a_visit_to_the_calculator(app):
    """Open the worst query in the Calculator, come back: the same file, named, same mean."""
    at = _upload(app(page=PAGE, eval_form="table"), SMALL_CSV, name="mine.csv")
    mean = _metrics(at)["Mean nDCG@10"]
    at.button(key="evaluate.open").click().run()
    at.switch_page(PAGE).run()
    assert not at.exception
    assert at.radio(key="evaluate.source").value == "upload"
    assert (
        _metrics(at)["Mean nDCG@10"]
        == mean
        == f"{nc.evaluate_run(pd.read_csv(io.BytesIO(SMALL_CSV))).mean:.4f}"
    )
    assert _metrics(at)["Queries"] == "3"
    assert any(c.value == translate("en", "evaluate.showing", name=md_escape("mine.csv")) for c in at.caption)


def test_evaluate_names_the_sample_it_shows(app):
    at = app(page=PAGE, eval_form="table", lang="zh")
    name = translate("zh", "evaluate.sample_name")
    assert any(c.value == translate("zh", "evaluate.showing", name=md_escape(name)) for c in at.caption)


def test_evaluate_forget_drops_the_kept_upload(app):
    at = _upload(app(page=PAGE, eval_form="table"), SMALL_CSV)
    at.switch_page("app_pages/0_Calculator.py").run()
    at.switch_page(PAGE).run()
    at.button(key="evaluate.forget").click().run()
    assert not at.exception
    assert not at.metric
    assert any(i.value == translate("en", "evaluate.upload_prompt") for i in at.info)


def test_calculator_opened_from_evaluate_names_query_and_links_back(app):
    at = _upload(app(page=PAGE, eval_form="table"), SMALL_CSV, name="mine.csv")
    at.button(key="evaluate.open").click().run()
    at.switch_page("app_pages/0_Calculator.py").run()
    assert not at.exception
    expected = translate("en", "evaluate.origin_query_table", query="a", source=md_escape("mine.csv"))
    assert [i.value for i in at.info if i.value == expected] == [expected]
    links = [e for e in at.get("page_link") if e.proto.label == translate("en", "evaluate.origin_back")]
    assert links and links[0].proto.page.endswith("Evaluate_a_run")
