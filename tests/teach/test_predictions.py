"""The app's predict-first questions: options and the right one, against hand-computed numbers
(TEACHING.md §1-§4, §7), never against a copy of what the code printed."""

from __future__ import annotations

import math

import pytest

import ndcg_core as nc
from ndcg_teach.predictions import PROMPTS, decide, prompt_discount
from ndcg_teach.questions import sampled_positions

WORKED = [3, 2, 0, 0, 1]
L2 = math.log2
# DCG@3 and IDCG@3 of the worked example [3, 2, 0, 0, 1] (TEACHING.md §1)
DCG3 = 3 + 2 / L2(3)
IDCG3 = 3 + 2 / L2(3) + 1 / L2(4)


def test_decide_lesson_dcg_cg_is_larger_when_a_discount_bites():
    d = decide("lesson.dcg", relevance=WORKED, k=3)
    assert d.correct == "cg"  # CG@3 = 5 > DCG@3 = 3 + 2/log2(3) = 4.2619
    assert d.values["cg"] == 5 and d.values["dcg"] == pytest.approx(DCG3)


def test_decide_lesson_dcg_equal_at_k_one():
    assert decide("lesson.dcg", relevance=WORKED, k=1).correct == "equal"  # 3 and 3/log2(2)


def test_decide_lesson_cg_changes_when_swap_crosses_k():
    d = decide("lesson.cg", relevance=WORKED, k=3)
    assert d.correct == "yes" and (d.values["before"], d.values["after"]) == (5, 1 + 2 + 0)


def test_decide_lesson_cg_whole_list_swap_changes_nothing():
    assert decide("lesson.cg", relevance=WORKED).correct == "no"


def test_decide_lesson_cg_single_item():
    d = decide("lesson.cg", relevance=[2])
    assert d.correct == "no" and d.values["single"]


def test_decide_lesson_idcg_dcg_never_exceeds_it():
    d = decide("lesson.idcg", relevance=WORKED, k=3)
    assert d.correct == "no" and d.values["idcg"] == pytest.approx(IDCG3)


@pytest.mark.parametrize(
    ("relevance", "k", "bucket"),
    [
        (WORKED, 3, "mid"),  # (3 + 2/log2 3) / (3 + 2/log2 3 + 1/2) = 0.8950
        ([0, 0, 1], None, "mid"),  # (1/log2 4) / 1 = 0.5: the boundary is "mid"
        ([0, 0, 0, 1], None, "low"),  # 1/log2(5) = 0.4307
        ([3, 2, 1], None, "high"),  # already ideal: 1
    ],
)
def test_decide_lesson_ndcg_bucket(relevance, k, bucket):
    assert decide("lesson.ndcg", relevance=relevance, k=k).correct == bucket


def test_decide_lesson_bases_ndcg_does_not_move():
    d = decide("lesson.bases", relevance=WORKED)
    assert d.correct == "same" and d.values["ndcg"] == pytest.approx(4.6487 / 4.7619, abs=1e-4)


def test_decide_lesson_which_ideal_pool_is_lower_for_worked_example():
    d = decide("lesson.which_ideal", relevance=WORKED)
    dcg = 3 + 2 / L2(3) + 1 / L2(6)
    pooled_idcg = 3 + 3 / L2(3) + 2 / L2(4) + 2 / L2(5) + 1 / L2(6)  # ideal of [3, 3, 2, 2, 1, 0, 0]
    assert d.correct == "lower"
    assert d.values["pool"] == pytest.approx(dcg / pooled_idcg) and round(d.values["pool"], 4) == 0.6510


def test_decide_lesson_which_ideal_same_when_pool_adds_nothing_above():
    # at k = 5, five items of grade 3 fill the top 5 of the pool's ideal too (without k the
    # pool's ideal runs over all 7 judged items, and the extra 3 and 2 add to IDCG)
    assert decide("lesson.which_ideal", relevance=[3, 3, 3, 3, 3], k=5).correct == "same"


