"""The HTML page of ``ftr similarity``: one self-contained file (no network), pairs most similar first,
the matching stretches of each shown pair side by side.

>>> marked_code("abc = 1\\n", [(0, 3, 1)])
'<mark class="m1" title="match 1">abc</mark> = 1\\n'
"""

from __future__ import annotations

import base64
import html
import io
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .similarity_results import PairResult, SimilarityReport

MATCH_COLOURS = ("#ffe08a", "#a8e6a1", "#9fd3ff", "#ffb3c7", "#d7b8ff", "#ffc890", "#b5f0e6", "#e0e0a0")

STYLE = """
body { font-family: system-ui, sans-serif; margin: 1.5em; color: #222; }
.notice { border: 2px solid #c9a227; background: #fff8e1; padding: 0.6em 1em; max-width: 60em; }
table { border-collapse: collapse; margin: 1em 0; }
td, th { border: 1px solid #ccc; padding: 0.2em 0.6em; text-align: left; }
td.n { text-align: right; font-variant-numeric: tabular-nums; }
.pair { margin-top: 2em; border-top: 2px solid #888; }
.sides { display: flex; gap: 1em; }
.side { flex: 1; min-width: 0; }
pre { background: #f7f7f7; padding: 0.5em; overflow-x: auto; font-size: 12px; line-height: 1.3; }
mark { border-radius: 2px; }
""" + "".join(f"mark.m{i} {{ background: {colour}; }}\n" for i, colour in enumerate(MATCH_COLOURS))


def marked_code(text: str, regions: list[tuple[int, int, int]]) -> str:
    """``text`` as HTML, each region ``(start, end, label)`` in a ``<mark>`` coloured by its label."""
    parts, position = [], 0
    for start, end, label in sorted(regions):
        start = max(start, position)
        if end <= start:
            continue
        parts.append(html.escape(text[position:start]))
        colour = label % len(MATCH_COLOURS)
        parts.append(f'<mark class="m{colour}" title="match {label}">{html.escape(text[start:end])}</mark>')
        position = end
    parts.append(html.escape(text[position:]))
    return "".join(parts)


def _histogram(similarities: list[float]) -> str:
    """A small histogram of every pair's similarity, as an inline PNG (Matplotlib)."""
    from matplotlib.figure import Figure

    figure = Figure(figsize=(6, 2.2))
    ax = figure.add_subplot()
    ax.hist([100 * s for s in similarities], bins=50, range=(0, 100), color="#5b7fb5")
    ax.set_yscale("log")
    ax.set_xlabel("similarity of a pair (%)")
    ax.set_ylabel("pairs")
    figure.tight_layout()
    buffer = io.BytesIO()
    figure.savefig(buffer, format="png", dpi=90)
    encoded = base64.b64encode(buffer.getvalue()).decode("ascii")
    return f'<img alt="histogram of the similarity of every pair" src="data:image/png;base64,{encoded}">'


def _percent(value: float) -> str:
    return f"{100 * value:.0f}%"


