"""Issue 24, item 7: plurals, a citation the app cannot show, one rounding rule per view, and
the share popover of a server only this computer can reach. Expected texts written by hand."""

from __future__ import annotations

import functools

import pytest

from ui.framework import address, frame
from ui.framework.i18n import translate

LANGS = pytest.mark.parametrize("lang", ["en", "zh"])
EVALUATE = "app_pages/7_Evaluate_a_run.py"
VARIANTS = "app_pages/3_Variants_and_libraries.py"
#: Two queries; only a has something relevant.
CSV = b"query,item,relevance,score\na,x,3,0.1\na,y,0,0.9\nc,p,0,0.3\nc,q,0,0.1\n"


def test_a_count_of_one_takes_the_singular():
    assert translate("en", "evaluate.hist_left_out", n=1) == (
        "1 query with nothing relevant is left out of the histogram."
    )
    assert translate("en", "evaluate.hist_left_out", n=2) == (
        "2 queries with nothing relevant are left out of the histogram."
    )
    assert translate("zh", "evaluate.hist_left_out", n=1) == "有 1 个没有相关项的查询未计入直方图。"


@pytest.mark.parametrize(
    ("lang", "expected"),
    [("en", "The 1 query with something relevant, and its nDCG@10"), ("zh", "有相关项的查询只有 1 个")],
)
def test_evaluate_names_one_worst_query_in_the_singular(app, lang, expected):
    at = app(page=EVALUATE, eval_form="table", lang=lang)
    at.radio(key="evaluate.source").set_value("upload").run()
    at.file_uploader(key="evaluate.file").set_value(("run.csv", CSV, "text/csv"))
    at.run()
    assert not at.exception
    captions = [c.value for c in at.caption]
    assert any(expected in c for c in captions)
    assert not any("1 queries" in c for c in captions)


@pytest.mark.parametrize(
    ("lang", "expected"),
    [
        ("en", "the 1 judged item not returned stays in the pool"),
        ("zh", "那 1 个未返回的已标注项仍留在评测池中"),
    ],
)
def test_the_pool_note_names_one_missed_item_in_the_singular(app, lang, expected):
    at = app(rel="3,2,0", missed="3", lang=lang)
    assert not at.exception
    captions = [c.value for c in at.caption]
    assert any(expected in c for c in captions)
    assert not any("1 judged items" in c for c in captions)


@LANGS
def test_variants_cites_no_notes_the_app_does_not_show(app, lang):
    at = app(page=VARIANTS, lang=lang)
    assert not at.exception
    text = " ".join(m.value for m in at.markdown)
    assert "TEACHING" not in text
    assert "教学说明" not in text


@LANGS
def test_formulas_round_as_the_cards_do(app, lang):
    """[3, 2, 1] is its own ideal: nDCG@3 = 1, shown 1.0000 on the card and in the formula."""
    at = app(rel="3,2,1", lang=lang)
    cards = {m.label.split("@")[0]: m.value for m in at.metric}
    assert cards["nDCG"] == "1.0000"
    formulas = [m.value for m in at.markdown if "\\mathrm{nDCG@3} =" in m.value]
    assert formulas and formulas[-1].endswith("= 1.0000$")
    dcg = [m.value for m in at.markdown if m.value.startswith("$\\mathrm{DCG@3} =")]
    assert cards["DCG"] == "4.7619"
    assert dcg and dcg[-1].endswith(f"= {cards['DCG']}$")


@pytest.mark.parametrize(
    ("lang", "caption"),
    [
        (
            "en",
            "For this computer only: the code holds this computer's own address, which students' phones cannot open",
        ),
        ("zh", "仅限本机：二维码中是本机自己的地址，学生的手机打不开"),
    ],
)
def test_a_loopback_only_server_labels_its_qr_code_for_this_computer(app, monkeypatch, lang, caption):
    monkeypatch.setattr(frame, "_base_url", lambda: "http://127.0.0.1:8501/")
    monkeypatch.setattr(
        address, "share_address", functools.partial(address.share_address, detect=lambda: None)
    )
    at = app(lang=lang)
    at.session_state["lab.share"] = True
    at.run()
    assert not at.exception
    images = [e for e in at.sidebar if e.type == "image"]
    assert [img.caption for e in images for img in e.proto.imgs] == [caption]
    assert translate(lang, "classroom.qr_caption") not in [
        img.caption for e in images for img in e.proto.imgs
    ]