def test_decide_lesson_same_k_ratio_is_below_one():
    d = decide("lesson.same_k")
    ratio = (3 + 2 / L2(3)) / (3 + 2 / L2(3) + 2 / L2(4) + 1 / L2(5))
    assert d.correct == "less" and d.values["ratio"] == pytest.approx(ratio)


def test_decide_lesson_slip_is_not_4_67():
    d = decide("lesson.slip")
    assert d.correct == "no" and d.values["dcg"] == pytest.approx(3 + 2 / L2(3) + 1 / L2(6))


def test_decide_ties_average_between_worst_and_best():
    d = decide("ties.guess", relevance=[7, 4, 1, 0, 0], scores=[0.9, 0.5, 0.6, 0.9, 0.9])
    assert d.correct == "between"
    assert (round(d.values["pessimistic"], 5), round(d.values["average"], 5)) == (0.54651, 0.69338)


def test_decide_ties_without_ties_is_between():
    d = decide("ties.guess", relevance=WORKED, scores=[5, 4, 3, 2, 1])
    assert d.correct == "between" and d.values["tied"] == 0 and d.values["flat"]


def test_decide_ties_tied_items_of_one_grade_all_orders_best():
    # the tied items have the same grade: every order of them is the best one (and the worst)
    d = decide("ties.guess", relevance=[3, 1, 1], scores=[0.9, 0.5, 0.5])
    assert d.correct == "best" and d.values["tied"] == 2 and d.values["flat"]


def test_decide_ties_band_of_some_width_is_not_flat():
    # [7, 4, 1, 0, 0] with D1, D4, D5 tied: worst 0.54651 < best (the grades differ)
    assert not decide("ties.guess", relevance=[7, 4, 1, 0, 0], scores=[0.9, 0.5, 0.6, 0.9, 0.9]).values[
        "flat"
    ]


def test_decide_ties_scores_of_another_length_refused():
    with pytest.raises(nc.NDCGInputError) as err:
        decide("ties.guess", relevance=WORKED, scores=[1, 2])
    assert err.value.key == "length_mismatch"


@pytest.mark.parametrize(
    ("relevance", "k", "answer"),
    [
        (WORKED, 3, "higher"),  # gains 7, 3, 0, 0, 1: (7 + 3/log2 3) / (7 + 3/log2 3 + 1/2) = 0.9468 > 0.8950
        (
            [2, 3],
            None,
            "lower",
        ),  # (3 + 7/log2 3) / (7 + 3/log2 3) = 0.834 < (2 + 3/log2 3) / (3 + 2/log2 3) = 0.913
        ([1, 1], None, "same"),  # both 1
    ],
)
def test_decide_variants_exponential_against_linear(relevance, k, answer):
    assert decide("variants.guess", relevance=relevance, k=k).correct == answer


def test_decide_blind_padding_and_unretrieved_tie():
    assert decide("blind.padding").correct == "same"  # [3] and [3, 0, 0]: nDCG 1 each
    assert decide("blind.unretrieved").correct == "same"  # each list is its own ideal


def test_decide_blind_nothing_is_reported_as_zero():
    assert decide("blind.nothing").correct == "zero"


def test_decide_blind_lengths_depends_on_the_gain():
    a = 3 + 2 / L2(3) + 1 / L2(4)  # DCG of [3, 2, 1]
    b = 1 + 2 / L2(4) + 1 / L2(5) + 3 / L2(6) + 1 / L2(7) + 2 / L2(8) + 1 / L2(9)  # [1, 0, 2, 1, 3, 1, 2, 1]
    assert b > a and decide("blind.lengths").correct == "B"
    a_exp = 7 + 3 / L2(3) + 1 / L2(4)
    b_exp = 1 + 3 / L2(4) + 1 / L2(5) + 7 / L2(6) + 1 / L2(7) + 3 / L2(8) + 1 / L2(9)
    assert a_exp > b_exp and decide("blind.lengths", gain="exponential").correct == "A"