def report_html(report: SimilarityReport, detailed: list[PairResult]) -> str:
    """The whole page: the notice, the settings, the histogram, the table and the shown pairs."""
    settings = report.settings
    escape = html.escape
    rate = len(report.pairs) / report.seconds if report.seconds > 0 else float("inf")
    rows = []
    for rank, pair in enumerate(detailed, start=1):
        rows.append(f'<tr><td class="n">{rank}</td><td>{escape(pair.a)}</td><td>{escape(pair.b)}</td>'
                    f'<td>{pair.kind}</td><td class="n"><a href="#pair-{rank}">{_percent(pair.similarity)}</a></td>'
                    f'<td class="n">{_percent(pair.share_a)}</td><td class="n">{_percent(pair.share_b)}</td></tr>')
    sections = []
    for rank, pair in enumerate(detailed, start=1):
        first, second = report.documents[pair.a], report.documents[pair.b]
        sections.append(
            f'<section class="pair" id="pair-{rank}"><h2>{rank}. {escape(pair.a)} and {escape(pair.b)}: '
            f'{_percent(pair.similarity)}</h2>'
            f'<p>{_percent(pair.share_a)} of {escape(pair.a)}\'s code lies in stretches also found in {escape(pair.b)}; '
            f'{_percent(pair.share_b)} of {escape(pair.b)}\'s in {escape(pair.a)}. Stretches of one colour and '
            'number (hover) match each other.</p><div class="sides">'
            f'<div class="side"><h3>{escape(pair.a)}</h3><pre>{marked_code(first.text, pair.regions_a)}</pre></div>'
            f'<div class="side"><h3>{escape(pair.b)}</h3><pre>{marked_code(second.text, pair.regions_b)}</pre></div>'
            '</div></section>')
    skipped = "".join(f"<li>{escape(line)}</li>" for line in report.skipped) or "<li>none</li>"
    cuts = "".join(f"<li>{escape(line)}</li>" for line in report.cuts) or "<li>nothing: every file was compared whole</li>"
    cluster_rows = "".join(
        f'<tr><td class="n">{number}</td><td>{escape(", ".join(c.students))}</td>'
        f'<td>{escape(", ".join(c.sources)) or "(each other)"}</td><td class="n">{_percent(c.lowest)}</td>'
        f'<td class="n">{_percent(c.highest)}</td></tr>' for number, c in enumerate(report.clusters, start=1))
    cluster_table = (f"<table><tr><th>#</th><th>students</th><th>shared source (corpus)</th><th>least similar link</th>"
                     f"<th>most similar link</th></tr>{cluster_rows}</table>" if cluster_rows else "<p>none</p>")
    if settings["common_fingerprints"]:
        common = (f"{settings['common_fingerprints']:,} fingerprints found in {settings['common_needed']} or more of the "
                  f"{settings['submissions']} submissions (at least {100 * settings['common']:.0f}% of the class) were "
                  "discounted: a template many start from is not evidence.")
    else:
        common = (f"No fingerprint was in {settings['common_needed']} or more submissions (at least "
                  f"{100 * settings['common']:.0f}% of the class): nothing was discounted as common.")
    handed_out = ", ".join(escape(name) for name in report.boilerplate) or "none found"
    corpus = f" and {settings['corpus']} corpus entries" if settings["corpus"] else ""
    return f"""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>Code similarity</title><style>{STYLE}</style></head>
<body>
<h1>Code similarity: {settings['submissions']} submissions{corpus}</h1>
<div class="notice"><p><strong>This page accuses no one.</strong> It lists pairs of submissions whose code
overlaps, most similar first, and shows the overlapping stretches side by side. A high score is a reason for
a person to read both codes and to ask; it is not a finding. Solutions written from one handout, one contract
and one pseudocode look alike in places; so do solutions that follow the same public example. A person
decides.</p>
<p>What counts: the code the grader keeps (every module of a folder; the definitions of a notebook's code
cells, never its outputs or text). Names, strings and comments are ignored, so renaming does not change a
score. The code handed out never counts: {handed_out}.</p></div>
<p>Similarity of two submissions: the smaller of the two shares (the part of each one's code found in the other).
Similarity of a submission and a corpus entry: the submission's share, the part of the student's code found in
the entry (a published repository's drivers, plots and tests do not dilute it); both shares are shown. {common}
{len(report.pairs):,} pairs compared in {report.seconds:.1f} s ({rate:,.0f} pairs per second);
fingerprints: copydetect's winnowing, matches of at least {settings['noise']} characters of token text,
every match of {settings['guarantee']} or more found. Every pair is in <code>similarity.csv</code>.</p>
{_histogram([p.similarity for p in report.pairs]) if report.pairs else ''}
<h2>Clusters: students joined by pairs at least {_percent(settings['cluster_at'])} similar</h2>
<p>Several students sharing one source (a corpus entry, or one of them): a reason to read them together.
Also in <code>clusters.csv</code>.</p>
{cluster_table}
<h2>The {len(detailed)} most similar pairs</h2>
<table><tr><th>#</th><th>A</th><th>B</th><th>kind</th><th>similarity</th><th>share of A</th><th>share of B</th></tr>
{''.join(rows)}</table>
<h2>Entries not compared</h2><ul>{skipped}</ul>
<h2>What the bounds cut</h2><ul>{cuts}</ul>
{''.join(sections)}
</body></html>
"""
