"""The LaTeX of each step: its numbers are read back and recomputed, so text and code cannot drift."""

import itertools
import math
import re

import pytest

import ndcg_core as nc

EXAMPLE = [3, 2, 0, 0, 1]
CASES = [
    *[
        (EXAMPLE, {"k": k, "gain": g, "discount": d})
        for k, g, d in itertools.product([None, 3, 10], ["linear", "exponential"], ["log2", "jarvelin"])
    ],
    ([3, 2, 3, 0, 1], {"discount": "jarvelin"}),
    ([3, 3, 3], {"pool": [3, 3, 3, 3]}),
    (EXAMPLE, {"pool": [3, 3, 2, 2, 1, 0, 0], "k": 6}),
    ([0, 0], {}),
    ([0.5, 1.25], {"gain": "exponential"}),
    ([3], {}),
    ([1, 0, 2, 3, 0, 1, 2, 3], {"digits": 6}),
]
IDS = [f"{rel}-{kwargs}" for rel, kwargs in CASES]
CORE = {
    "cg": lambda rel, kw: nc.cg(rel, k=kw.get("k"), gain=kw.get("gain", "linear")),
    "dcg": lambda rel, kw: nc.dcg(
        rel, k=kw.get("k"), gain=kw.get("gain", "linear"), discount=kw.get("discount", "log2")
    ),
    "idcg": lambda rel, kw: nc.idcg(rel, **_metric_options(kw)),
    "ndcg": lambda rel, kw: nc.ndcg(rel, **_metric_options(kw)),
}


def _metric_options(kwargs):
    return {key: value for key, value in kwargs.items() if key != "digits"}


def test_cg_formula_exponential_sums_gains():
    """CG sums gains: with 2^rel − 1, [3, 2, 0, 0, 1] gives 7 + 3 + 0 + 0 + 1 = 11."""
    f = nc.formula("cg", EXAMPLE, gain="exponential")
    assert f.value == (2**3 - 1) + (2**2 - 1) + 0 + 0 + (2**1 - 1)
    assert f.substituted.endswith("= 11")
    assert nc.general_formula("cg", gain="exponential") == r"\mathrm{CG@k} = \sum_{i=1}^{k} (2^{rel_i}-1)"


def evaluate(tex):
    """The value of a LaTeX arithmetic expression in the subset latex.py writes."""
    py = re.sub(r"\\log_2 (\d+)", r"log2(\1)", tex)
    py = re.sub(r"2\^\{([^{}]+)\}", r"2**(\1)", py)
    while "\\frac" in py:
        py, count = re.subn(r"\\frac\{([^{}]*)\}\{([^{}]*)\}", r"((\1)/(\2))", py)
        assert count, tex
    assert "\\" not in py and "{" not in py, f"unexpected LaTeX in {tex!r}"
    return eval(py, {"__builtins__": {}}, {"log2": math.log2})


def pieces(formula):
    return formula.substituted.split(" = ")


@pytest.mark.parametrize(("relevance", "kwargs"), CASES, ids=IDS)
@pytest.mark.parametrize("step", ["cg", "dcg", "idcg", "ndcg"])
def test_formula_value_is_the_core_metric(step, relevance, kwargs):
    assert nc.formula(step, relevance, **kwargs).value == CORE[step](relevance, kwargs)


@pytest.mark.parametrize(("relevance", "kwargs"), CASES, ids=IDS)
@pytest.mark.parametrize("step", ["cg", "dcg", "idcg", "ndcg"])
def test_formula_numbers_recompute_to_the_value(step, relevance, kwargs):
    """Every written sum or ratio evaluates to the value; the result shown is the value rounded."""
    f = nc.formula(step, relevance, **kwargs)
    digits = kwargs.get("digits", 4)
    if step == "ndcg" and f.terms[1] == 0:  # no division: the rule is written instead
        assert f.substituted.endswith(rf"= 0 \quad (\mathrm{{IDCG@{f.k}}} = 0)") and f.value == 0
        return
    *middle, shown = pieces(f)
    assert abs(float(shown) - f.value) <= 0.5 * 10.0**-digits + 1e-12
    assert math.fsum(f.terms) == pytest.approx(f.value if step != "ndcg" else sum(f.terms), abs=1e-12)
    numeric = [part for part in middle[1:] if "\\mathrm" not in part]
    if step == "ndcg":
        (ratio,) = numeric
        assert evaluate(ratio) == pytest.approx(f.value, abs=2 * 10.0**-digits)
    else:
        for part in numeric:
            assert evaluate(part) == pytest.approx(f.value, abs=1e-12)
            terms = [evaluate(term) for term in part.split(" + ")]
            assert terms == pytest.approx(list(f.terms), abs=1e-12)


@pytest.mark.parametrize(("relevance", "kwargs"), CASES, ids=IDS)
def test_gain_formula_lists_each_gain(relevance, kwargs):
    f = nc.formula("gain", relevance, **kwargs)
    cutoff = nc.metrics(relevance, **_metric_options(kwargs)).k
    expected = [2.0**x - 1 if kwargs.get("gain") == "exponential" else float(x) for x in relevance[:cutoff]]
    assert list(f.terms) == pytest.approx(expected, abs=1e-12)
    assert f.value == pytest.approx(sum(expected), abs=1e-12)
    for part in pieces(f)[1:]:
        values = [evaluate(term) for term in part.strip("()").split(", ")]
        assert values == pytest.approx(expected, abs=0.5 * 10.0 ** -kwargs.get("digits", 4))