def test_decide_blind_gain_exponential_reorders():
    # pool {3, 2, 2, 2, 0, 0}, k = 5, exponential gains 7 and 3: one ideal for both lists
    a = 3 + 3 / L2(3) + 3 / L2(4) + 7 / L2(5)  # [2, 2, 2, 3, 0]
    b = 7 + 3 / L2(5) + 3 / L2(6)  # [3, 0, 0, 2, 2]
    assert b > a and decide("blind.gain").correct == "B"


def test_decide_blind_unjudged_condensed_is_higher():
    ideal = 3 + 2 / L2(3) + 1 / L2(4)
    zero = (3 + 2 / L2(4) + 1 / L2(7)) / ideal  # [3, 0, 2, 0, 0, 1]
    drop = (3 + 2 / L2(3) + 1 / L2(5)) / ideal  # [3, 2, 0, 1]
    d = decide("blind.unjudged")
    assert d.correct == "drop" and (d.values["zero"], d.values["drop"]) == (
        pytest.approx(zero),
        pytest.approx(drop),
    )


def test_decide_blind_difficulty_easy_query_higher_on_average():
    assert decide("blind.difficulty").correct == "A"


def test_decide_blind_not_modelled_repetition_scores_one():
    d = decide("blind.not_modelled")
    assert d.correct == "no" and d.values["ndcg"] == pytest.approx(1.0)


def test_decide_blind_sampled_items_reorder_the_models():
    """Blind spot 9: one relevant item at position p scores nDCG@10 = 1 / log2(p + 1) for p <= 10
    and 0 below (its ideal puts it first). Over the case's seeded positions (500 users, 10,000
    items, 100 sampled), model A is better on the whole catalogue and worse over the samples."""
    positions = sampled_positions(n_users=500, n_items=10_000, negatives=100)

    def mean(model: str, column: str) -> float:
        at = positions.loc[positions["model"] == model, column]
        return sum(1 / L2(p + 1) if p <= 10 else 0.0 for p in at) / len(at)

    d = decide("blind.sampled", gain="exponential", discount="jarvelin")  # its own: log2, grade 1
    assert d.values["full"] == pytest.approx((mean("A", "full"), mean("B", "full")), abs=1e-12)
    assert d.values["sampled"] == pytest.approx((mean("A", "sampled"), mean("B", "sampled")), abs=1e-12)
    assert mean("A", "full") > mean("B", "full") and d.correct == "B"
    assert prompt_discount("blind.sampled", "jarvelin") == "log2"


@pytest.mark.parametrize("prompt", list(PROMPTS))
def test_decide_every_prompt_right_answer_is_an_option(prompt):
    d = decide(prompt, relevance=WORKED, k=3, scores=[0.9, 0.5, 0.6, 0.9, 0.9])
    assert d.correct in d.options and len(set(d.options)) == len(d.options)


def test_decide_unknown_prompt_refused():
    with pytest.raises(nc.NDCGInputError) as err:
        decide("lesson.nope")
    assert err.value.key == "unknown_option"


def test_decide_unjudged_grade_refused():
    with pytest.raises(nc.NDCGInputError):
        decide("lesson.dcg", relevance=[3, float("nan"), 1])


def test_decide_ranking_prompt_without_grades_refused():
    with pytest.raises(nc.NDCGInputError) as err:
        decide("lesson.dcg")
    assert err.value.key == "empty"


def test_blind_gain_is_decided_under_its_own_discount():
    """Issue 23 item 3: the reversal holds with 1/log2(i+1) only; with Järvelin–Kekäläinen A
    wins under both gains (0.851 vs 0.731 exponential), so the case keeps its discount, in the
    page and in a live class."""
    from ndcg_teach import predictions

    for discount in ("log2", "jarvelin"):
        decision = predictions.decide("blind.gain", discount=discount)
        assert decision.correct == "B"
        a, b = decision.values["exponential"]
        assert (round(a, 4), round(b, 4)) == (0.8051, 0.8090)
    assert predictions.prompt_discount("blind.gain", "jarvelin") == "log2"
    assert predictions.prompt_discount("blind.lengths", "jarvelin") == "jarvelin"
