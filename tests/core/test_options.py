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
