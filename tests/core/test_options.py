"""The options of an evaluation: one vocabulary, checked on construction."""

import pytest

import ndcg_core as nc
from ndcg_core.options import Options, check_ties, parse_cutoffs


def test_parse_cutoffs_keeps_the_order_given_and_drops_repeats():
    assert parse_cutoffs("20,5, 10,5") == (20, 5, 10)


@pytest.mark.parametrize("bad", ["", "5,", "0", "-1", "5.5", "five", 0, 2.0, True, [], [3, "4"]])
def test_parse_cutoffs_refuses_what_is_not_whole_numbers_of_at_least_one(bad):
    with pytest.raises(nc.NDCGInputError) as error:
        parse_cutoffs(bad)
    assert error.value.key == "k_invalid"


def test_options_names_one_column_per_cutoff_in_the_ir_way():
    assert Options(k=[5, 10, 20]).columns == ("ndcg@5", "ndcg@10", "ndcg@20")


@pytest.mark.parametrize("field", ["gain", "discount", "ideal", "unjudged", "missing", "no_relevant"])
def test_options_refuses_an_unknown_value_naming_the_option(field):
    with pytest.raises(nc.NDCGInputError) as error:
        Options(**{field: "nonsense"})
    assert error.value.params["option"] == field


def test_check_ties_refuses_ignore_with_its_own_message():
    with pytest.raises(nc.NDCGInputError) as error:
        check_ties("ignore")
    assert error.value.key == "ties_ignore_batch"


def test_options_is_frozen():
    options = Options()
    with pytest.raises(AttributeError):
        options.ideal = "pool"  # type: ignore[misc]


def test_every_option_of_options_has_one_description():
    assert set(nc.DESCRIPTIONS) == set(Options.__dataclass_fields__)


# --------------------------------------------------------------------------- engines take Options

_RUN = {
    "query": ["a"] * 5 + ["b"] * 3,
    "relevance": [3, 2, 0, 0, 1, 0, 1, 2],
    "score": [5, 4, 3, 2, 1, 3, 2, 1],
}


def test_evaluate_run_with_options_equals_scikit_learn_on_each_query():
    import pandas as pd
    from sklearn.metrics import ndcg_score

    result = nc.evaluate_run(pd.DataFrame(_RUN), options=Options(k=3, gain="exponential"))
    a = ndcg_score([[7, 3, 0, 0, 1]], [[5, 4, 3, 2, 1]], k=3)
    b = ndcg_score([[0, 1, 3]], [[3, 2, 1]], k=3)
    assert result.per_query["ndcg"].tolist() == pytest.approx([a, b], abs=1e-12)
    assert result.mean == pytest.approx((a + b) / 2, abs=1e-12)


def test_an_engine_refuses_options_and_a_differing_keyword_together():
    import pandas as pd

    with pytest.raises(nc.NDCGInputError) as error:
        nc.evaluate_run(pd.DataFrame(_RUN), options=Options(k=3), gain="exponential")
    assert error.value.key == "options_and_keywords"
    assert error.value.params["names"] == "gain"
    with pytest.raises(nc.NDCGInputError) as error:
        nc.evaluate_trec(b"q 0 a 1\n", [b"q Q0 a 1 1.0 r\n"], options=Options(k=3), ties="input")
    assert error.value.params["names"] == "ties"


@pytest.mark.parametrize(
    ("options", "key"),
    [
        (Options(ideal="pool"), "options_need_qrels"),
        (Options(grades="truncate"), "options_need_qrels"),
        (Options(k="5,10"), "options_one_cutoff"),
    ],
)
def test_a_one_file_run_refuses_options_it_has_no_use_for(options, key):
    import pandas as pd

    with pytest.raises(nc.NDCGInputError) as error:
        nc.evaluate_run(pd.DataFrame(_RUN), options=options)
    assert error.value.key == key


def test_evaluate_trec_with_options_takes_every_choice_from_them():
    """q1: run b (1), x (unjudged), a (2); with unjudged="drop" the list is b, a:
    DCG = 1 + 2/log2(3), IDCG = 2 + 1/log2(3) (the pool a 2, b 1, c 0)."""
    qrels = b"q1 0 a 2\nq1 0 b 1\nq1 0 c 0\n"
    run = b"q1 Q0 b 1 3.0 r\nq1 Q0 x 2 2.0 r\nq1 Q0 a 3 1.0 r\n"
    log3 = 1.584962500721156
    result = nc.evaluate_trec(
        qrels, {"r": run}, options=Options(k=5, ties="trec_eval", ideal="pool", unjudged="drop")
    )
    assert result.mean_rows[0]["ndcg@5"] == pytest.approx((1 + 2 / log3) / (2 + 1 / log3), abs=1e-12)


def test_the_trec_defaults_are_trec_evals():
    from ndcg_core.options import TREC_DEFAULTS

    assert (TREC_DEFAULTS.k, TREC_DEFAULTS.ties, TREC_DEFAULTS.ideal, TREC_DEFAULTS.missing) == (
        (10,),
        "trec_eval",
        "pool",
        "zero",
    )