def test_formula_worked_example_text():
    f = nc.formula("dcg", EXAMPLE)
    assert f.substituted == (
        r"\mathrm{DCG@5} = \frac{3}{\log_2 2} + \frac{2}{\log_2 3} + \frac{0}{\log_2 4}"
        r" + \frac{0}{\log_2 5} + \frac{1}{\log_2 6} = 4.6487"
    )
    assert f.general == r"\mathrm{DCG@k} = \sum_{i=1}^{k} \frac{rel_i}{\log_2(i+1)}"
    assert nc.formula("ndcg", EXAMPLE).substituted.endswith(r"= \frac{4.6487}{4.7619} = 0.9762")
    assert nc.formula("cg", EXAMPLE).substituted == r"\mathrm{CG@5} = 3 + 2 + 0 + 0 + 1 = 6"


def test_formula_gain_and_discount_variants():
    exp = nc.formula("dcg", EXAMPLE, gain="exponential").substituted
    assert exp.startswith(r"\mathrm{DCG@5} = \frac{2^{3}-1}{\log_2 2} + \frac{2^{2}-1}{\log_2 3}")
    jar = nc.formula("dcg", EXAMPLE, discount="jarvelin").substituted
    assert jar.startswith(r"\mathrm{DCG@5} = \frac{3}{1} + \frac{2}{\log_2 2} + \frac{0}{\log_2 3}")
    assert nc.general_formula("gain", gain="exponential") == "G_i = 2^{rel_i} - 1"
    assert r"\max(1,\ \log_2 i)" in nc.general_formula("dcg", discount="jarvelin")


def test_formula_long_list_is_shortened_with_the_count():
    rel = list(range(12, 0, -1))
    f = nc.formula("dcg", rel, k=10)
    body = pieces(f)[1].split(" + ")
    assert f.hidden == 10 - 5
    assert body[3] == r"\underbrace{\cdots}_{5}"
    shown = [evaluate(term) for term in body[:3] + body[4:]]
    assert shown == pytest.approx(list(f.terms[:3] + f.terms[-2:]), abs=1e-12)
    assert len(f.terms) == 10 and f.value == nc.dcg(rel, k=10)
    assert nc.formula("dcg", rel[:8]).hidden == 0


def test_formula_nothing_relevant_states_the_rule():
    f = nc.formula("ndcg", [0, 0, 0])
    assert f.substituted == r"\mathrm{nDCG@3} = 0 \quad (\mathrm{IDCG@3} = 0)"
    assert f.value == 0.0


def test_formula_names_the_cutoff_of_the_pool():
    assert nc.formula("ndcg", [3, 3, 3], pool=[3, 3, 3, 3]).substituted.startswith(r"\mathrm{nDCG@4}")
    assert nc.formula("ndcg", EXAMPLE, k=10).k == 10


def test_formulas_returns_every_step_in_order():
    assert tuple(f.step for f in nc.formulas(EXAMPLE)) == nc.STEPS == ("gain", "cg", "dcg", "idcg", "ndcg")


@pytest.mark.parametrize(
    ("call", "key"),
    [
        (lambda: nc.formula("mrr", EXAMPLE), "unknown_option"),
        (lambda: nc.formula("dcg", EXAMPLE, digits=-1), "shape"),
        (lambda: nc.formula("dcg", EXAMPLE, k=0), "k_invalid"),
        (lambda: nc.general_formula("dcg", gain="exp"), "unknown_option"),
    ],
)
def test_formula_rejects_bad_options(call, key):
    with pytest.raises(nc.NDCGInputError) as info:
        call()
    assert info.value.key == key


def test_formula_writes_huge_numbers_as_powers_of_ten():
    """A free scale allows 1e300: written out it is 301 digits long and breaks any layout."""
    assert nc.formula("cg", [1e300, 2]).substituted == (
        r"\mathrm{CG@2} = {1 \times 10^{300}} + 2 = {1 \times 10^{300}}"
    )
    assert nc.formula("dcg", [2.5e12]).substituted.endswith(r"= {2.5000 \times 10^{12}}")


def test_formula_unjudged_zero_writes_gain_zero():
    """[3, ?, 2]: DCG@3 = 3/log2(2) + 0/log2(3) + 2/log2(4)."""
    f = nc.formula("dcg", [3, float("nan"), 2], unjudged="zero")
    assert "\\frac{0}{\\log_2 3}" in f.substituted
    assert f.value == pytest.approx(3 + 2 / math.log2(4), abs=1e-12)


def test_formula_unjudged_drop_is_the_condensed_list():
    """[3, ?, 2] condensed is [3, 2]: DCG@2 = 3/log2(2) + 2/log2(3)."""
    f = nc.formula("dcg", [3, float("nan"), 2], unjudged="drop")
    assert f.k == 2 and f.value == pytest.approx(3 + 2 / math.log2(3), abs=1e-12)


def test_formula_nothing_judged_is_refused():
    with pytest.raises(nc.NDCGInputError) as info:
        nc.formula("ndcg", [float("nan")], unjudged="drop")
    assert info.value.key == "all_unjudged"
